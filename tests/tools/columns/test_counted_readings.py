"""Readings a counter or a data system numbers and labels as labs write them: a reading's
number the counts follow (tools/columns/variable_column.py), a row number written out of order
(tools/columns/counting.py), the time each reading took as the handout states it
(tools/columns/stepped_columns.py), a unit column of UN/CEFACT codes (tools/formats/part_tables.py,
tools/columns/units.py) and a file the handout calls reference material
(tools/columns/reference_files.py)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from labscribe.tools.columns.column import Column
from labscribe.tools.columns.counting import counts_rows
from labscribe.tools.columns.reference_files import reference_files
from labscribe.tools.columns.stepped_columns import sampled_clocks
from labscribe.tools.columns.units import canonical, unit_code
from labscribe.tools.columns.variable_column import set_aside_row_numbers
from labscribe.tools.formats.part_tables import unit_of_rows
from labscribe.tools.formats.tables import Table, TableSummary

DECAY = 600 * np.exp(-np.arange(1, 31) / 11.0) + 3  # counts falling to a background
RNG = np.random.default_rng(5)
PLATE = RNG.poisson(40, 30).astype(float)  # counts about one value


def counter_table(counts: np.ndarray, source: str = "cesium.txt") -> Table:
    numbers = np.arange(1.0, len(counts) + 1)
    frame = pd.DataFrame({"n": numbers, "N": counts})
    columns = [
        Column(key="n", header="Sample Number", name="Sample Number", count=len(counts)),
        Column(key="N", header="Number of Counts", name="Number of Counts", count=len(counts)),
    ]
    summary = TableSummary(
        id=source, source=source, block=0, encoding="ascii", delimiter="\t", decimal=".",
        rows=len(counts), columns=columns, x="n",
    )  # fmt: skip
    return Table(summary=summary, frame=frame)


def test_counts_that_fall_with_their_readings_number_keep_it_as_their_variable() -> None:
    table = counter_table(DECAY)
    kept, aside = set_aside_row_numbers(table.summary.columns, table.frame)
    assert [c.name for c in kept] == ["Sample Number", "Number of Counts"] and aside == []


def test_counts_about_one_value_are_repeats_their_readings_number_only_numbers() -> None:
    table = counter_table(PLATE)
    _, aside = set_aside_row_numbers(table.summary.columns, table.frame)
    assert [c.name for c in aside] == ["Sample Number"]


@pytest.mark.parametrize(
    ("header", "values", "counted"),
    [
        ("index", [1, 2, 3, 4, 6, 5, 7, 8], True),  # rows copied back in another order
        ("No.", [1, 2, 4, 3, 5, 6], True),
        ("index", [1, 2, 3, 9, 5, 6], False),  # no permutation of 1..n
        ("No.", [3, 4, 6, 5, 7, 8], False),  # does not start at 0 or 1
    ],
)
def test_a_row_number_written_out_of_order_still_numbers_the_rows(
    header: str, values: list[float], counted: bool
) -> None:
    numbers = np.array(values, dtype=float)
    assert counts_rows(header, numbers, first=True, named_others=True) is counted


@pytest.mark.parametrize(
    ("text", "step"),
    [
        ("- `cesium.txt` — Ba-137m sample, 20 min of data, 20 s per sample.", 20.0),
        ("The counter was read every 30 s.", 30.0),
        ("Sampling interval of 0.5 s; the file has one count a line.", 0.5),
        ("Die Impulse wurden alle 10 s abgelesen.", 10.0),
        ("Counts were taken in 15-s intervals.", 15.0),
        ("A reading each 2 min.", 120.0),
    ],
)
def test_the_time_each_reading_took_makes_the_counts_time_axis(text: str, step: float) -> None:
    table = counter_table(DECAY)
    sampled_clocks([table], text)
    assert table.summary.x == "t"
    assert table.summary.column("t").unit in ("s", "min")
    values = table.frame["t"].to_numpy()
    scale = 60.0 if table.summary.column("t").unit == "min" else 1.0
    np.testing.assert_allclose(values[:3] * scale, [0.0, step, 2 * step])
    assert [c.name for c in table.summary.row_numbers] == ["Sample Number"]


@pytest.mark.parametrize(
    "text",
    [
        "The sample was counted for 20 min.",  # how long in all, not per reading
        "- `other.txt` — 20 s per sample.",  # another file's readings
        "20 V per sample",  # no time
    ],
)
def test_no_stated_time_per_reading_no_time_axis(text: str) -> None:
    table = counter_table(DECAY)
    sampled_clocks([table], text)
    assert table.summary.x == "n" and "t" not in table.frame


def test_a_unit_column_gives_every_row_its_unit_as_a_code_or_a_unit() -> None:
    header = ["index", "t1", "t2", "uncertainty", "uom"]
    cells = pd.DataFrame([["1", "1.545", "2.029", "0.001", "SEC"]] * 3)
    assert unit_of_rows(header, cells) == "s"
    mixed = pd.DataFrame([["1", "2", "3", "4", "SEC"], ["2", "2", "3", "4", "MTR"]])
    assert unit_of_rows(header, mixed) == ""
    assert unit_of_rows(["t", "x"], cells.iloc[:, :2]) == ""


def test_un_cefact_codes_are_read_only_as_a_unit_columns_cells() -> None:
    assert (unit_code("KGM"), unit_code("MTR"), unit_code("SEC")) == ("kg", "m", "s")
    assert unit_code("mV") == "mV"
    assert canonical("KGM") is None and canonical("MTR") is None  # codes, no units elsewhere


def test_a_file_the_handout_calls_no_measurements_is_reference_material() -> None:
    text = (
        "- `data_2023.csv`: el potencial de frenado medido por tres grupos.\n"
        "- `colores.csv`: tabla de referencia de rangos de longitud de onda (no son mediciones).\n"
        "- `lit.csv`: literature values of the lines.\n"
    )
    found = reference_files(text, {"data_2023.csv", "colores.csv", "lit.csv"})
    assert set(found) == {"colores.csv", "lit.csv"}
    assert reference_files("The data are measurements, not guesses.", {"a.csv"}) == {}


def test_readings_a_handout_lists_are_a_table_of_repeats() -> None:
    from labscribe.tools.columns.stated_series import stated_series

    text = (
        "N_U = {129, 143, 144, 136, 139, 126, 158} Impulse (je 300 s). "
        "T = 2,01; 2,03; 1,99; 2,02 s. x = 1,25 m. n = 1, 2, 3 and so on."
    )
    found = {t.summary.columns[0].name: t for t in stated_series(text, "assignment.md")}
    assert set(found) == {"N_U", "T"}  # `x = 1,25` is one value, `n = 1, 2, 3` an order
    assert found["T"].frame["T"].tolist() == [2.01, 2.03, 1.99, 2.02]
    assert found["T"].summary.columns[0].unit == "s"
    assert found["N_U"].summary.rows == 7 and found["N_U"].summary.x is None


def test_a_list_in_order_sets_values_and_labels_the_blocks_a_handout_states() -> None:
    from labscribe.tools.columns.stated_series import label_blocks, stated_series

    text = "`t.txt`: 9 Fallzeiten – je 3 Wiederholungen für 3 Kugeln, d = 9; 8; 7 mm."
    assert stated_series(text, "a.md") == []  # 9; 8; 7 falls throughout: settings
    frame = pd.DataFrame({"t": [8.0, 8.1, 7.9, 10.0, 10.1, 9.9, 11.1, 11.2, 11.0]})
    column = Column(key="t", header="", name="t", unit="s", count=9)
    summary = TableSummary(
        id="t.txt", source="t.txt", block=0, encoding="ascii", delimiter=" ", decimal=".",
        rows=9, columns=[column], x=None,
    )  # fmt: skip
    table = Table(summary=summary, frame=frame)
    label_blocks([table], text)
    assert table.frame.iloc[:, 0].tolist() == [9.0] * 3 + [8.0] * 3 + [7.0] * 3
    assert (table.summary.columns[0].name, table.summary.columns[0].unit) == ("d", "mm")
    fresh = pd.DataFrame({"t": [8.0, 8.1, 7.9, 10.0, 10.1, 9.9, 11.1, 11.2, 11.0]})
    untold = Table(summary=summary.model_copy(update={"columns": [column]}), frame=fresh)
    label_blocks([untold], "`t.txt`: 9 Fallzeiten.")
    assert list(untold.frame.columns) == ["t"]


def test_no_time_axis_where_a_column_already_holds_t() -> None:
    table = counter_table(DECAY)
    table.frame["t"] = np.arange(len(DECAY), dtype=float)
    table.summary.columns.append(Column(key="t", header="t", name="t", count=len(DECAY)))
    sampled_clocks([table], "- `cesium.txt` — 20 s per sample.")
    assert table.summary.x == "n" and list(table.frame.columns) == ["n", "N", "t"]
