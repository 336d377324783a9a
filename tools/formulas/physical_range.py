"""Which parameters of an assignment's formula have a physical sign, and why: a small
declared table, read from where a symbol sits in the formula and from its name.

A fit is free to land on a negative time constant: U_0 e^{-t/τ} with τ = −5.5 s rises
exponentially through data that rise towards a limit, and fits them better than any decay.
The number is still no answer: a time constant, a width, a period are positive by what they
are. A standard model declares its own (tools.fits.shapes, `positive`); a formula written by an
assignment gets them here, by two readings that agree with how physicists write:

- by position (sympy tree): a symbol that divides the variable in an exponent (e^{-t/τ},
  e^{t/τ}) is a time constant (after no minus, only where its name says so: e^{t/γ} with
  γ < 0 is the decay the formula allows); one that multiplies it under a minus sign (e^{-k t}) is a
  rate the formula's own sign already makes a decay; one that divides the square of the
  variable in a Gaussian's exponent (e^{-x²/s}) is a variance; one that divides the variable
  in a sine or cosine (cos(2πt/T)) is a period, one that multiplies it there a frequency;
- by name: τ, T, σ, γ/Γ, FWHM, width, lifetime, half-life, period (NAMES).

A parameter the formula's value does not depend on the sign of (a Gaussian's σ in σ²) is
made positive by the canonical form (tools.formulas.canonical_form), not refitted.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import sympy

from labscribe.tools.formulas.formula_parse import Formula

# (pattern on a parameter's name, what it is): names physicists give positive quantities.
# `T` alone (a period or time constant): with a subscript it may be a temperature offset in
# °C, which can be negative. `gamma` covers a Lorentzian's width and a damping rate, both
# positive; `lam` (λ) is left out: e^{λt} with λ < 0 is a decay, as the formula allows.
NAMES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), kind)
    for pattern, kind in (
        (r"^[tT]au(?:_?[A-Za-z0-9]+)?$", "a time constant"),
        (r"^T$", "a period or a time constant"),
        (r"^(?:[tT]_?(?:half|12|1_2)|half_?life|t_h)$", "a half-life"),
        (r"^sigma(?:_?[A-Za-z0-9]+)?$", "a width"),
        (r"^(?:gamma|Gamma)(?:_?[A-Za-z0-9]+)?$", "a width or a damping rate"),
        (r"^(?:fwhm|FWHM|[wW]idth|hwhm|HWHM)(?:_?[A-Za-z0-9]+)?$", "a width"),
        (r"^(?:[lL]ifetime|life)(?:_?[A-Za-z0-9]+)?$", "a lifetime"),
        (r"^[pP]eriod(?:_?[A-Za-z0-9]+)?$", "a period"),
    )
)


@dataclass(frozen=True)
class Sign:
    """Why a parameter must be positive, and what the formula can do when it is."""

    kind: str
    """What the parameter is: "a time constant (it divides t in an exponent)"."""
    motion: str = ""
    """What the formula's curve can do with the parameter positive: "decay" (e^{-t/τ}),
    "grow" (e^{t/τ}); "" where the position says nothing about it."""


TIME_CONSTANT = "a time constant (it divides {x} in an exponent)"
DECAY_RATE = "a decay rate (the minus sign in the exponent already makes it a decay)"
VARIANCE = "a variance (it divides the square of {x} in an exponent)"
PERIOD = "a period (it divides {x} in a sine or cosine)"
FREQUENCY = "a frequency (it multiplies {x} in a sine or cosine)"
PEAK_HEIGHT = "the height of a peak (the task asks for a peak)"
# A task that asks for a peak means a curve that rises to it; one that speaks of absorption,
# a dip or a minimum may fit a bell-shaped formula to a dip, where the height is negative.
PEAK_WORDS = re.compile(r"\bpeak|峰|\bspitze", re.IGNORECASE)
DIP_WORDS = re.compile(r"absorpt|\bdip|minim|trough|transmi|吸收|谷|senke", re.IGNORECASE)


def positive_parameters(formula: Formula, task: str = "") -> dict[str, Sign]:
    """The parameters of `formula` that must be positive, each with what it is (a time
    constant, a width ...): by where it sits, else by its name; where the `task` asks for a
    peak (and speaks of no dip), the height of each bell-shaped term."""
    found = _by_position(formula)
    # e^{t/γ} writes no minus: a negative γ is the decay the formula allows (a heat leak's
    # T0 = α + β·e^{t/γ} falls towards α), unless its name makes it a time constant (τ)
    free = {n for n, sign in found.items() if sign.motion == "grow" and not _named_time(n)}
    found = {n: sign for n, sign in found.items() if n not in free}
    if PEAK_WORDS.search(task) and not DIP_WORDS.search(task):
        for name in _peak_heights(formula):
            found.setdefault(name, Sign(PEAK_HEIGHT, "peak"))
    for name in formula.parameters:
        if name in found or name in free:
            continue
        kind = next((kind for pattern, kind in NAMES if pattern.match(name)), None)
        if kind is not None:
            found[name] = Sign(kind)
    return found


TIMES = frozenset({"a time constant", "a period or a time constant", "a half-life", "a lifetime"})


def _named_time(name: str) -> bool:
    """Whether a name is a time constant's, a half-life's or a lifetime's (τ, T, t_half)."""
    return any(pattern.match(name) for pattern, kind in NAMES if kind in TIMES)


