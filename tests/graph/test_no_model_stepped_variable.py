"""`labscribe run --no-model` on a counter's log whose set variable is in no column: the
handout says how it was set ("starting at U = 320 V, raised in steps of 10 V, a row a
step") and states the counting time (Δt = 10 s). The report forms U and the count rate
N = Z/Δt, fits the task's line over the range it names, and answers the task that refers
back to that line with its values, not with a new fit. The data are a real Geiger–Müller
counter's log (tests/data/real/counting/geiger_a.txt, SOURCES.md)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_no_model_checklist import REAL, checklist, report_for

DATA = (REAL / "counting" / "geiger_a.txt", "a.txt")

GERMAN = r"""# V703 – Das Geiger-Müller-Zählrohr

## Durchführung
Beginnend bei $U = 320\,\mathrm{V}$ wurde die Spannung in Schritten von $10\,\mathrm{V}$
erhöht. Für jede Spannung wurden die Impulse $Z$ während $\Delta t = 10\,\mathrm{s}$ gezählt
und der Strom $I$ in µA abgelesen.

Datei `a.txt`: Spalte 1 = $Z$, Spalte 2 = $I$ / µA.

## Aufgaben
1. Berechnen Sie die Zählrate $N = Z/\Delta t$.
2. Legen Sie im Plateaubereich $350\,\mathrm{V} \le U \le 650\,\mathrm{V}$ eine
   Ausgleichsgerade $N = a\,U + b$. Geben Sie $a$ und $b$ an.
3. Geben Sie die Plateausteigung in Prozent pro 100 V an, bezogen auf die Zählrate der
   Ausgleichsgeraden in der Plateaumitte ($U = 500\,\mathrm{V}$).
"""

ENGLISH = """Lab 7: the Geiger-Mueller plateau

Procedure: the tube voltage was raised from U = 320 V in steps of 10 V, one row of a.txt
per step. At each voltage the counts Z were taken for Δt = 10 s; the first column of a.txt
is the count Z, the second the current I (µA).

Tasks:
1. Work out the count rate N = Z/Δt for each row.
2. Fit the line N = a U + b to the plateau, 350 V ≤ U ≤ 650 V, and give a and b.
3. Give the plateau slope in percent per 100 V relative to the rate of the fitted line at U = 500 V.
"""


@pytest.mark.parametrize(("name", "handout"), [("Aufgabe.md", GERMAN), ("lab7.txt", ENGLISH)])
def test_the_variable_set_by_a_rule_and_a_rate_from_a_stated_time(
    tmp_path: Path, name: str, handout: str
) -> None:
    report = report_for(tmp_path, (name, handout), DATA)
    assert "U [V] as U = 320 V + 10 V a row, as the assignment states it was set" in report
    assert "N = Z/Δt, with Δt = 10 s as stated" in report.replace("\\ensuremath{\\Delta}", "Δ")
    rows = checklist(report)
    line = next(row for row in rows.split("\\\\") if row.strip().startswith("2 &"))
    # the certified-by-hand values: 31 points of 39, unweighted least squares
    assert "a = 0.081 ± 0.013" in line and "b = 439.6 ± 6.8" in line, line
    referred = next(row for row in rows.split("\\\\") if row.strip().startswith("3 &"))
    assert "the fit task 2 asks for" in referred and "a = 0.081 ± 0.013" in referred
    assert "not done: what the task asks of the fit task 2 asks for" in referred
    assert "U = 500 V”" not in referred  # a stated value is no formula to fit
    # the figures re-form U and N as the analysis did, and draw the task's line
    caption = r"\\caption\{N against U \(a.txt\) with the model task \w+ asks for, N = a U \+ b"
    assert re.search(caption, report)
