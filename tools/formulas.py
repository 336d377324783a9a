"""A model an assignment writes out (`T = a L^b`, `y = b1*(1-exp(-b2*x))`,
`U(t) = U_0 e^{-t/\\tau}`), parsed with sympy into what lmfit's ExpressionModel fits.

Assignment text is untrusted: before sympy sees it, the text must consist of names, numbers,
arithmetic and parentheses only, every name a short symbol or a function of FUNCTIONS, so
what sympy's parser evaluates is arithmetic. The fit itself evaluates through asteval
(lmfit's ExpressionModel), never through Python's eval.

The dimensions of the parameters follow from the formula (every term of a sum alike, the
argument of exp or sin a pure number): they give each parameter's unit from the columns'
units, and the scale its start values are drawn from (tools.starts).
"""

from __future__ import annotations

import itertools
import keyword
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import sympy
from sympy.parsing.sympy_parser import (
    convert_xor,
    implicit_multiplication,
    parse_expr,
    standard_transformations,
)

MAX_FORMULA_CHARS = 240
MAX_NAME_CHARS = 12  # a symbol, not a word of prose
MAX_PARAMETERS = 12  # NIST's hardest certified models have 9
# The functions a formula may use, as sympy names them; asteval knows them as numpy's.
FUNCTIONS = {
    "exp": sympy.exp, "log": sympy.log, "ln": sympy.log, "sqrt": sympy.sqrt, "sin": sympy.sin,
    "cos": sympy.cos, "tan": sympy.tan, "arctan": sympy.atan, "atan": sympy.atan,
    "arcsin": sympy.asin, "asin": sympy.asin, "arccos": sympy.acos, "acos": sympy.acos,
    "sinh": sympy.sinh, "cosh": sympy.cosh, "tanh": sympy.tanh, "abs": sympy.Abs,
}  # fmt: skip
CONSTANTS = {"pi": sympy.pi, "e": sympy.E}
NUMPY_FUNCTIONS: dict[type, Callable[..., np.ndarray]] = {
    sympy.exp: np.exp, sympy.log: np.log, sympy.sin: np.sin, sympy.cos: np.cos,
    sympy.tan: np.tan, sympy.atan: np.arctan, sympy.asin: np.arcsin, sympy.acos: np.arccos,
    sympy.sinh: np.sinh, sympy.cosh: np.cosh, sympy.tanh: np.tanh, sympy.Abs: np.abs,
}  # fmt: skip
_ASTEVAL_NAMES = {"atan": "arctan", "asin": "arcsin", "acos": "arccos", "Abs": "abs"}
# Greek letters as assignments write them, spelled as symbol names (λ is not `lambda`, a
# Python keyword).
GREEK = {
    "α": "alpha", "β": "beta", "γ": "gamma", "δ": "delta", "ε": "epsilon", "ζ": "zeta",
    "η": "eta", "θ": "theta", "κ": "kappa", "λ": "lam", "μ": "mu", "µ": "mu", "ν": "nu",
    "ξ": "xi", "ρ": "rho", "σ": "sigma", "τ": "tau", "φ": "phi", "ϕ": "phi", "χ": "chi",
    "ψ": "psi", "ω": "omega", "Γ": "Gamma", "Δ": "Delta", "Θ": "Theta", "Λ": "Lambda",
    "Φ": "Phi", "Ω": "Omega", "π": "pi",
}  # fmt: skip
_SYMBOLS = {"·": "*", "×": "*", "⋅": "*", "−": "-", "–": "-", "²": "^2", "³": "^3", "√": "sqrt"}
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


