"""Columns a file names by their unit alone: `V`, `mA (1k)`, `°C`, as a quick lab export or
a student's sheet heads them. Such a column is its unit's quantity (`mA` a current), so it
is named by that quantity with the header's label kept (`current (1k)`) and carries the
unit: a task's `I` or "the current" then finds it (tools.columns.column_names), and its fits are
in mA.

A header of one letter (`V`, `s`, `m`) is as often a symbol as a unit: it is read as a unit
only where every column is headed by a unit and one of them without doubt (`V` beside `mA`).
"""

from __future__ import annotations

import re

from labscribe.tools.columns.symbol_dimensions import dimension_is
from labscribe.tools.columns.units import canonical, unit_word

# The quantity each unit measures, by pint's dimension of the unit, in the order tried.
QUANTITY_OF_UNIT = (
    ("voltage", "volt"), ("current", "ampere"), ("resistance", "ohm"),
    ("frequency", "hertz"), ("time", "second"), ("temperature", "kelvin"),
    ("length", "meter"), ("mass", "gram"), ("force", "newton"), ("pressure", "pascal"),
    ("power", "watt"), ("energy", "joule"), ("capacitance", "farad"), ("charge", "coulomb"),
    ("inductance", "henry"), ("magnetic field", "tesla"), ("speed", "meter / second"),
)  # fmt: skip
_UNIT_HEADER = re.compile(
    r"^(?P<unit>[^\s()\[\]]{1,8})(?:\s*[(\[](?P<label>[^()\[\]]{1,24})[)\]])?$"
)

# `dV`, `dt`, `ct`: a difference's or an uncertainty's name, not a deci- or centi-unit
_DELTA = re.compile(r"^[dcΔδ](?!m$|L$|B|eg)[A-Za-zΩ]")


def unit_quantity(unit: str) -> str | None:
    """The quantity a unit measures (`mA` a current, `°C` a temperature), else None."""
    return next((name for name, ref in QUANTITY_OF_UNIT if dimension_is(unit, (ref,))), None)


def named_by_units(spelled: list[tuple[str, str, str]]) -> list[tuple[str, str, str]]:
    """(header, name, unit) of each column, those headed by a unit alone named by its
    quantity and given the unit."""
    found = [_unit_header(text) if not unit else None for text, _, unit in spelled]
    sure = [f is not None and len(f[0]) > 1 for f in found]
    letters_too = all(f is not None for f in found) and any(sure)
    return [
        (text, _name(*f), canonical(f[0]) or f[0]) if f and (certain or letters_too)
        else (text, name, unit)
        for (text, name, unit), f, certain in zip(spelled, found, sure, strict=True)
    ]  # fmt: skip


def _unit_header(text: str) -> tuple[str, str] | None:
    """(unit as written, label) of a header that is a unit of a known quantity, else None."""
    match = _UNIT_HEADER.match(" ".join(text.split()))
    if match is None or canonical(match["unit"]) is None or _DELTA.match(match["unit"]):
        return None
    if match["unit"] == "pH":  # a column headed `pH` holds the acidity, not picohenries
        return None
    if unit_quantity(canonical(match["unit"]) or "") is None:
        return None
    return match["unit"], (match["label"] or "").strip()


def _name(unit: str, label: str) -> str:
    """A unit's quantity, with the header's label; a unit written as a word (`Volts`) is a
    name of its own."""
    if unit_word(unit):
        return f"{unit} ({label})" if label else unit
    quantity = unit_quantity(canonical(unit) or unit) or unit
    return f"{quantity} ({label})" if label else quantity
