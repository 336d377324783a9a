"""What the handout's formulas predict from the folder's parameter values, set beside what
was measured: `f0 = 1/(2π√(LC))` with L and C from a parameter file's nominal values and
tolerances gives f0 with its propagated uncertainty, and its discrepancy from the fitted f0
in standard deviations, z = |measured − predicted| / √(σm² + σp²).

The inputs are read from parameter rows (tools.formulas.prediction_inputs: `L_nominal_mH = 10` with
`L_tolerance_pct = 10`, `L = 10 mH ± 10%`, `C = (100 ± 5) nF`), converted to SI
(tools.columns.si_units); a tolerance is read as a rectangular distribution, u = tolerance/√3 (GUM
4.3.7), a σ as written. The formula is read as any formula is (tools.formulas.formula_parse), a
product written without a sign (`LC`) split into the inputs it names, physical constants
taken where the handout names them (tools.formulas.constants), and evaluated with `uncertainties`.
"""

from __future__ import annotations

import math
import re
import unicodedata

import sympy
from uncertainties import UFloat, ufloat

from labscribe.tools.assignment.role_phrases import sentences
from labscribe.tools.columns.si_units import (
    BASE,
    DIMENSIONLESS,
    SI,
    Vector,
    dimension_of,
    si_of,
    unit_text,
)
from labscribe.tools.columns.si_units import u as units
from labscribe.tools.fits.fit_result import Fit
from labscribe.tools.formats.parameters import ParameterRow
from labscribe.tools.formulas.constants import BY_SPELLING, PhysicalConstant, uses
from labscribe.tools.formulas.formula_eval import evaluate_tree
from labscribe.tools.formulas.formula_notation import formulas_in, juxtaposed, plain_arithmetic
from labscribe.tools.formulas.formula_parse import FormulaError, parse_expression
from labscribe.tools.formulas.prediction_inputs import Input, dimension, input_of
from labscribe.tools.formulas.prediction_result import Comparison, Prediction
from labscribe.tools.formulas.prediction_words import worded_input
from labscribe.tools.formulas.quantities import UNCERTAIN_FUNCTIONS

MAX_PREDICTIONS = 6
MAX_CHAIN = 3  # formulas that take another's prediction, read in passes
MAX_COMPARED = 3  # measured values a prediction is set beside
# A task asks for the comparison when it names the quantity and one of these.
COMPARING = re.compile(
    r"compar|predict|theor|expect|agree|nominal|vergleich|theorie|erwart|比较|理论|预期|对比",
    re.IGNORECASE,
)
# `f0`, or a value at a point the formula is written for: `B(0)`
_SIMPLE_LEFT = re.compile(r"^\s*([A-Za-z][A-Za-z0-9_]*(?:\(\s*[-+]?[\d.]+\s*\))?)\s*$")


def predictions(
    text: str,
    tasks: list[str],
    rows: list[ParameterRow],
    fits: list[Fit],
    measured: list[Input] | None = None,
) -> list[Prediction]:
    """The predictions the handout's formulas give from the parameter `rows`, each beside
    the fitted parameters of the same name (good fits only): every formula of `text` (the
    handout, tasks included) whose right side names only parameter values, numbers and the
    constants the handout names, and at least one parameter value. A symbol no row gives
    may be a `measured` mean of its name; where the formula's sentence says it takes a
    mean and one symbol is left, the one measured quantity there is (and the text says so)."""
    found: list[Prediction] = []
    # a formula may take a value another predicts (`γ = R_tot/L`, then `R_tot = R + R_L +
    # R_G`): each pass reads the formulas again with the predictions of the last
    for _ in range(MAX_CHAIN):
        known = len(found)
        rows_and_predicted = [*rows, *(p.as_row() for p in found)]
        done = {p.formula for p in found}
        for sentence in sentences(text):
            for written in formulas_in(sentence, squared=True):
                if written.strip() in done:
                    continue  # predicted in an earlier pass: the same again
                prediction = _prediction(written, text, rows_and_predicted, fits, measured,
                                         sentence, tasks)  # fmt: skip
                if prediction is not None and prediction.quantity not in {
                    p.quantity for p in found
                }:
                    found.append(prediction)
                if len(found) >= MAX_PREDICTIONS:
                    return found
        if len(found) == known:
            break
    return found


