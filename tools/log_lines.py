"""A task that asks for the straight line of a logarithm ("plot ln A against t and fit a
straight line", "ln(N) gegen t", "tracer ln U en fonction de t", "a semi-log plot") gets its
formula fitted that way: ln y against x, the formula's logarithm as the line, so that the
decay constant is the one the task's procedure gives. The nonlinear fit of y weights the
early, large values; the line of ln y weights every point alike, and where the data are not
quite exponential (a pendulum slowed by friction at its pivot) the two differ by more than
their errors: the task's answer is the line's.
"""

from __future__ import annotations

import re

import sympy

from labscribe.tools.formula_parse import Formula

# "ln A against t", "log(N) vs t", "ln U gegen t", "ln I en fonction de t", "ln(N − N_bg)"
_LOG_OF = r"\b(?:ln|log)\s*\(?\s*{y}\b"
_LINE = re.compile(
    r"straight[- ]line|\blinear|\bline\b|gerade|droite|recta|直线|semi-?log|halblogarithm",
    re.I,
)


def asks_log_line(task: str, formula: Formula) -> bool:
    """Whether `task` asks for the straight line of the logarithm of `formula`'s response."""
    if not formula.y or not _LINE.search(task):
        return False
    return re.search(_LOG_OF.format(y=re.escape(formula.y)), task) is not None


def log_line(formula: Formula) -> Formula | None:
    """`formula`'s logarithm as a formula in the same parameters (`log(A0) - gamma*t` of
    `A0*exp(-gamma*t)`), when it is a straight line in the variable; else None."""
    symbols = {s.name: s for s in formula.sympy.free_symbols}
    x = symbols.get(formula.x)
    if x is None:
        return None
    positive = {s: sympy.Symbol(s.name, positive=True) for s in symbols.values()}
    logged = sympy.expand_log(sympy.log(formula.sympy.subs(positive)), force=True)
    logged = logged.subs({v: k for k, v in positive.items()})
    if sympy.diff(logged, x, 2) != 0 or sympy.diff(logged, x) == 0:
        return None
    return Formula(
        text=formula.text, y=formula.y, x=formula.x,
        expression=sympy.sstr(logged, full_prec=False), parameters=formula.parameters,
        linear=frozenset(),
    )  # fmt: skip
