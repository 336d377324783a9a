"""CASSY Lab 2's own `.labx` files are read as tables (tools.formats.cassy_labx): real recordings
of a capacitor's charge and discharge (tests/data/real/cassy, SOURCES.md), a file of two
measurement series, and files that are no CASSY file."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import numpy as np
import pytest

from labscribe.tools.formats.readers import NoTable
from labscribe.tools.formats.tables import read_data
from labscribe.tools.tool import Folder

CASSY = Path(__file__).parents[2] / "data" / "real" / "cassy"


def test_a_charging_curves_channels_are_one_table_with_their_units() -> None:
    data = read_data(Folder(CASSY), "kondensator_aufladen_01.labx")
    [table] = data.tables
    summary = table.summary
    assert summary.reader == "CASSY Lab 2"
    assert [(c.name, c.unit) for c in summary.columns] == [
        ("Zeit t", "s"), ("Stromstärke I_A1", "A"), ("Spannung U_B1", "V"),
    ]  # fmt: skip
    assert summary.x == "Zeit t" and [c.name for c in summary.row_numbers] == ["Index"]
    assert summary.rows == 2001
    time = table.frame["Zeit t"].to_numpy()
    assert time[0] == -0.025 and time[2] == -0.024900000000000002  # the digits written
    assert np.allclose(np.diff(time), 5e-05)
    settings = {row.name: (row.number, row.unit) for row in data.metadata}
    assert settings == {"measuring interval": (5e-05, "s"), "points per series": (2001.0, "")}


def _labx(tmp_path: Path, xml: str, member: str = "data.xml") -> Folder:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr(member, xml)
    (tmp_path / "run.labx").write_bytes(buffer.getvalue())
    return Folder(tmp_path)


def _channel(quantity: str, symbol: str, unit: str, values: list[float]) -> str:
    written = "".join(f"<value>{v}</value>" for v in values)
    return (f"<channel><quantity>{quantity}</quantity><symbol>{symbol}</symbol><unit>{unit}"
            f"</unit><values count=\"{len(values)}\">{written}</values></channel>")  # fmt: skip


def test_each_measurement_series_is_a_table_of_its_own(tmp_path: Path) -> None:
    """A channel recorded in two series stands twice in its `channels` element."""
    first, second = [0.0, 1.0, 2.0, 3.0, 4.0], [0.0, 2.0, 4.0, 6.0, 8.0]
    xml = (
        '<cassylab><allchannels count="2">'
        f'<channels count="2">{_channel("Zeit", "t", "s", first)}'
        f"{_channel('Zeit', 't', 's', first)}</channels>"
        f'<channels count="2">{_channel("Weg", "s", "m", first)}'
        f"{_channel('Weg', 's', 'm', second)}</channels>"
        "</allchannels></cassylab>"
    )
    data = read_data(_labx(tmp_path, xml), "run.labx")
    assert [t.frame["Weg s"].tolist() for t in data.tables] == [first, second]
    assert [t.summary.id for t in data.tables] == ["run.labx#1", "run.labx#2"]


@pytest.mark.parametrize(
    ("xml", "member", "reason"),
    [
        ("<cassylab/>", "content.xml", "holds no data.xml"),
        ("<cassylab><allchannels/></cassylab>", "data.xml", "no measurement series"),
    ],
)
def test_a_zip_that_is_no_cassy_recording_says_why(
    tmp_path: Path, xml: str, member: str, reason: str
) -> None:
    with pytest.raises(NoTable, match=reason):
        read_data(_labx(tmp_path, xml, member), "run.labx")
