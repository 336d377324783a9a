"""A model an assignment writes out (`T = a L^b`, `y = b1*(1-exp(-b2*x))`,
`U(t) = U_0 e^{-t/\\tau}`), parsed with sympy into what lmfit's ExpressionModel fits.

Assignment text is untrusted: before sympy sees it, the text must consist of names, numbers,
arithmetic and parentheses only, every name a short symbol or a function of FUNCTIONS
(tools.formulas.formula_notation), so what sympy's parser evaluates is arithmetic. The fit itself
evaluates through asteval (lmfit's ExpressionModel), never through Python's eval.

What a parsed formula implies about its parameters lives apart: their dimensions
(tools.formulas.dimensions), the parameters that shift or turn the variable
(tools.formulas.parameter_roles), the symmetries that give them a canonical form
(tools.formulas.canonical_form).
"""

from __future__ import annotations

import keyword
import re
from dataclasses import dataclass
from tokenize import TokenError

import sympy
from sympy.parsing.sympy_parser import (
    convert_xor,
    implicit_multiplication,
    parse_expr,
    standard_transformations,
)

from labscribe.tools.formulas.formula_bounds import FormulaBoundError, check_bounds
from labscribe.tools.formulas.formula_glyphs import typeset_as_plain
from labscribe.tools.formulas.formula_notation import CONSTANTS, FUNCTIONS, plain_arithmetic

MAX_FORMULA_CHARS = 240
MAX_NAME_CHARS = 12  # a symbol, not a word of prose
MAX_PARAMETERS = 12  # NIST's hardest certified models have 9
_ASTEVAL_NAMES = {"atan": "arctan", "asin": "arcsin", "acos": "arccos", "Abs": "abs"}
# Names an independent variable usually has; and names a parameter usually has.
X_NAMES = frozenset(
    {"x", "t", "f", "nu", "omega", "L", "l", "d", "r", "s", "z", "h", "theta", "lam", "time",
     "freq", "V", "U", "I", "T", "m", "F", "B", "E", "P", "c", "n", "w", "q", "phi", "alpha"}
)  # fmt: skip
_PARAMETER_NAME = re.compile(
    r"^(?:[a-dkA-DK]|[a-zA-Z]{1,3}_?\d+|[A-Za-z]+_(?:0|max|min|inf|s|c|r)|tau\d*|gamma|beta|"
    r"amp|offset|slope|intercept|rate|k_?[a-z]?|[A-Za-z]_?[A-Za-z]?0)$"
)
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_ALLOWED = re.compile(r"^[A-Za-z0-9_+\-*/^().,\s]*$")


class FormulaError(ValueError):
    """The text is not a formula labscribe can fit; the message says why."""


@dataclass(frozen=True)
class Formula:
    """A model written out: `y = expression(x; parameters)`."""

    text: str
    """As the assignment writes it, normalised to one line."""
    y: str | None
    """The response's name (`T` in `T = a L^b`); None when the text names none."""
    x: str
    """The independent variable's name."""
    expression: str
    """The right-hand side in Python syntax, numpy's function names: what asteval reads."""
    parameters: tuple[str, ...]
    """In the order the formula first names them."""
    linear: frozenset[str]
    """The parameters the formula is linear in: solved exactly for each guess of the rest."""

    @property
    def sympy(self) -> sympy.Expr:
        return _parse(self.expression)


def parse_formula(
    text: str,
    x_names: tuple[str, ...] = (),
    *,
    variable: str | None = None,
    response: str | None = None,
) -> Formula:
    """The formula `text` writes, solved for its response where its left side is not a name
    (`e U = h c/λ - W` for U: `response`, else the left side's one symbol), its independent
    variable chosen among its names: `variable` (the symbol the caller matched to the data's
    predictor), else the argument of a left side `U(t)`, else one of `x_names` (a table's
    column names), else the one name that reads like a variable rather than a parameter.
    Raises FormulaError."""
    written = " ".join(text.split())
    if len(written) > MAX_FORMULA_CHARS:
        raise FormulaError(f"a formula of at most {MAX_FORMULA_CHARS} characters is fitted")
    left, right = _sides(plain_arithmetic(typeset_as_plain(written)))
    try:
        y, argument = _left_side(left)
        expression = _parse(right)
    except FormulaError:
        if not left:
            raise
        y, argument = _response_of(left, response), None
        expression = _solved(left, right, y)
    names = _symbol_names(expression, right)
    if not names:
        raise FormulaError(f"{written!r} has no variable to fit against")
    if variable is not None and variable in names:
        x = variable
    else:
        x = _independent(names, argument, y, x_names)
    parameters = tuple(name for name in names if name != x)
    if not parameters:
        raise FormulaError(f"{written!r} has no parameter to fit")
    if len(parameters) > MAX_PARAMETERS:
        raise FormulaError(f"a formula of at most {MAX_PARAMETERS} parameters is fitted")
    linear = _linear_parameters(expression, parameters)
    return Formula(
        text=written, y=y, x=x, expression=_asteval_text(expression), parameters=parameters,
        linear=linear,
    )  # fmt: skip


