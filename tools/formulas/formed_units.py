"""The unit of a quantity formed from columns (tools.formulas.formed_columns), from its formula and
the units of its symbols: kept as the written units it is a product of, with their powers,
and named as pint names the product where it equals a named unit (V·A is W)."""

from __future__ import annotations

from fractions import Fraction

import sympy

from labscribe.tools.columns.symbol_dimensions import pint_unit
from labscribe.tools.columns.unit_library import unit_registry

Units = dict[str, Fraction]
"""A unit as the written units it is a product of, with their powers: {"s": 2}."""
# Named units a product of units is written as when it equals one (V·A is W).
_NAMED = ("W", "J", "N", "Pa", "C", "ohm", "Hz", "F", "H", "T", "Wb", "S")


def multiplicative(unit: str) -> bool:
    return bool(unit_registry().Quantity(1, unit)._is_multiplicative)


def unit_of(expression: sympy.Expr, units: dict[str, Units]) -> Units | None:
    """The unit of `expression` from its symbols' units; None where it has none (a sum of
    different units). A logarithm's or an exponential's is none at all ({}): its argument's
    unit is said in the description."""
    if expression.is_Symbol:
        return dict(units[expression.name])
    if expression.is_number:  # 2, and π of φ = 2π·a/b
        return {}
    if isinstance(expression, sympy.Add):
        terms = [unit_of(a, units) for a in expression.args if not a.is_number]
        first = terms[0] if terms else {}
        return first if all(u == first for u in terms) else None
    if isinstance(expression, sympy.Mul):
        total: Units = {}
        for argument in expression.args:
            part = unit_of(argument, units)
            if part is None:
                return None
            for name, power in part.items():
                total[name] = total.get(name, Fraction(0)) + power
        return {name: power for name, power in total.items() if power}
    if isinstance(expression, sympy.Pow) and expression.exp.is_Rational:
        base = unit_of(expression.base, units)
        power = Fraction(int(expression.exp.p), int(expression.exp.q))
        return None if base is None else {n: p * power for n, p in base.items()}
    if isinstance(expression, (sympy.log, sympy.exp, sympy.sin, sympy.cos, sympy.tan)):
        return {}  # of a pure number (an angle in radians)
    return None


def unit_text(units: Units) -> str:
    """`s^2`, `nm^-1`, `V·A` as `W` (pint says when a product is a named unit)."""
    parts = sorted(units.items(), key=lambda item: -item[1])
    text = "·".join(name if power == 1 else f"{name}^{_power(power)}" for name, power in parts)
    if len(parts) > 1:
        quantity = _quantity(text)
        for named in _NAMED:
            try:
                if quantity is not None and abs(quantity.to(named).magnitude - 1) < 1e-9:
                    return "Ω" if named == "ohm" else named
            except Exception:  # pint: not of this dimension
                continue
    return text


def pure_number_scale(units: Units) -> float | None:
    """How many ones a product of units that cancel is (`µs·Hz` is 1e-6), None where the
    product has a dimension or is no product: a formed 2π·f·Δt is then given as the
    number it is, not in µs·Hz, where a reader would take 6283 for radians."""
    if len(units) < 2:
        return None
    quantity = _quantity(unit_text(units))
    if quantity is None or not quantity.dimensionless:
        return None
    return float(quantity.to("dimensionless").magnitude)


def _power(power: Fraction) -> str:
    return str(power.numerator) if power.denominator == 1 else f"({power})"


def _quantity(text: str):
    unit = pint_unit(text)
    return None if unit is None else unit_registry().Quantity(1, unit)
