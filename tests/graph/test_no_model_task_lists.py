"""`labscribe run --no-model`: every task of a handout's lettered, roman or French list is in
the checklist under the handout's own mark: a question lettered c., an item opening with a verb
no word list holds, "i." to "iv." in Markdown, and a French TP's infinitives under
"## Exploitation" (the TP found by its name, its aim under "## But de la manipulation").
Layouts as in the eval folders and real French TP sheets
(tests/tools/assignment/test_task_lists.py names them); the data are real files
(tests/data/real/SOURCES.md)."""

from __future__ import annotations

import shutil
from pathlib import Path

from test_no_model_checklist import REAL, checklist, report_of

LETTERED = """\
Exercise: the density of the Earth (Cavendish, 1798)
----------------------------------------------------

The file holds the 29 determinations Cavendish published.

  a. Compute the mean and the standard deviation of the 29 determinations.
  b. Rework the mean without the first six determinations (a softer torsion wire).
  c. Are the two means consistent with each other? Quantify their difference.
  d. Compare your result with the modern value 5.513.
"""

ROMAN = """\
# Practical 1: Period of a pendulum

**Aim**: measure the period of a pendulum and its uncertainty.

### Analysis

i. Average the periods and give their standard deviation.
ii. Histogram the periods. The periods should scatter like a Gaussian: is your histogram
compatible with one?
iii. Quote the mean period with the standard error of the mean.
iv. Is the mean compatible with 3.4 s?
"""

TP = """\
# TP 4 — Période d'un pendule simple

## But de la manipulation
Mesurer la période d'un pendule simple et en estimer l'incertitude.

## Exploitation
a) Calculer la moyenne et l'écart-type des périodes.
b) Tracer l'histogramme des périodes.
c) En déduire l'incertitude-type de la moyenne.
d) La distribution des périodes est-elle gaussienne ?
"""


def _rows(report: str) -> list[str]:
    return [line for line in checklist(report).splitlines() if " & " in line]


def test_a_lettered_exercise_keeps_its_question_and_its_unfamiliar_verb(tmp_path: Path) -> None:
    folder = tmp_path / "cavendish"
    folder.mkdir()
    (folder / "exercise.txt").write_text(LETTERED)
    shutil.copy(REAL / "repeats" / "Cavendish.csv", folder)
    rows = _rows(report_of(folder, tmp_path))
    marks = [row.split(" & ")[0] for row in rows if row[:2] in {"a ", "b ", "c ", "d "}]
    assert marks == ["a", "b", "c", "d"], rows
    assert any(row.startswith("b & Rework the mean without the first six") for row in rows)
    assert any(row.startswith("c & Are the two means consistent") for row in rows)


def test_roman_items_in_markdown_keep_their_numerals_and_their_questions(tmp_path: Path) -> None:
    folder = tmp_path / "pendulum"
    folder.mkdir()
    (folder / "handout.md").write_text(ROMAN)
    shutil.copy(REAL / "repeats" / "Pendel-Messung.dat", folder / "periods.dat")
    rows = _rows(report_of(folder, tmp_path))
    marks = [row.split(" & ")[0] for row in rows if row.split(" & ")[0] in {"i", "ii", "iii", "iv"}]
    assert marks == ["i", "ii", "iii", "iv"], rows
    assert any("is your histogram compatible with one?" in row for row in rows), rows


def test_a_french_tp_gives_its_aim_and_its_exploitation_tasks(tmp_path: Path) -> None:
    folder = tmp_path / "tp"
    folder.mkdir()
    (folder / "TP4_pendule.md").write_text(TP)
    shutil.copy(REAL / "repeats" / "Pendel-Messung.dat", folder / "mesures.dat")
    report = report_of(folder, tmp_path)
    assert "Mesurer la période d'un pendule simple" in report
    assert "The material states no aim" not in report
    rows = _rows(report)
    marks = [row.split(" & ")[0] for row in rows if row[:2] in {"a ", "b ", "c ", "d "}]
    assert marks == ["a", "b", "c", "d"], rows
    assert any(row.startswith("b & Tracer l'histogramme des périodes.") for row in rows), rows


# An Italian lab sheet ("Elaborazione richiesta", infinitives after a gerund clause, a question)
# and a Portuguese roteiro ("Questões", formal imperatives), as such sheets write them.
ITALIAN = """\
Laboratorio di Fisica I - Esercitazione 2
PERIODO DI UN PENDOLO SEMPLICE

Il file periodi.dat riporta le misure ripetute del periodo.

Elaborazione richiesta:
a) Usando tutte le misure, calcolare la media e la deviazione standard dei periodi.
b) La distribuzione dei periodi è gaussiana? Giustificare con un istogramma.
c) Stimare l'incertezza della media.
d) Valutare se il periodo è compatibile con 3,4 s.
"""