def parse_expression(text: str) -> sympy.Expr:
    """An expression of names and numbers (`4*pi^2/a^2`, `R \\cdot C`), read as a formula's
    right side is. Raises FormulaError."""
    written = " ".join(text.split())
    if len(written) > MAX_FORMULA_CHARS:
        raise FormulaError(f"an expression of at most {MAX_FORMULA_CHARS} characters is read")
    return _parse(plain_arithmetic(written))


def _sides(text: str) -> tuple[str, str]:
    if text.count("=") > 1:
        raise FormulaError("a formula has one '='")
    left, _, right = text.rpartition("=")
    if not right.strip():
        raise FormulaError("the formula has no right side")
    return left.strip(), right.strip()


def _left_side(left: str) -> tuple[str | None, str | None]:
    """(response, its argument) of `U(t)`, `T` or `` (no left side)."""
    if not left:
        return None, None
    match = re.fullmatch(r"([A-Za-z][A-Za-z0-9_]*)\s*(?:\(\s*([A-Za-z][A-Za-z0-9_]*)\s*\))?", left)
    if match is None or match[1] in FUNCTIONS:  # `ln(V)` is a function of the response V
        raise FormulaError(f"the left side {left!r} is not a name")
    return match[1], match[2]


def _response_of(left: str, response: str | None) -> str:
    """The response in a left side that is not a name (`e U`): `response` where the side
    holds it, else its one symbol."""
    names = sorted(s.name for s in _parse(left).free_symbols)
    if response is not None and response in names:
        return response
    if len(names) == 1:
        return names[0]
    raise FormulaError(
        f"cannot tell the response among {', '.join(names)} on the left side {left!r}"
    )


def _solved(left: str, right: str, response: str) -> sympy.Expr:
    """The right side of `left = right` solved for `response`, when sympy finds one solution."""
    symbol = next(s for s in _parse(left).free_symbols if s.name == response)
    try:
        solutions = sympy.solve(sympy.Eq(_parse(left), _parse(right)), symbol)
    except (NotImplementedError, ValueError, TypeError) as exc:
        raise FormulaError(f"{left} = {right} cannot be solved for {response}") from exc
    if len(solutions) != 1:
        raise FormulaError(f"{left} = {right} has no single solution for {response}")
    return solutions[0]


def substituted(
    formula: Formula,
    values: dict[str, sympy.Expr],
    *,
    y_scale: float = 1.0,
    y_offset: float = 0.0,
) -> Formula:
    """`formula` with symbols replaced by `values` (a constant by its number, the variable by
    itself in other units, `1e-9*lam`) and its value expressed as (value - y_offset)/y_scale:
    the text stays as written, the parameters are those left."""
    symbols = {s.name: s for s in formula.sympy.free_symbols}
    expression = formula.sympy.subs({symbols[k]: v for k, v in values.items() if k in symbols})
    if y_scale != 1.0 or y_offset != 0.0:
        expression = (expression - sympy.Float(y_offset)) / sympy.Float(y_scale)
    parameters = tuple(p for p in formula.parameters if p not in values)
    if not parameters:
        raise FormulaError(f"{formula.text!r} has no parameter left to fit")
    return Formula(
        text=formula.text, y=formula.y, x=formula.x, expression=_asteval_text(expression),
        parameters=parameters, linear=_linear_parameters(expression, parameters),
    )  # fmt: skip


