"""An excerpt's header stands over its own values, though the roles set columns aside after
the file was read (tools.columns.excerpt_columns). The files are real instrument exports
(tests/data/real/SOURCES.md) in which a clock, an ID or a row number is set aside."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from labscribe.tools.columns.excerpt_columns import excerpt_columns
from labscribe.tools.columns.roles import Handout, decide_roles
from labscribe.tools.formats.tables import EXCERPT_ROWS, read_data
from labscribe.tools.tool import Folder

REAL = Path(__file__).parents[2] / "data" / "real"


@pytest.mark.parametrize(
    "rel",
    [
        "smu/keithley_2636B_IV_first30.csv",  # its clock time_s is set aside
        "ppms/quantum_design_Resistance_first30.dat",  # its Time column is set aside
        "chromatography/shimadzu_labsolutions_ASCIIData_first_peak_table.txt",  # ID#
    ],
)
def test_excerpt_header_stands_over_its_own_values(rel: str) -> None:
    path = REAL / rel
    table = read_data(Folder(path.parent), path.name).tables[0]
    decide_roles([table], Handout.of([]))
    summary, frame = table.summary, table.frame
    columns, rows = excerpt_columns(summary)
    assert len(columns) == len(rows[0])
    picked = np.unique(np.linspace(0, len(frame) - 1, min(len(frame), EXCERPT_ROWS)).round())
    for i, column in enumerate(columns):
        shown = np.array([np.nan if row[i] is None else row[i] for row in rows])
        expected = frame[column.key].to_numpy(dtype=float)[picked.astype(int)]
        assert np.allclose(shown, expected, equal_nan=True), column.key
