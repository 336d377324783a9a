"""A formula that takes absolute temperature, fitted in kelvin, the response on the side the
formula puts alone.

A law that is not a straight line in T (1/T in the B-equation R = R25·exp[B(1/T − 1/T25)] and
in Steinhart–Hart, exp(−Ea/(R·T)) in Arrhenius, T⁴ in Stefan–Boltzmann) depends on where the
scale's zero lies: fitted to a column in °C it gives numbers with no meaning. A column in °C
(or °F) is converted to kelvin for such a formula, and the report says so. A law affine in T
(R = R0·(1 + α·T)) is the same law on either scale and is left as the column gives it.

Where the columns of a fit are the formula's the other way round (the formula writes R of T,
the fit has T of R) and their units say so, the fit is turned to the formula's way: the
response is the side the formula puts alone.
"""

from __future__ import annotations

import dataclasses
import re
from fractions import Fraction

import numpy as np
import sympy

from labscribe.tools.columns.symbol_dimensions import CONVENTIONAL, dimension_is, pint_unit
from labscribe.tools.columns.unit_library import unit_registry
from labscribe.tools.fits.fit_result import Fit
from labscribe.tools.formulas.dimensions import solve_dimensions
from labscribe.tools.formulas.formula_parse import (
    Formula,
    FormulaError,
    parse_expression,
    parse_formula,
)

KELVIN = "K"
# a kelvin written after a number inside a formula (`1/298.15 K`): the unit, not a parameter
_KELVIN_AFTER_NUMBER = re.compile(r"\d\s*K\b")
# "R in Ω", "T in K": a symbol, `in`, a unit (up to a comma, bracket or blank)
_STATED = re.compile(r"\b([A-Za-zα-ωΑ-Ω]\w{0,3})\s+in\s+([^\s,;)]{1,8})")


def offset_scale(unit: str) -> bool:
    """Whether `unit` is a temperature scale whose zero is not absolute zero (°C, °F)."""
    parsed = pint_unit(unit)
    if parsed is None:
        return False
    registry = unit_registry()
    return parsed in (registry.degC, registry.degF)


def to_kelvin(values: np.ndarray, unit: str) -> np.ndarray:
    """`values` in `unit` (°C or °F) as kelvin, by pint."""
    registry = unit_registry()
    return np.asarray(registry.Quantity(np.asarray(values, float), pint_unit(unit)).to("K").m)


def from_kelvin(values: np.ndarray, unit: str) -> np.ndarray:
    """`values` in kelvin as `unit` (°C or °F), by pint."""
    registry = unit_registry()
    return np.asarray(registry.Quantity(np.asarray(values, float), "K").to(pint_unit(unit)).m)


def needs_absolute(formula: Formula, symbol: str) -> bool:
    """Whether `formula` takes `symbol` (its variable or, as written on the left, its
    response) from absolute zero: its form changes with the zero of the scale (_scale_bound)."""
    if symbol == formula.x:
        expression = formula.sympy
    elif symbol == formula.y:
        left = formula.text.partition("=")[0]
        try:
            expression = parse_expression(left)
        except FormulaError:
            return False
    else:
        return False
    found = {s.name: s for s in expression.free_symbols}.get(symbol)
    if found is None:
        return False
    return _scale_bound(expression, found)


def _scale_bound(expression: sympy.Expr, t: sympy.Symbol) -> bool:
    """Whether a shift of T's zero changes the law's form, not only its parameters: T under a
    negative or fractional power (1/T, exp(−Ea/(R·T))) or a logarithm, or a power of T with
    no lower one (s·T⁴). A polynomial with all its terms, or exp(b·T), takes the shift into
    its parameters: such a law is fitted on the scale the column gives."""
    for power in expression.atoms(sympy.Pow):
        if t in power.base.free_symbols and not (power.exp.is_integer and power.exp > 0):
            return True
    if any(t in f.free_symbols for f in expression.atoms(sympy.log)):
        return True
    try:
        polynomial = sympy.Poly(sympy.expand(expression), t)
    except sympy.PolynomialError:
        return False  # exp(b·T) and the like: the shift goes into the amplitude
    degree = polynomial.degree()
    return degree >= 2 and polynomial.coeff_monomial(t ** (degree - 1)) == 0


