"""`labscribe run --no-model`, as a normal user, on a workbook whose decoder would take the
machine (issue 27, class 1): 5 KB of xlsx with one stray cell at XFD1048576 makes calamine
allocate a dense range of 17 billion cells and abort the process. The cells it places are
counted before calamine reads it, so it is refused with that reason (and were it not, its
bounded worker, tools.formats.decoding, would cost the worker only): the run ends with its report,
the file named as not read and why, and the other files read. The whole process tree runs under an
address-space limit of 3 GB, inherited by every process it starts."""

from __future__ import annotations

import shutil
from pathlib import Path

import xlsxwriter
from asuser import as_normal_user

REAL = Path(__file__).resolve().parents[1] / "data" / "real"


def test_a_workbook_that_aborts_its_decoder_costs_the_worker_not_the_run(user_dir: Path) -> None:
    data = user_dir / "data"
    data.mkdir()
    book = xlsxwriter.Workbook(data / "stray.xlsx")
    sheet = book.add_worksheet("Data")
    sheet.write_row(0, 0, ["t (s)", "U (V)"])
    for row in range(1, 11):
        sheet.write_row(row, 0, [row, 2 * row])
    sheet.write(1048575, 16383, 1)  # the last cell a sheet has
    book.close()
    assert (data / "stray.xlsx").stat().st_size < 8192
    shutil.copy(REAL / "hall" / "hitsz_2-VH-IS.csv", data / "hall.csv")
    out = user_dir / "out"
    argv = ["labscribe", "run", str(data), "--no-model", "--no-compile", "--out", str(out),
            "--db", str(user_dir / "c.db")]  # fmt: skip
    done = as_normal_user(
        "import resource, runpy, sys\n"
        "resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))\n"
        f"sys.argv = {argv!r}\n"
        "runpy.run_module('labscribe.graph.cli', run_name='__main__')\n",
        owns=[user_dir],
    )
    assert done.returncode == 0, done.stderr[-3000:]
    report = (out / "report.tex").read_text()
    named = report.replace("\\allowbreak{}", "")
    # refused by the cells it places before calamine allocates them
    assert (
        "stray.xlsx: was not read: a sheet's cells span A1:XFD1048576, 17,179,869,184 cells, "
        "more than the 20,000,000 read at most (cells far from the data, or repeated)" in named
    ), named
    assert "VH against IS" in report.replace("\\allowbreak{}", "")  # the other file is read
