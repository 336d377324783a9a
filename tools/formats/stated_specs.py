"""Values as datasheets and parameter files state them, beyond a number and its unit: with a
tolerance (`3977 K ± 0.75 %`, `10.0 kΩ ±1%`), as a range (`-40 ... +125 °C`, `17.5e-6 to
19.5e-6`), and a line that writes its name and value without a sign between them
(`Operating temperature -40 ... +125 °C`, `Dissipation constant 1.5 mW/K (still air)`).
"""

from __future__ import annotations

import re

from pydantic import BaseModel

from labscribe.tools.columns.units import canonical, split_value

_NUMBER = r"[-+−]?(?:\d+(?:[.,]\d*)?|[.,]\d+)(?:[eE][-+−]?\d+)?"
_TOLERANCE = re.compile(
    rf"^(?P<value>{_NUMBER})\s*(?P<unit>[^\s±]{{1,12}})?\s*(?:±|\+/-|\+-)\s*"
    rf"(?P<spread>{_NUMBER})\s*(?P<spread_unit>%|[^\s\d()]{{1,12}})?$"
)
_RANGE = re.compile(
    rf"^(?P<low>{_NUMBER})\s*(?:\.\.\.|…|–|—|\bto\b|\bbis\b|\bà\b|\ba\b|~)\s*(?P<high>{_NUMBER})"
    rf"\s*(?P<unit>[^\s\d()][^\s()]{{0,11}})?$"
)
# A name of words (a symbol may end it: `Dissipation constant`, `Operating temperature T`),
# then its value, then perhaps a note in parentheses: `(still air)`.
_NAMED = re.compile(
    r"^(?P<key>[^\W\d][\w/.-]*(?: [^\W\d][\w/.-]*){0,4})\s+"
    rf"(?P<value>{_NUMBER}.*?)\s*(?:\((?P<note>[^()]{{1,40}})\))?$"
)


class Stated(BaseModel):
    """A value as written, read: its number (the low end of a range), unit and tolerance."""

    number: float | None
    unit: str
    tolerance: str = ""


def read_stated(value: str) -> Stated | None:
    """The number, unit and tolerance of `3977 K ± 0.75 %`, or of a range `-40 ... +125 °C`
    (the number is its low end; the text keeps both); None for anything else."""
    text = value.strip().replace("−", "-")
    if match := _TOLERANCE.match(text):
        unit = _unit(match["unit"])
        spread_unit = _unit(match["spread_unit"]) if match["spread_unit"] else unit
        if unit is None or spread_unit is None:
            return None
        return Stated(
            number=float(match["value"].replace(",", ".")), unit=unit,
            tolerance=f"{match['spread']} {spread_unit}".strip(),
        )  # fmt: skip
    if match := _RANGE.match(text):
        unit = _unit(match["unit"])
        return None if unit is None else Stated(number=None, unit=unit)
    return None


def named_line(text: str) -> tuple[str, str, str] | None:
    """(name, value, note) of a datasheet line that writes a value after its name with no
    sign between (`Dissipation constant 1.5 mW/K (still air)`): only where the value reads
    as a number with a unit, a tolerance or a range, so a sentence ("Wait 5 times") is none."""
    match = _NAMED.match(text.strip())
    if match is None:
        return None
    value = match["value"].strip()
    number, unit = split_value(value)
    if (number is None or not unit) and read_stated(value) is None:
        return None
    return match["key"], value, match["note"] or ""


def _unit(token: str | None) -> str | None:
    """The unit as its usual spelling; "" for none; None when the token is not a unit."""
    if not token:
        return ""
    return canonical(token)