def _prediction(
    written: str,
    text: str,
    rows: list[ParameterRow],
    fits: list[Fit],
    measured: list[Input] | None = None,
    sentence: str = "",
    tasks: list[str] | None = None,
) -> Prediction | None:
    left, _, right = written.partition("=")
    left = plain_arithmetic(left).strip()
    squared = _SQUARED.search(left) is not None  # `ω0² = 1/(LC)`: ω0 is the root
    name = _SIMPLE_LEFT.match(_SQUARED.sub("", left))
    if name is None or not right.strip():
        return None
    try:
        expression = parse_expression(right)
    except FormulaError:
        return None
    expression = sympy.sqrt(expression) if squared else expression
    if name[1] in {s.name for s in expression.free_symbols}:
        return None  # `T² h = (4π²/g)·h² + …` cut to `h = …`: h is no value the rest gives
    inputs: dict[str, Input] = {}
    constants: dict[str, PhysicalConstant] = {}
    means: list[str] = []
    resolved = {s: _resolve(s.name, rows, text) for s in expression.free_symbols}
    left_over = [s for s, found in resolved.items() if found is None]
    for symbol in sorted(expression.free_symbols, key=lambda s: s.name):
        found = resolved[symbol]
        if found is None:
            by_place = len(left_over) == 1 and _TAKES_MEAN.search(sentence) is not None
            mean = _measured(symbol.name, measured or [], by_place)
            if mean is None:
                return None
            joiner = " " if mean.written.startswith("taken as") else " = "
            means.append(f"{symbol.name}{joiner}{mean.written}")
            found = [mean.model_copy(update={"symbol": symbol.name})]
        if isinstance(found, PhysicalConstant):
            constants[symbol.name] = found
            continue
        expression = expression.subs(symbol, sympy.Mul(*(sympy.Symbol(i.symbol, real=True)
                                                         for i in found)))  # fmt: skip
        inputs |= {i.symbol: i for i in found}
    if not inputs:
        return None
    values: dict[str, UFloat | float] = {
        s: ufloat(i.value, i.sigma) if i.sigma else i.value for s, i in inputs.items()
    }
    values |= {s: c.value for s, c in constants.items()}
    try:
        result = evaluate_tree(expression, values, UNCERTAIN_FUNCTIONS)
    except (ValueError, ZeroDivisionError, OverflowError, TypeError):
        return None
    value = float(getattr(result, "nominal_value", result))
    sigma = float(result.std_dev) if isinstance(result, UFloat) else None
    if not math.isfinite(value):
        return None
    kind = _dimension(expression, inputs, constants)
    quantity = name[1]
    prediction = Prediction(quantity=quantity, formula=written.strip(), value=value,
                            written=_SQUARED.sub("", written.partition("=")[0].strip()),
                            sigma=sigma if sigma else None, unit=_si_unit(quantity, kind),
                            inputs=list(inputs.values()), constants=uses(constants),
                            measured=", ".join(means))  # fmt: skip
    prediction.task = _asking_task(quantity, tasks or [])
    if kind is None:
        unknown = [i.symbol for i in inputs.values() if i.dimension is None]
        prediction.note = (
            f"the file gives no unit for {', '.join(unknown) or 'an input'}: not compared"
        )
        return prediction
    return _compared(prediction, kind, fits, _fitted_named(prediction.task))


# "Does your fitted Bmax agree with it?": the task names the fitted value it is compared with
_FITTED = re.compile(r"\bfitted\s+(?:value\s+of\s+)?([A-Za-z][A-Za-z0-9_]*)", re.IGNORECASE)


def _fitted_named(task: str) -> str:
    """The parameter a task compares the prediction with by name (`fitted Bmax`), or ""."""
    found = _FITTED.search(task)
    return found[1] if found and found[1].lower() not in ("value", "values", "curve") else ""


# A left side's square, as handouts write it: `ω0²`, `f0^2`
_SQUARED = re.compile(r"\s*(?:²|\^\s*2|\^\s*\{2\}|\^\s*\(2\))$")
# A sentence that says its formula takes a measured mean: "g = 2h/t² from the mean time".
_TAKES_MEAN = re.compile(
    r"\b(?:from|with|using|of) (?:the|your) (?:mean|average)\b|\bmittelwert|平均", re.I
)


def _measured(symbol: str, measured: list[Input], by_place: bool) -> Input | None:
    """The measured mean of `symbol`'s name; where `by_place` (the formula's sentence takes
    a mean and this is its one symbol left), the one measured quantity there is, said so."""
    named = [i for i in measured if i.symbol == symbol]
    if named:
        return named[0]
    if by_place and len(measured) == 1:
        only = measured[0]
        written = f"taken as {only.written}, the only repeated measurement"
        return only.model_copy(update={"written": written})
    return None


def _resolve(
    symbol: str, rows: list[ParameterRow], text: str
) -> list[Input] | PhysicalConstant | None:
    """What a symbol of the formula is: a parameter value, several written as one product
    (`LC`), or a constant the handout names; None when it is none of these."""
    single = input_of(symbol, rows)
    if single is not None:
        return [single]
    if symbol in BY_SPELLING and _names_constant(BY_SPELLING[symbol], text):
        return BY_SPELLING[symbol]
    if (worded := worded_input(symbol, rows, text)) is not None:  # "radius R": mean_radius
        return [worded]
    return _split(symbol, rows)


