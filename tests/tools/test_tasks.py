from pathlib import Path

from labscribe.tools.base import Folder
from labscribe.tools.tasks import (
    MAX_TASK_CHARS,
    MAX_TASKS,
    assignment_aim,
    assignment_title,
    extract_tasks,
    find_assignment,
    read_assignment,
    read_tasks,
)


def test_find_assignment_prefers_a_pdf_by_name() -> None:
    documents = ["notes.md", "docs/handout.txt", "lab_sheet.md", "Assignment_4.pdf", "a.pdf"]
    assert find_assignment(documents) == "Assignment_4.pdf"


def test_find_assignment_reads_chinese_names() -> None:
    assert find_assignment(["笔记.md", "实验四要求.txt"]) == "实验四要求.txt"


def test_find_assignment_finds_none_without_a_telling_name() -> None:
    assert find_assignment(["notes.md", "report.pdf", "data/sweep.csv"]) is None


def test_read_tasks_finds_the_example_goals(example: Path) -> None:
    tasks = read_tasks(Folder(example), "assignment.pdf")
    assert tasks[:5] == [
        "Measure the resonance curve: the amplitude of the voltage V_R across the resistor as "
        "a function of the driving frequency f.",
        "Determine the resonance frequency f0 from the maximum of the curve and from the zero "
        "crossing of the phase.",
        "Determine the bandwidth f2 - f1 between the half-power points and the quality factor "
        "Q = f0/(f2 - f1).",
        "Compare f0, the bandwidth and Q with the values predicted from the component values, "
        "including the resistance of the inductor winding.",
        "Measure and explain the phase between current and driving voltage below, at and "
        "above resonance.",
    ]
    assert (  # an item whole, as written: its first sentence says why
        "The generator output resistance loads the circuit, so V_in is not constant. Use the "
        "ratio V_R/V_in to determine f0, the bandwidth and Q." in tasks
    )
    assert not any(task.startswith("Upload") for task in tasks)  # handing in is no task
    assert "Introduction: motivation and aim of the experiment." in tasks  # a required section
    assert not any("Purcell" in task for task in tasks)  # nothing from the references


def test_extract_tasks_reads_chinese_items() -> None:
    text = (
        "实验四 RLC 串联谐振\n一、实验目的\n1. 测量RLC串联电路的谐振曲线。\n"
        "2. 确定谐振频率f0和品质因数Q，并与理论值\n比较。\n二、实验内容\n"
        "（1）绘制V_R随频率变化的曲线；计算带宽。\n本实验使用函数信号发生器。\n"
    )
    assert extract_tasks(text) == [
        "测量RLC串联电路的谐振曲线。",
        "确定谐振频率f0和品质因数Q，并与理论值比较。",
        "绘制V_R随频率变化的曲线；计算带宽。",
    ]


def test_extract_tasks_skips_descriptive_prose() -> None:
    text = (
        "Overview\nIn this lab you measure the speed of sound. The tube is 1 m long.\n\n"
        "Plot the resonance length against 1/f. Compare the slope with theory.\n"
    )
    assert extract_tasks(text) == [
        "Plot the resonance length against 1/f.",
        "Compare the slope with theory.",
    ]


def test_extract_tasks_joins_the_lines_a_pdf_wrapped() -> None:
    text = "Tasks\n- Determine the spring constant k from the slope\nof the force-extension plot.\n"
    assert extract_tasks(text) == [
        "Determine the spring constant k from the slope of the force-extension plot."
    ]


def test_extract_tasks_is_bounded() -> None:
    text = "\n".join(f"{i}. Measure quantity number {i} " + "carefully " * 80 for i in range(99))
    tasks = extract_tasks(text)
    assert len(tasks) == MAX_TASKS
    assert all(len(task) <= MAX_TASK_CHARS for task in tasks)
    assert tasks[0].endswith("…")


def test_read_assignment_gives_the_example_title_and_aim(example: Path) -> None:
    assignment = read_assignment(Folder(example), "assignment.pdf")
    assert assignment.title == "Lab 4: Resonance in a series RLC circuit"
    assert assignment.aim.startswith("In this lab you measure the resonance curve")
    assert assignment.tasks == read_tasks(Folder(example), "assignment.pdf")


def test_assignment_title_and_aim_of_a_chinese_handout() -> None:
    text = (
        "物理实验讲义\n实验四 RLC 串联谐振\n一、实验目的\n1. 观察谐振现象。\n"
        "2. 测量品质因数。\n二、实验内容\n"
    )
    assert assignment_title(text) == "实验四 RLC 串联谐振"
    assert assignment_aim(text) == "观察谐振现象。 测量品质因数。"


def test_assignment_title_without_a_named_exercise_is_the_first_heading() -> None:
    text = "--- page 1 ---\nDate: 3 May.\nThe speed of sound in air\nMeasure it.\n"
    assert assignment_title(text) == "The speed of sound in air"
    assert assignment_aim(text) == ""


def test_assignment_aim_from_a_stated_purpose() -> None:
    text = "Pendulum\nBackground.\nThe purpose of this experiment is to measure g. Plot T².\n"
    assert assignment_aim(text) == "The purpose of this experiment is to measure g."


def test_extract_tasks_keeps_every_numbered_task_whole_and_in_order() -> None:
    text = (
        "Tasks\n"
        "1. Measure the period T for eight lengths L of the pendulum.\n"
        "2. Fit a power law T = a L^b to the data. Compare b with the value theory\n"
        "predicts.\n"
        "3. From a, determine the gravitational acceleration g.\n"
        "Hand in your report as a PDF by Friday.\n"
    )
    assert extract_tasks(text) == [
        "Measure the period T for eight lengths L of the pendulum.",
        "Fit a power law T = a L^b to the data. Compare b with the value theory predicts.",
        "From a, determine the gravitational acceleration g.",
    ]


def test_extract_tasks_leaves_out_closing_instructions() -> None:
    text = (
        "Report\n- Plot U against t.\n- Submit the report on Moodle.\n- Upload your raw data.\n"
        "Please hand in the report within one week.\n请于下周一前提交实验报告。\n"
    )
    assert extract_tasks(text) == ["Plot U against t."]


def test_extract_tasks_reads_german_instructions() -> None:
    text = (
        "Versuch 3: Federpendel\nAufgaben\n"
        "a) Bestimmen Sie die Federkonstante aus der Steigung der Geraden.\n"
        "b) Die Schwingungsdauer für fünf Massen messen.\n"
        "Geben Sie das Protokoll bis Freitag ab.\n"
    )
    assert extract_tasks(text) == [
        "Bestimmen Sie die Federkonstante aus der Steigung der Geraden.",
        "Die Schwingungsdauer für fünf Massen messen.",
    ]


def test_extract_tasks_keeps_a_list_of_apparatus_out() -> None:
    text = (
        "Equipment\n- oscilloscope\n- signal generator (used to measure f)\n"
        "Tasks\n- Fit the line.\n"
    )
    assert extract_tasks(text) == ["Fit the line."]
