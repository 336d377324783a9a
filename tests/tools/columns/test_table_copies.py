"""tools.columns.table_copies: a table that repeats another's values (a working copy of a sheet,
a row counter added or a column's sign flipped) is analysed once, as the original; a column
without a name that repeats a named one's values is set aside. The workbook is real
(tests/data/real/workbooks/solar_cells_agh_134.xlsx, SOURCES.md)."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pandas as pd

from labscribe.tools.analysis.folder import analyse
from labscribe.tools.columns.column import describe
from labscribe.tools.columns.table_copies import set_aside_copies
from labscribe.tools.formats.tables import Table, TableSummary, read_data
from labscribe.tools.tool import Folder

WORKBOOK = Path(__file__).parents[2] / "data" / "real" / "workbooks" / "solar_cells_agh_134.xlsx"


def table_of(name: str, columns: dict[str, np.ndarray]) -> Table:
    frame = pd.DataFrame(columns)
    described = describe(frame, [(n, n.removeprefix("~"), "") for n in columns])
    for column in described:  # `~name`: a column the file leaves without a name
        column.header = "" if column.header.startswith("~") else column.header
    frame.columns = [c.key for c in described]
    summary = TableSummary(id=name, source=name, block=1, encoding="utf-8", delimiter=",",
                           decimal=".", rows=len(frame), columns=described,
                           x=described[0].key)  # fmt: skip
    return Table(summary, frame)


U = np.array([0.1, 0.4, 0.9, 1.3, 1.8])
I = np.array([8.35, 8.3, 8.1, 7.2, 3.5])  # noqa: E741 (the current, as the lab writes it)


def test_a_copy_with_a_row_counter_and_a_flipped_column_is_set_aside() -> None:
    original = table_of("cells.csv", {"U": U, "I": I, "P": U * I})
    counted = table_of("copy.csv", {"Nr": np.arange(1.0, 6.0), "U": U, "I": I})
    flipped = table_of("pandas.csv", {"U": U, "-I": -I})
    density = table_of("density.csv", {"U": U, "j": -I / 7.8})  # j is no column of the others
    kept, notes = set_aside_copies([original, counted, flipped, density])
    assert [t.summary.id for t in kept] == ["cells.csv", "density.csv"]
    assert notes == [
        f"{copy} repeats the values of cells.csv: analysed once, as the original"
        for copy in ("copy.csv", "pandas.csv")
    ]


def test_a_table_that_differs_in_one_column_is_no_copy() -> None:
    first = table_of("run1.csv", {"U": U, "I": I})
    second = table_of("run2.csv", {"U": U, "I": I * 1.001})  # the same voltages set again
    kept, notes = set_aside_copies([first, second])
    assert len(kept) == 2 and notes == []


def test_an_unnamed_column_repeating_a_named_one_is_set_aside_and_a_named_one_kept() -> None:
    table = table_of("cell.csv", {"U": U, "U/n": U / 1.0, "I": I, "~column 4": -I})
    kept, notes = set_aside_copies([table])
    assert [c.name for c in kept[0].summary.columns] == ["U", "U/n", "I"]
    assert notes == ["column 4 of cell.csv, which repeats the negatives of I row for row"]


def test_the_sheets_of_a_real_workbook_with_working_copies(tmp_path: Path) -> None:
    folder = tmp_path / "lab"
    folder.mkdir()
    shutil.copy(WORKBOOK, folder / "ogniwa.xlsx")
    read = read_data(Folder(folder), "ogniwa.xlsx").tables
    # five names over eight cells: the names stand over their own columns, never shifted
    mono = read[3].summary
    assert [(c.name, c.unit) for c in mono.columns][:3] == [("U", "V"), ("I", "mA"),
                                                            ("P = UI", "mW")]  # fmt: skip
    np.testing.assert_allclose(read[3].frame[mono.columns[1].key].iloc[:2], [112.7, 112.7])
    analysis = analyse(Folder(folder))
    assert [t.id for t in analysis.tables] == ["ogniwa.xlsx#1", "ogniwa.xlsx#4", "ogniwa.xlsx#7"]
    copies = [n for n in analysis.left_out if "repeats the values" in n]
    assert copies[0] == ("ogniwa.xlsx#2 (sheet politoCSV) repeats the values of ogniwa.xlsx#1 "
                         "(sheet Polikrystaliczne): analysed once, as the original")  # fmt: skip
    assert len(copies) == 6  # each primary sheet has its two working copies
    assert not any(c.name == "column 6" for t in analysis.tables for c in t.columns)
