"""`labscribe run --no-model`: a handout that lists its tasks under a heading gets that list
as its checklist, numbered as it numbers it: the procedure's bench steps and the rules for the
whole report ("Quote every result with units.") are no rows; the prose under
"Aufgabenstellung" is the aim. The layout follows the eval folders' and the HU Berlin
Grundpraktikum's German handouts; the data are a real file (tests/data/real/SOURCES.md)."""

from __future__ import annotations

import shutil
from pathlib import Path

from test_no_model_checklist import REAL, checklist, report_of

ANLEITUNG = """\
# Versuch M1 — Fadenpendel

## Aufgabenstellung
Die Schwingungsdauer eines Fadenpendels wird 50-mal gemessen und statistisch ausgewertet.

## Durchführung
1. Lesen Sie jeweils die Zeit für eine Schwingung an der Stoppuhr ab.
2. Notieren Sie alle Messwerte in der Tabelle.

## Auswertung
a) Berechnen Sie den Mittelwert und die Standardabweichung der Schwingungsdauer.
b) Geben Sie die Standardabweichung des Mittelwerts an.

Geben Sie alle Ergebnisse mit Einheiten an.
"""


def test_a_handout_with_an_auswertung_lists_only_it(tmp_path: Path) -> None:
    folder = tmp_path / "m1"
    folder.mkdir()
    (folder / "Anleitung_M1.md").write_text(ANLEITUNG)
    shutil.copy(REAL / "repeats" / "Pendel-Messung.dat", folder)
    report = report_of(folder, tmp_path)
    assert "Die Schwingungsdauer eines Fadenpendels wird 50-mal gemessen" in report
    assert "names no aim in so many words" not in report
    rows = [line for line in checklist(report).splitlines() if " & " in line]
    tasks = [row for row in rows if row[:2] in {"a ", "b ", "1 ", "2 ", "3 ", "4 ", "5 "}]
    assert [row.split(" & ")[0] for row in tasks] == ["a", "b"], rows
    assert "Lesen Sie" not in checklist(report) and "Einheiten an" not in checklist(report)
