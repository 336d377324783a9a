"""A second clock beside a table's variable is set aside, not fitted (tools.columns.clocks); a
formula that defines a quantity names no predictors of a fit (tools.columns.roles). Real file: a
Keithley 2636B sweep with its `time_s` column (cheminfo/iv-spectrum, tests/data/real/SOURCES.md)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from labscribe.tools.columns.clocks import clock_name
from labscribe.tools.columns.roles import Handout, decide_roles
from labscribe.tools.columns.row_numbers import row_number_notes
from labscribe.tools.formats.tables import Table, read_data
from labscribe.tools.tool import Folder

REAL = Path(__file__).parents[2] / "data" / "real"


def _table(tmp_path: Path, header: str, columns: list[list[float]]) -> Table:
    rows = [",".join(f"{v:g}" for v in cells) for cells in zip(*columns, strict=True)]
    (tmp_path / "t.csv").write_text(header + "\n" + "\n".join(rows) + "\n")
    return read_data(Folder(tmp_path), "t.csv").tables[0]


def test_clock_name_knows_clocks_and_cycle_counts_not_quantities() -> None:
    for name in ("Time", "t", "time_s", "elapsed time", "cycle number", "No. of swings", "Zeit"):
        assert clock_name(name), name
    for name in ("T", "period", "amplitude", "count", "temperature", "n"):
        assert not clock_name(name), name


def test_a_source_meters_sweep_clock_is_set_aside_from_a_real_keithley_file() -> None:
    [table] = read_data(Folder(REAL / "smu"), "keithley_2636B_IV_first30.csv").tables
    decide_roles([table], Handout.of([]))
    summary = table.summary
    assert summary.x == "Vd"
    assert "time" not in [c.key for c in summary.columns]
    assert [c.key for c in summary.row_numbers] == ["time"]
    [note] = row_number_notes([summary])
    assert note.startswith(
        "time (keithley_2636B_IV_first30.csv) keeps the record's time or count of cycles beside Vd"
    )


def test_a_cycle_count_beside_the_time_is_no_response(tmp_path: Path) -> None:
    cycles = np.arange(0.0, 105, 5)
    t = np.round(1.742 * cycles, 1)
    amplitude = np.round(18.0 * np.exp(-0.0084 * t), 1)
    table = _table(tmp_path, "cycle number,t [s],amplitude [deg]", [cycles, t, amplitude])
    decide_roles([table], Handout.of(["Plot ln A against t and find the damping constant."]))
    assert table.summary.x == "t"
    assert [c.name for c in table.summary.columns] == ["t", "amplitude"]


def test_a_time_measured_against_the_variable_alone_stays_the_response(tmp_path: Path) -> None:
    distance = np.arange(0.2, 1.3, 0.1)
    time = np.round(distance / 0.5, 3)  # a cart at constant speed: the times are the data
    table = _table(tmp_path, "distance (m),time (s)", [distance, time])
    decide_roles([table], Handout.of([]))
    assert [c.key for c in table.summary.columns] == ["distance", "time"]
    assert table.summary.row_numbers == []


def test_a_formula_that_defines_a_quantity_names_no_predictors(tmp_path: Path) -> None:
    """Wording of real handouts: Vernier's 'Fill Factor and IV Curve of a Solar Panel' (the
    fill factor is the smaller rectangle over the larger) and a Physics II manual's 'Calculate
    the power using the relation, P = V x I'."""
    voltage = np.arange(0.0, 0.6, 0.05)
    current = np.round(0.14 - 1e-9 * np.exp(voltage / 0.026), 5)
    table = _table(tmp_path, "V (V),I (A)", [voltage, current])
    text = ("6. Tabulate all readings. Calculate the power using the relation, P = V x I.\n"
            "C. Calculate the fill factor FF = (I_MP·V_MP)/(I_SC·V_OC).\n")  # fmt: skip
    handout = Handout.of(["Plot the I-V curve of the cell."], text)
    decide_roles([table], handout)
    assert table.summary.predictors == []
    assert "predictors" not in table.summary.roles
    assert table.summary.x == "V"


def test_a_loggers_sampling_clock_beside_a_swept_sensor_is_set_aside() -> None:
    """A PASCO light sensor swept across a slit's pattern and back (tests/data/real/optics):
    the intensity is fitted against the position y, and the logger's clock t, in steps of
    0.05 s, is no response to y."""
    [table] = read_data(Folder(REAL / "optics"), "capstone_diffraction_arianna_0.02_1.5.tsv").tables
    decide_roles([table], Handout.of(["Determine the diffraction pattern: I against y."]))
    summary = table.summary
    assert summary.x == "y"
    assert [c.key for c in summary.row_numbers] == ["t"]
    [note] = row_number_notes([summary])
    assert note.startswith("t (capstone_diffraction_arianna_0.02_1.5.tsv) keeps the record's time")
