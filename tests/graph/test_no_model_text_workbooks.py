"""`labscribe run --no-model` on a logger's export that is tab-separated text saved under a
workbook's name (ProCoDA's `.xls`, tests/data/real/procoda): it is read as the text it is,
never declared "no table"; its `pH` column is the acidity, not a
quantity in picohenries, and `F1` is a name, not the farad to the first power."""

from __future__ import annotations

import re
from pathlib import Path

from test_no_model_checklist import REAL, checklist, report_for

HANDOUT = """\
# Lab 3: Acid neutralizing capacity

Acid snow melt (feed adjusted to pH 3) is pumped in at 267 mL/min.

## Tasks
1. Plot the pH against the titrant volume.
2. Find the equivalent volume from the Gran function F1 and compute the ANC.
"""


def test_a_text_export_named_xls_is_read_as_its_text(tmp_path: Path) -> None:
    report = report_for(tmp_path, ("assignment.md", HANDOUT),
                        (REAL / "procoda" / "anc_t5.xls", "anc_t5.xls"))  # fmt: skip
    assert "holds no table" not in report
    assert re.search(r"Titrant Volume \[mL\]", report), report
    assert "inductance" not in report and "pH]" not in report  # pH heads, and is no unit
    assert "[at]" not in report  # "pumped in at 267 mL/min" names no technical atmosphere
    assert "0.595896" in report or "0.5959" in report  # the export's own equivalent volume


def test_a_fit_of_the_linear_part_is_no_fit_of_all_the_points(tmp_path: Path) -> None:
    """ "the linear part of the Gran plot beyond the equivalence point" is part of the data:
    no line through all of them (nor V_e from it) answers the task."""
    report = report_for(tmp_path, ("assignment.md", HANDOUT + (
        "3. Fit a straight line to the linear part of the Gran plot beyond the equivalence "
        "point and obtain V_e = -intercept/slope.\n"
    )), (REAL / "procoda" / "anc_t5.xls", "anc_t5.xls"))  # fmt: skip
    third = checklist(report).split("\n3 & ", 1)[1].split("\\\\", 1)[0]
    assert "V_e =" not in third.split(" & ")[1]
    assert "not done: the task works on part of the data only (“linear part”)" in third
