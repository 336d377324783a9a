"""Which columns of a table a regression's task names as its response and its predictors,
and the terms the regression fits: one coefficient per predictor and an intercept where the
task's words ask for it, or one per parameter of the formula it writes out.

`resolve` is the one place that decides the roles of a multiple regression. It matches names
as a lab writes them (`GNP.deflator` for "the GNP deflator", `Unemployed` for
"unemployment", `T` for the table's only column starting with a T), longest names first,
so that "GNP deflator" is not read as "GNP".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import sympy

from labscribe.tools.columns.column import Column
from labscribe.tools.columns.variable_column import INDEX_NAMES
from labscribe.tools.fits.regression_request import Ask
from labscribe.tools.formats.tables import TableSummary
from labscribe.tools.formulas.formula_notation import GREEK, plain_arithmetic
from labscribe.tools.formulas.formula_parse import FormulaError, parse_expression

# Words too common in column names to name one column on their own.
COMMON_WORDS = frozenset({
    "the", "of", "and", "number", "total", "value", "rate", "mean", "measured", "data", "time",
    "in", "at", "per", "from",
})  # fmt: skip
MIN_WORD = 3  # a shorter part of a name (`V` of `V_R`) names nothing alone in prose
MIN_STEM = 5  # `unemployed` and `unemployment` share a stem of 8 letters; `arm` is no stem
# One-letter names that prose uses as words, never as a column's name.
PROSE_LETTERS = frozenset({"a", "A", "I"})
# One-letter symbols a formula uses for its parameters: never read as a column's initial.
PARAMETER_LETTERS = frozenset("abcdkABCDK")
_CJK = re.compile(r"[\u3400-\u9fff]")
_SEPARATORS = re.compile(r"[._\-/]")
# β0, β_1, β_{2}: a parameter named by a letter and its index ("β1x1" is β1 times x1)
_INDEXED_GREEK = re.compile(r"([\u0370-\u03ff])_?\{?(\d+)\}?")


@dataclass(frozen=True)
class Term:
    """One regressor of the model, with the coefficient the regression fits for it."""

    name: str
    """The coefficient's name: a formula's parameter, or the predictor's name."""
    label: str
    """The regressor as the report writes it: "1", "temperature", "x1·x2", "x^2"."""
    powers: tuple[tuple[str, int], ...] | None
    """A monomial's powers of columns by key (() for the constant); None for a regressor
    that is no monomial (log(x1)), evaluated from `expression`."""
    factor: float = 1.0
    """A monomial's number (`b*x/2` has 0.5)."""
    expression: sympy.Expr | None = None
    """A regressor that is no monomial, its symbols named by column key."""


@dataclass(frozen=True)
class Roles:
    """The columns and terms of one regression."""

    response: str
    predictors: tuple[str, ...]
    terms: tuple[Term, ...]
    formula: str = ""
    """The formula as the task writes it; "" when its words name the model."""

    @property
    def intercept(self) -> bool:
        return any(term.powers == () for term in self.terms)


@dataclass(frozen=True)
class Refusal:
    """Why a regression a task asks for on this table cannot be done, in a student's words."""

    reason: str


def resolve(ask: Ask, summary: TableSummary) -> Roles | Refusal | None:
    """The roles of the regression `ask` asks for on the table `summary`: a formula linear in
    its parameters with two columns or more among its symbols, else the columns its words
    name; a Refusal saying why it cannot be done; None when the task asks for no regression
    on several of this table's columns."""
    columns = candidates(summary)
    if ask.formula is not None:
        roles = formula_roles(ask.formula, summary)
        if isinstance(roles, Roles) and len(roles.predictors) >= 2:
            return roles
    if not ask.predictors and not ask.all_others and not ask.multiple:
        return None
    return _word_roles(ask, summary, columns)


def candidates(summary: TableSummary) -> list[Column]:
    """The columns a regression may use: measured, numeric, neither an uncertainty, a ratio
    labscribe derived, nor a count of rows."""
    return [
        c for c in summary.columns
        if c.count and c.uncertainty_of is None and c.ratio_of is None
        and _fold(c.name).strip() not in INDEX_NAMES
    ]  # fmt: skip


