"""Tables side by side in a sheet (tools.formats.sheet_blocks) and tables to look values up in
(tools.columns.reference_files.lookup_table), on a Unicamp cooling lab's workbooks
(tests/data/real/workbooks)."""

from __future__ import annotations

from pathlib import Path

import pytest

from labscribe.tools.columns.reference_files import lookup_table
from labscribe.tools.formats.sheet_blocks import side_by_side
from labscribe.tools.formats.tables import read_data
from labscribe.tools.tool import Folder

WORKBOOKS = Path(__file__).parents[2] / "data" / "real" / "workbooks"


def test_a_table_beside_a_table_whose_header_is_a_row_lower_is_read_apart() -> None:
    """The readings' header is on row 1, the table of changes beside them (past an empty
    column, under its own title) has its header on row 2: read as one grid, the readings'
    first row (0, 3.6, 70, 343) named their columns."""
    tables = read_data(Folder(WORKBOOKS), "unicamp_calorimetro_aberto.xlsx").tables
    names = [[(c.name, c.unit) for c in table.summary.columns] for table in tables]
    assert names[0] == [("Tempo", "s"), ("Tensão", "mV"), ("Temperatura", "°C"),
                        ("Temperatura", "K")]  # fmt: skip
    assert names[1] == [("Tempo", "s"), ("Tensão", "mV"), ("Temperatura", "°C"),
                        ("Temperatura", "K")]  # fmt: skip
    assert tables[0].frame.iloc[0].tolist() == [0, 3.6, 70, 343]  # its first reading kept
    assert len(tables[0].frame) == 78
    assert "Mudança na temperatura" in tables[1].summary.title


def test_tables_whose_data_start_on_one_row_stay_one_grid() -> None:
    """Runs side by side under one header row are split by their names (tools.formats.grid), not
    here; a block of settings beside the data is no table."""
    runs = [["t (s)", "x (m)", "", "t (s)", "x (m)"], *([[i, i * 2.0, "", i, i * 3.0]
                                                       for i in range(5)])]  # fmt: skip
    assert side_by_side(runs) == [runs]
    settings = [["Time", "U", "", "Gain"], ["s", "V", "", 2], *([[i, i, "", ""]
                                                                for i in range(5)])]  # fmt: skip
    assert side_by_side(settings) == [settings]


def test_a_table_beside_one_a_row_lower_is_parted_at_the_empty_column() -> None:
    rows = [["t", "T", None, "changes", None], [0, 70, None, "t", "T"],
            *([[i, 70 - i, None, i, 70 - i] for i in range(1, 5)])]  # fmt: skip
    assert side_by_side(rows) == [[row[:2] for row in rows], [row[3:] for row in rows]]


@pytest.mark.parametrize(
    ("names", "looked_up"),
    [
        (["oC", *map(str, range(11))], True),  # a thermocouple's table
        (["z", *(f"0.0{i}" for i in range(10))], True),  # a normal distribution's
        (["T", "0", "1", "2", "3"], False),  # four series numbered
        (["t", *map(str, range(1, 11))], False),  # runs numbered from 1
        (["f", "0", "1", "2", "4", "8", "16", "32", "64"], False),  # settings, not digits
        (["t", "U", "I", "P", "R", "T", "n", "m", "x"], False),
    ],
)
def test_a_lookup_table_is_told_by_its_columns_headed_in_even_steps_from_0(
    names: list[str], looked_up: bool
) -> None:
    assert lookup_table(names) is looked_up


def test_the_thermocouple_table_in_a_workbooks_second_sheet_is_a_lookup_table() -> None:
    tables = read_data(Folder(WORKBOOKS), "unicamp_calorimetro_fechado.xlsx").tables
    looked_up = [t.summary.title for t in tables
                 if lookup_table([c.name for c in t.summary.columns])]  # fmt: skip
    assert looked_up == ["sheet Data"]
