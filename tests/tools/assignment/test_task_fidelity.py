"""The checklist keeps the handout's tasks as the handout sets them: the aim stated in prose
is no task, a task's line that follows it belongs to it, lettered and roman tasks keep their
letters, and a list of results asked for in noun phrases is a list of tasks.

The layouts are those of real handouts (each test names where its layout was seen); the
wording is our own."""

from __future__ import annotations

from labscribe.tools.assignment.handout_tasks import task_number, task_numbers
from labscribe.tools.assignment.handout_units import mark_of
from labscribe.tools.assignment.tasks import assignment_of


def test_an_aim_line_is_no_task_beside_the_handouts_tasks() -> None:
    # a course handout's "Aim:" line above its numbered assignment (the layout of ELEC lab
    # sheets); before, the aim became task 1 and every task number shifted by one
    text = (
        "Experiment 5: Thermal expansion of a copper rod\n\n"
        "Aim: measure the linear expansion coefficient of copper and compare it with the\n"
        "tabulated value.\n\n"
        "Assignment:\n"
        "1. Plot the elongation against the temperature and fit a straight line.\n"
        "2. Determine alpha from the slope.\n"
    )
    found = assignment_of(text, "sheet.txt")
    assert found.tasks == [
        "Plot the elongation against the temperature and fit a straight line.",
        "Determine alpha from the slope.",
    ]
    assert found.aim.startswith("measure the linear expansion coefficient")
    assert found.numbers == ["1", "2"]


def test_a_paragraph_under_an_aim_heading_is_no_task_and_a_run_in_objective_neither() -> None:
    markdown = (
        "# Lab 3: Hall effect\n\n## Aim\nDetermine the Hall coefficient of a germanium sample.\n\n"
        "## Tasks\nTask 1: Plot the Hall voltage against the current.\n"
        "Task 2: Fit a straight line and give its slope.\n"
    )
    assert assignment_of(markdown, "lab3.md").tasks == [
        "Plot the Hall voltage against the current.",
        "Fit a straight line and give its slope.",
    ]
    # a PDF's run-in heading "Objective." (the layout of an engineering materials lab sheet)
    pdf_text = (
        "Materials Lab 4: Hardness of brass\n"
        "Objective. Determine the Vickers hardness of annealed and cold-worked brass.\n"
        "Required results\n"
        "  1. Give the mean hardness of each sample with its standard error.\n"
        "  2. Compare the two means.\n"
    )
    found = assignment_of(pdf_text, "lab4.pdf")
    assert found.tasks == [
        "Give the mean hardness of each sample with its standard error.",
        "Compare the two means.",
    ]
    assert found.aim.startswith("Determine the Vickers hardness")


def test_an_aim_alone_still_gives_the_checklist() -> None:
    text = "Aim: determine g from the period of a pendulum.\n\nThe data are in pendulum.csv.\n"
    assert assignment_of(text, "brief.txt").tasks == [
        "Aim: determine g from the period of a pendulum."
    ]


def test_a_goals_list_stays_the_handouts_tasks() -> None:
    text = (
        "2 Goals\n- Measure the resonance curve.\n- Determine Q from the bandwidth.\n\n"
        "3 Procedure\n- Build the circuit.\n- Sweep the frequency.\n"
    )
    assert assignment_of(text, "handout.txt").tasks[:2] == [
        "Measure the resonance curve.",
        "Determine Q from the bandwidth.",
    ]


def test_a_line_between_two_items_belongs_to_the_first() -> None:
    # Markdown keeps no indentation of a paragraph's lines; an exercise's second question
    # stands on its own line under the first ("(ii) Fit ...\n     Is n compatible ...")
    markdown = (
        "## Exercises\n"
        "(i) Plot the range R against the launch speed v.\n"
        "(ii) Fit a power law R = a·v^n and give n with its standard error.\n"
        "     Is n compatible with 2?\n"
        "(iii) Fit a parabola and report its three coefficients.\n"
    )
    found = assignment_of(markdown, "exercise.md")
    assert found.tasks == [
        "Plot the range R against the launch speed v.",
        "Fit a power law R = a·v^n and give n with its standard error. Is n compatible with 2?",
        "Fit a parabola and report its three coefficients.",
    ]
    assert found.numbers == ["i", "ii", "iii"]


def test_an_exam_papers_lettered_parts_keep_their_letters() -> None:
    # the layout of a matriculation exam's experiment questions as a PDF gives them (PSPM
    # "DP014 Experiment 2", anyflip.com/vzneo/kddf): a numbered question, its lettered
    # parts, a part's "[3 marks]" on the line under it (a bracketed line is set aside)
    text = (
        "1. A student timed a trolley over different distances s down a ramp.\n"
        "(a) Copy and complete the table. [2 marks]\n"
        "(b) Plot a graph of s against t2. [6 marks]\n"
        "(c) Determine the gradient of the graph.\n"
        "[3 marks]\n"
        "(d) Using the gradient, calculate the acceleration of the trolley. [2 marks]\n"
    )
    found = assignment_of(text, "worksheet.txt")
    assert found.tasks[-2:] == [
        "Determine the gradient of the graph.",
        "Using the gradient, calculate the acceleration of the trolley. [2 marks]",
    ]
    assert found.numbers[-4:] == ["a", "b", "c", "d"]


