"""Quantities derived from what the analysis computed: g = 4π²/a² from a pendulum's power
law, τ against R·C from a parameter file. The explorer names the quantity and writes its
expression; labscribe evaluates it with the `uncertainties` package, so the uncertainty is
propagated (with the covariance of parameters fitted together), and every number stays
computed.

The expression is read as a formula is (tools.formulas.formula_parse: names, numbers and arithmetic
only) and evaluated by walking its sympy tree with `uncertainties`' functions: no code is run.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import sympy
from pydantic import BaseModel, Field
from uncertainties import UFloat, correlated_values, ufloat, umath

from labscribe.tools.fits.fit_result import Fit, Parameter, format_value
from labscribe.tools.formats.parameters import ParameterRow
from labscribe.tools.formulas.formula_eval import evaluate_tree
from labscribe.tools.formulas.formula_parse import FormulaError, parse_expression

MAX_LISTED = 40  # names an unknown-name error lists
UNCERTAIN_FUNCTIONS = {  # sympy's functions as `uncertainties` computes them
    sympy.exp: umath.exp, sympy.log: umath.log, sympy.sin: umath.sin, sympy.cos: umath.cos,
    sympy.tan: umath.tan, sympy.atan: umath.atan, sympy.asin: umath.asin,
    sympy.acos: umath.acos, sympy.sinh: umath.sinh, sympy.cosh: umath.cosh,
    sympy.tanh: umath.tanh, sympy.Abs: abs,
}  # fmt: skip


class Derived(BaseModel):
    """A quantity computed from the analysis's values."""

    name: str
    expression: str
    value: float
    stderr: float | None
    unit: str = ""
    """As the explorer states it: labscribe does not check it."""
    inputs: list[str] = Field(default_factory=list)
    """The values it was computed from, each with its source."""

    def text(self) -> str:
        shown = format_value(Parameter(name=self.name, value=self.value, stderr=self.stderr,
                                       unit=self.unit))  # fmt: skip
        return f"{self.name} = {shown}, from {self.expression} with {'; '.join(self.inputs)}"


@dataclass(frozen=True)
class Known:
    """A value an expression may name: a fitted parameter or a setting."""

    value: UFloat | float
    unit: str
    source: str


def known_values(fits: list[Fit], settings: list[ParameterRow]) -> dict[str, Known]:
    """Every value a derivation may use, by the name it is used under: a fitted parameter
    by its name where one fit has it (`a`, `f0`), else with its column (`slope_U`); a
    setting's number by its name (`R_nominal`), where no parameter has that name."""
    known: dict[str, Known] = {}
    fitted = [fit for fit in fits if fit.model is not None and fit.parameters]
    counts: dict[str, int] = {}
    for fit in fitted:
        for parameter in fit.parameters:
            counts[parameter.name] = counts.get(parameter.name, 0) + 1
    for fit in fitted:
        values = uncertain_parameters(fit)
        source = f"the {fit.model} fit of {fit.y_label} against {fit.x_label} in {fit.table}"
        for parameter in fit.parameters:
            name = parameter.name
            if counts[name] > 1:
                name = _identifier(f"{name}_{fit.y}")
                if name in known:
                    name = _identifier(f"{name}_{len(known)}")
            known[name] = Known(values[parameter.name], parameter.unit, source)
    for row in settings:
        name = _identifier(row.name)
        if row.number is not None and name and name not in known:
            known[name] = Known(row.number, row.unit, row.source or "the settings")
    return known


def derive(name: str, expression: str, unit: str, known: dict[str, Known]) -> Derived:
    """`expression` evaluated with the `known` values, uncertainty propagated. Raises
    FormulaError, for the explorer to read, when it does not parse or names an unknown
    value (the message lists those it may use)."""
    text = expression.strip()
    if "=" in text:
        text = text.split("=", 1)[1]  # "g = 4*pi^2/a^2" names the quantity twice
    parsed = parse_expression(text)
    names = sorted(symbol.name for symbol in parsed.free_symbols)
    unknown = [n for n in names if n not in known]
    if unknown:
        listed = ", ".join(list(known)[:MAX_LISTED]) or "none: nothing has been fitted yet"
        raise FormulaError(
            f"{', '.join(unknown)} {'is' if len(unknown) == 1 else 'are'} not among the "
            f"values the analysis computed; these are: {listed}"
        )
    try:
        result = evaluate_tree(parsed, {n: known[n].value for n in names}, UNCERTAIN_FUNCTIONS)
    except (ValueError, ZeroDivisionError, OverflowError) as exc:
        raise FormulaError(f"cannot evaluate {expression}: {exc}") from exc
    value = float(result.nominal_value) if isinstance(result, UFloat) else float(result)
    error = float(result.std_dev) if isinstance(result, UFloat) else None
    if not math.isfinite(value):
        raise FormulaError(f"{expression} is not a finite number with these values")
    inputs = [f"{n} = {_shown(known[n])} ({known[n].source})" for n in names]
    return Derived(name=name, expression=expression.strip(), value=value,
                   stderr=error if error is None or math.isfinite(error) else None,
                   unit=unit, inputs=inputs)  # fmt: skip


def uncertain_parameters(fit: Fit) -> dict[str, UFloat | float]:
    """A fit's parameters as uncertain numbers, correlated as the fit found them."""
    free = [p for p in fit.parameters if not p.derived and p.stderr is not None]
    covariance = fit.covariance or {}
    values: dict[str, UFloat | float] = {}
    if free and all(p.name in covariance for p in free):
        matrix = [[covariance[a.name].get(b.name, 0.0) for b in free] for a in free]
        try:
            correlated = correlated_values([p.value for p in free], matrix)
        except (ValueError, ArithmeticError):
            correlated = None
        if correlated is not None:
            values |= dict(zip((p.name for p in free), correlated, strict=True))
    for parameter in fit.parameters:
        if parameter.name not in values:
            error = parameter.stderr
            values[parameter.name] = (
                ufloat(parameter.value, error) if error is not None else parameter.value
            )
    return values


def _identifier(text: str) -> str:
    """`text` as a name an expression can use: `Init E` -> `Init_E`."""
    name = re.sub(r"\W+", "_", text).strip("_")
    return name if name and not name[0].isdigit() else ""


def _shown(known: Known) -> str:
    value = known.value
    if isinstance(value, UFloat):
        parameter = Parameter(name="", value=value.nominal_value, stderr=value.std_dev,
                              unit=known.unit)  # fmt: skip
        return format_value(parameter)
    return f"{value:g} {known.unit}".strip()
