"""The tasks of an assignment as labs write them: numbered, lettered, under a heading, in
several languages, bounded (tools.assignment.tasks.assignment_of). Which document is the assignment,
its title and aim: test_assignment_header.py."""

from pathlib import Path

import pytest

from labscribe.tools.assignment.handout_tasks import MAX_TASK_CHARS, MAX_TASKS
from labscribe.tools.assignment.task_words import TASK_MARKER, asks
from labscribe.tools.assignment.tasks import assignment_of, read_assignment
from labscribe.tools.tool import Folder


def test_read_tasks_finds_the_example_goals(example: Path) -> None:
    tasks = read_assignment(Folder(example), "assignment.pdf").tasks
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
    assert assignment_of(text).tasks == [
        "测量RLC串联电路的谐振曲线。",
        "确定谐振频率f0和品质因数Q，并与理论值比较。",
        "绘制V_R随频率变化的曲线；计算带宽。",
    ]


def test_extract_tasks_skips_descriptive_prose() -> None:
    text = (
        "Overview\nIn this lab you measure the speed of sound. The tube is 1 m long.\n\n"
        "Plot the resonance length against 1/f. Compare the slope with theory.\n"
    )
    assert assignment_of(text).tasks == [
        "Plot the resonance length against 1/f.",
        "Compare the slope with theory.",
    ]


def test_extract_tasks_joins_the_lines_a_pdf_wrapped() -> None:
    text = "Tasks\n- Determine the spring constant k from the slope\nof the force-extension plot.\n"
    assert assignment_of(text).tasks == [
        "Determine the spring constant k from the slope of the force-extension plot."
    ]


def test_extract_tasks_is_bounded() -> None:
    text = "\n".join(f"{i}. Measure quantity number {i} " + "carefully " * 80 for i in range(99))
    tasks = assignment_of(text).tasks
    assert len(tasks) == MAX_TASKS
    assert all(len(task) <= MAX_TASK_CHARS for task in tasks)
    assert tasks[0].endswith("…")


def test_extract_tasks_keeps_every_numbered_task_whole_and_in_order() -> None:
    text = (
        "Tasks\n"
        "1. Measure the period T for eight lengths L of the pendulum.\n"
        "2. Fit a power law T = a L^b to the data. Compare b with the value theory\n"
        "predicts.\n"
        "3. From a, determine the gravitational acceleration g.\n"
        "Hand in your report as a PDF by Friday.\n"
    )
    assert assignment_of(text).tasks == [
        "Measure the period T for eight lengths L of the pendulum.",
        "Fit a power law T = a L^b to the data. Compare b with the value theory predicts.",
        "From a, determine the gravitational acceleration g.",
    ]


def test_extract_tasks_leaves_out_closing_instructions() -> None:
    text = (
        "Report\n- Plot U against t.\n- Submit the report on Moodle.\n- Upload your raw data.\n"
        "Please hand in the report within one week.\n请于下周一前提交实验报告。\n"
    )
    assert assignment_of(text).tasks == ["Plot U against t."]


def test_extract_tasks_reads_german_instructions() -> None:
    text = (
        "Versuch 3: Federpendel\nAufgaben\n"
        "a) Bestimmen Sie die Federkonstante aus der Steigung der Geraden.\n"
        "b) Die Schwingungsdauer für fünf Massen messen.\n"
        "Geben Sie das Protokoll bis Freitag ab.\n"
    )
    assert assignment_of(text).tasks == [
        "Bestimmen Sie die Federkonstante aus der Steigung der Geraden.",
        "Die Schwingungsdauer für fünf Massen messen.",
    ]


def test_extract_tasks_keeps_a_list_of_apparatus_out() -> None:
    text = (
        "Equipment\n- oscilloscope\n- signal generator (used to measure f)\n"
        "Tasks\n- Fit the line.\n"
    )
    assert assignment_of(text).tasks == ["Fit the line."]


# The handout of issue 26, word for word: "Tasks:" read as a paragraph and a command after a
# comma dropped its third task.
PENDULUM = (
    "# Lab 2: The simple pendulum\n"
    "In this experiment you measure the period of a simple pendulum for several lengths and "
    "use it to find the gravitational acceleration.\n"
    "Tasks:\n"
    "1. Plot the period T against the length L.\n"
    "2. Fit a power law T = a L^b to the data.\n"
    "3. From a, determine the gravitational acceleration g.\n"
)
PENDULUM_TASKS = [
    "Plot the period T against the length L.",
    "Fit a power law T = a L^b to the data.",
    "From a, determine the gravitational acceleration g.",
]