def test_lettered_tasks_are_kept_whatever_they_ask_and_keep_their_letters() -> None:
    # "Task A: ... Task D:" in a plain-text exercise, one a question, one with "R²"
    text = (
        "Exercise 2: Fuel consumption of a delivery van\n\n"
        "Model to fit:   y = b0 + b1*x1 + b2*x2\n\n"
        "Task A: Fit the model by least squares.\n"
        "Task B: Report R² and the residual standard deviation.\n"
        "Task C: Predict the consumption for x1 = 40 and x2 = 3, with a 95 % confidence\n"
        "        interval for the mean.\n"
        "Task D: Which trip has the largest residual?\n"
    )
    found = assignment_of(text, "exercise2.txt")
    assert found.tasks == [
        "Fit the model by least squares.",
        "Report R² and the residual standard deviation.",
        "Predict the consumption for x1 = 40 and x2 = 3, with a 95 % confidence interval for "
        "the mean.",
        "Which trip has the largest residual?",
    ]
    assert found.numbers == ["A", "B", "C", "D"]


def test_a_list_of_results_asked_for_in_noun_phrases_is_the_checklist() -> None:
    text = (
        "Lab brief: timing a falling ball\n\n"
        "What we want from you:\n"
        "* The mean fall time and the standard error of the mean.\n"
        "* The value of g = 2h/t² from the mean time, with its uncertainty.\n"
    )
    assert assignment_of(text, "lab_brief.txt").tasks == [
        "The mean fall time and the standard error of the mean.",
        "The value of g = 2h/t² from the mean time, with its uncertainty.",
    ]
    german = "Versuch 3: Fallzeit\n\nGesucht sind:\n- die mittlere Fallzeit,\n- der Wert von g.\n"
    assert assignment_of(german, "aufgabe.txt").tasks == [
        "die mittlere Fallzeit,",
        "der Wert von g.",
    ]
    # "Da determinare:" sets its list; the data files' list under a long bold heading, none
    italian = (
        "# Piano inclinato\n\n**Da determinare:**\n1. Per ogni corpo, il tempo medio.\n"
        "2. La densità dei corpi m1, m2, m3.\n\n**File di dati** (CSV, unità secondo i codici "
        "UNECE Rec. 20: MTR = metro, GRM = grammo, SEC = secondo):\n"
        "- `dati.csv`: le 40 misure di tempo per ciascun corpo.\n"
    )
    assert assignment_of(italian, "assignment.md").tasks == [
        "Per ogni corpo, il tempo medio.",
        "La densità dei corpi m1, m2, m3.",
    ]


def test_the_checklist_numbers_tasks_as_the_handout_only_where_that_is_unambiguous() -> None:
    assert task_numbers(["A", "B", "C"]) == ["A", "B", "C"]
    assert task_numbers(["i", "ii", "iii", "iv"]) == ["i", "ii", "iii", "iv"]
    assert task_numbers(["1", "2", "1"]) == ["1", "2", "3"]  # two lists, both from 1
    assert task_numbers(["a", "b", "3"]) == ["1", "2", "3"]  # mixed kinds
    assert task_numbers(["1", ""]) == ["1", "2"]  # a task without a number
    assert task_number(["A", "B"], 2) == "B"
    assert task_number([], 2) == "2"  # an analysis saved before the numbers were kept


def test_an_items_marker_gives_its_number() -> None:
    assert [
        mark_of(m) for m in ["Task 3:", "Task B:", "(ii) ", "a) ", "1. ", "（3）", "① ", "- "]
    ] == ["3", "B", "ii", "a", "1", "3", "1", ""]


def test_a_word_after_task_is_no_marker_without_its_punctuation() -> None:
    text = "Tasks\nTask Area planning is described elsewhere.\n1. Measure the period.\n"
    assert assignment_of(text, "tasks.txt").tasks == ["Measure the period."]


def test_german_and_chinese_aims_are_no_tasks_beside_their_task_lists() -> None:
    german = (
        "Versuch M3: Federpendel\n\n"
        "Ziel: Bestimmen Sie die Federkonstante k aus der Schwingungsdauer.\n\n"
        "Aufgaben:\n1. Messen Sie die Periode für fünf Massen.\n"
        "2. Tragen Sie T² gegen m auf und bestimmen Sie k aus der Steigung.\n"
    )
    found = assignment_of(german, "anleitung.txt")
    assert found.tasks == [
        "Messen Sie die Periode für fünf Massen.",
        "Tragen Sie T² gegen m auf und bestimmen Sie k aus der Steigung.",
    ]
    assert found.aim == "Bestimmen Sie die Federkonstante k aus der Schwingungsdauer."
    chinese = (
        "实验三 单摆测重力加速度\n\n实验目的：用单摆测量本地的重力加速度。\n\n"
        "数据处理：\n1. 作T²-l图线，求出斜率。\n2. 由斜率求出g，并与标准值比较。\n"
    )
    assert assignment_of(chinese, "shiyan.txt").tasks == [
        "作T²-l图线，求出斜率。",
        "由斜率求出g，并与标准值比较。",
    ]
