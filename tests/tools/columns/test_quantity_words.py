"""A column's name against its unit, on headers real exports write
(tools.columns.quantity_words)."""

from __future__ import annotations

import pytest

from labscribe.tools.columns.quantity_words import name_contradicts_unit, unit_doubt


@pytest.mark.parametrize(
    ("name", "unit"),
    [
        ("POTENZIALE", "mA"),  # LabFis3's voltmeter column
        ("Frequenz", "ms"),  # a KIT scope export's time axis
        ("Spannung", "A"),
        ("Zeit", "mV"),
        ("current", "V"),
    ],
)
def test_a_name_of_another_quantity_than_the_unit_contradicts_it(name: str, unit: str) -> None:
    assert name_contradicts_unit(name, unit)
    assert unit_doubt(name, unit).startswith(f"{name} is headed in {unit}, a ")


@pytest.mark.parametrize(
    ("name", "unit"),
    [
        ("CORRENTE", "mA"),
        ("Outside Last", "°C"),  # PicoLog's last reading, no German load
        ("Temperatur", "K"),
        ("Temperature", "°C"),
        ("Last", "kg"),  # a load in kilograms
        ("weight", "N"),
        ("potential energy", "J"),
        ("VDC", "V"),
        ("field strength", "V/m"),  # a unit no quantity word is kept for
        ("x", "mm"),
    ],
)
def test_a_name_that_agrees_or_names_nothing_leaves_the_unit_alone(name: str, unit: str) -> None:
    assert not name_contradicts_unit(name, unit)
    assert unit_doubt(name, unit) == ""
