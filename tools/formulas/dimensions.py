"""The dimensions of a formula's parameters, from the rule that every term of a sum has one
dimension and the argument of exp or sin none.

A dimension is a vector of powers over a basis. `dimensions` uses the basis of the fit's own
units, (y's unit, x's unit): that gives each fitted parameter its unit from the columns'
units (tools.fits.requested_fits), and the scale its start values are drawn from
(tools.formulas.starts). `solve_dimensions` takes any basis, such as the seven SI base dimensions,
with symbols of known dimension beside the variable (a physical constant's,
tools.formulas.constants): it tells whether a formula is consistent with them at all, and the SI
dimension of each parameter.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

import sympy

from labscribe.tools.formulas.formula_parse import Formula

Vector = tuple[Fraction, ...]


def dimensions(
    formula: Formula, values: dict[str, float] | None = None
) -> dict[str, tuple[Fraction, Fraction] | None]:
    """Each parameter's dimension as (power of y's unit, power of x's unit), from the rule
    that every term of a sum has one dimension and a function's argument none; None where
    the formula does not decide it. `values` fixes exponents that are parameters (a fitted
    `b` in `a L^b`), so the parameter they multiply gets its dimension."""
    known = {formula.x: (Fraction(0), Fraction(1))}
    # y as measured; else a pure number, as in formulas that add an angle to y (Roszman1)
    for y in ((Fraction(1), Fraction(0)), (Fraction(0), Fraction(0))):
        found = solve_dimensions(formula, known, y, values)
        if found is not None:
            return found  # type: ignore[return-value]
    return dict.fromkeys(formula.parameters)


def solve_dimensions(
    formula: Formula,
    known: Mapping[str, Vector],
    y: Vector,
    values: dict[str, float] | None = None,
) -> dict[str, Vector | None] | None:
    """Each parameter's dimension over the basis of `known` (the dimensions of the variable
    and of any other symbol that is not a parameter) when the formula's value has dimension
    `y`; a parameter's is None where the formula does not decide it. None when no dimensions
    make the formula consistent (a constant's dimension that no term can match)."""
    size = len(y)
    expression = _exponents_fixed(formula.sympy, values)
    unknowns = {
        p: tuple(sympy.Symbol(f"D{i}_{p}") for i in range(size)) for p in formula.parameters
    }
    fixed = {name: tuple(sympy.Rational(str(v)) for v in vector) for name, vector in known.items()}
    equations: list[sympy.Expr] = []
    top = _dimension(expression, fixed | unknowns, size, equations)
    if top is not None:
        equations += [t - sympy.Rational(str(v)) for t, v in zip(top, y, strict=True)]
    flat = [u for vector in unknowns.values() for u in vector]
    equations = [e for e in (sympy.expand(e) for e in equations) if e != 0]
    if not equations:
        return dict.fromkeys(formula.parameters)
    if not flat:
        return None  # what must hold are numbers, none of them zero
    solutions = sympy.linsolve(equations, flat)
    if solutions is sympy.EmptySet or not solutions:
        return None
    solved = dict(zip(flat, next(iter(solutions)), strict=True))
    found: dict[str, Vector | None] = {}
    for name, vector in unknowns.items():
        powers = [solved[u] for u in vector]
        if any(p.free_symbols for p in powers):
            found[name] = None
        else:
            found[name] = tuple(Fraction(str(p)) for p in powers)
    return found


def _exponents_fixed(expression: sympy.Expr, values: dict[str, float] | None) -> sympy.Expr:
    """`expression` with the parameters that are exponents replaced by their fitted values."""
    if not values:
        return expression
    powers = expression.atoms(sympy.Pow)
    exponents = {
        s: sympy.nsimplify(values[s.name], rational=True, tolerance=1e-6)
        for s in expression.free_symbols
        if s.name in values and any(s in p.exp.free_symbols for p in powers)
    }
    return expression.subs(exponents)


Dimension = tuple[sympy.Expr, ...]


def _dimension(
    node: sympy.Expr, symbols: Mapping[str, Dimension], size: int, equations: list[sympy.Expr]
) -> Dimension | None:
    """`node`'s dimension as linear expressions in the unknowns; None where it cannot be
    written so (a dimensioned base to a parameter's power). Adds what must hold."""
    zero = tuple(sympy.Integer(0) for _ in range(size))
    if node.is_Number or node in (sympy.pi, sympy.E):
        return zero
    if node.is_Symbol:
        return symbols[node.name]
    parts = [_dimension(arg, symbols, size, equations) for arg in node.args]
    if node.is_Add:
        known = [part for part in parts if part is not None]
        for part in known[1:]:
            equations += [a - b for a, b in zip(part, known[0], strict=True)]
        return known[0] if len(known) == len(parts) and known else None
    if node.is_Mul:
        if any(part is None for part in parts):
            return None
        return tuple(sum(column) for column in zip(*parts, strict=True))  # type: ignore[misc]
    if node.is_Pow:
        base, power = parts
        if power is not None:
            equations += list(power)
        if node.exp.is_Number and base is not None:
            return tuple(b * node.exp for b in base)
        return None if base is None or any(b != 0 for b in base) else base
    if isinstance(node, sympy.Abs):
        return parts[0]
    if isinstance(node, sympy.Function):
        for part in parts:
            if part is not None:
                equations += list(part)
        return zero
    return None
