"""The law a straight line stands for. A handout that linearises a law asks for the law's
parameters, which the line's slope and intercept give: `ln A = ln A0 − k t` fitted as a line
of ln A against t gives k = −slope and A0 = exp(intercept); `E = ¾ Ry (Z − σ)²` plotted as
√E against Z gives Ry = 4·slope²/3, then σ = −intercept/slope.

The law is rewritten on the fit's axes with sympy (the response transformed as the axis is,
√ of both sides; the variable replaced by the axis's expression, T by 1/X for an axis 1/T),
and only where it is then exactly a straight line in the axis are its two coefficients set
equal to the slope and the intercept. Each equation with one unknown left is solved in
turn; a symbol is given only where its solution is unique (or the one positive root), with
its uncertainty propagated from the fit's covariance (`uncertainties`), and a unit only
where pint works one out from the slope's and the intercept's.
"""

from __future__ import annotations

import re
from typing import Any

import sympy
from uncertainties import UFloat, ufloat

from labscribe.tools.assignment.handout_units import sentences
from labscribe.tools.assignment.part_ranges import outside_its_range
from labscribe.tools.columns.quantity_words import name_contradicts_unit
from labscribe.tools.columns.symbol_dimensions import CONVENTIONAL, dimension_is
from labscribe.tools.columns.unit_library import unit_registry
from labscribe.tools.fits.fit_quantities import FitQuantity
from labscribe.tools.fits.fit_result import Fit, axes_of
from labscribe.tools.formats.tables import TableSummary
from labscribe.tools.formulas.axis_expressions import expression_of
from labscribe.tools.formulas.constants import BY_SPELLING, PhysicalConstant
from labscribe.tools.formulas.formula_eval import evaluate_tree
from labscribe.tools.formulas.formula_notation import formulas_in, plain_symbol
from labscribe.tools.formulas.formula_parse import FormulaError, parse_expression
from labscribe.tools.formulas.quantities import UNCERTAIN_FUNCTIONS, uncertain_parameters

# The straight lines among the models, by whether they have an intercept; their parameters
# are named `slope` and `intercept` (tools.fits.shapes).
LINES = {"linear": True, "proportional": False}
MAX_LAWS = 12
NOT_WITHIN_NOISE = "the line does not describe the data to within their noise (see the fits)"
_CALLED = re.compile(r"^\s*([^\W\d]\w*)\s*\(\s*[^\W\d][\w\\]*\s*\)\s*$")
_AXIS = sympy.Symbol("axis_value")


def line_law_quantities(
    tasks: list[str],
    handout_text: str,
    fits: list[Fit],
    asked: dict[str, set[str]],
    tables: list[TableSummary] = (),  # type: ignore[assignment]
) -> list[FitQuantity]:
    """The symbols each task asks for (`asked`, by task) that a good straight-line fit gives
    through a law the handout writes, one per task, symbol and fit. A symbol that names a
    column of the fit's table (of `tables`) varies from row to row: no line gives it (v = λf
    over columns λ and f defines v, it does not make λ a slope)."""
    laws = list(dict.fromkeys(
        law for text in [handout_text, *tasks] for s in sentences(text)
        for written in formulas_in(s) for law in _one_each(written)
    ))[:MAX_LAWS]  # fmt: skip
    by_id = {t.id: t for t in tables}
    found: list[FitQuantity] = []
    seen: set[tuple[str, ...]] = set()
    for fit in fits:
        # the line a task asks for gives its law's values however well it fits, said so
        if not (fit.good or fit.requested) or fit.model not in LINES:
            continue
        if fit.requested and outside_its_range(fit.requested, by_id.get(fit.table)):
            continue  # the task's line is of another file's range: no law's value from it
        caveat = "" if fit.good else f"; {NOT_WITHIN_NOISE}"
        columns = {form for t in tables if t.id == fit.table for c in t.columns
                   for form in (c.name, plain_symbol(c.name))}  # fmt: skip
        for law in laws:
            solved = {k: v for k, v in _solved(law, fit).items() if k not in columns}
            for task in tasks:
                if outside_its_range(task, by_id.get(fit.table)):
                    continue  # "für die Messreihe p ≤ 1 bar": another file's line
                # the task's `τ` is the law's `tau`
                wanted = {
                    plain_symbol(a): a
                    for a in sorted(asked.get(task, set()), key=str.isascii, reverse=True)
                }
                given = {wanted[name]: (
                    f"{_plain_law(law)}, whose line gives {wanted[name]} = "
                    f"{_written(solved[name][0])}{caveat}",
                    *solved[name][1:],
                ) for name in set(wanted) & set(solved)}  # fmt: skip
                # the handout's own formula for a value the task asks (`ϑ₀ = −1/γ`)
                defining = [f for f in laws if plain_symbol(f.partition("=")[0]) in wanted]
                given |= _chained([*formulas_in(task), *defining], law, solved)
                for name, (relation, value, unit) in sorted(given.items()):
                    if (task, name, fit.table, fit.y, fit.x) in seen:
                        continue  # two tasks' requests of one line fit it alike
                    seen.add((task, name, fit.table, fit.y, fit.x))
                    found.append(FitQuantity(
                        task=task, name=name, value=value.nominal_value, stderr=value.std_dev,
                        unit=unit or "", unit_known=unit is not None, relation=relation,
                        fit=f"the fit of {axes_of(fit, fits)}", table=fit.table,
                    ))  # fmt: skip
    return found


