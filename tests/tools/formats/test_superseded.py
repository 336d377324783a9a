"""Columns a lab kept but set aside: by a name that says so, or as a second estimate of an
uncertainty another column gives."""

from __future__ import annotations

import pytest

from labscribe.tools.columns.column import Column
from labscribe.tools.formats.superseded import set_aside_superseded


def _column(name: str, unit: str = "", of: str | None = None) -> Column:
    return Column(key=name, header=name, name=name, unit=unit, count=5, uncertainty_of=of)


@pytest.mark.parametrize(
    "name", ["dp_Alt_verworfen", "sigma (discarded)", "T_scartato", "U descartada", "I rejeté"]
)
def test_a_name_that_says_discarded_is_set_aside(name: str) -> None:
    kept, notes = set_aside_superseded([_column("t", "s"), _column("U", "V"), _column(name)])
    assert [c.name for c in kept] == ["t", "U"]
    assert notes and name in notes[0]


def test_a_second_estimate_of_an_uncertainty_is_set_aside() -> None:
    columns = [_column("Temperatur", "°C"), _column("Druck", "hPa"),
               _column("dp", "hPa", of="Druck"), _column("dp_alt_von_Conrad")]  # fmt: skip
    kept, notes = set_aside_superseded(columns)
    assert [c.name for c in kept] == ["Temperatur", "Druck", "dp"]
    assert "another estimate of dp" in notes[0]


@pytest.mark.parametrize(
    "columns",
    [
        # an older reading is a quantity a difference may need
        [_column("t", "s"), _column("h_old", "cm"), _column("h_new", "cm")],
        # a name that begins as a measured column's, not as an uncertainty's
        [_column("p", "bar"), _column("p_2", "bar")],
        # in another unit than the uncertainty: another quantity
        [_column("U", "V"), _column("dU", "V", of="U"), _column("dU_rate", "V/s")],
    ],
)
def test_measured_columns_stay(columns: list[Column]) -> None:
    kept, notes = set_aside_superseded(columns)
    assert kept == columns and notes == []
