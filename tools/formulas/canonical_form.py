"""One canonical form for a fitted formula's parameters: the sign flips and term swaps that
leave the curve unchanged (a Gaussian's squared width, the decays of a Lanczos sum), and the
renaming that picks one of the equivalent fits.

A fit may land on any of the equivalent parameter sets; a report, and a comparison with
certified values (bench/analysis/certified.py), need the same one every time.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import sympy

from labscribe.tools.formulas.formula_eval import evaluate_tree
from labscribe.tools.formulas.formula_parse import Formula


@dataclass(frozen=True)
class Symmetry:
    """What leaves a formula unchanged, so that its parameters have one canonical form."""

    signs: tuple[frozenset[str], ...]
    """Parameters whose signs flip together without changing the curve (a Gaussian's
    width, squared; Eckerle4's b1 and b2 of b1/b2)."""
    swaps: tuple[tuple[tuple[str, ...], ...], ...]
    """Classes of terms that trade places without changing the curve (the three decays of
    a Lanczos sum, the two peaks of a Gauss set), each term as its parameters."""


def symmetry(formula: Formula) -> Symmetry:
    """The sign flips and term swaps that leave `formula` unchanged, tested numerically at
    random points (exact symbolic equality would cost more and miss nothing here)."""
    expression = formula.sympy
    symbols = {s.name: s for s in expression.free_symbols}
    same = _same_curve(expression, formula)
    signs: list[frozenset[str]] = []
    for size in (1, 2):
        for group in itertools.combinations(formula.parameters, size):
            if any(done <= set(group) for done in signs):
                continue
            if same(expression.subs({symbols[p]: -symbols[p] for p in group}, simultaneous=True)):
                signs.append(frozenset(group))
    terms = compound_terms(formula) if expression.is_Add else []
    classes: list[list[tuple[str, ...]]] = []
    for term in terms:
        if not term:
            continue
        for members in classes:
            other = members[0]
            swap = {symbols[a]: symbols[b] for a, b in zip(term, other, strict=False)}
            swap |= {symbols[b]: symbols[a] for a, b in zip(term, other, strict=False)}
            alike = len(term) == len(other) and not set(term) & set(other)
            if alike and same(expression.subs(swap, simultaneous=True)):
                members.append(term)
                break
        else:
            classes.append([term])
    swaps = tuple(tuple(members) for members in classes if len(members) > 1)
    return Symmetry(signs=tuple(signs), swaps=swaps)


def compound_terms(formula: Formula) -> list[tuple[str, ...]]:
    """The parameters of each group of additive terms that share one (a cosine and a sine of
    one period are one term), each group in the formula's order."""
    expression = formula.sympy
    groups: list[set[str]] = []
    for term in expression.args if expression.is_Add else (expression,):
        names = {s.name for s in term.free_symbols if s.name in formula.parameters}
        joined = [group for group in groups if group & names]
        for group in joined:
            groups.remove(group)
            names |= group
        groups.append(names)
    return [tuple(p for p in formula.parameters if p in group) for group in groups if group]


def canonical(formula: Formula, values: dict[str, float]) -> dict[str, str]:
    """How to rename the fitted parameters into the formula's canonical form: every sign
    flip that makes most of its parameters positive, and each class of swappable terms in
    the order of their first nonlinear parameter (peaks from left to right, decays from the
    slowest). Returns {fitted name: name it takes}, with "-" before a name whose sign flips."""
    found = symmetry(formula)
    renamed = {name: name for name in formula.parameters}
    for group in found.signs:
        if sum(values[p] < 0 for p in group) * 2 > len(group):
            renamed |= {p: f"-{p}" for p in group}
    for members in found.swaps:
        key = next((p for p in members[0] if p not in formula.linear), members[0][0])
        position = members[0].index(key)
        ordered = sorted(members, key=lambda term: abs(values[term[position]]))
        for source, target in zip(ordered, members, strict=True):
            for a, b in zip(source, target, strict=True):
                renamed[a] = renamed[a].replace(a, b) if renamed[a].lstrip("-") == a else b
    return renamed


def _same_curve(expression: sympy.Expr, formula: Formula) -> Callable[[sympy.Expr], bool]:
    rng = np.random.default_rng(0)
    names = [*formula.parameters, formula.x]
    points = {name: rng.uniform(0.3, 1.7, 5) for name in names}
    with np.errstate(all="ignore"):
        reference = np.asarray(evaluate_tree(expression, points), dtype=float)

    def same(other: sympy.Expr) -> bool:
        with np.errstate(all="ignore"):
            values = np.asarray(evaluate_tree(other, points), dtype=float)
        return bool(np.all(np.isfinite(reference))) and bool(
            np.allclose(values, reference, rtol=1e-9, atol=1e-12)
        )

    return same