def _parse(text: str) -> sympy.Expr:
    """`text` (plain arithmetic) as a sympy expression, after the checks that keep what
    sympy's parser evaluates to arithmetic on names and numbers."""
    if not _ALLOWED.match(text) or "__" in text:
        raise FormulaError(f"{text!r} holds characters a formula does not")
    local: dict[str, object] = {}
    for name in set(_NAME.findall(text)):
        if name in FUNCTIONS:
            local[name] = FUNCTIONS[name]
        elif name in CONSTANTS:
            local[name] = CONSTANTS[name]
        elif keyword.iskeyword(name) or len(name) > MAX_NAME_CHARS:
            raise FormulaError(f"{name!r} is a word, not a symbol of a formula")
        else:
            local[name] = sympy.Symbol(name, real=True)
    transformations = (*standard_transformations, implicit_multiplication, convert_xor)
    try:
        # first as written, every operation a node: what evaluating it would cost is
        # bounded before sympy computes anything (`9^9^9` is never worked out)
        check_bounds(
            parse_expr(
                text,
                local_dict=local,
                global_dict=_UNEVALUATED,
                transformations=transformations,
                evaluate=False,
            )
        )
        expression = parse_expr(
            text, local_dict=local, global_dict=_GLOBALS, transformations=transformations,
            evaluate=True,
        )  # fmt: skip
    except FormulaBoundError as exc:
        raise FormulaError(f"{text!r}: {exc}") from exc
    except (
        SyntaxError, TypeError, ValueError, AttributeError, sympy.SympifyError, TokenError,
        RecursionError,
    ) as exc:  # fmt: skip
        raise FormulaError(f"{text!r} does not parse as a formula") from exc
    if not isinstance(expression, sympy.Expr) or expression.has(sympy.zoo, sympy.nan):
        raise FormulaError(f"{text!r} is not a formula of numbers")
    return expression


_GLOBALS: dict[str, object] = {
    "Integer": sympy.Integer, "Float": sympy.Float, "Rational": sympy.Rational,
    "Symbol": sympy.Symbol,
}  # fmt: skip
# What the parser writes an operation as when it does not evaluate it.
_UNEVALUATED = {**_GLOBALS, "Add": sympy.Add, "Mul": sympy.Mul, "Pow": sympy.Pow}


def _symbol_names(expression: sympy.Expr, written: str) -> list[str]:
    """The names of `expression`'s symbols, in the order `written` (its text) names them."""
    printed = plain_arithmetic(written)
    names = {s.name for s in expression.free_symbols}

    def first_seen(name: str) -> tuple[int, str]:
        found = re.search(rf"\b{name}\b", printed)
        return (found.start() if found else 0, name)

    return sorted(names, key=first_seen)


def _independent(
    names: list[str], argument: str | None, y: str | None, x_names: tuple[str, ...]
) -> str:
    if argument is not None:
        if argument not in names:
            raise FormulaError(f"the formula does not use its variable {argument!r}")
        return argument
    folded = {name.lower(): name for name in names}
    for column in x_names:
        if (found := folded.get(column.lower())) and found != y:
            return found
    likely = [n for n in names if n in X_NAMES and not _PARAMETER_NAME.match(n)]
    if len(likely) == 1:
        return likely[0]
    if "x" in names:
        return "x"
    plain = [n for n in names if not _PARAMETER_NAME.match(n)]
    if len(plain) == 1:
        return plain[0]
    raise FormulaError(
        f"cannot tell the variable from the parameters among {', '.join(names)}: name it "
        "as the data's column is named, or write the left side as y(x)"
    )


def _linear_parameters(expression: sympy.Expr, parameters: tuple[str, ...]) -> frozenset[str]:
    """A set of parameters the formula is linear in jointly (`b1` of `b1*(x + b2)`, not
    both): each alone, and no product of two of them."""
    symbols = {s.name: s for s in expression.free_symbols}
    kept: list[str] = []
    for name in parameters:
        derivative = sympy.diff(expression, symbols[name])
        if symbols[name] in derivative.free_symbols:
            continue
        if all(sympy.diff(derivative, symbols[other]) == 0 for other in kept):
            kept.append(name)
    return frozenset(kept)


def _asteval_text(expression: sympy.Expr) -> str:
    text = sympy.sstr(expression, full_prec=False)
    for name, numpy_name in _ASTEVAL_NAMES.items():
        text = re.sub(rf"\b{name}\(", f"{numpy_name}(", text)
    return text
