"""What a formula from an assignment may ask sympy to compute, checked on its unevaluated
tree before anything is computed.

sympy evaluates integer arithmetic exactly as it parses: `9^9^9` is a power of 387 million
digits that holds the interpreter for minutes, and `(a+b+c+d)^300`, expanded later, is
millions of terms. A lab formula needs none of that: its numbers are constants within a
float's range, its powers small (T⁴, r⁻¹², 10⁻³⁴). So the text is parsed without evaluating
(every operation a node), and its tree must stay within these bounds: its size and depth,
its integers' digits, every power's exponent, and the magnitude of every number it computes
from numbers alone.
"""

from __future__ import annotations

import math

import sympy

MAX_NODES = 400  # a 240-character formula has a few dozen
MAX_DEPTH = 32  # parentheses within parentheses
MAX_DIGITS = 40  # of an integer as written: Avogadro's number has 24
MAX_MAGNITUDE = 308.0  # log10 of a number computed from numbers: a float's range
MAX_POWER = 16  # of a power of symbols: r⁻¹² in the Lennard-Jones potential


class FormulaBoundError(ValueError):
    """The formula asks for more computation than a lab formula needs; the message says what."""


def check_bounds(expression: sympy.Basic) -> None:
    """Raise FormulaBoundError where `expression` (parsed with evaluate=False) exceeds a
    bound; return None where evaluating it costs no more than a lab formula."""
    count = [0]
    _magnitude(expression, 0, count)


def _magnitude(node: sympy.Basic, depth: int, count: list[int]) -> float | None:
    """log10 of |value| of `node` where it is a number computed from numbers alone; None
    where it holds a symbol or a function (whose value sympy leaves as it is)."""
    count[0] += 1
    if count[0] > MAX_NODES:
        raise FormulaBoundError(f"a formula of at most {MAX_NODES} terms is read")
    if depth > MAX_DEPTH:
        raise FormulaBoundError(f"a formula nested at most {MAX_DEPTH} deep is read")
    if node.is_Integer:
        digits = len(str(abs(int(node))))
        if digits > MAX_DIGITS:
            raise FormulaBoundError(f"a number of {digits} digits is no constant of a formula")
        return math.log10(abs(int(node))) if node != 0 else 0.0
    if node.is_Number or node.is_NumberSymbol:
        value = abs(float(node))
        if not math.isfinite(value) or value > 10**MAX_MAGNITUDE:
            raise FormulaBoundError(f"{node} is beyond a number's range")
        return math.log10(value) if value else 0.0
    if node.is_Symbol or not node.args:
        return None
    parts = [_magnitude(arg, depth + 1, count) for arg in node.args]
    if isinstance(node, sympy.Pow):
        return _power(node, parts[0], parts[1])
    if any(part is None for part in parts) or not isinstance(node, sympy.Mul | sympy.Add):
        return None  # a function's value is kept as written: exp(100) is not computed
    size = sum(parts) if isinstance(node, sympy.Mul) else max(parts) + 1  # type: ignore[arg-type]
    return _within(size, node)


def _power(node: sympy.Pow, base: float | None, exponent: float | None) -> float | None:
    if exponent is None:
        return None  # 2^x is not computed
    value = float(node.exp)  # a number of magnitude within range: safe to evaluate
    if base is None:
        if abs(value) > MAX_POWER:
            raise FormulaBoundError(
                f"a power of {value:g} of symbols is beyond a lab formula's (at most {MAX_POWER})"
            )
        return None
    return _within(abs(value) * base, node)


def _within(size: float, node: sympy.Basic) -> float:
    if size > MAX_MAGNITUDE:
        raise FormulaBoundError(f"{node} is a number beyond a float's range")
    return size