def parse_formula(text: str, x_names: tuple[str, ...] = ()) -> Formula:
    """The formula `text` writes, its independent variable chosen among its names: the
    argument of a left side `U(t)`, else one of `x_names` (a table's column names), else the
    one name that reads like a variable rather than a parameter. Raises FormulaError."""
    written = " ".join(text.split())
    if len(written) > MAX_FORMULA_CHARS:
        raise FormulaError(f"a formula of at most {MAX_FORMULA_CHARS} characters is fitted")
    left, right = _sides(_plain(written))
    y, argument = _left_side(left)
    expression = _parse(right)
    names = _symbol_names(expression, right)
    if not names:
        raise FormulaError(f"{written!r} has no variable to fit against")
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
    return _parse(_plain(written))


def formula_in(sentence: str) -> str | None:
    """The formula a sentence writes (`... a power law T = a L^b to ...`), cut from the prose
    around it; None when it writes none. `$...$` math is taken whole."""
    for math in re.findall(r"\$([^$]{3,240})\$", sentence):
        if "=" in math:
            return math
    match = re.search(
        r"(?P<left>[A-Za-z\u0370-\u03ff][A-Za-z0-9_\u0370-\u03ff{}]*(?:\([^()=]{1,12}\))?)"
        r"\s*=\s*(?P<right>.+)", sentence
    )  # fmt: skip
    if match is None:
        return None
    right = _math_prefix(match["right"])
    return f"{match['left']} = {right}" if right else None


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


def positions(formula: Formula) -> frozenset[str]:
    """The parameters that shift the variable (`b4` in `exp(-((x - b4)/b5)^2)`): a peak's
    centre, a start time; their values lie where the data do."""
    expression = formula.sympy
    found = set()
    for node in expression.atoms(sympy.Add):
        terms = node.args
        if not any(term.is_Symbol and term.name == formula.x for term in terms):
            continue
        for term in terms:
            names = {s.name for s in term.free_symbols}
            shifted = term.is_Symbol or (term.is_Mul and abs(term.as_coeff_Mul()[0]) == 1)
            if len(names) == 1 and shifted and (name := next(iter(names))) in formula.parameters:
                found.add(name)
    return frozenset(found)


def evaluate_tree(
    node: sympy.Expr,
    values: Mapping[str, Any],
    functions: Mapping[type, Callable[..., Any]] = NUMPY_FUNCTIONS,
) -> Any:
    """`node` evaluated on `values` by walking its tree, no code generated: with numpy's
    `functions` on arrays that broadcast (thousands of guesses in one pass, tools.starts),
    or with `uncertainties`' on uncertain numbers (tools.quantities)."""
    if node.is_Symbol:
        return values[node.name]
    if node.is_Number or node in (sympy.pi, sympy.E):
        return float(node)
    parts = [evaluate_tree(arg, values, functions) for arg in node.args]
    if node.is_Add:
        return sum(parts[1:], parts[0])
    if node.is_Mul:
        result = parts[0]
        for part in parts[1:]:
            result = result * part
        return result
    if node.is_Pow:
        return parts[0] ** parts[1]
    function = functions.get(type(node))
    if function is None:
        raise FormulaError(f"{node.func} is not a function a formula may use")
    return function(*parts)


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


def periods(formula: Formula) -> dict[str, list[sympy.Expr]]:
    """For each parameter that sets how fast a sine or cosine turns (`b4` of cos(2πx/b4)),
    its value in terms of the angular frequency ω that turning takes (`2π/ω`): a periodogram
    of the data then gives its start values."""
    expression = formula.sympy
    x = next((s for s in expression.free_symbols if s.name == formula.x), None)
    omega = sympy.Symbol("omega_", positive=True)
    found: dict[str, list[sympy.Expr]] = {}
    for node in expression.atoms(sympy.sin, sympy.cos):
        rate = sympy.diff(node.args[0], x) if x is not None else sympy.Integer(0)
        free = [s for s in rate.free_symbols if s.name in formula.parameters]
        if len(free) != 1 or free[0].name in found:
            continue
        try:
            solutions = sympy.solve(sympy.Eq(rate, omega), free[0])
        except (NotImplementedError, ValueError):
            continue
        if solutions:
            found[free[0].name] = solutions
    return found