def _chained(
    formulas: list[str], law: str, solved: dict[str, tuple[sympy.Expr, UFloat, str | None]]
) -> dict[str, tuple[str, UFloat, str | None]]:
    """What the `formulas` (the task's own, and the handout's for a value it asks) give from
    the law's symbols the line gave (`t_half =
    ln(2)/k` from the k of `ln A = ln A0 − k t`): {name: (how, value, unit)}."""
    found: dict[str, tuple[str, UFloat, str | None]] = {}
    for written in formulas:
        left, _, right = written.partition("=")
        name = left.strip()
        try:
            expression = parse_expression(right)
        except FormulaError:
            continue
        inputs = {symbol.name for symbol in expression.free_symbols}
        plain = plain_symbol(name)
        if not re.fullmatch(r"[A-Za-z]\w*", plain) or not inputs or not inputs <= set(solved):
            continue
        try:
            value = evaluate_tree(expression, {n: solved[n][1] for n in inputs},
                                  UNCERTAIN_FUNCTIONS)  # fmt: skip
        except (ValueError, ArithmeticError, TypeError):
            continue
        units = {n: unit for n in inputs if (unit := solved[n][2]) is not None}
        unit = _unit(expression, units) if len(units) == len(inputs) else None
        if isinstance(value, UFloat):
            found[name] = (f"{written.strip()}, with {', '.join(sorted(inputs))} from "
                           f"{_plain_law(law)}",
                           value, unit)  # fmt: skip
    return found


def _one_each(written: str) -> list[str]:
    """The equations of a display that writes several (`V(t) = V_0 e^{-t/τ}, \\qquad τ = RC
    \\qquad\\Rightarrow\\qquad \\ln V = ...`), each with one `=`, the left side of a law
    written as a function (`V(t)`) as its name."""
    parts = _BETWEEN_EQUATIONS.split(written.strip().rstrip("."))
    laws = [re.sub(r"^\s*([A-Za-z]\w*)\s*\(\s*[A-Za-z]\w*\s*\)\s*=", r"\1 =", part)
            for part in parts if part.count("=") == 1]  # fmt: skip
    return [law.strip(" ,;") for law in laws]


_BETWEEN_EQUATIONS = re.compile(
    r"\\q?quad|\\(?:Rightarrow|Longrightarrow|implies|text\{[^{}]*\})|⇒|→|[,;]\s+(?=\S+\s*=)"
)


def _solved(law: str, fit: Fit) -> dict[str, tuple[sympy.Expr, UFloat, str | None]]:
    """The law's symbols the fit's line gives: {name: (its expression in slope and
    intercept, its value, its unit or None)}; {} where the law is no line on these axes."""
    coefficients = _line_coefficients(law, fit)
    if coefficients is None:
        return {}
    slope, intercept = sympy.Symbol("slope"), sympy.Symbol("intercept")
    equations = [coefficients[1] - slope]
    if LINES[fit.model or ""]:
        equations.append(coefficients[0] - intercept)
    elif coefficients[0] != 0:
        return {}  # a line through the origin stands for no law with an intercept
    found: dict[str, sympy.Expr] = {}
    constants: dict[str, PhysicalConstant] = {}
    progress = True
    while progress:
        progress = False
        for equation in equations:
            unknown = _unknowns(equation, constants)
            if len(unknown) != 1:
                continue
            symbol = unknown.pop()
            solution = _one_solution(equation, symbol, fit)
            if solution is None:
                continue
            found[symbol.name] = solution
            equations = [e.subs(symbol, solution) for e in equations]
            progress = True
        if not progress and (name := _constant_left(equations, constants)):
            # the gas constant R of ln p = −ΔH/(R·T) + C: known, so ΔH = −R·slope
            constants[name] = BY_SPELLING[name]
            progress = True
    return {name: result for name, expression in found.items()
            if (result := _evaluated(expression, fit, constants)) is not None}  # fmt: skip


