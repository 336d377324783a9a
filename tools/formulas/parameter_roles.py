"""The roles a formula gives some of its parameters, read from its sympy tree: a position
that shifts the variable (a peak's centre, a start time), a period or rate that turns a sine.

They tell where such a parameter's values lie, which a scale from its dimension does not:
a position where the data are, a period from a periodogram (tools.formulas.starts); and a position
is held while the rest of a fit settles (tools.fits.requested_fits).
"""

from __future__ import annotations

import sympy

from labscribe.tools.formulas.formula_parse import Formula


def positions(formula: Formula) -> frozenset[str]:
    """The parameters that shift the variable (`b4` in `exp(-((x - b4)/b5)^2)`): a peak's
    centre, a start time; their values lie where the data do."""
    expression = formula.sympy
    found = set()
    for node in expression.atoms(sympy.Add):
        terms = node.args
        if not any(term.is_Symbol and term.name == formula.x for term in terms):
            continue
        for term in terms:
            names = {s.name for s in term.free_symbols}
            shifted = term.is_Symbol or (term.is_Mul and abs(term.as_coeff_Mul()[0]) == 1)
            if len(names) == 1 and shifted and (name := next(iter(names))) in formula.parameters:
                found.add(name)
    return frozenset(found)


def periods(formula: Formula) -> dict[str, list[sympy.Expr]]:
    """For each parameter that sets how fast a sine or cosine turns (`b4` of cos(2πx/b4)),
    its value in terms of the angular frequency ω that turning takes (`2π/ω`): a periodogram
    of the data then gives its start values."""
    expression = formula.sympy
    x = next((s for s in expression.free_symbols if s.name == formula.x), None)
    omega = sympy.Symbol("omega_", positive=True)
    found: dict[str, list[sympy.Expr]] = {}
    for node in expression.atoms(sympy.sin, sympy.cos):
        rate = sympy.diff(node.args[0], x) if x is not None else sympy.Integer(0)
        free = [s for s in rate.free_symbols if s.name in formula.parameters]
        if len(free) != 1 or free[0].name in found:
            continue
        try:
            solutions = sympy.solve(sympy.Eq(rate, omega), free[0])
        except (NotImplementedError, ValueError):
            continue
        if solutions:
            found[free[0].name] = solutions
    return found
