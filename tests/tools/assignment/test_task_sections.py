"""A handout that lists its tasks under a heading (Analysis, Auswertung, 数据处理, Questions)
sets those tasks and no others: the procedure's steps at the bench ("Record a background
count", "Lesen Sie U und I ab", "再由 75 ℃ 降温…记录阻值 R2") and its rules for the whole
report ("Quote every result with units.", "Use µ0 = 4π × 10−7 T m/A.") are no tasks; a step
of the procedure that works a result out ("Finally, fit a line to the velocity data") stays.
Without such a heading every task found stands.

The layouts: the eval folders' handouts (English, German and Chinese), and from outside the
UCLA Physics 6A kinematics handout (tests/data/real/handouts,
tests/tools/assignment/test_handouts_real.py) and the HU Berlin Grundpraktikum sheet F2
"Volumenmessung" (docplayer.org/81813908), whose "Aufgabenstellung" numbers its tasks and asks
its "Fragen" as questions."""

from __future__ import annotations

from labscribe.tools.assignment.tasks import assignment_of

ENGLISH = """\
# Modern Physics Lab – Neutron activation of indium

## Purpose
Measure the half-life of In-116m produced by neutron capture in an indium foil.

## Procedure
1. Record a background count with no sample present.
2. Activate the foil for 40 minutes and start repeated counting runs (preset 180 s).

## Analysis
(a) Convert the clock times to elapsed time (minutes).
(b) Fit the corrected counts with N(t) = N0·e^(−λt) and give the half-life.

Use √N for counting uncertainties and propagate the background uncertainty.
Quote every result with units.
"""

GERMAN = """\
# Versuch E2 – Ohmsches Gesetz

## Versuchsdurchführung

* Erhöhen Sie die Spannung in Schritten von 1 V von 1 V bis 10 V.
* Lesen Sie jeweils Spannung U und Stromstärke I ab (I in mA).

## Aufgaben

**a)** Tragen Sie I über U auf und bestimmen Sie R_x aus der Steigung.

**b)** Liegt Ihr Messwert innerhalb der Toleranz des Nennwerts?
"""

CHINESE = """\
热敏电阻温度特性实验
三、实验步骤
1. 从 25 ℃ 起每隔 5 ℃ 升温至 75 ℃，温度稳定后记录阻值 R1
2. 再由 75 ℃ 降温，在相同温度点记录阻值 R2
数据记录在 数据.txt 中。
四、数据处理
1. 作 ln R_T – 1/T 图，用最小二乘法拟合直线，求材料常数 B。
2. 与标称值 B = 3950 K 比较，求相对误差。
"""

# the layout of the HU Berlin sheet F2 (a numbered Aufgabenstellung, then Fragen), shortened
BERLIN = """\
I. Aufgabenstellung
1. Messung der einzelnen Messgrößen für jede der drei Methoden und Berechnung der Volumenwerte.
2. Berechnung des gewogenen Mittelwertes einschließlich Fehler.
Fragen
1. Warum soll bei Methode 1 bereits zu Beginn des Versuches etwas Wasser im Zylinder sein?
"""


def test_an_english_handout_sets_only_its_analysis_list() -> None:
    found = assignment_of(ENGLISH, "README.md")
    assert [task[:12] for task in found.tasks] == ["Convert the ", "Fit the corr"]
    assert found.numbers == ["a", "b"]


def test_a_german_handout_sets_only_its_aufgaben() -> None:
    found = assignment_of(GERMAN, "Praktikumsanleitung.md")
    assert found.numbers == ["a", "b"]
    assert not any(task.startswith(("Lesen Sie", "Erhöhen Sie")) for task in found.tasks)


def test_a_chinese_handout_sets_only_its_data_processing() -> None:
    found = assignment_of(CHINESE, "实验讲义.txt")
    assert found.tasks == [
        "作 ln R_T – 1/T 图，用最小二乘法拟合直线，求材料常数 B。",
        "与标称值 B = 3950 K 比较，求相对误差。",
    ]


def test_the_berlin_aufgabenstellung_is_tasks_and_its_questions_too() -> None:
    found = assignment_of(BERLIN, "F2.txt")
    assert [task[:20] for task in found.tasks] == [
        "Messung der einzelne",
        "Berechnung des gewog",
        "Warum soll bei Metho",
    ]


def test_without_a_task_heading_every_task_found_stands() -> None:
    text = (
        "Worksheet\n\nRecord the counts in ten 60 s runs.\n\n"
        "Plot ln N against t and fit a straight line.\nQuote every result with units.\n"
    )
    assert len(assignment_of(text, "worksheet.txt").tasks) == 3
