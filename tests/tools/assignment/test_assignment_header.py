"""Which document is the assignment, and its title and aim as the handout states them
(tools.assignment.tasks: find_assignment, and assignment_of's title and aim). Its tasks:
test_tasks.py."""

from pathlib import Path

import pytest

from labscribe.tools.assignment.tasks import assignment_of, find_assignment, read_assignment
from labscribe.tools.tool import Folder


def test_find_assignment_prefers_a_pdf_by_name() -> None:
    documents = ["notes.md", "docs/handout.txt", "lab_sheet.md", "Assignment_4.pdf", "a.pdf"]
    assert find_assignment(documents) == "Assignment_4.pdf"


def test_find_assignment_reads_chinese_names() -> None:
    assert find_assignment(["笔记.md", "实验四要求.txt"]) == "实验四要求.txt"


@pytest.mark.parametrize("name", ["consigna_tp3.md", "roteiro_F329.pdf", "consegna.txt"])
def test_find_assignment_reads_the_names_of_romance_courses(name: str) -> None:
    """Spanish "consigna", Portuguese "roteiro" and Italian "consegna" name the handout."""
    assert find_assignment(["notas.md", name, "datos.csv"]) == name


def test_find_assignment_finds_none_without_a_telling_name() -> None:
    assert find_assignment(["notes.md", "report.pdf", "data/sweep.csv"]) is None


def test_read_assignment_gives_the_example_title_and_aim(example: Path) -> None:
    assignment = read_assignment(Folder(example), "assignment.pdf")
    assert assignment.title == "Lab 4: Resonance in a series RLC circuit"
    assert assignment.aim.startswith("In this lab you measure the resonance curve")


def test_assignment_title_and_aim_of_a_chinese_handout() -> None:
    text = (
        "物理实验讲义\n实验四 RLC 串联谐振\n一、实验目的\n1. 观察谐振现象。\n"
        "2. 测量品质因数。\n二、实验内容\n"
    )
    assert assignment_of(text).title == "实验四 RLC 串联谐振"
    assert assignment_of(text).aim == "观察谐振现象。 测量品质因数。"


def test_assignment_title_without_a_named_exercise_is_the_first_heading() -> None:
    text = "--- page 1 ---\nDate: 3 May.\nThe speed of sound in air\nMeasure it.\n"
    assert assignment_of(text).title == "The speed of sound in air"
    assert assignment_of(text).aim == ""


def test_assignment_aim_from_a_stated_purpose() -> None:
    text = "Pendulum\nBackground.\nThe purpose of this experiment is to measure g. Plot T².\n"
    assert assignment_of(text).aim == "The purpose of this experiment is to measure g."


def test_assignment_title_without_its_markup() -> None:
    assert assignment_of("# Lab 4\nMeasure it.\n", "a.md").title == "Lab 4"
    assert assignment_of("## Lab 4: Ohm's law\n", "a.md").title == "Lab 4: Ohm's law"
    assert assignment_of("**Lab 4**\n\nMeasure it.\n", "a.md").title == "Lab 4"
    assert assignment_of("Lab 4\n=====\n\nMeasure it.\n", "a.md").title == "Lab 4"
    assert assignment_of("Lab 4\n=====\nMeasure it.\n", "a.pdf").title == "Lab 4"
    assert assignment_of("# Lab 4\n", "a.pdf").title == "Lab 4"
    assert assignment_of("\\section*{Lab 4}\nText.\n", "a.tex").title == "Lab 4"
    latex = "\\title{Lab 4: Optics}\n\\begin{document}\\end{document}"
    assert assignment_of(latex, "a.tex").title == "Lab 4: Optics"
    assert assignment_of("<html><h1>Lab 4</h1><p>Text.</p></html>", "a.html").title == "Lab 4"
    assert assignment_of("---\ntitle: Lab 4\n---\n# Overview\n", "a.md").title == "Lab 4"
    assert assignment_of("实验名称：单摆测重力加速度\n一、实验目的\n").title == "单摆测重力加速度"


def test_assignment_aim_from_its_heading_on_the_same_line_or_below() -> None:
    assert assignment_of("Lab 3\nAim: To measure g with a pendulum.\n").aim == (
        "To measure g with a pendulum."
    )
    assert assignment_of("Lab 3\n\nObjective\nTo measure g with a pendulum.\n").aim == (
        "To measure g with a pendulum."
    )
    assert assignment_of("# Lab 3\n## Objectives\n- Measure g.\n- Compare it.\n", "a.md").aim == (
        "Measure g. Compare it."
    )
    assert assignment_of("Versuch 3\nZiel: Bestimmung der Erdbeschleunigung.\n").aim == (
        "Bestimmung der Erdbeschleunigung."
    )
    assert assignment_of("实验三\n实验目的：测量重力加速度。\n").aim == "测量重力加速度。"


def test_assignment_aim_is_the_opening_paragraph_when_none_is_stated() -> None:
    text = (
        "Lab 5: Cooling\nName: ______\n\n"
        "A hot body loses heat to its surroundings at a rate set by the difference in "
        "temperature between them.\n\nTasks:\n1. Plot T against t.\n"
    )
    assignment = assignment_of(text)
    assert assignment.aim.startswith("A hot body loses heat to its surroundings")
    assert assignment.aim_is_opening
    stated = (
        "# Lab 2: The simple pendulum\nIn this experiment you measure the period of a simple "
        "pendulum to find g.\nTasks:\n1. Plot the period T against the length L.\n"
    )
    assert not assignment_of(stated, "a.md").aim_is_opening


def test_assignment_aim_under_headings_as_handouts_name_them() -> None:
    for heading in ("I. OBJECTIVE", "Aims and objectives", "Purpose of the experiment",
                    "Learning goals:", "Versuchsziel", "一、实验目的"):  # fmt: skip
        assert assignment_of(f"Lab 3\n{heading}\nTo find g from a pendulum.\n").aim == (
            "To find g from a pendulum."
        ), heading
