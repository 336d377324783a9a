"""`labscribe run --no-model` on a hysteresis loop (a real CASSY export of an iron core's
field against the magnet's current, tests/data/real/hysteresis): the quoted names give each
column its symbol and unit, and no curve B(I) is fitted through the loop's two branches."""

from __future__ import annotations

import re
from pathlib import Path

from test_no_model_checklist import REAL, checklist, report_for

HANDOUT = """\
# Versuch 248: Hysterese eines Eisenkerns

## Aufgaben
1. Tragen Sie die Flussdichte B gegen den Strom I auf (Hysteresekurve).
2. Bestimmen Sie die Remanenz und die Koerzitivfeldstärke.
"""
LOOP = (REAL / "hysteresis" / "cassy_248b1_loop.dat", "hysterese.dat")


def test_a_hysteresis_loop_gets_no_curve_through_its_branches(tmp_path: Path) -> None:
    report = report_for(tmp_path, ("aufgaben.md", HANDOUT), LOOP)
    assert r"\textbf{I\_A1 [A]}" in report and r"\textbf{B\_B1 [mT]}" in report
    assert "the rows form a loop: I\\_A1 is swept up and back down" in report
    assert "Fits of the data" not in report  # no line, cubic or other curve through it
    rows = dict(re.findall(r"^(\d) & (.*)$", checklist(report), re.MULTILINE))
    assert "R²" not in rows["1"] and "describes" not in rows["1"], rows["1"]
