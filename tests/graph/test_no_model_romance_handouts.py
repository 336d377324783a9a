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


GUION_VAPOR = """\
# Práctica: presión de vapor del agua

## Fundamento
La ecuación de Clausius–Clapeyron integrada, ln p = −L/(R·T) + C, con T en kelvin.

## Cuestiones
1. Dibujar p frente a T y, después, ln p frente a 1/T (T en K).
2. Ajustar una recta por mínimos cuadrados y dar la pendiente y la ordenada en el origen.
3. Calcular L con su incertidumbre, y la energía por molécula en eV.
4. Con la recta, calcular la presión predicha a 100 °C.
"""


def test_a_line_fits_the_last_plot_an_earlier_task_names(tmp_path: Path) -> None:
    """A real vapour-pressure file (TU Dortmund V203, `# T[°C],p[mbar]`): "ajustar una recta"
    names no axes, so it fits the last plot task 1 names, ln p against 1/T in kelvin (not T
    in °C, and Spanish "y" is no axis); L = −R·slope follows; the eV and the value at
    100 °C the report does not give are left for the student, not called done."""
    import numpy as np

    folder = tmp_path / "vapor"
    folder.mkdir()
    shutil.copy(REAL / "conventions" / "niedrigdruck.csv", folder)
    (folder / "guion_practica.md").write_text(GUION_VAPOR)
    report = report_of(folder, tmp_path)
    rows = checklist(report)
    t, p = np.loadtxt(REAL / "conventions" / "niedrigdruck.csv", delimiter=",").T
    slope, intercept = np.polyfit(1 / (t + 273.15), np.log(p), 1)
    fit_row = rows.split("\n2 & ", 1)[1].split("\\\\", 1)[0]
    assert f"slope = {slope:.0f} ± " in fit_row and "against 1/T" in fit_row
    assert f"intercept = {intercept:.3f} ± " in fit_row
    energy = rows.split("\n3 & ", 1)[1].split("\\\\", 1)[0]
    assert f"L = {-8.314462618 * slope:.0f} ± " in energy
    assert "not done: the conversion to eV" in energy
    assert "not done: the value at the point it names" in rows.split("\n4 & ", 1)[1]
    assert "axis T y" not in report


SCHEDA_CONDENSATORE = """\
# Condensatore piano: forza tra le armature

La forza vale F = k·U² con k = ε₀·A/(2 d²). Il file contiene F in newton e U² in V².

## Elaborazione
1. Rappresentare F in funzione di U².
2. Eseguire un fit F = k·U² (retta per l'origine) e riportare k con il suo errore.
"""


def test_a_column_that_holds_the_square_is_not_squared_again(tmp_path: Path) -> None:
    """A real spreadsheet export (`F [N];U2 [V2]`, decimal commas): U2 holds U² already, so
    F = k·U² is fitted as F = k·U2 and k comes out in N/V², as a proportional fit gives it,
    never k·(U²)² (a k some 10⁷ times too small)."""
    import numpy as np

    folder = tmp_path / "condensatore"
    folder.mkdir()
    shutil.copy(REAL / "conventions" / "kondenzator_DataExport.csv", folder / "DataExport.csv")
    (folder / "scheda.md").write_text(SCHEDA_CONDENSATORE)
    report = report_of(folder, tmp_path)
    rows = checklist(report)
    text = (REAL / "conventions" / "kondenzator_DataExport.csv").read_text()
    f, u2 = np.array([[float(v.replace(",", ".")) for v in line.split(";")]
                      for line in text.splitlines()[1:] if line.strip()]).T  # fmt: skip
    k = float(np.sum(f * u2) / np.sum(u2 * u2))
    mantissa = f"{k / 1e-9:.2f}"
    assert f"k = ({mantissa} ± " in rows.split("\n2 & ", 1)[1]
    assert "holds U² already" in report
    assert "U names no column" not in report  # the column is the axis U²


SCHEDA = """\
# Esperienza: il periodo del pendolo

## Obiettivo
Verificare la legge del pendolo e ricavare il periodo da 700 misure ripetute.

## Richieste
1. Costruire l'istogramma e calcolare media e deviazione standard della media del periodo.
2. Calcolare la lunghezza
   $$L = \\frac{g\\,T^2}{4\\pi^2}$$
   con la relativa incertezza.
"""


def test_an_italian_scheda_gives_its_aim_under_obiettivo_and_its_formula_whole(
    tmp_path: Path,
) -> None:
    """The aim under "Obiettivo", whose "Verificare ... ricavare" reads like a task, is the
    aim, not task 1; the display formula keeps its thin space as a space, its fraction whole."""
    folder = tmp_path / "lab"
    folder.mkdir()
    (folder / "scheda_esperienza.md").write_text(SCHEDA)
    shutil.copy(REAL / "repeats" / "Pendel-Messung.dat", folder)
    report = report_of(folder, tmp_path)
    assert "Verificare la legge del pendolo" in report
    assert "The material states no aim" not in report
    rows = [line for line in checklist(report).splitlines() if line[:1].isdigit()]
    assert [row.split(" & ")[0] for row in rows] == ["1", "2"], rows
    assert rows[0].startswith("1 & Costruire l'istogramma")
    power = "\\textasciicircum{}2"
    assert f"L = (g T{power})/(4\\ensuremath{{\\pi}}{power})" in rows[1], rows[1]
