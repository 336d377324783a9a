"""An angle in degrees inside a formula's trigonometric functions (Malus's law I = I₀cos²(θ −
θ₀) against a polarizer's angle read in degrees): numpy's cos takes radians, so the formula
is fitted with each trigonometric argument that holds the variable scaled by π/180. A
parameter beside the variable there (θ₀) is then in degrees too, the variable's unit, as
the handout means it."""

from __future__ import annotations

import dataclasses
import math

import sympy

from labscribe.tools.formulas.formula_parse import Formula

DEGREES = frozenset({"deg", "°"})
_TRIGONOMETRIC = (sympy.sin, sympy.cos, sympy.tan)


def in_degrees(formula: Formula) -> Formula:
    """`formula` with every trigonometric function of its variable taking degrees; as it
    stands where none does."""
    written = formula.sympy
    x = next((s for s in written.free_symbols if s.name == formula.x), None)
    if x is None:
        return formula
    scaled = written.replace(
        lambda e: isinstance(e, _TRIGONOMETRIC) and x in e.free_symbols,
        lambda e: e.func(e.args[0] * sympy.Float(math.pi / 180)),
    )
    if scaled == written:
        return formula
    return dataclasses.replace(formula, expression=sympy.sstr(scaled, full_prec=False))
