"""A quantity a task defines from the symbols of the handout's model, worked out of a fitted
time constant: beside `θ(t) = A e^(−λt/(2I)) sin(…)`, "determine l = λ/I by regression" asks
for what the fit's decay gives, since the model's exponent −λt/(2I) is the fit's
−(t − t0)/decay: λ/(2I) = 1/decay, so l = 2/decay. Likewise τ = RC beside `U = U₀ e^(−t/RC)`.

The rate of the model's exponent (its factor of the time variable) is rewritten in the
defined quantity with sympy; a value is offered only where the rate then depends on that
quantity alone, so a model whose exponent holds other unknowns gives none.
"""

from __future__ import annotations

import sympy

from labscribe.tools.fits.fit_result import Fit
from labscribe.tools.formulas.formula_parse import FormulaError, parse_expression

# The standard models' time constants, each as the rate of its exponent: exp(−x/decay).
TIME_CONSTANTS = ("decay", "tau")

# A handout's model as written (`θ(t) = A e^(−λt/(2I)) sin(ωt)`) and its right side parsed.
Model = tuple[str, sympy.Expr]


def parsed_models(written: list[str]) -> list[Model]:
    """The formulas `written` whose right side parses, each parsed once for every fit."""
    models = []
    for formula in written:
        try:
            right = parse_expression(formula.partition("=")[2].strip().rstrip(".,;"))
        except FormulaError:
            continue
        models.append((formula, right))
    return models


def through_the_model(
    name: str, definition: sympy.Expr, models: list[Model], fit: Fit
) -> tuple[sympy.Expr, str] | None:
    """`name` (defined as `definition`) as an expression in `fit`'s time constant, by the
    first of the handout's `models` whose exponent's rate it fixes, with that model's
    formula as written; None where none does."""
    constant = next((p.name for p in fit.parameters if p.name in TIME_CONSTANTS), None)
    variables = {fit.variable, fit.x_label, fit.x} - {""}
    if constant is None or not definition.free_symbols:
        return None
    defined = sympy.Symbol(f"{name}_defined")
    rate = 1 / sympy.Symbol(constant)
    for written, model in models:
        for exponent_rate in _rates(model, variables):
            shared = sorted(definition.free_symbols & exponent_rate.free_symbols, key=str)
            if not shared:
                continue
            solved = sympy.solve(sympy.Eq(defined, definition), shared[0])
            if len(solved) != 1:
                continue
            in_defined = sympy.simplify(exponent_rate.subs(shared[0], solved[0]))
            if in_defined.free_symbols != {defined}:
                continue
            values = sympy.solve(sympy.Eq(in_defined, rate), defined)
            if len(values) == 1:
                return values[0], written
    return None


def _rates(model: sympy.Expr, variables: set[str]) -> list[sympy.Expr]:
    """The rates k of the exponentials exp(−k·t) in `model`, t its variable."""
    rates = []
    for power in model.atoms(sympy.exp):
        argument = power.args[0]
        for variable in (s for s in argument.free_symbols if s.name in variables):
            rate = sympy.simplify(-argument / variable)
            if variable not in rate.free_symbols and rate != 0:
                rates.append(rate)
    return rates