PORTUGUESE = """\
# Relatório 2 — Período de um pêndulo

## Questões
a) Calcule a média e o desvio padrão dos períodos.
b) Construa o histograma dos períodos.
c) Determine a incerteza da média.
d) O período é compatível com 3,4 s?
"""


def test_italian_and_portuguese_sheets_keep_every_task_under_their_marks(tmp_path: Path) -> None:
    for name, handout, wanted in (
        ("scheda.txt", ITALIAN, ["a", "b", "c", "d"]),
        ("roteiro.md", PORTUGUESE, ["a", "b", "c", "d"]),
    ):
        folder = tmp_path / name.split(".")[0]
        folder.mkdir()
        (folder / name).write_text(handout)
        shutil.copy(REAL / "repeats" / "Pendel-Messung.dat", folder / "periodi.dat")
        out = tmp_path / f"{folder.name}-out"
        out.mkdir()
        rows = _rows(report_of(folder, out))
        marks = [row.split(" & ")[0] for row in rows if row.split(" & ")[0] in wanted]
        assert marks == wanted, rows


# R's datasets::Formaldehyde (Bennett & Franklin 1954): carbohydrate (ml) and optical density.
FORMALDEHYDE = "carb,optden\n0.1,0.086\n0.3,0.269\n0.5,0.446\n0.6,0.538\n0.7,0.626\n0.9,0.782\n"
CONSEGNE = """\
# Esercitazione 6 — Retta di taratura per la formaldeide

**Consegne**

1. Riportare in grafico la densità ottica in funzione della quantità di carboidrato e
   interpolare i dati con una retta.
2. Riportare pendenza e intercetta con le rispettive incertezze.
3. Verificare se l'intercetta è compatibile con zero.
4. Un campione incognito dà una densità ottica di 0,500: determinare la quantità di
   carboidrato corrispondente usando la retta di taratura.
"""


def test_an_italian_consegne_list_keeps_an_item_that_opens_with_no_verb(tmp_path: Path) -> None:
    """Every item under "Consegne" is a task, the one that opens with its sample too."""
    folder = tmp_path / "taratura"
    folder.mkdir()
    (folder / "consegna.md").write_text(CONSEGNE)
    (folder / "Formaldehyde.csv").write_text(FORMALDEHYDE)
    out = tmp_path / "out"
    out.mkdir()
    rows = [row for row in _rows(report_of(folder, out)) if not row.startswith("\\textbf")]
    assert [row.split(" & ")[0] for row in rows] == ["1", "2", "3", "4"], rows
    assert "Un campione incognito" in rows[3]


QUESTIONS_DASHED = """\
# TP 7 — Pression de vapeur de l'eau

**But.** Mesurer la pression de vapeur saturante de l'eau et en déduire l'enthalpie de
vaporisation.

**Principe.** ln p = −L/(R·T) + C. On prendra R = 8,314 J/(mol·K).

**Questions.**

Question 1 — Tracer ln p en fonction de 1/T.

Question 2 — Ajuster une droite ; donner la pente et R².
"""
STEPS = """\
Vapour pressure of water

Background: ln p falls linearly with 1/T. Use R = 8.314 J/(mol K).

  Step 1. Plot ln p against 1/T with T in kelvin.
  Step 2. Fit a straight line and report its slope
          with its standard error.
"""


def test_dashed_questions_and_steps_are_the_tasks_and_a_value_handed_over_is_none(
    tmp_path: Path,
) -> None:
    """A French sheet whose aim is a run-in "**But.**" and whose questions read "Question 1 —
    ...", and an English one of "Step 1." items: the questions and steps are the tasks, under
    their own numbers, without the dash; "On prendra R = ..." and "Use R = ..." hand over a
    value and set no task; the run-in "But." is the aim."""
    reports = {}
    for name, text in (("enonce_tp.md", QUESTIONS_DASHED), ("instructions.txt", STEPS)):
        folder = tmp_path / name.split(".")[0]
        folder.mkdir()
        shutil.copy(REAL / "conventions" / "niedrigdruck.csv", folder)
        (folder / name).write_text(text)
        (tmp_path / f"{name}-out").mkdir()
        reports[name] = report = report_of(folder, tmp_path / f"{name}-out")
        rows = [row for row in _rows(report) if not row.startswith("\\textbf")]
        assert [row.split(" & ")[0] for row in rows] == ["1", "2"], rows
        assert not any(row.split(" & ")[1].startswith("—") for row in rows)
        assert not any("8.314" in row or "8,314" in row for row in rows)
    aim = reports["enonce_tp.md"].split("\\section{Aim}", 1)[1][:300]
    assert "Mesurer la pression de vapeur saturante" in aim
