"""A scope's columns take their units from the export's own settings (`Horizontal Units`,
`Vertical Units`) where the header names the columns but states no unit, as Tektronix's
MSO/MDO series writes its CSV (its settings block above a `TIME,CH1` header; the layout
written here from Tektronix's, the values a sine sampled at its sample interval)."""

from pathlib import Path

import numpy as np

from labscribe.tools.formats.tables import DataFile, read_data
from labscribe.tools.tool import Folder

SETTINGS = """Model,MSO24
Firmware Version,1.0.4
,
Waveform Type,ANALOG,
Point Format,Y,
Horizontal Units,s,
Horizontal Scale,0.0004,
Sample Interval,4e-07,
Record Length,20,
Probe Attenuation,10,
Vertical Units,V,
Vertical Offset,0,
Vertical Scale,1,
,
Label,,
"""


def trace() -> str:
    t = np.arange(-5, 15) * 4e-7
    return "".join(f"{a:.7e},{b:.4f},\n" for a, b in zip(t, np.sin(t / 4e-7), strict=True))


def test_named_scope_columns_take_the_units_of_the_settings(tmp_path: Path) -> None:
    (tmp_path / "tek0000.csv").write_text(SETTINGS + "TIME,CH1,\n" + trace())
    [table] = read_data(Folder(tmp_path), "tek0000.csv").tables
    assert [(c.name, c.unit) for c in table.summary.columns] == [("TIME", "s"), ("CH1", "V")]


def test_a_unit_the_header_states_is_kept_over_the_settings(tmp_path: Path) -> None:
    (tmp_path / "tek0001.csv").write_text(SETTINGS + "TIME (ms),CH1 (mV),\n" + trace())
    [table] = read_data(Folder(tmp_path), "tek0001.csv").tables
    assert [c.unit for c in table.summary.columns] == ["ms", "mV"]


def test_a_scopes_time_in_capitals_is_seconds(tmp_path: Path) -> None:
    """A real Tektronix DPO2002B export (tests/data/real/SOURCES.md) writes
    `Horizontal Units,S`: its time axis is in seconds, not siemens."""
    real = Path(__file__).resolve().parents[2] / "data" / "real" / "oscilloscope"
    (tmp_path / "T0000.CSV").write_bytes((real / "tektronix_DPO2002B_T0000.CSV").read_bytes())
    [table] = read_data(Folder(tmp_path), "T0000.CSV").tables
    assert (table.summary.columns[0].name, table.summary.columns[0].unit) == ("TIME", "s")


def test_a_comment_header_parted_by_blanks_where_the_data_have_tabs(tmp_path: Path) -> None:
    """A real photoelectric file (tests/data/real/SOURCES.md): `#U[V]<TAB>I[Ae-12]   dI[Ae-12]`
    names three columns, the last two parted by blanks; `Ae-12` is pA and dI is I's
    uncertainty."""
    real = Path(__file__).resolve().parents[2] / "data" / "real" / "conventions"
    (tmp_path / "365.txt").write_bytes((real / "fotoefekt_365.txt").read_bytes())
    [table] = read_data(Folder(tmp_path), "365.txt").tables
    columns = [(c.name, c.unit, c.uncertainty_of) for c in table.summary.columns]
    assert columns == [("U", "V", None), ("I", "pA", None), ("dI", "pA", "I")]


def _dpo2002b(tmp_path: Path, edit: tuple[str, str] = ("", "")) -> DataFile:
    real = Path(__file__).resolve().parents[2] / "data" / "real" / "oscilloscope"
    text = (real / "tektronix_DPO2002B_T0000.CSV").read_text()
    (tmp_path / "T0000.CSV").write_text(text.replace(*edit) if edit[0] else text)
    return read_data(Folder(tmp_path), "T0000.CSV")


def test_settings_written_per_channel_are_each_channels_own(tmp_path: Path) -> None:
    """The real DPO2002B export writes two channels' settings in their columns
    (`Probe Attenuation,1,,10,` above `TIME,CH1,CH1 Peak Detect,CH2,CH2 Peak Detect`):
    every channel is in volts, and CH2's probe attenuation is 10, CH1's 1; no setting row
    is read as a row of results (`0.0% to 100.0%` = 1)."""
    data = _dpo2002b(tmp_path)
    [table] = data.tables
    assert [(c.name, c.unit) for c in table.summary.columns] == [
        ("TIME", "s"), ("CH1", "V"), ("CH1 Peak Detect", "V"), ("CH2", "V"),
        ("CH2 Peak Detect", "V"),
    ]  # fmt: skip
    settings = {(row.section, row.key): row.value for row in data.metadata}
    assert settings[("CH1", "Probe Attenuation")] == "1"
    assert settings[("CH2", "Probe Attenuation")] == "10"
    assert settings[("CH2", "Vertical Scale")] == "2"
    assert not any("%" in row.key or row.key == "V" for row in data.metadata)
    assert len(table.frame) == 5200


def test_a_channel_in_other_units_keeps_its_own(tmp_path: Path) -> None:
    """A current probe on CH2 (`Vertical Units,V,,A,`): CH2 and its peak detect are in A."""
    data = _dpo2002b(tmp_path, ("Vertical Units,V,,V,", "Vertical Units,V,,A,"))
    units = {c.name: c.unit for c in data.tables[0].summary.columns}
    assert units == {"TIME": "s", "CH1": "V", "CH1 Peak Detect": "V", "CH2": "A",
                     "CH2 Peak Detect": "A"}  # fmt: skip
