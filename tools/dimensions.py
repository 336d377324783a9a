"""The dimensions of a formula's parameters, from the rule that every term of a sum has one
dimension and the argument of exp or sin none.

They give each fitted parameter its unit from the columns' units (tools.requested_fits), and
the scale its start values are drawn from (tools.starts).
"""

from __future__ import annotations

from fractions import Fraction

import sympy

from labscribe.tools.formula_parse import Formula


def dimensions(
    formula: Formula, values: dict[str, float] | None = None
) -> dict[str, tuple[Fraction, Fraction] | None]:
    """Each parameter's dimension as (power of y's unit, power of x's unit), from the rule
    that every term of a sum has one dimension and a function's argument none; None where
    the formula does not decide it. `values` fixes exponents that are parameters (a fitted
    `b` in `a L^b`), so the parameter they multiply gets its dimension."""
    expression = formula.sympy
    if values:
        powers = expression.atoms(sympy.Pow)
        exponents = {
            s: sympy.nsimplify(values[s.name], rational=True, tolerance=1e-6)
            for s in expression.free_symbols
            if s.name in values and any(s in p.exp.free_symbols for p in powers)
        }
        expression = expression.subs(exponents)
    unknowns = {p: (sympy.Symbol(f"Y_{p}"), sympy.Symbol(f"X_{p}")) for p in formula.parameters}
    equations: list[sympy.Expr] = []
    top = _dimension(expression, formula.x, unknowns, equations)
    flat = [u for pair in unknowns.values() for u in pair]
    solution = None
    # y as measured; else a pure number, as in formulas that add an angle to y (Roszman1)
    for y_power in (1, 0):
        whole = equations + ([top[0] - y_power, top[1]] if top is not None else [])
        solutions = sympy.linsolve(whole, flat) if whole else sympy.EmptySet
        if solutions is not sympy.EmptySet and solutions:
            solution = next(iter(solutions))
            break
    if solution is None:
        return dict.fromkeys(formula.parameters)
    solved = dict(zip(flat, solution, strict=True))
    found: dict[str, tuple[Fraction, Fraction] | None] = {}
    for name, (dy, dx) in unknowns.items():
        y_power, x_power = solved[dy], solved[dx]
        if y_power.free_symbols or x_power.free_symbols:
            found[name] = None
        else:
            found[name] = (Fraction(str(y_power)), Fraction(str(x_power)))
    return found


Dimension = tuple[sympy.Expr, sympy.Expr]


def _dimension(
    node: sympy.Expr, x: str, unknowns: dict[str, Dimension], equations: list[sympy.Expr]
) -> Dimension | None:
    """`node`'s dimension as linear expressions in the unknowns; None where it cannot be
    written so (a dimensioned base to a parameter's power). Adds what must hold."""
    if node.is_Number or node in (sympy.pi, sympy.E):
        return (sympy.Integer(0), sympy.Integer(0))
    if node.is_Symbol:
        if node.name == x:
            return (sympy.Integer(0), sympy.Integer(1))
        return unknowns[node.name]
    parts = [_dimension(arg, x, unknowns, equations) for arg in node.args]
    if node.is_Add:
        known = [part for part in parts if part is not None]
        for part in known[1:]:
            equations += [part[0] - known[0][0], part[1] - known[0][1]]
        return known[0] if len(known) == len(parts) and known else None
    if node.is_Mul:
        if any(part is None for part in parts):
            return None
        return (sum(p[0] for p in parts), sum(p[1] for p in parts))  # type: ignore[union-attr]
    if node.is_Pow:
        base, power = parts
        if power is not None:
            equations += [power[0], power[1]]
        if node.exp.is_Number and base is not None:
            return (base[0] * node.exp, base[1] * node.exp)
        return None if base is None or base != (0, 0) else base
    if isinstance(node, sympy.Abs):
        return parts[0]
    if isinstance(node, sympy.Function):
        for part in parts:
            if part is not None:
                equations += [part[0], part[1]]
        return (sympy.Integer(0), sympy.Integer(0))
    return None
