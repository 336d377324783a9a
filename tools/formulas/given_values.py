"""What a task gives besides its formula: a value for one of the formula's symbols ("with
U_T = 25.85 mV at room temperature") and a range of the variable to fit in ("in the
exponential region (about 0.30 V to 0.65 V)").

A value the task gives is fixed, not fitted: in the Shockley equation I = I_S·(exp(U/(n·U_T))
− 1) the data determine only the product n·U_T, and with both free the fit returns
n = (0 ± 24)e12. A range the task names restricts the fit to it: a diode's current below
0.3 V is at the noise floor and above 0.65 V bent by the series resistance.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from fractions import Fraction

import numpy as np
import sympy

from labscribe.tools.columns.si_units import si_of
from labscribe.tools.columns.written_numbers import NUMBER, number_of
from labscribe.tools.fits.fit_result import Fit
from labscribe.tools.fits.fit_runs import MIN_POINTS
from labscribe.tools.formats.parameters import ParameterRow
from labscribe.tools.formulas.dimensions import solve_dimensions
from labscribe.tools.formulas.formula_parse import Formula, substituted
from labscribe.tools.formulas.prediction import predictions

_UNIT = r"[A-Za-zµμΩ°%][A-Za-z0-9µμΩ°/·^*\-]*"
_RANGE = re.compile(
    rf"(?:from|between|von|zwischen|\()?\s*(?P<low>{NUMBER})\s*(?P<low_unit>{_UNIT})?\s*"
    rf"(?:to|and|bis|und|–|—|-|\.\.\.?|…|至|到|"
    # "20,0 °C ≤ T ≤ 30,0 °C", "0.3 V < U < 0.65 V": the variable between its bounds
    rf"(?:≤|<=|<)\s*(?P<variable>[A-Za-z\u0370-\u03ff][\w]*)\s*(?:≤|<=|<))"
    rf"\s*(?P<high>{NUMBER})\s*(?P<high_unit>{_UNIT})",
)


def given_values(
    text: str,
    symbols: list[str],
    units: list[str],
    defined: dict[str, tuple[float, str]] | None = None,
) -> dict[str, tuple[float, str]]:
    """The values `text` gives for `symbols` (`U_T = 25.85 mV`), else the value it
    `defined` by a formula (defined_values), each with its unit: a value with no unit as it
    stands, one with a unit converted to the first of `units` (the columns' units) of its
    dimension (U_T = 0.02585 V against U in V); a value whose unit is none of theirs is left
    out, as the fit could not take it."""
    found: dict[str, tuple[float, str]] = {}
    for symbol in symbols:
        spelled = re.escape(symbol).replace("_", r"_?\{?") + r"\}?"
        match = re.search(
            # a value, not a side of a formula: `A/U_0 = 1/√(...)` gives U_0 no value
            rf"(?<![\w\\/]){spelled}\s*(?:=|≈|≃)\s*(?P<value>{NUMBER})(?!\s*[/*·⋅^(√])"
            rf"\s*(?P<unit>{_UNIT})?",
            text,
        )
        if match is not None:
            value, given = number_of(match["value"]), match["unit"] or ""
        elif defined and symbol in defined:
            value, given = defined[symbol]
        else:
            continue
        if not given:
            found[symbol] = (value, "")
            continue
        source = si_of(given)
        for unit in units:
            target = si_of(unit) if unit else None
            if source is None or target is None or source.dimension != target.dimension:
                continue
            if not (source.offset or target.offset):  # no shifted temperature scale
                found[symbol] = (value * source.scale / target.scale, unit)
            break
    return found


def defined_values(
    task: str, values: Sequence[ParameterRow], stated: Sequence[ParameterRow] = ()
) -> dict[str, tuple[float, str]]:
    """The symbols `task` defines by a formula of stated `values` and the constants it
    names ("V_T = k_B T/e, k_B = 1,380649×10⁻²³ J/K" with T stated elsewhere), each with its
    value and SI unit (tools.formulas.prediction works them out); and the values the handout's prose
    `stated` for symbols (U_0 = 4,2 V), with their units."""
    found = {row.name: (row.number, row.unit) for row in stated if row.number is not None}
    return found | {
        p.quantity: (p.value, p.unit) for p in predictions(task, [task], list(values), [])
    }


def named_range(text: str, unit: str, variable: str = "") -> tuple[float, float] | None:
    """The range of a variable measured in `unit` that `text` names ("0.30 V to 0.65 V",
    "between 0.3 and 0.65 V", "20,0 °C ≤ T ≤ 30,0 °C"), in `unit`; None where it names none
    in a unit of that dimension. A column without a unit takes the bounds of its own
    `variable` (T) as written."""
    target = si_of(unit) if unit else None
    for match in _RANGE.finditer(text):
        high_unit = match["high_unit"]
        low_unit = match["low_unit"] or high_unit
        low, high = number_of(match["low"]), number_of(match["high"])
        bare = not unit and variable and match["variable"] == variable
        if bare or high_unit == low_unit == unit:  # °C to °C: no scale, offset or not
            if low < high:
                return low, high
            continue
        if target is None:
            continue
        source, other = si_of(high_unit), si_of(low_unit)
        if source is None or other is None or source.dimension != target.dimension:
            continue
        if other.dimension != target.dimension or source.offset or target.offset:
            continue
        low, high = low * other.scale / target.scale, high * source.scale / target.scale
        if low < high:
            return low, high
    return None


def as_given(
    formula: Formula,
    fit: Fit,
    task: str,
    asked: set[str],
    x: np.ndarray,
    y: np.ndarray,
    sigma: np.ndarray | None,
    defined: dict[str, tuple[float, str]] | None = None,
) -> tuple[
    Formula, Fit, tuple[np.ndarray, np.ndarray, np.ndarray | None], dict[str, tuple[float, str]]
]:
    """`formula` with the values `task` gives for its parameters (not those it asks to
    determine) fixed, written or `defined` by a formula, and the points (x sorted) within the
    range of x it names, where it names one that leaves at least MIN_POINTS; `fit` with
    notes saying so; the values fixed, each with its unit."""
    notes: list[str] = []
    fixed: list[str] = []
    free = [p for p in formula.parameters if p not in asked]
    given = given_values(task, free, [fit.x_unit, fit.y_unit], defined)
    if not given or len(given) >= len(formula.parameters):
        given = {}
    else:
        formula = substituted(formula, {k: sympy.Float(v) for k, (v, _) in given.items()})
        written = {name: f"{value:.6g}{f' {unit}' if unit else ''}"
                   for name, (value, unit) in given.items()}  # fmt: skip
        fixed = [f"{name} = {value}" for name, value in written.items()]
        notes += [f"{name} fixed at {value}, the value the task gives, not fitted"
                  for name, value in written.items()]  # fmt: skip
    window = named_range(task, fit.x_unit, formula.x)
    update: dict[str, object] = {}
    if window is not None:
        inside = (x >= window[0]) & (x <= window[1])
        if MIN_POINTS <= inside.sum() < len(x):
            unit = f" {fit.x_unit}" if fit.x_unit else ""
            notes.append(
                f"fitted to the {int(inside.sum())} of {len(x)} points with {fit.x_label} from "
                f"{window[0]:g} to {window[1]:g}{unit}, the range the task names"
            )
            update["task_range"] = window
            x, y = x[inside], y[inside]
            sigma = None if sigma is None else sigma[inside]
    if not notes:
        return formula, fit, (x, y, sigma), given
    update |= {"notes": [*fit.notes, *notes], "fitted_points": len(x), "fixed": fixed}
    fit = fit.model_copy(update=update)
    return formula, fit, (x, y, sigma), given


def given_units(fitted: Fit, formula: Formula, given: dict[str, tuple[float, str]]) -> Fit:
    """`fitted` (of `formula` with the `given` values in) with its parameters' units found
    from `formula` as written, each given symbol in its unit: with U_T = 0.02585 V in as a
    bare number, n in U/(n·U_T) would take the volt that U_T carries."""
    if not given:
        return fitted
    x_dimension = (Fraction(0), Fraction(1))
    power = {fitted.x_unit: x_dimension, fitted.y_unit: (Fraction(1), Fraction(0)), "": None}
    known = {formula.x: x_dimension}
    for name, (_, unit) in given.items():
        known[name] = power.get(unit) or (Fraction(0), Fraction(0))
    values = {p.name: p.value for p in fitted.parameters}
    fixed = dataclasses.replace(
        formula, parameters=tuple(p for p in formula.parameters if p not in given)
    )  # a given symbol is known, not solved for
    found = solve_dimensions(fixed, known, (Fraction(1), Fraction(0)), values)
    if not found:
        return fitted
    return fitted.with_units(found)