def _unknowns(equation: sympy.Expr, constants: dict[str, PhysicalConstant]) -> set[sympy.Symbol]:
    """The law's symbols left in `equation`: neither the line's coefficients nor a constant
    taken as known."""
    return {
        s for s in equation.free_symbols
        if s.name not in constants and s.name not in ("slope", "intercept")
    }  # fmt: skip


def _constant_left(equations: list[sympy.Expr], constants: dict[str, PhysicalConstant]) -> str:
    """A physical constant's symbol left among an equation's two unknowns, taken as known
    ("" where none is)."""
    for equation in equations:
        unknown = _unknowns(equation, constants)
        spelled = [s.name for s in unknown if s.name in BY_SPELLING]
        if len(unknown) == 2 and len(spelled) == 1:
            return spelled[0]
    return ""


def _line_coefficients(law: str, fit: Fit) -> tuple[sympy.Expr, sympy.Expr] | None:
    """(c0, c1) of the law written on the fit's axes as y = c0 + c1·axis; None where it is
    not a straight line on them."""
    left_text, _, right_text = law.partition("=")
    if "=" in right_text:
        return None
    # `p(ϑ) = p₀ (1 + γ ϑ)`: the left side as a function of its variable is the quantity
    left_text = _CALLED.sub(r"\1", left_text)
    try:
        left, right = parse_expression(left_text), parse_expression(right_text)
    except FormulaError:
        return None
    symbols = left.free_symbols | right.free_symbols
    y_axis, x_axis = _axis(fit.y, fit.y_unit, symbols), _axis(fit.x, fit.x_unit, symbols)
    if y_axis is None or x_axis is None:
        return None
    y_axis = _as_the_laws(y_axis, symbols)
    response = _on_axis(left, right, y_axis)
    variables = x_axis.free_symbols
    if response is None or len(variables) != 1:
        return None
    variable = variables.pop()
    inverse = sympy.solve(sympy.Eq(x_axis, _AXIS), variable)
    if len(inverse) != 1 or not response.has(variable):
        return None
    line = sympy.expand(sympy.powdenest(response.subs(variable, inverse[0]), force=True))
    c1 = sympy.simplify(sympy.diff(line, _AXIS))
    c0 = sympy.simplify(line.subs(_AXIS, 0))
    if (
        c1.has(_AXIS)
        or c0.has(_AXIS)
        or c1 == 0
        or (c0.free_symbols | c1.free_symbols) & (y_axis.free_symbols)
    ):
        return None
    return c0, c1


def _axis(name: str, unit: str, symbols: set[sympy.Symbol]) -> sympy.Expr | None:
    """The fit's axis as an expression: as its column's name writes it, or, for a column
    named in words (`voltage`, `current (1k)`), the one symbol of the law that stands for
    a quantity of the column's unit by convention (U for volts, I for amperes)."""
    written = expression_of(name)
    if written is not None and {s.name.split("_")[0] for s in written.free_symbols} & {
        s.name for s in symbols
    }:
        return written
    if not unit or name_contradicts_unit(name, unit):  # `POTENZIALE [mA]`: no quantity
        return written
    by_unit = [s for s in symbols if dimension_is(unit, CONVENTIONAL.get(s.name, ()))]
    return by_unit[0] if len(by_unit) == 1 else written


def _as_the_laws(axis: sympy.Expr, symbols: set[sympy.Symbol]) -> sympy.Expr:
    """The axis in the law's symbols: a run's column named after the law's symbol with a tag
    (`ln V_C1`, one capacitor's) is the law's V for that run."""
    names = {symbol.name: symbol for symbol in symbols}
    renamed = {}
    for symbol in axis.free_symbols:
        base = symbol.name.split("_")[0]
        if symbol.name not in names and base in names:
            renamed[symbol] = names[base]
    return axis.subs(renamed)


def _on_axis(left: sympy.Expr, right: sympy.Expr, y_axis: sympy.Expr) -> sympy.Expr | None:
    """The law's right side as the fit's response axis: the law itself where its left side
    is the axis (`ln A`), the axis's transform applied to both sides where its left side is
    the symbol the axis transforms (√ of `E = ...` for an axis √E), the law solved for the
    axis where the axis is one of its inputs."""
    if sympy.simplify(left - y_axis) == 0:
        return right
    if left.is_Symbol and y_axis.free_symbols == {left}:
        # √((Z − σ)²) is Z − σ where the law holds: its quantities are positive there
        transformed = sympy.expand_log(y_axis.subs(left, right), force=True)
        return transformed.replace(sympy.Abs, lambda argument: argument)
    (symbol,) = y_axis.free_symbols if len(y_axis.free_symbols) == 1 else (None,)
    if symbol is not None and right.has(symbol):
        # the line of a law's input against its output (I against U for U = R·I, 1/b
        # against 1/g for 1/f = 1/b + 1/g): the law solved for the input, where it has one
        # solution, and the axis's transform applied to it
        solved = _solutions(left - right, symbol)
        return sympy.simplify(y_axis.subs(symbol, solved[0])) if len(solved) == 1 else None
    return None


