"""`labscribe run --no-model` on a handout whose formulas would hold the interpreter
(`9^9^9`, a power of a sum that expands to millions of terms), beside a real data file: the
run ends, the task stays in the checklist, and no model of such a formula is fitted."""

from __future__ import annotations

import re
from pathlib import Path

from test_no_model_checklist import REAL, checklist, report_for

HANDOUT = """\
# Hall effect

## Tasks
1. Fit VH = a*IS + 9^9^9 to the Hall voltage and give a.
2. Fit VH = k*(IS + b + c + d)^300 and give k.
3. Plot VH against IS.
"""


def test_a_handout_with_a_power_tower_still_gives_its_report(tmp_path: Path) -> None:
    report = report_for(tmp_path, ("tasks.md", HANDOUT),
                        (REAL / "hall" / "hitsz_2-VH-IS.csv", "hall.csv"))  # fmt: skip
    rows = re.findall(r"^(\d) & (.*)$", checklist(report), re.MULTILINE)
    assert [number for number, _ in rows] == ["1", "2", "3"]
    assert "9\\textasciicircum{}9\\textasciicircum{}9" in rows[0][1]  # the task as written
    assert "the model task 1 asks for" not in report and "the model task 2 asks for" not in report
