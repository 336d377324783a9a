"""`labscribe run --no-model`: a formula the task writes with a remark in parentheses after it
("T = a·l^b (a straight line on log-log axes)") is fitted as written, its parameters a and b;
the remark's words are no parameters. The data are a real pendulum table
(tests/data/real/SOURCES.md)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from test_no_model_checklist import REAL, report_of

WORKSHEET = """\
Worksheet 3: period and length of a pendulum

Task 1: Fit the power law T = a·l^b (a straight line on log-log axes) to the mean periods.
        Give a and b with their standard errors.
"""


def test_a_remark_after_the_formula_is_no_parameter(tmp_path: Path) -> None:
    folder = tmp_path / "pendulum"
    folder.mkdir()
    (folder / "worksheet.txt").write_text(WORKSHEET)
    shutil.copy(REAL / "labtables" / "pendulum-lengths-periods.csv", folder)
    report = report_of(folder, tmp_path)
    for word in ("straight", "line", "log", "axes", "on"):
        assert not re.search(rf"(?<![A-Za-z\\]){word} = ", report), word
    assert re.search(r"(?<![A-Za-z])a = [\d.]+ ± ", report), report[-3000:]
    assert re.search(r"(?<![A-Za-z])b = 0\.\d+ ± ", report)