def test_extract_tasks_keeps_every_item_under_a_tasks_line() -> None:
    for name in ("handout.md", "handout.txt", "handout.pdf"):  # Markdown, and plain text
        assert assignment_of(PENDULUM, name).tasks == PENDULUM_TASKS, name


def test_extract_tasks_keeps_a_command_after_a_comma_in_lower_case() -> None:
    assert assignment_of("Using the slope, determine g.\nFrom a, find b.\n").tasks == [
        "Using the slope, determine g.",
        "From a, find b.",
    ]
    # a participle after a comma is no command
    assert assignment_of("The generator, set to 5 V, drives the circuit.\n").tasks == []


def test_extract_tasks_keeps_items_under_a_label_whatever_their_first_word() -> None:
    text = (
        "Questions:\n(a) What is the period of the pendulum?\n(b) Why does the amplitude decay?\n"
        "Auswertung:\na) Die Federkonstante aus der Steigung.\nb) Die Periode als Funktion von m.\n"
        "数据处理：\n（1）T²与L的关系图。\n（2）重力加速度g的值及其不确定度。\n"
    )
    assert assignment_of(text).tasks == [
        "What is the period of the pendulum?",
        "Why does the amplitude decay?",
        "Die Federkonstante aus der Steigung.",
        "Die Periode als Funktion von m.",
        "T²与L的关系图。",
        "重力加速度g的值及其不确定度。",
    ]


def test_extract_tasks_reads_every_marker_labs_number_tasks_with() -> None:
    text = (
        "Procedure\n"
        "1) Record the temperature every minute.\n"
        "Task 3: The cooling curve and its time constant.\n"
        "Q2. Which model describes the data?\n"
        "Aufgabe 2: Messung der Schwingungsdauer.\n"
        "* Plot T against t.\n"
        "• Estimate the uncertainty of tau.\n"
        "（1）计算冷却常数。\n"
    )
    assert assignment_of(text).tasks == [
        "Record the temperature every minute.",
        "The cooling curve and its time constant.",
        "Which model describes the data?",
        "Messung der Schwingungsdauer.",
        "Plot T against t.",
        "Estimate the uncertainty of tau.",
        "计算冷却常数。",
    ]


def test_extract_tasks_keeps_a_numbered_list_of_nouns_under_a_task_heading() -> None:
    text = "Aufgaben\n1. Bestimmung der Federkonstante\n2. Messung der Periode\n3 Auswertung\n"
    assert assignment_of(text).tasks == ["Bestimmung der Federkonstante", "Messung der Periode"]


def test_extract_tasks_joins_an_item_over_several_indented_lines() -> None:
    text = (
        "Tasks\n"
        "1. Measure the period.\n"
        "   Use at least ten oscillations for each length.\n"
        "2. Plot T^2 against L.\n"
    )
    assert assignment_of(text).tasks == [
        "Measure the period. Use at least ten oscillations for each length.",
        "Plot T^2 against L.",
    ]


def test_extract_tasks_reads_german_commands_wherever_the_verb_stands() -> None:
    text = "Aus der Steigung bestimmen Sie die Federkonstante. Man berechne die Periode.\n"
    assert assignment_of(text).tasks == [
        "Aus der Steigung bestimmen Sie die Federkonstante.",
        "Man berechne die Periode.",
    ]


def test_extract_tasks_keeps_a_blank_to_fill_in_and_leaves_a_narrative_out() -> None:
    text = (
        "某同学在用单摆测定重力加速度的实验中，测量5种不同摆长情况下单摆的振动周期。\n"
        "以L为横坐标，T2为纵坐标，由图线求出重力加速度g=______。\n"
    )
    assert assignment_of(text).tasks == ["以L为横坐标，T2为纵坐标，由图线求出重力加速度g=______。"]


def test_extract_tasks_keeps_a_sequence_word_before_a_command() -> None:
    text = "Next measure the voltage across the resistor.\nAlso calculate the power.\n"
    assert assignment_of(text).tasks == [
        "Next measure the voltage across the resistor.",
        "Also calculate the power.",
    ]


def test_extract_tasks_over_the_limit_keeps_the_tasks_its_headings_name() -> None:
    steps = "".join(f"{i}. Turn knob {i} to the right.\n" for i in range(1, MAX_TASKS + 4))
    # under a neutral heading: under "Procedure" the knob steps would be no tasks at all
    text = f"Checks\n{steps}Questions\n- Why is the period constant?\n- What is g?\n"
    assignment = assignment_of(text)
    assert len(assignment.tasks) == MAX_TASKS
    assert assignment.tasks[-2:] == ["Why is the period constant?", "What is g?"]
    assert assignment.tasks[0] == "Turn knob 1 to the right."
    assert assignment.tasks_left_out == 5


