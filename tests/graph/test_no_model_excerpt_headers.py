"""`labscribe run --no-model`: the data excerpt's header names each column over its own
values, though a clock or a cycle number is set aside after the file is read. The file is
a real Keithley 2636B export (tests/data/real/smu/keithley_2636B_IV_first30.csv)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from test_no_model import no_model_report

REAL = Path(__file__).parents[1] / "data" / "real"


def _excerpt(report: str) -> list[list[str]]:
    """The excerpt table's header and rows, cell by cell."""
    block = report[report.index(r"\caption{Excerpt of") :]
    block = block[: block.index(r"\end{longtable}")]
    lines = [line for line in block.splitlines() if line.rstrip().endswith(r"\\")]
    return [[cell.strip() for cell in line.rstrip()[:-2].split("&")] for line in lines[1:]]


def test_no_model_excerpt_puts_each_header_over_its_column(tmp_path: Path) -> None:
    folder = tmp_path / "lab"
    folder.mkdir()
    shutil.copy(REAL / "smu" / "keithley_2636B_IV_first30.csv", folder / "iv.csv")
    header, first, *_ = _excerpt(no_model_report(folder, tmp_path))
    assert len(header) == len(first)
    names = [re.sub(r"\\textbf\{(.*)\}", r"\1", cell).replace(r"\_", "_") for cell in header]
    assert names.index("Id_dens") == 5  # over its own values, after the clock
