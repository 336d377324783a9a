"""`labscribe run --no-model` where readings are missing: a cell that says so (`n/a`, `-`,
`#N/A`) is an empty one, so its row stays in the table instead of ending it (a row of
`3;n/a` was read as the header of the rows after it, the first rows and the real header
dropped without a word), and every row a fit leaves out is counted in a note with its
reason (a real CASSY export, tests/data/real/cassy, leaves 28 of its 95 rows empty in one
channel)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from test_no_model import no_model_report

REAL = Path(__file__).parents[1] / "data" / "real"


@pytest.mark.parametrize("missing", ["n/a", "-", "#N/A", "NaN", "?"])
def test_a_missing_reading_keeps_its_row_in_the_table(tmp_path: Path, missing: str) -> None:
    folder = tmp_path / "lab"
    folder.mkdir()
    rows = ["1;2,0", "2;4,1", f"3;{missing}", "4;8,1", "5;9,9", "6;12,2", "7;14,0"]
    (folder / "data.csv").write_text("t [s];U [V]\n" + "\n".join(rows) + "\n")
    report = no_model_report(folder, tmp_path)
    assert "Excerpt of data.csv: 7 of its 7 rows" in report, report
    assert "\\textbf{t [s]} & \\textbf{U [V]}" in report  # the header is the file's own
    assert "1 of 7 rows left out of the fit: no number for t or U (empty, or text)" in report


def test_a_fit_counts_the_rows_a_cassy_export_leaves_empty(tmp_path: Path) -> None:
    folder = tmp_path / "lab"
    folder.mkdir()
    shutil.copy(REAL / "cassy" / "pohl_torsion_7_v.txt", folder / "7_v.txt")
    report = no_model_report(folder, tmp_path)
    found = re.search(r"(\d+) of (\d+) rows left out of the fit: no number for", report)
    assert found is not None and (found[1], found[2]) == ("28", "95"), report


def test_rows_a_stray_line_breaks_off_the_end_of_a_table_are_named(tmp_path: Path) -> None:
    # two readings after a stray line are too few for a table of their own: they become
    # settings under that line, and the report says so instead of dropping them unsaid
    folder = tmp_path / "lab"
    folder.mkdir()
    lines = (REAL / "hall" / "hitsz_4-Vout-IM.csv").read_text().splitlines()
    (folder / "hall.csv").write_text("\n".join([*lines[:-2], "foo,bar,baz", *lines[-2:]]) + "\n")
    report = no_model_report(folder, tmp_path)
    assert (
        "left out: hall.csv: the 2 numeric rows after the line “foo,bar,baz” below the table "
        "are read as settings under that line" in report
    ), report
    # a footer that does not continue the table's columns is only settings
    (folder / "hall.csv").write_text("\n".join([*lines, "mean B", "8.4"]) + "\n")
    (tmp_path / "again").mkdir()
    assert "below the table" not in no_model_report(folder, tmp_path / "again")
