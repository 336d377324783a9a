"""Real handouts from public lab courses (tests/data/real/handouts; SOURCES.md names each
one's origin): every task each sets is kept, whole and in order, and none of their prose is
taken for a task."""

from __future__ import annotations

from pathlib import Path

from labscribe.tools.assignment.tasks import Assignment, assignment_of, read_assignment
from labscribe.tools.tool import Folder

HANDOUTS = Path(__file__).parents[2] / "data" / "real" / "handouts"


def read(name: str) -> Assignment:
    return assignment_of((HANDOUTS / name).read_text(encoding="utf-8"), name)


def test_ucla_kinematics_handout_in_latex() -> None:
    handout = read("ucla_6a_lab2_kinematics.tex")
    assert handout.title == "Lab 2 Kinematics"
    assert handout.aim.startswith("In this lab, we will use a motion sensor to produce position")
    tasks = handout.tasks
    # under "Initial Setup" and "Procedure" only the steps that work a result out are tasks
    # (the handout lists its Questions under their heading); "Answer the following
    # questions." introduces them
    assert [task[:40] for task in tasks] == [
        "From the lower left of the screen, drag ",
        "Drag the velocity data over the y-axis o",
        "Drag the acceleration data over to the g",
        "Turn on the air track and level it by ad",
        "Using a ruler (You do not need the Verni",
        "We will use four different methods for e",
        'On the acceleration graph, use "Smart to',
        "On the acceleration graph, drag a box ar",
        "The slope of the velocity graph is the a",
        "Finally, fit a line to the velocity data",
        "Using the equation on page 15, calculate",
        "What does calculus tell us about the rel",
        "Suppose now we measure the motion of a b",
        "Arrange the motion sensor to track a swi",
        "For a pendulum bob, use a block with a f",
        "Set the pendulum into motion with small-",
        "Create a graph showing separately positi",
    ]
    # an item of two paragraphs is one task; its math read as text
    assert "Attach the larger reflector to the glider as on page 13. Arrange the sensor" in tasks[3]
    assert "a_th=g" in tasks[4] and "$" not in tasks[4]
    assert not any("Click" in task and "Start} to activate" in task for task in tasks)  # %-ed out
    prose = ("TA:", "We are going to skip", "In this lab")
    assert not any(task.startswith(prose) for task in tasks)


def test_resistor_circuits_handout_written_as_prose() -> None:
    handout = read("resistor_circuits.tex")
    assert handout.title == "Resistor Circuits"
    assert handout.aim == (
        "In this lab you will study the relationships between voltage, current, and "
        "resistance in simple DC circuits."
    )
    assert handout.tasks == [
        "Make sure your power supply is initially turned off (the switch may be in the back) "
        "and the knob is turned all the way down.",
        "If it's not plugged in, plug it in and then turn it on and adjust the knob so the "
        "voltage is about 5V.",
        "Take out your multi-meter and set it to voltage mode and measure the voltage of the "
        "power supply.",
        "Attempt to construct the following circuit:",
        "Next measure the voltage across the resistor and the current through the resistor.",
        "Make sure your multi-meter is in the correct mode and that you connect it correctly.",
        "With your 5V power supply, construct the circuit below.",
        "Calculate and then measure the voltage across and current through each resistor.",
        "Also calculate and measure the equivalent resistance of the 3 resistor system.",
    ]  # "Note that measuring current requires ...", "The DC power supplies ..." are prose


def test_general_physics_pendulum_handout_in_myst_markdown() -> None:
    handout = read("genphys_pendulum_cut.md")
    assert handout.title == "Determination of Acceleration due to Gravity, g, with Simple Pendulum"
    assert handout.aim.startswith("In this lab, the acceleration due to gravity is determined")
    tasks = handout.tasks
    assert tasks[0] == "Calculate the difference between g_avg and the accepted g"
    assert tasks[2].startswith("Using data from the four small amplitude cases (Cases 1--4), plot")
    assert tasks[-1] == "How do the periods relate to different lengths of pendulum?"
    assert len(tasks) == 15
    assert "Case 5 (large angle):" not in tasks  # a label, its questions the tasks
    assert not any(task.startswith("Make sure to submit") for task in tasks)  # handing in
    assert not any(task.startswith(("The gravitational attraction", "We study")) for task in tasks)


def test_german_spring_pendulum_protocol_in_markdown() -> None:
    handout = read("federschwinger.md")
    assert handout.title == "Protokoll: Eindimensionaler Oszillator (Federschwinger)"
    assert handout.aim == ""  # it states none and opens with its list
    assert handout.tasks[:7] == [
        "Versuchsaufbau skizzieren",
        "Schwingungen (Definition) nennen",
        "Voraussetzungen für harmonische Schwingungen erklären",
        "Erläuterung der Schwingungsgleichung",
        "Bestimmung von T durch Messung und damit von D durch Berechnung",
        "Aufstellen der Schwingungsgleichung",
        "Bestimmung der maximalen Geschwindigkeit und der maximalen Beschleunigung durch "
        "Ableitung der Schwingungsgleichung und Berechnung der jeweiligen Maxima",
    ]
    assert "Sachanalyse:" not in handout.tasks  # labels of the sub-lists
    assert not any("Wägestücks" in task for task in handout.tasks)  # a note


def test_chinese_pendulum_handout() -> None:
    handout = read("danbai_shiyan_zh.txt")
    assert handout.title == "利用单摆测定重力加速度"
    assert handout.aim == (
        "通过研究单摆的振动规律,掌握用单摆测量重力加速度的基本方法,并理解相关物理原理。"
    )
    assert handout.tasks[:5] == [
        "将单摆固定在支架上,调整摆线长度至所需值。",
        "记录初始摆长 \\( l \\),并确保摆角小于5度。",
        "启动秒表,记录单摆完成一定次数的全振动时间 \\( t \\),计算平均周期 \\( T \\)。",
        "根据公式 \\( g = \\frac{4\\pi^2l}{T^2} \\) 计算重力加速度 \\( g \\)。",
        "改变摆长重复上述步骤,进行多次测量以提高精度。",
    ]
    assert not any(task.startswith(("秒表", "单摆装置", "通过本次实验")) for task in handout.tasks)


def test_chinese_pendulum_question_with_a_blank() -> None:
    handout = read("danbai_wenti_zh.txt")
    assert handout.tasks == [
        "以L为横坐标,T2为纵坐标,作出T2-L图线,并利用此图线可求出重力加速度g=______."
    ]


def test_tu_dortmund_v704_pdf_sets_its_three_tasks_under_aufgabe() -> None:
    # 11 pages of PDF text: sections "1." to "9." whose titles are no tasks ("2. Definition
    # des Wirkungsquerschnittes, Ableitung des Absorptionsgesetzes"), page numbers on lines
    # of their own, equation numbers that start a line inside a task ("(5) gerechneten
    # Werten"), and the tasks past the 600th line
    handout = read_assignment(Folder(HANDOUTS), "tu_dortmund_v704.pdf")
    assert handout.numbers == ["a", "b", "c"]
    first, second, third = handout.tasks
    assert first.startswith("Man nehme γ-Absorptionskurven von einem der Materialien Cu, Zn")
    assert first.endswith("verwende man das Nuklid 137Cs, eventuell auch 60Co.")
    assert second.startswith("Man vergleiche den gemessenen Absorpti")
    assert " mit aus (4a) und (5) gerechneten Werten und ziehe daraus Schl" in second
    assert second.endswith("onsmechanismen.")
    assert third.startswith("Man nehme eine β-Absorptionskurve bei Al auf")