def turned(formula: Formula, fit: Fit) -> bool:
    """Whether `fit`'s columns are `formula`'s the other way round, by the quantities its
    symbols conventionally stand for (R a resistance, T a temperature): the fit's x has the
    unit of the formula's response and its y the unit of the formula's variable, and not
    the other way."""
    if formula.y is None:
        return False
    of_x, of_y = CONVENTIONAL.get(formula.x), CONVENTIONAL.get(formula.y)
    if not of_x or not of_y or of_x == of_y:
        return False
    straight = dimension_is(fit.x_unit, of_x) or dimension_is(fit.y_unit, of_y)
    return not straight and dimension_is(fit.y_unit, of_x) and dimension_is(fit.x_unit, of_y)


def kelvin_sides(formula: Formula, fit: Fit) -> tuple[bool, bool]:
    """Which of `fit`'s x and y (in the formula's roles) are on a °C or °F scale where
    `formula` takes absolute temperature."""
    x = offset_scale(fit.x_unit) and needs_absolute(formula, formula.x)
    y = formula.y is not None and offset_scale(fit.y_unit) and needs_absolute(formula, formula.y)
    return x, y


def in_kelvin(
    formula: Formula, fit: Fit, x: np.ndarray, y: np.ndarray
) -> tuple[Formula, Fit, np.ndarray, np.ndarray]:
    """`formula` and the data as the fit needs them: a °C or °F column the formula takes as
    absolute temperature converted to kelvin (the fit's unit K, `kelvin_from` its scale, a
    note saying so), and a kelvin written after a number in the formula (`1/298.15 K`) read
    as the unit, not as a parameter. Unchanged where the formula is affine in T."""
    on_x, on_y = kelvin_sides(formula, fit)
    if not (on_x or on_y):
        return formula, fit, x, y
    converted = {}
    if on_x:
        converted[fit.x] = fit.x_unit
        x = to_kelvin(x, fit.x_unit)
    if on_y:
        converted[fit.y] = fit.y_unit
        y = to_kelvin(y, fit.y_unit)
    names = " and ".join(f"{name} (in {unit})" for name, unit in converted.items())
    note = (f"{names} converted to kelvin for {formula.text}, which takes absolute "
            f"temperature: a law that is not a straight line in T changes with the zero of "
            f"its scale")  # fmt: skip
    fit = fit.model_copy(
        update={
            "x_unit": KELVIN if on_x else fit.x_unit,
            "y_unit": KELVIN if on_y else fit.y_unit,
            "kelvin_from": converted,
            "notes": [*fit.notes, note],
        }
    )
    return kelvin_as_unit(formula), fit, x, y


def kelvin_as_unit(formula: Formula) -> Formula:
    """`formula` with a `K` written after a number (`1/298.15 K`) read as the kelvin: the
    temperatures are in kelvin, so the number stands as it is."""
    if KELVIN not in formula.parameters or not _KELVIN_AFTER_NUMBER.search(formula.text):
        return formula
    written = formula.sympy
    kelvin = next(s for s in written.free_symbols if s.name == KELVIN)
    expression = written.subs(kelvin, 1)
    parameters = tuple(p for p in formula.parameters if p != KELVIN)
    if not parameters:
        return formula
    return Formula(
        text=formula.text, y=formula.y, x=formula.x,
        expression=sympy.sstr(expression, full_prec=False), parameters=parameters,
        linear=frozenset(p for p in formula.linear if p != KELVIN),
    )  # fmt: skip


def as_the_formula_takes(
    fit: Fit,
    formula_text: str,
    task: str,
    symbols: dict[str, str],
    x: np.ndarray,
    y: np.ndarray,
    sigma: np.ndarray | None,
    x_names: tuple[str, ...],
) -> tuple[Fit, np.ndarray, np.ndarray, np.ndarray | None]:
    """`fit` of a requested formula and its data as the formula takes them: turned to the
    formula's way where the columns' units say the fit has them the other way round (only
    where no symbol was matched to them by name and no uncertainty column weights y), then
    a °C or °F column the formula takes as absolute temperature in kelvin (in_kelvin)."""
    matched = fit.x in symbols or fit.y in symbols
    try:
        formula = parse_formula(formula_text, x_names, variable=symbols.get(fit.x),
                                response=symbols.get(fit.y))  # fmt: skip
    except FormulaError:
        return fit, x, y, sigma
    if not matched and sigma is None and turned(formula, fit):
        fit = fit.model_copy(update={"x": fit.y, "y": fit.x, "x_unit": fit.y_unit,
                                     "y_unit": fit.x_unit})  # fmt: skip
        x, y = y, x
    _, fit, x, y = in_kelvin(formula, fit, x, y)
    fit, x, y, sigma = in_stated_units(formula, fit, task, x, y, sigma)
    return fit, x, y, sigma