def _plain(text: str) -> str:
    """LaTeX and Unicode math as plain arithmetic: `U_0 e^{-t/\\tau}` -> `U_0 exp((-t/tau))`."""
    for letter, name in GREEK.items():
        text = text.replace(letter, f" {name} ")
    for sign, plain in _SYMBOLS.items():
        text = text.replace(sign, plain)
    text = text.replace("\\left", "").replace("\\right", "").replace("\\,", " ")
    text = re.sub(r"\\(?:cdot|times)\b", "*", text)
    text = re.sub(r"\\frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}", r"((\1)/(\2))", text)
    text = re.sub(r"\\sqrt\s*\{([^{}]*)\}", r"sqrt(\1)", text)
    text = re.sub(r"\\([A-Za-z]+)", lambda m: f" {m[1]} " if m[1] != "exp" else " exp ", text)
    text = re.sub(r"_\{([A-Za-z0-9]+)\}", r"_\1", text)
    # e^{...} and e^(...) are exp(...), e^x is exp(x); a name e_1 or `ex` is not touched
    text = re.sub(r"(?<![A-Za-z0-9_])e\s*\^\s*\{([^{}]*)\}", r"exp(\1)", text)
    text = re.sub(r"(?<![A-Za-z0-9_])e\s*\^\s*\(", "exp(", text)
    text = re.sub(r"(?<![A-Za-z0-9_])e\s*\^\s*(-?[A-Za-z0-9_]+)", r"exp(\1)", text)
    return text.replace("{", "(").replace("}", ")")


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
    if match is None:
        raise FormulaError(f"the left side {left!r} is not a name")
    return match[1], match[2]


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
        expression = parse_expr(
            text, local_dict=local, global_dict=_GLOBALS, transformations=transformations,
            evaluate=True,
        )  # fmt: skip
    except (SyntaxError, TypeError, ValueError, AttributeError, sympy.SympifyError) as exc:
        raise FormulaError(f"{text!r} does not parse as a formula") from exc
    if not isinstance(expression, sympy.Expr) or expression.has(sympy.zoo, sympy.nan):
        raise FormulaError(f"{text!r} is not a formula of numbers")
    return expression


_GLOBALS: dict[str, object] = {
    "Integer": sympy.Integer, "Float": sympy.Float, "Rational": sympy.Rational,
    "Symbol": sympy.Symbol,
}  # fmt: skip


def _symbol_names(expression: sympy.Expr, written: str) -> list[str]:
    """The names of `expression`'s symbols, in the order `written` (its text) names them."""
    printed = _plain(written)
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


_TOKEN = re.compile(r"\\[A-Za-z]+|[A-Za-z\u0370-\u03ff]+[A-Za-z0-9_]*|\d+(?:\.\d+)?|\S")


def _math_prefix(text: str) -> str:
    """The formula at the start of `text`, as written, up to the first word of prose or
    the punctuation that ends a clause."""
    end = 0
    depth = 0
    for match in _TOKEN.finditer(text):
        token = match[0]
        if token in "([{":
            depth += 1
        elif token in ")]}":
            depth -= 1
            if depth < 0:
                break
        elif depth == 0 and (token in ",;:." or _prose(token.lstrip("\\"))):
            break
        end = match.end()
    formula = text[:end].strip()
    return formula if re.search(r"[A-Za-z\u0370-\u03ff]", formula) else ""


def _prose(word: str) -> bool:
    """A word of two letters or more that is not math (`exp`, `tau`, `frac` are)."""
    return re.fullmatch(r"[A-Za-z]{2,}", word) is not None and not _mathematical(word)


def _mathematical(word: str) -> bool:
    """Whether a word of two letters or more is math (`exp`, `tau`, `frac`), not prose."""
    return (
        word in FUNCTIONS or word in CONSTANTS or word in GREEK.values()
        or word in {"frac", "cdot", "times", "sqrt", "left", "right", "exp"}
    )  # fmt: skip