def mentions(text: str, columns: Sequence[Column]) -> list[tuple[int, str]]:
    """(position in `text`, key) of each column `text` names, in order: whole names first,
    the longest first, then a word of a name that no other column's name has (or a word with
    its stem); each stretch of text names one column."""
    folded = _fold(text)
    taken: list[tuple[int, int]] = []
    found: dict[str, int] = {}

    def claim(key: str, match: re.Match[str]) -> bool:
        span = match.span()
        if any(span[0] < end and start < span[1] for start, end in taken):
            return False
        taken.append(span)
        found[key] = span[0]
        return True

    for column in sorted(columns, key=lambda c: -len(c.name)):
        pattern, where = _whole_name(column)
        if pattern is not None:
            any(claim(column.key, m) for m in pattern.finditer(text if where else folded))
    words = {c.key: _name_words(c) for c in columns}
    for column in columns:
        if column.key in found:
            continue
        own = words[column.key] - set().union(*(w for k, w in words.items() if k != column.key))
        for token in re.finditer(r"[a-z][a-z0-9]{2,}", folded):
            if any(_same_word(token[0], word) for word in own) and claim(column.key, token):
                break
    return sorted((position, key) for key, position in found.items())


def formula_roles(formula: str, summary: TableSummary) -> Roles | Refusal | None:
    """The roles of `formula` on `summary`: its symbols that name columns are variables, the
    rest parameters; None unless it is linear in its parameters with a column among its
    variables and its left side (or the only other column) the response."""
    left, _, right = formula.partition("=")
    if not right.strip():
        return None
    right = _INDEXED_GREEK.sub(lambda m: f" {GREEK.get(m[1], m[1])}{m[2]} ", right)
    try:
        expression = sympy.expand(parse_expression(right))
    except FormulaError:
        return None
    columns = candidates(summary)
    written = plain_arithmetic(right)
    variables = {
        s: c
        for s in sorted(expression.free_symbols, key=lambda s: _first(s.name, written))
        if (c := _symbol_column(s.name, columns))
    }
    parameters = sorted(
        (s for s in expression.free_symbols if s not in variables),
        key=lambda s: _first(s.name, written),
    )
    if not variables or not parameters:
        return None
    terms = _terms(expression, parameters, variables)
    if terms is None:
        return None
    predictors = tuple(dict.fromkeys(c.key for c in variables.values()))
    name = re.match(r"\s*([A-Za-z][A-Za-z0-9_]*)", plain_arithmetic(left))
    response = _symbol_column(name[1], columns) if name else None
    if response is None:
        rest = [c for c in columns if c.key not in predictors]
        if len(rest) != 1:
            return Refusal(
                f"the formula {formula} does not say which column is the response, and "
                f"{summary.id} has {len(rest)} columns besides its variables"
            )
        response = rest[0]
    return Roles(response.key, predictors, terms, formula=formula)


def _word_roles(ask: Ask, summary: TableSummary, columns: list[Column]) -> Roles | Refusal | None:
    predictors: list[str] = []
    unmatched: list[str] = []
    for phrase in ask.predictors:
        named = [key for _, key in mentions(phrase, columns) if key not in predictors]
        if named:
            predictors.append(named[0])
        else:
            unmatched.append(phrase)
    response_named = [k for _, k in mentions(ask.response, columns) if k not in predictors]
    if not predictors and not response_named and not ask.multiple:
        return None  # the task names none of this table's columns
    if unmatched and not predictors and not ask.multiple:
        return None  # "how f0 depends on L and C": quantities of no column, not this table's
    if unmatched:
        names = ", ".join(c.name for c in columns)
        return Refusal(
            f"the task names {' and '.join(unmatched)} as a predictor, which no column of "
            f"{summary.id} holds (its columns: {names})"
        )
    rest = [c.key for c in columns if c.key not in predictors]
    response = response_named[-1] if response_named else _only_response(rest, columns)
    if response is None:
        return Refusal(
            f"the task does not say which column of {summary.id} is the response "
            f"(besides its predictors it has {', '.join(_names(rest, columns))})"
        )
    if ask.all_others or not predictors:
        predictors = [key for key in rest if key != response]
    predictors = [key for key in predictors if key != response]
    if len(predictors) < 2:
        if not ask.multiple:
            return None  # one predictor: a straight line, not this module's
        return Refusal(
            f"a multiple regression needs two predictors or more, and {summary.id} gives "
            f"only {', '.join(_names(predictors, columns)) or 'none'} besides the response"
        )
    by_key = {c.key: c for c in columns}
    terms = [Term("intercept", "1", ())] if ask.intercept else []
    terms += [Term(by_key[k].name, by_key[k].name, ((k, 1),)) for k in predictors]
    return Roles(response, tuple(predictors), tuple(terms))


def _only_response(rest: list[str], columns: list[Column]) -> str | None:
    """The response a task leaves unnamed: the one column besides the predictors, or the
    one named y (or Y1)."""
    if len(rest) == 1:
        return rest[0]
    named_y = [c.key for c in columns if c.key in rest and re.fullmatch(r"y\d?", _squash(c.name))]
    return named_y[0] if len(named_y) == 1 else None


def _names(keys: list[str], columns: list[Column]) -> list[str]:
    by_key = {c.key: c.name for c in columns}
    return [by_key[k] for k in keys]