def _names_constant(constant: PhysicalConstant, text: str) -> bool:
    """Whether the handout names the constant: in words ("the vacuum permeability"), or by
    stating its value under its symbol ("Use µ0 = 4π × 10−7 T m/A")."""
    flat = unicodedata.normalize("NFKC", " ".join(text.split()))
    if constant.words.search(flat):
        return True
    symbols = {constant.symbol, *constant.spellings}
    return any(re.search(rf"(?<![\w.]){re.escape(s)}\s*=\s*[\d(]", flat) for s in symbols)


def _split(symbol: str, rows: list[ParameterRow]) -> list[Input] | None:
    """`LC` as the inputs `L` and `C` when both are parameter values."""
    names = juxtaposed(symbol, lambda name: input_of(name, rows) is not None)
    return None if names is None else [input_of(name, rows) for name in names]  # type: ignore[misc]


def _dimension(
    expression: sympy.Expr, inputs: dict[str, Input], constants: dict[str, PhysicalConstant]
) -> Vector | None:
    """The SI dimension of the expression's value; None where an input's unit is unknown or
    a function's argument is not a pure number."""
    quantities: dict[sympy.Symbol, sympy.Expr] = {}
    for symbol in expression.free_symbols:
        if symbol.name in constants:
            quantities[symbol] = constants[symbol.name].unit
        elif (exact := dimension(inputs[symbol.name])) is None:
            return None
        else:
            quantities[symbol] = _as_units(exact)
    try:
        return dimension_of(expression.subs(quantities))
    except (TypeError, ValueError, AttributeError):
        return None


def _as_units(dimension: Vector) -> sympy.Expr:
    product = sympy.Integer(1)
    for base, power in zip(BASE, dimension, strict=True):
        product *= base ** sympy.Rational(power.numerator, power.denominator)
    return product


def _si_unit(quantity: str, dimension: Vector | None) -> str:
    """The SI unit a prediction with nothing to compare is given in: Hz for a frequency."""
    if dimension is None:
        return ""
    if dimension == dimension_of(units.hertz) and re.match(r"^(?:f|nu|freq)", quantity):
        return "Hz"
    return unit_text(dimension)


def _compared(
    prediction: Prediction, dimension: Vector | None, fits: list[Fit], also: str = ""
) -> Prediction:
    """The prediction (in SI) beside each good fit's parameter of its name (or the name
    `also` its task compares it with) whose unit has its dimension, z computed in SI; the
    prediction then shown in the first one's unit."""
    shown: SI | None = None
    for fit in fits:
        if not fit.good or fit.model is None:
            continue
        for parameter in fit.parameters:
            if parameter.name not in (prediction.quantity, also):
                continue
            measured = si_of(parameter.unit) if parameter.unit else None
            if measured is None and dimension not in (None, DIMENSIONLESS):
                continue  # a unit that cannot be compared with SI
            if measured is not None and dimension is not None and measured.dimension != dimension:
                continue  # a value of another kind that shares the name
            scale, offset = (measured.scale, measured.offset) if measured else (1.0, 0.0)
            value = scale * parameter.value + offset
            spread = [s for s in (parameter.stderr and scale * parameter.stderr, prediction.sigma)
                      if s]  # fmt: skip
            z = abs(value - prediction.value) / math.hypot(*spread) if spread else None
            prediction.comparisons.append(
                Comparison(source=f"the {fit.model} fit of {fit.y_label} against {fit.x_label}",
                           table=fit.table, value=parameter.value,
                           sigma=parameter.stderr, unit=parameter.unit, z=z)
            )  # fmt: skip
            shown = shown or measured
    if shown is not None:
        first = prediction.comparisons[0]
        prediction.value = (prediction.value - shown.offset) / shown.scale
        prediction.sigma = prediction.sigma / shown.scale if prediction.sigma else None
        prediction.unit = first.unit
    prediction.comparisons = prediction.comparisons[:MAX_COMPARED]
    return prediction


def _asking_task(quantity: str, tasks: list[str]) -> str:
    """The first task that names the quantity and asks to compare it with a prediction."""
    for task in tasks:
        tokens = set(re.findall(r"[A-Za-z][A-Za-z0-9_]*", plain_arithmetic(task)))  # ω0: omega0
        if quantity.split("(")[0] in tokens and COMPARING.search(task):  # B(0): B
            return task
    return ""


def evidence(task: str, found: list[Prediction]) -> list[str]:
    """What the predictions give towards a task of the checklist: each one it asks for."""
    return [p.text() for p in found if p.task == task]
