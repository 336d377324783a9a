"""`labscribe run --no-model` on a file without a header whose columns only the handout
names, by their place (tools/columns/column_positions.py), as Polish and Russian lab instructions
write it: "kolumna 1: f [Hz]", "Первый столбец — частота f (Гц), второй — длина волны λ (м)",
"dwie kolumny: f [Hz] oraz λ [m]". The columns take those symbols and units, so that the
fits carry them; a paragraph about another file names none of them. The data are a real
headerless file (tests/data/real/headerless/copper.csv)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_no_model_checklist import REAL, report_for

DATA = (REAL / "headerless" / "copper.csv", "miedz.csv")

NUMBERED = """\
# Ćwiczenie 1 – Fale podłużne w ciałach stałych

## Pliki z danymi
Plik `miedz.csv` (bez nagłówka):
    kolumna 1: f [Hz] - częstotliwość rezonansowa
    kolumna 2: λ [m] - długość fali

## Zadania
1. Wykonać wykres λ(f) i wyznaczyć prędkość dźwięku v = λ f.
"""

ORDINAL = r"""\documentclass{article}
\begin{document}
\section*{Данные}
Файл \texttt{miedz.csv} без заголовка. Первый столбец --- частота $f$ (Гц), второй ---
длина волны $\lambda$ (м).
\section*{Задание}
\begin{enumerate}
  \item Построить график $\lambda(f)$ и определить скорость звука $v = \lambda f$.
\end{enumerate}
\end{document}
"""

COUNTED = """\
# Ćwiczenie 1 – Fale podłużne

Każdy plik CSV (bez nagłówka) zawiera dwie kolumny: $f$ [Hz] oraz długość fali $\\lambda$ [m].

## Zadania
1. Wyznaczyć prędkość dźwięku v = λ f.
"""

OTHER_FILE = """\
# Ćwiczenie 1 – Fale podłużne

Plik `gestosc.csv` zawiera dwie kolumny: masa m [g] oraz objętość V [cm3].

## Zadania
1. Wyznaczyć prędkość dźwięku.
"""


@pytest.mark.parametrize(
    ("name", "handout"),
    [("instrukcja_cw1.md", NUMBERED), ("zadanie_1.tex", ORDINAL), ("instrukcja.md", COUNTED)],
)
def test_a_headerless_file_takes_the_symbols_and_units_the_handout_gives_by_place(
    tmp_path: Path, name: str, handout: str
) -> None:
    report = report_for(tmp_path, (name, handout), DATA)
    assert "\\textbf{f [Hz]} & \\textbf{\\ensuremath{\\lambda} [m]}" in report, report
    # the fits, their notes and the checklist call the columns by those symbols too
    assert " against f [Hz] (miedz.csv)" in report
    assert "column 1" not in report and "column 2" not in report


def test_a_description_of_another_file_names_no_column(tmp_path: Path) -> None:
    report = report_for(tmp_path, ("instrukcja.md", OTHER_FILE), DATA)
    assert "\\textbf{column 1} & \\textbf{column 2}" in report


PROSE_FORMULA = """\
# Ćwiczenie 1 – Fale podłużne

Plik `miedz.csv` (bez nagłówka): kolumna 1: f [Hz], kolumna 2: λ [m].
Prędkość dźwięku: v = λ f.

## Zadania
1. Wykonać wykres v(f).
"""


def test_a_quantity_formed_from_named_columns_by_a_formula_in_prose_is_drawn(
    tmp_path: Path,
) -> None:
    """v = λ f stands in the prose, not in a task, and λ and f name headerless columns: the
    figure of v is drawn from the columns as the analysis named and formed them."""
    report = report_for(tmp_path, ("instrukcja.md", PROSE_FORMULA), DATA)
    assert "No figure could be drawn" not in report
    assert "figures/data-miedz-v.png" in report, report


DEPENDENCE = (
    ORDINAL.split("\\section*{Задание}")[0]
    + r"""\section*{Задание}
\begin{enumerate}
  \item Вычислить период колебаний $T = 1/f$ для каждой строки.
  \item Построить зависимость $f(\lambda)$.
\end{enumerate}
\end{document}
"""
)


def test_a_russian_dependence_names_the_variable_and_a_formula_that_defines_none(
    tmp_path: Path,
) -> None:
    """ "зависимость f(λ)" fits f against λ, whatever the order of the file's columns; the
    formula T = 1/f of task 1 defines a quantity, and says nothing of which column was set."""
    report = report_for(tmp_path, ("zadanie.tex", DEPENDENCE), DATA)
    said = "f is taken as the response to \\ensuremath{\\lambda}, as the assignment says"
    assert said in report, report


DEFINITION = """\
# Versuch 1: Schallgeschwindigkeit

Datei `miedz.csv` ohne Kopfzeile: Spalte 1 = $f$ [Hz], Spalte 2 = Wellenlänge $L$ [m].

## Aufgaben
1. Berechnen Sie für jede Zeile die Knotenzahl $N = 2 x_0/L$ aus dem Abstand $x_0$ der Enden.
"""


def test_a_formula_that_defines_a_quantity_of_one_column_sets_no_variable(
    tmp_path: Path,
) -> None:
    """N = 2 x_0/L works a quantity out of the column L: it says nothing of which column was set,
    so the report does not claim the assignment says L is the variable."""
    report = report_for(tmp_path, ("anleitung.md", DEFINITION), DATA)
    assert "as the assignment says" not in report
    assert "was taken as the variable" in report