def stated_units(task: str) -> dict[str, str]:
    """The units a task says its formula's symbols are taken in: "(R in Ω, T in K)",
    "with p in kPa and V in L" (symbol, then `in`, then a unit pint reads)."""
    found = {}
    for symbol, unit in _STATED.findall(task):
        if pint_unit(unit) is not None:
            found[symbol] = unit
    return found


def in_stated_units(
    formula: Formula,
    fit: Fit,
    task: str,
    x: np.ndarray,
    y: np.ndarray,
    sigma: np.ndarray | None,
) -> tuple[Fit, np.ndarray, np.ndarray, np.ndarray | None]:
    """The fit's columns in the units `task` states for the formula's symbols (R in Ω where
    the file has kΩ): Steinhart–Hart's A depends on the unit of ln R. A scale unit (°C) is
    left to in_kelvin; a unit of another dimension is ignored."""
    stated = stated_units(task)
    notes = []
    for side, symbol in (("x", formula.x), ("y", formula.y)):
        unit = stated.get(symbol or "")
        have = fit.x_unit if side == "x" else fit.y_unit
        if unit is None or not have or offset_scale(have) or offset_scale(unit):
            continue
        factor = _factor(have, unit)
        if factor is None or factor == 1.0:
            continue
        name = fit.x if side == "x" else fit.y
        notes.append(f"{name} converted from {have} to {unit}, as the task takes {symbol} in "
                     f"{unit}")  # fmt: skip
        if side == "x":
            x, fit = x * factor, fit.model_copy(update={"x_unit": unit})
        else:
            y, fit = y * factor, fit.model_copy(update={"y_unit": unit})
            sigma = None if sigma is None else sigma * factor
    if not notes:
        return fit, x, y, sigma
    return fit.model_copy(update={"notes": [*fit.notes, *notes]}), x, y, sigma


def _factor(have: str, unit: str) -> float | None:
    """How many `unit` one `have` is (1000 Ω in a kΩ); None where pint cannot convert."""
    try:
        return float(unit_registry().Quantity(1.0, pint_unit(have)).to(pint_unit(unit)).m)
    except Exception:  # pint refuses units of other dimensions, whatever its reason
        return None


def with_kelvin_units(fitted: Fit, written: Formula) -> Fit:
    """`fitted` (of `written` with its `K` read as the kelvin, kelvin_as_unit) with its
    parameters' units found from `written`, the `K` in the unit of the temperature: B of
    exp[B(1/T − 1/298.15 K)] in kelvin."""
    if KELVIN not in written.parameters:
        return fitted
    x_dimension = (Fraction(0), Fraction(1))
    fixed = dataclasses.replace(
        written, parameters=tuple(p for p in written.parameters if p != KELVIN)
    )
    values = {p.name: p.value for p in fitted.parameters}
    # `1/298.15 K` reads as (1/298.15)·K, the kelvin over the number: K as written, or as meant
    for kelvin in (x_dimension, (Fraction(0), Fraction(-1))):
        found = solve_dimensions(fixed, {written.x: x_dimension, KELVIN: kelvin},
                                 (Fraction(1), Fraction(0)), values)  # fmt: skip
        if found:
            break
    else:
        return fitted
    return fitted.with_units(found)


def as_written(formula_text: str, task: str) -> str:
    """`formula_text` with the reciprocal the task writes on its left side (`1/T = A + B·ln R
    + …`, Steinhart–Hart) where the formula as read lost it: T and 1/T are not one law."""
    left = formula_text.partition("=")[0].strip()
    if not left or left.startswith("1/"):
        return formula_text
    if re.search(r"(?<![\w.])1\s*/\s*" + re.escape(left) + r"\s*=", task) is None:
        return formula_text
    return f"1/{formula_text}"
