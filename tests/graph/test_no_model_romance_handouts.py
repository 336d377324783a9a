"""`labscribe run --no-model` on handouts in French and Spanish, laid out as such handouts
are: the file named `enonce_*` or `guion_*`, the aim under "## Objectif" or on an
"Objetivo:" line, the tasks under "## Travail demandé" or "Cuestiones" (marked "Cuestión
1."), and a reminder paragraph that opens "Pour n mesures" (French "for", not the verb).
The layouts follow real French TP statements and Spanish exam sheets (public Markdown
found by their headings); the data are real files (tests/data/real/SOURCES.md)."""

from __future__ import annotations

import shutil
from pathlib import Path

from test_no_model_checklist import REAL, checklist, report_of

ENONCE = """\
# TP 2 — Série de mesures : la période d'un pendule

## Objectif

Mesurer 700 fois la période d'un pendule simple au chronomètre et traiter statistiquement
la série obtenue.

## Rappels

Pour n mesures x_i : moyenne, écart-type expérimental s (n − 1 au dénominateur),
incertitude-type de la moyenne u = s/√n.

## Travail demandé

1. Calculer la moyenne, l'écart-type et l'incertitude-type de la moyenne des périodes.
2. Donner l'intervalle de confiance à 95 % de la période moyenne.
3. La série contient-elle des valeurs aberrantes ?
"""

GUION = """\
PRÁCTICA 3. La velocidad de la luz (Michelson, 1879)

Objetivo: estimar la velocidad de la luz a partir de las 100 medidas de Michelson.

Cuestiones

Cuestión 1. Calcule la velocidad media de cada experimento y su error estándar.
Cuestión 2. Calcule la media global de las 100 medidas y su error estándar.
"""


def test_a_french_enonce_gives_its_aim_and_its_three_tasks(tmp_path: Path) -> None:
    folder = tmp_path / "tp"
    folder.mkdir()
    (folder / "enonce_TP2.md").write_text(ENONCE)
    shutil.copy(REAL / "repeats" / "Pendel-Messung.dat", folder)
    report = report_of(folder, tmp_path)
    assert "Mesurer 700 fois la période" in report  # the aim, under its heading
    assert "The material states no aim" not in report
    rows = [line for line in checklist(report).splitlines() if line[:1].isdigit()]
    assert [row.split(" & ")[0] for row in rows] == ["1", "2", "3"], rows
    assert rows[0].startswith("1 & Calculer la moyenne, l'écart-type")
    assert "Pour n mesures" not in checklist(report)  # a reminder, not a task


def test_a_spanish_guion_gives_its_aim_and_its_marked_questions(tmp_path: Path) -> None:
    folder = tmp_path / "practica"
    folder.mkdir()
    (folder / "guion_practica3.txt").write_text(GUION)
    shutil.copy(REAL / "repeats" / "morley.csv", folder)
    report = report_of(folder, tmp_path)
    assert "estimar la velocidad de la luz a partir de las 100 medidas" in report
    rows = [line for line in checklist(report).splitlines() if " & " in line and "Calcule" in line]
    assert [row.split(" & ")[0] for row in rows] == ["1", "2"], rows
    assert "Expt 1 909 ± 23" in rows[0]  # each experiment's mean, for the first question
    assert "852.4 ± 7.9" in rows[1] and "909 ± 23" not in rows[1]  # the overall mean