def _solutions(equation: sympy.Expr, symbol: sympy.Symbol) -> list[sympy.Expr]:
    try:
        return list(sympy.solve(equation, symbol))
    except (NotImplementedError, ValueError, TypeError):
        return []


def _one_solution(equation: sympy.Expr, symbol: sympy.Symbol, fit: Fit) -> sympy.Expr | None:
    """The solution of `equation` = 0 for `symbol`: the only one, or the only one that is
    positive at the fit's values (k from k² = slope); None otherwise."""
    solutions = _solutions(equation, symbol)
    if len(solutions) > 1:
        values = {p.name: p.value for p in fit.parameters}
        solutions = [s for s in solutions if _positive(s, values)]
    return solutions[0] if len(solutions) == 1 else None


def _positive(expression: sympy.Expr, values: dict[str, float]) -> bool:
    number = expression.subs({sympy.Symbol(k): v for k, v in values.items()})
    return bool(number.is_real and number > 0)


def _evaluated(
    expression: sympy.Expr, fit: Fit, constants: dict[str, PhysicalConstant]
) -> tuple[sympy.Expr, UFloat, str | None] | None:
    """The expression's value from the fit's correlated parameters and the constants it
    uses (their CODATA values), with its unit."""
    values = uncertain_parameters(fit) | {
        name: ufloat(c.value, c.uncertainty) if c.uncertainty else c.value  # R is exact
        for name, c in constants.items()
    }
    if not {s.name for s in expression.free_symbols} <= set(values):
        return None
    try:
        value = evaluate_tree(expression, values, UNCERTAIN_FUNCTIONS)
    except (ValueError, ArithmeticError, TypeError):
        return None
    if not isinstance(value, UFloat):
        return None
    units = {p.name: p.unit for p in fit.parameters} | {
        name: str(c.unit) for name, c in constants.items()
    }
    return expression, value, _unit(expression, units)


def _unit(expression: sympy.Expr, units: dict[str, str]) -> str | None:
    """The unit of `expression` from the parameters' units (pint), "" for a pure number;
    None where a unit cannot be read or a function's argument is not a pure number."""
    registry = unit_registry()
    try:
        quantities = {name: registry.Quantity(1, unit or "") for name, unit in units.items()}
        result = evaluate_tree(expression, quantities, _PINT_FUNCTIONS)
    except Exception:  # pint's many errors on a unit it cannot read or combine
        return None
    if not hasattr(result, "units"):
        return ""
    return "" if result.dimensionless else _named(result)


# Derived units a quotient of units is written as when it is one exactly (V/mA is kΩ).
_NAMED_UNITS = ("ohm", "siemens", "farad", "henry", "watt", "joule", "newton", "pascal",
                "coulomb", "tesla", "weber", "hertz")  # fmt: skip


def _named(quantity: Any) -> str:
    """A pint quantity's unit as written, or as the derived unit it is exactly."""
    # pint's Δ°C is a step of the Celsius scale: a coefficient per °C, a point in °C
    written = f"{quantity.units:~P}".replace("Δ°C", "°C")
    # a reciprocal (1/s) stays one: a decay's rate constant is no frequency in Hz
    if not re.search(r"[/·*]", written) or re.fullmatch(r"1\s*/\s*\w+", written):
        return written
    registry = unit_registry()
    for name in _NAMED_UNITS:
        if quantity.dimensionality == registry.parse_units(name).dimensionality:
            compact = quantity.to(name).to_compact()
            if abs(compact.magnitude - 1) < 1e-9:
                return f"{compact.units:~P}"
    return written


def _plain(argument):  # a function of a quantity is defined for pure numbers only
    if hasattr(argument, "dimensionless") and not argument.dimensionless:
        raise ValueError("a function of a quantity with a unit")
    return 1.0


_PINT_FUNCTIONS = {function: _plain for function in UNCERTAIN_FUNCTIONS}


def _plain_law(law: str) -> str:
    """The law as the report writes it, its LaTeX read (`V = V_0·exp(-t/tau)`); as written
    where it is plain already or does not parse."""
    if "\\" not in law and "{" not in law:
        return law
    left, _, right = law.partition("=")
    try:
        return f"{_written(parse_expression(left))} = {_written(parse_expression(right))}"
    except FormulaError:
        return law


def _written(expression: sympy.Expr) -> str:
    """The expression as the report writes it: `-slope`, `4*slope**2/3` as `4·slope²/3`."""
    text = sympy.sstr(expression).replace("**2", "²").replace("**", "^")
    return text.replace("*", "·")
