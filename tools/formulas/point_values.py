"""A value a handout gives a variable names a point, not a definition: "t = 100 dias", "x = 5
cm", "at T = 300 K", "para t = 100 días", "bei U = 5 V", "当 t = 100 s 时", "g = 9.81 m/s2"
say where to evaluate or predict (or a constant's value), never that a column is to be
scaled by 100 to form `t`. A right side that is a number and its unit, then prose or nothing,
is such a value.

A number times a symbol is still math: "d = 2 r" (one letter that is no unit), "E = 0.5 m
v^2" (the math goes on after the first name), "T = 2 π √(l/g)" (π is no unit), "d = 2r"
(a letter written onto a number is a unit only when it is one: "100d", "5cm", "300K").
"""

from __future__ import annotations

import re

from labscribe.tools.columns.units import known_unit
from labscribe.tools.formulas.formula_notation import GREEK, mathematical

_NUMBER = r"[-−+]?(?:\d+(?:[.,]\d+)?|[.,]\d+)(?:\s*(?:[eE][-+−]?\d+|[×x·*]\s*10\^?\{?[-−]?\d+\}?))?"
# A unit as written after a value: letters (accented, Greek µ and Ω too), then its powers,
# quotients and products (`m/s2`, `m³/h`, `kg·m^-3`, `°C`, `%`).
_UNIT = r"(?:[A-Za-zÀ-ɏµΩ°%][A-Za-zÀ-ɏµΩ°%/·⋅^²³⁻¹\d.-]*)"
_POINT = re.compile(rf"^\s*(?P<number>{_NUMBER})(?P<space>\s*)(?P<unit>{_UNIT})(?P<rest>.*)$", re.S)
# What tells that math goes on after the first name: an operator, or a symbol (one letter,
# with a subscript or index), "m v^2", "m r2", "m g h".
_MATH_GOES_ON = re.compile(r"^\s*(?:[-−+*/^·⋅×(=√]|[A-Za-z\u0370-\u03ff](?:_\w+|\d)?(?![\w]))")
# Days as labs abbreviate them (ISO 80000-3's `d`), which tools.columns.units leaves to a name's
# `d`.
_DAY = frozenset({"d"})


def is_point_value(right: str) -> bool:
    """Whether `right`, the right side of `name = right` as a handout writes it, gives a value
    with its unit (a point to evaluate at, or a constant's value) rather than a formula."""
    match = _POINT.match(right)
    if match is None:
        return False
    unit = match["unit"].rstrip(".-")
    if _MATH_GOES_ON.match(match["rest"]):
        return False
    if unit in GREEK or unit in GREEK.values() or mathematical(unit):
        return False  # `2 π`, `2 pi`, `0.5 exp(...)`: math, whatever follows
    letters = re.sub(r"[^A-Za-zÀ-ɏµΩ]", "", unit)
    if not match["space"] or len(letters) <= 1:
        # `2r`, `2 r`: a letter is a unit only when it is one (`5cm`, `300K`, `5 V`, `100 d`)
        return known_unit(unit) is not None or unit in _DAY
    return not re.search(r"[_]", unit)