def test_extract_tasks_leaves_out_a_title_written_like_a_task_marker() -> None:
    """ "Exercise 7: Reaction yield" names the handout: its marker does not make it a task."""
    text = (
        "Exercise 7: Reaction yield\n\nTasks:\n"
        "(a) Fit the yield as a linear function of both the temperature and the pressure.\n"
        "(b) State each coefficient with its standard error.\n"
    )
    assert assignment_of(text).tasks == [
        "Fit the yield as a linear function of both the temperature and the pressure.",
        "State each coefficient with its standard error.",
    ]
    assert assignment_of(text).title == "Exercise 7: Reaction yield"


@pytest.mark.parametrize("sentence", [
    "Use g = 9.81 m/s².", "On prendra g = 9,81 m/s².", "Use R = 8.314 J/(mol K).",
    "Take ρ = 1000 kg/m³", "Use h = 6.626 × 10⁻³⁴ J s.",
])  # fmt: skip
def test_a_value_handed_over_sets_no_task(sentence: str) -> None:
    assert not asks(sentence)


@pytest.mark.parametrize("sentence", [
    "Use g = 9.81 m/s² to calculate k.", "Use g = 9.81 to get k.", "Use the slope to find k.",
])  # fmt: skip
def test_a_value_put_to_work_does(sentence: str) -> None:
    assert asks(sentence)


@pytest.mark.parametrize(("line", "mark"), [
    ("Question 1 — Tracer Δm en fonction de I.", "1"), ("Step 2. Fit a line.", "2"),
    ("Étape 3 : tracer la courbe.", "3"), ("Schritt 4: Steigung bestimmen.", "4"),
])  # fmt: skip
def test_questions_and_steps_mark_their_tasks(line: str, mark: str) -> None:
    found = TASK_MARKER.match(line)
    assert found is not None and found["number"] == mark
    assert not line[found.end() :].strip().startswith(("—", ":"))


@pytest.mark.parametrize(
    ("text", "tasks"),
    [
        (  # a Chinese handout (eval: the hot-wire method), its aim a numbered list
            "# 实验：热线法\n\n## 实验目的\n1. 用热线法测定干燥空气的热导率 λ；\n"
            "2. 用“线性回归法”处理数据。\n\n## 实验原理\n"
            "测量室为一根同轴圆管，热线用恒温方式加热。\n\n## 实验任务\n"
            "1. 计算各气压下的 UI 和 1/P。\n2. 以 1/(dQ/dt) 对 1/P 作线性回归，求截距。\n",
            ["计算各气压下的 UI 和 1/P。", "以 1/(dQ/dt) 对 1/P 作线性回归，求截距。"],
        ),
        (
            "# Lab 3\n\n## Aims\n1. Determine g with a pendulum.\n2. Compare it with 9.81 m/s².\n\n"
            "## Theory\nMeasure the period T; then T² = 4π² l/g.\n\n## Tasks\n"
            "1. Plot T² against l.\n2. Determine g from the slope.\n",
            ["Plot T² against l.", "Determine g from the slope."],
        ),
    ],
)
def test_a_heading_that_names_the_tasks_leaves_the_aims_list_as_the_aim(
    text: str, tasks: list[str]
) -> None:
    assert assignment_of(text, "handout.md").tasks == tasks


HALL_HANDOUT = """\
# 实验10 霍尔效应

## 实验目的
1. 了解霍尔效应原理，测量霍尔元件的 V_H–I_M 关系，求霍尔元件灵敏度 K_H；
2. 用霍尔元件测量载流直螺线管内轴线上磁感应强度 B 的分布。

## 数据文件（CSV，逗号分隔，首行为表头）
1. `1-VH-IM.csv`：I_S = 5.000 mA 不变，改变螺线管电流 I_M(A)；列：IM(A), VH(mV)。

## 数据处理及作图
1. 画 V_H–I_M 曲线，用最小二乘法计算斜率 K，计算霍尔元件灵敏度 K_H。
2. 画 B–x 图，描述螺线管内 B 的分布特征。
"""


def test_the_aims_list_and_the_files_list_set_no_task_beside_a_list_of_work() -> None:
    tasks = assignment_of(HALL_HANDOUT, "shiyan10.md").tasks
    assert [t[:4] for t in tasks] == ["画 V_", "画 B–"], tasks


def test_the_aims_list_is_the_checklist_where_no_other_heading_lists_work() -> None:
    aims_only = HALL_HANDOUT.split("## 数据处理及作图")[0]
    assert len(assignment_of(aims_only, "shiyan10.md").tasks) == 2
