"""A task that asks for the straight line of a logarithm ("plot ln A against t and fit a
straight line", "ln(N) gegen t", "tracer ln U en fonction de t", "a semi-log plot") gets its
formula fitted that way: ln y against x, the formula's logarithm as the line, so that the
decay constant is the one the task's procedure gives. The nonlinear fit of y weights the
early, large values; the line of ln y weights every point alike, and where the data are not
quite exponential (a pendulum slowed by friction at its pivot) the two differ by more than
their errors: the task's answer is the line's.
"""

from __future__ import annotations

import dataclasses
import re
from fractions import Fraction

import sympy

from labscribe.tools.formulas.dimensions import dimensions, solve_dimensions
from labscribe.tools.formulas.formula_parse import Formula

# "ln A against t", "log(N) vs t", "ln U gegen t", "ln I en fonction de t", "ln(N − N_bg)"
_LOG_OF = r"\b(?:ln|log)\s*\(?\s*{y}\b"
# ln y, then within a few characters (its unit: "ln(R/Ω)") the word that sets it against an axis
_AGAINST = r"[^.;:,]{0,12}?(?:\s(?:against|vs\.?|versus|gegen|en fonction d|contra|contro)\b|\s*对)"
_LINE = re.compile(
    r"straight[- ]line|\blinear|\bline\b|gerade|droite|recta|直线|线性|semi-?log|halblogarithm",
    re.I,
)


def asks_log_line(task: str, formula: Formula) -> bool:
    """Whether `task` asks for the straight line of the logarithm of `formula`'s response:
    it names a line and ln y, or it fits or plots ln y against an axis ("fit ln(R/Ω) against
    (1/T − 1/298.15 K)", "以 ln A 对 t 作图")."""
    if not formula.y:
        return False
    logged = _LOG_OF.format(y=re.escape(formula.y))
    if re.search(logged + _AGAINST, task):
        return True
    return _LINE.search(task) is not None and re.search(logged, task) is not None


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
    if sympy.diff(logged, x) == 0 or _curved(logged, x):
        return None
    return Formula(
        text=formula.text, y=formula.y, x=formula.x,
        expression=sympy.sstr(logged, full_prec=False), parameters=formula.parameters,
        linear=frozenset(),
    )  # fmt: skip


def _curved(logged: sympy.Expr, x: sympy.Symbol) -> bool:
    """Whether the logarithm is still no line of the task's axes: an exponential or a
    logarithm of x left in it (N0·exp(−λt) + B; the power law's log L, a log-log line). A
    term in 1/T stays: the B-equation's ln R is a line in 1/T."""
    if sympy.diff(logged, x, 2) == 0:
        return False
    return any(x in f.free_symbols for f in logged.atoms(sympy.exp, sympy.log))


def dimensions_through_logs(
    formula: Formula, values: dict[str, float] | None = None
) -> dict[str, tuple[Fraction, Fraction] | None]:
    """Each parameter's dimension (tools.formulas.dimensions), the logarithm of the variable read as
    labs mean it, of its value in its unit (ln R is ln(R/Ω) in Steinhart–Hart's 1/T = A +
    B·ln R + C·(ln R)³, so A, B and C are in 1/K), where the formula as written decides none."""
    found = dimensions(formula, values)
    if any(v is not None for v in found.values()):
        return found
    expression = formula.sympy
    x = next((s for s in expression.free_symbols if s.name == formula.x), None)
    logs = [f for f in expression.atoms(sympy.log) if x is not None and x in f.free_symbols]
    if not logs or "u0" in formula.parameters:
        return found
    number = sympy.Symbol("u0")  # the variable over its unit: a pure number
    plain = expression.subs({f: sympy.log(number) for f in logs})
    if x in plain.free_symbols:
        return found  # the variable outside a logarithm too: its dimension counts there
    bare = dataclasses.replace(formula, expression=sympy.sstr(plain, full_prec=True))
    solved = solve_dimensions(bare, {number.name: (Fraction(0), Fraction(0))},
                              (Fraction(1), Fraction(0)), values)  # fmt: skip
    return solved or found


# ln S (or log S) of a symbol or a name: "ln A", "log(N)", "ln U_C"
_LOG_SYMBOL = re.compile(r"(?<![A-Za-z])(?:ln|log)\s*\(?\s*([A-Za-z][A-Za-z0-9_]{0,7})\b")


def logged_response(task: str, response: str, others: list[str], *, sole: bool) -> bool:
    """Whether a task that asks for a straight line means the line of the logarithm of the
    column `response` ("以 ln A 对时间 t 作图并线性拟合", "plot ln N against t and fit a line"):
    it writes ln S against an axis, or beside a line's word, and S is the response's name or
    symbol (`U` of `U_C`), or, where the response is the `sole` one fitted, S names none of
    the `others` (the table's other columns): the task's own symbol for it (A of an
    absorbance column). A column that is already a logarithm is not logged again."""
    if re.match(r"\s*(?:ln|log)\b", response, re.I):
        return False
    for found in _LOG_SYMBOL.finditer(task):
        against = re.match(_AGAINST, task[found.end() : found.end() + 40])
        if against is None and _LINE.search(task) is None:
            continue
        symbol = found[1]
        if _names(symbol, response):
            return True
        if sole and not any(_names(symbol, other) for other in others):
            return True
    return False


def _names(symbol: str, name: str) -> bool:
    """Whether `symbol` is `name`, its letters before a subscript or unit (U of `U_C`,
    `U (V)`), or one of its words of two letters or more."""
    bare = re.split(r"\s*[(\[]", name.strip(), maxsplit=1)[0]
    first = re.split(r"[\s_/]", bare, maxsplit=1)[0]
    words = {w for w in re.split(r"[^a-z0-9]+", name.lower()) if len(w) >= 2}
    return symbol in (name, bare, first) or (len(symbol) >= 2 and symbol.lower() in words)
