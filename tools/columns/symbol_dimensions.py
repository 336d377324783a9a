"""Which quantity a formula's one-letter symbol conventionally stands for (ISO 80000: p a
pressure, T a temperature or a period, U a voltage, λ a length), and a column's unit as pint
reads it: where a handout's symbol names no column by name, the one column of that dimension
is it (tools.formulas.symbol_columns, tools.columns.column_names)."""

from __future__ import annotations

import re
from typing import Any

from labscribe.tools.columns.quantity_words import name_contradicts_unit, named_quantities
from labscribe.tools.columns.unit_library import unit_registry
from labscribe.tools.columns.units import canonical
from labscribe.tools.formulas.formula_notation import PRIME

# The quantity a one-letter symbol stands for by the usual conventions of physics (ISO
# 80000), as units it may be measured in: where a handout's symbol names no column by name,
# the one column of that dimension is it (p is the pressure column, T the temperature's).
CONVENTIONAL = {
    "T": ("kelvin", "second"), "t": ("second",), "p": ("pascal",), "P": ("watt",),
    "U": ("volt",), "V": ("volt",), "I": ("ampere",), "i": ("ampere",), "R": ("ohm",),
    "m": ("gram",),
    "l": ("meter",), "L": ("meter",), "s": ("meter",), "x": ("meter",), "d": ("meter",),
    "r": ("meter",), "lam": ("meter",), "f": ("hertz",), "nu": ("hertz",),
    "F": ("newton",), "C": ("farad",), "Q": ("coulomb",), "B": ("tesla",),
    "v": ("meter / second",), "E": ("volt", "joule"), "theta": ("kelvin", "radian"),
    "phi": ("radian",),
}  # fmt: skip
_ANGLES = frozenset({"radian", "milliradian", "degree", "arcminute", "arcsecond", "gradian"})
# Units as lab files write them that pint spells otherwise.
_PINT_SPELLING = (("°C", "degC"), ("℃", "degC"), ("°F", "degF"), ("µ", "u"), ("μ", "u"),
                  ("Ω", "ohm"), ("in Hg", "inHg"), ("mm Hg", "mmHg"), ("Torr", "torr"),
                  ("²", "^2"), ("³", "^3"), ("·", "*"), ("⋅", "*"))  # fmt: skip


def pint_unit(unit: str) -> Any:
    """`unit` as pint reads it, None where it reads none."""
    if not unit:
        return None
    text = canonical(unit) or unit  # German `Grad` is a degree, not pint's gigaradian
    if text == "a.u.":
        return None  # arbitrary units, not pint's year times atomic mass unit
    for written, spelled in _PINT_SPELLING:
        text = text.replace(written, spelled)
    try:
        return unit_registry().parse_units(text)
    except Exception:  # pint refuses what it cannot read, whatever its reason
        return None


def dimension_is(unit: str, references: tuple[str, ...]) -> bool:
    """Whether `unit` has the dimension of one of `references` (pint's unit names)."""
    parsed = pint_unit(unit)
    if parsed is None:
        return False
    if "radian" in references and str(parsed) in _ANGLES:
        return True  # pint's angles are dimensionless: a percentage is no angle
    registry = unit_registry()
    return any(parsed.dimensionality == registry.parse_units(r).dimensionality
               for r in references if r != "radian")  # fmt: skip


# The name of a recording's time coordinate, the symbol t's column (`TIME`, `Zeit`, `t`).
# Symbols that stand for one quantity of their dimension: λ a wavelength, not any length a
# column's name names (a Hall probe's `Abstand` to the sample, in mm).
_SPECIFIC = {"lam": re.compile(r"wave|wellen|onde|onda|fal[ia]\b|vln|волн|波长|λ|lambda", re.I)}
_TIME_AXIS = re.compile(r"(?:t|time|zeit|temps|tiempo|tempo|czas|tid|时间)\b", re.IGNORECASE)


def _named_otherwise(symbol: str, name: str) -> bool:
    """Whether a column's name names a quantity of the symbol's dimension other than the one
    the symbol stands for (`Abstand` for λ)."""
    specific = _SPECIFIC.get(symbol)
    return specific is not None and bool(named_quantities(name)) and not specific.search(name)


def conventional_column(symbol: str, columns: list[Any]) -> list[Any]:
    """The columns (one, or the repeated series of one quantity) whose unit has the
    dimension `symbol` conventionally stands for (a primed symbol, E′, its letter's), and
    whose name names no other quantity (`POTENZIALE [mA]` is no current); [] where none or
    several differ."""
    for unit in CONVENTIONAL.get(symbol.removesuffix(PRIME), ()):
        matching = [
            c for c in columns
            if dimension_is(c.unit, (unit,)) and not name_contradicts_unit(c.name, c.unit)
        ]  # fmt: skip
        matching = [c for c in matching if not _named_otherwise(symbol, c.name)]
        if unit == "second" and symbol != "t":  # a period T is no recording's time axis
            matching = [c for c in matching if not _TIME_AXIS.match(c.name.strip())]
        if len({(c.name, c.unit) for c in matching}) == 1:
            return matching
        if matching:
            return []
    return []
