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

from labscribe.tools.fit_result import Fit
from labscribe.tools.formula_parse import FormulaError, parse_expression

# The standard models' time constants, each as the rate of its exponent: exp(−x/decay).
TIME_CONSTANTS = ("decay", "tau")


def through_the_model(
    name: str, definition: sympy.Expr, models: list[str], fit: Fit
) -> tuple[sympy.Expr, str] | None:
    """`name` (defined as `definition`) as an expression in `fit`'s time constant, by the
    first of the handout's `models` (written formulas) whose exponent's rate it fixes, with
    that model's formula; None where none does."""
    constant = next((p.name for p in fit.parameters if p.name in TIME_CONSTANTS), None)
    variables = {fit.variable, fit.x_label, fit.x} - {""}
    if constant is None or not definition.free_symbols:
        return None
    defined = sympy.Symbol(f"{name}_defined")
    rate = 1 / sympy.Symbol(constant)
    for written in models:
        rates = _rates(written, variables)
        for exponent_rate in rates:
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


def _rates(written: str, variables: set[str]) -> list[sympy.Expr]:
    """The rates k of the exponentials exp(−k·t) in the model `written`, t its variable."""
    try:
        model = parse_expression(written.partition("=")[2].strip().rstrip(".,;"))
    except FormulaError:
        return []
    rates = []
    for power in model.atoms(sympy.exp):
        argument = power.args[0]
        for variable in (s for s in argument.free_symbols if s.name in variables):
            rate = sympy.simplify(-argument / variable)
            if variable not in rate.free_symbols and rate != 0:
                rates.append(rate)
    return rates