def _by_position(formula: Formula) -> dict[str, Sign]:
    expression = formula.sympy
    x = next((s for s in expression.free_symbols if s.name == formula.x), None)
    if x is None:
        return {}
    parameters = {s for s in expression.free_symbols if s.name in formula.parameters}
    found: dict[str, Sign] = {}
    for argument in _exponents(expression):
        rate = sympy.diff(argument, x)
        if x not in rate.free_symbols:
            if (divided := _divides(rate, parameters)) is not None:
                name, number = divided
                motion = "decay" if number < 0 else "grow"
                found.setdefault(name, Sign(TIME_CONSTANT.format(x=x.name), motion))
            elif (multiplied := _multiplies(rate, parameters)) is not None and multiplied[1] < 0:
                found.setdefault(multiplied[0], Sign(DECAY_RATE, "decay"))
            continue
        bend = sympy.diff(argument, x, 2)
        divided = _divides(bend, parameters) if x not in bend.free_symbols else None
        if divided is not None and divided[1] < 0:
            found.setdefault(divided[0], Sign(VARIANCE.format(x=x.name)))
    for node in expression.atoms(sympy.sin, sympy.cos):
        rate = sympy.diff(node.args[0], x)
        if x in rate.free_symbols:
            continue
        if (divided := _divides(rate, parameters)) is not None:
            found.setdefault(divided[0], Sign(PERIOD.format(x=x.name)))
        elif (multiplied := _multiplies(rate, parameters)) is not None:
            found.setdefault(multiplied[0], Sign(FREQUENCY.format(x=x.name)))
    return found


def _peak_heights(formula: Formula) -> list[str]:
    """The parameters that scale a bell-shaped term alone (A of A e^{-(x-c)²/2s²}, of
    A/(1 + ((x-c)/γ)²)): linear parameters outside the bell."""
    expression = formula.sympy
    x = next((s for s in expression.free_symbols if s.name == formula.x), None)
    heights = []
    for term in sympy.Add.make_args(expression):
        bells = [f for f in sympy.Mul.make_args(term) if x is not None and _bell(f, x)]
        inside = set().union(*(b.free_symbols for b in bells)) if bells else set()
        scale = [s.name for s in term.free_symbols - inside if s.name in formula.linear]
        if bells and len(scale) == 1:
            heights.append(scale[0])
    return heights


def _bell(factor: sympy.Expr, x: sympy.Symbol) -> bool:
    """Whether `factor` is a bell in x: e^{g} with g quadratic in x and bent down (a
    Gaussian), or 1/h with h quadratic and bent up (a Lorentzian), at a generic positive
    value of every other symbol."""
    if isinstance(factor, sympy.exp):
        inner, bent = factor.args[0], -1.0
    elif factor.is_Pow and factor.exp == -1:
        inner, bent = factor.base, 1.0
    else:
        return False
    if x not in inner.free_symbols or sympy.diff(inner, x, 3) != 0:
        return False
    bend = sympy.diff(inner, x, 2)
    try:
        value = float(bend.subs({s: 0.7 for s in bend.free_symbols}))
    except (TypeError, ValueError):
        return False
    return value * bent > 0


def _exponents(expression: sympy.Expr) -> list[sympy.Expr]:
    """The arguments of its exponentials, 2^(-t/T) read as e^(-t ln2/T)."""
    found = [node.args[0] for node in expression.atoms(sympy.exp)]
    for node in expression.atoms(sympy.Pow):
        base = node.base
        if base.is_number and base.is_positive and base != 1 and node.exp.free_symbols:
            found.append(node.exp * sympy.log(base))
    return found


def _divides(rate: sympy.Expr, parameters: set[sympy.Symbol]) -> tuple[str, float] | None:
    """(p, c) when `rate` is a number c over one parameter p."""
    return _one_parameter(rate, parameters, lambda p: rate * p)


def _multiplies(rate: sympy.Expr, parameters: set[sympy.Symbol]) -> tuple[str, float] | None:
    """(p, c) when `rate` is a number c times one parameter p."""
    return _one_parameter(rate, parameters, lambda p: rate / p)


def _one_parameter(
    rate: sympy.Expr,
    parameters: set[sympy.Symbol],
    number_of: Callable[[sympy.Symbol], sympy.Expr],
) -> tuple[str, float] | None:
    names = rate.free_symbols & parameters
    if len(names) != 1 or rate.free_symbols - names:
        return None
    (p,) = names
    number = number_of(p)  # sympy cancels p itself; simplify() would cost 0.3 s a call
    if number.free_symbols or not number.is_number or number == 0 or not number.is_real:
        return None
    return p.name, float(number)


def outside(positive: dict[str, Sign], values: dict[str, float]) -> list[str]:
    """The parameters of `positive` whose fitted value is negative or zero."""
    return [name for name in positive if name in values and not values[name] > 0]