def _terms(
    expression: sympy.Expr, parameters: list[sympy.Symbol], variables: dict[sympy.Symbol, Column]
) -> tuple[Term, ...] | None:
    """One term per parameter, when `expression` is a sum of parameters times functions of
    the variables alone (`variables` in the order the formula names them); None otherwise
    (a nonlinear model, or a term with no parameter)."""
    terms: list[Term] = []
    rest = expression
    keys = {s: sympy.Symbol(c.key, real=True) for s, c in variables.items()}
    for parameter in parameters:
        regressor = sympy.diff(expression, parameter)
        if regressor.free_symbols & set(parameters):
            return None
        rest -= parameter * regressor
        terms.append(_term(parameter.name, regressor, variables, keys))
    if sympy.expand(rest) != 0:
        return None
    return tuple(terms)


def _term(
    name: str,
    regressor: sympy.Expr,
    variables: dict[sympy.Symbol, Column],
    keys: dict[sympy.Symbol, sympy.Symbol],
) -> Term:
    label = sympy.sstr(regressor).replace("**", "^").replace("*", "·")
    used = [s for s in variables if s in regressor.free_symbols]
    if not used and regressor.is_number:
        return Term(name, label, (), factor=float(regressor))
    if used and regressor.is_polynomial(*used):
        poly = sympy.Poly(regressor, *used)
        if len(poly.terms()) == 1 and poly.terms()[0][1].is_number:
            exponents, number = poly.terms()[0]
            written = [(s, int(p)) for s, p in zip(used, exponents, strict=True) if p]
            label = "·".join(s.name if p == 1 else f"{s.name}^{p}" for s, p in written)
            if number != 1:
                label = f"{sympy.sstr(number)}·{label}"
            powers = tuple((variables[s].key, p) for s, p in written)
            return Term(name, label, powers, factor=float(number))
    return Term(name, label, None, expression=regressor.subs(keys))


# A run's number written into a name after its letter: `f3_start`, `U2`.
_RUN_NUMBER = re.compile(r"(?<=[^\W\d_])\d+(?=_|$)")


def _symbol_column(name: str, columns: list[Column]) -> Column | None:
    """The column a formula's symbol names: by name or key (case and underscores aside), or
    with a run's number in it; else, for one letter that is not a parameter's, the one
    column whose name starts with it."""
    folded = name.lower().replace("_", "")
    same = [c for c in columns if folded in {_squash(c.name), _squash(c.key)}]
    if same:
        exact = [c for c in same if name in (c.name, c.key)]
        return (exact or same)[0]
    numbered = [c for c in columns if _squash(_RUN_NUMBER.sub("", c.name)) == folded]
    if len(numbered) == 1:  # `f_start` written `f3_start`, the third run's
        return numbered[0]
    if len(name) == 1 and name not in PARAMETER_LETTERS:
        initial = [c for c in columns if _squash(c.name).startswith(folded)]
        return initial[0] if len(initial) == 1 else None
    return None


def _first(name: str, text: str) -> int:
    found = re.search(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])", text)
    return found.start() if found else len(text)


def _fold(text: str) -> str:
    """`text` in lower case with `._-/` as blanks, the same length as `text`."""
    return _SEPARATORS.sub(" ", text.lower())


def _squash(name: str) -> str:
    return re.sub(r"[\s._\-/]", "", name.lower())


def _whole_name(column: Column) -> tuple[re.Pattern[str] | None, bool]:
    """The pattern that finds `column`'s whole name, and whether it searches the text as
    written (one letter, case kept; CJK) rather than folded."""
    name = column.name.strip()
    if _CJK.search(name):
        return re.compile(re.escape(name)), True
    if len(name) == 1:
        if name in PROSE_LETTERS:
            return None, True
        return re.compile(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])"), True
    words = _fold(name).split()
    if not words:
        return None, False
    body = r"\s+".join(re.escape(word) for word in words)
    return re.compile(rf"(?<![a-z0-9]){body}s?(?![a-z0-9])"), False


def _name_words(column: Column) -> set[str]:
    return {
        w for w in re.findall(r"[a-z][a-z0-9]*", _fold(column.name))
        if len(w) >= MIN_WORD and w not in COMMON_WORDS
    }  # fmt: skip


def _same_word(token: str, word: str) -> bool:
    """The same word, or two forms of it: a common stem of at least MIN_STEM letters that
    leaves at most two letters of the shorter (`unemployed`, `unemployment`)."""
    if token == word:
        return True
    shorter = min(len(token), len(word))
    if shorter < MIN_STEM:
        return False
    stem = 0
    while stem < shorter and token[stem] == word[stem]:
        stem += 1
    return stem >= max(MIN_STEM, shorter - 2)
