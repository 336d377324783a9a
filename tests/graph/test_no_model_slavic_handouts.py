"""`labscribe run --no-model` on handouts in Polish (Markdown) and Russian (LaTeX), laid out
as such handouts are: the file named `instrukcja_cw2` or `zadanie_3.3.4`, the aim under
"Cel ćwiczenia" or `\\section*{Цель работы}`, the setup under "Układ pomiarowy" or
"Оборудование", the tasks under "Zadania" or "Задание" whatever their first word, and
formulas written with `\\frac`/`\\dfrac`, which keep their meaning as text. The layouts follow
real Polish and Russian lab instructions; the data are a real file (tests/data/real/rc353)."""

from __future__ import annotations

import re
from pathlib import Path

from test_no_model_checklist import REAL, checklist, report_for

DATA = (REAL / "rc353" / "RC-Entladekurve.csv", "rozladowanie.csv")

INSTRUKCJA = """\
# Ćwiczenie 7 – Rozładowanie kondensatora

## Cel ćwiczenia
Wyznaczenie stałej czasowej obwodu RC z krzywej rozładowania kondensatora.

## Układ pomiarowy
Kondensator rozładowywano przez opornik; napięcie odczytywano z oscyloskopu co kilka
mikrosekund. Plik `rozladowanie.csv`: kolumny t [µs] i U [V].

## Zadania
1. Dopasować do danych funkcję $U(t) = U_0 \\exp(-t/\\tau)$ i podać $\\tau$ z niepewnością.
2. Obliczyć pojemność $C = \\dfrac{\\tau}{R}$ dla $R = 10$ kΩ.
3. Porównać otrzymaną pojemność z wartością nominalną.
"""

ZADANIE = r"""\documentclass{article}
\usepackage[russian]{babel}
\title{Лабораторная работа 2.1\\Разрядка конденсатора}
\begin{document}
\maketitle
\section*{Цель работы}
Определение постоянной времени RC-цепи по кривой разрядки конденсатора.
\section*{Оборудование}
Осциллограф, генератор, конденсатор, резистор.
\section*{Задание}
\begin{enumerate}
  \item Аппроксимировать зависимость $U(t)$ функцией $U = U_0 e^{-t/\tau}$ и найти $\tau$.
  \item Вычислить ёмкость $C = \dfrac{\tau}{R_{1}\,k}$, где $k = 1$.
  \item Сравнить результат с номинальным значением.
\end{enumerate}
\end{document}
"""


def _rows(report: str) -> list[str]:
    return re.findall(r"^\d & .*$", checklist(report), re.MULTILINE)


def test_a_polish_instrukcja_gives_its_aim_and_every_task(tmp_path: Path) -> None:
    report = report_for(tmp_path, ("instrukcja_cw7_kondensator.md", INSTRUKCJA), DATA)
    assert "Wyznaczenie stałej czasowej obwodu RC" in report  # the aim, under its heading
    assert "The material states no aim" not in report
    rows = _rows(report)
    assert [row[0] for row in rows] == ["1", "2", "3"], rows
    assert rows[2].startswith("3 & Porównać otrzymaną pojemność")
    assert "C = \\ensuremath{\\tau}/R" in rows[1]  # \dfrac keeps its meaning
    assert "Kondensator rozładowywano" not in checklist(report)  # the setup sets no task


def test_a_russian_latex_zadanie_gives_its_aim_and_every_task(tmp_path: Path) -> None:
    report = report_for(tmp_path, ("zadanie_2.1_razryadka.tex", ZADANIE), DATA)
    assert "Определение постоянной времени" in report
    assert "The material states no aim" not in report
    rows = _rows(report)
    assert [row[0] for row in rows] == ["1", "2", "3"], rows
    assert "C = \\ensuremath{\\tau}/(R_1 k)" in rows[1], rows[1]
    assert "Осциллограф" not in checklist(report)
