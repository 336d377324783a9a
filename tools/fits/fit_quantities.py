"""Quantities a task asks for that follow from a fit's parameters: `T_max = A/w` and
`FWHM = 2√(2 ln 2)·w` as the task writes them, or a full width at half maximum and a
half-life the task only names, worked out from the fitted model's own form.

A task's formula is evaluated with the parameters of the one good fit that has every name it
uses, their uncertainties propagated with the covariance the fit found (`uncertainties`). A
named quantity is read off the model's formula with sympy, whatever the lab's spelling of it:
a peak `exp(q(x))` with q quadratic in x (a Gaussian, however its width is written) has its
half maximum where q falls by ln 2, so FWHM = 2√(ln 2/|a|) for q's x² coefficient a; a peak
`1/q(x)` (a Lorentzian) falls to half where q doubles, FWHM = 2√(q_min/a) (q(x)^p, where q
grows by 2^(−1/p)); a single
`exp(k·x)` halves (or doubles) over ln 2/|k|. Nothing is offered where the model has no such
form, and a unit is stated only where every input's unit is known.
"""

from __future__ import annotations

import math
import re

import sympy
from pydantic import BaseModel
from uncertainties import UFloat

from labscribe.guards.bounds import UNBOUNDED, ComputeBudget
from labscribe.tools.assignment.fit_asks import asks
from labscribe.tools.assignment.stated import unit_unknown
from labscribe.tools.assignment.task_files import of_stem_named
from labscribe.tools.assignment.task_fit import differs, not_task_fit
from labscribe.tools.columns.unit_library import unit_registry
from labscribe.tools.fits.fit_result import Fit, Parameter, axes_of, format_value
from labscribe.tools.fits.regression_text import regression_remark
from labscribe.tools.fits.shapes import BY_NAME
from labscribe.tools.formats.tables import TableSummary
from labscribe.tools.formulas.formula_eval import evaluate_tree
from labscribe.tools.formulas.formula_notation import formulas_in, plain_arithmetic
from labscribe.tools.formulas.formula_parse import FormulaError, parse_expression
from labscribe.tools.formulas.model_rates import Model, parsed_models, through_the_model
from labscribe.tools.formulas.quantities import UNCERTAIN_FUNCTIONS, uncertain_parameters

MAX_PER_TASK = 4
MAX_PER_RUN = 16  # a quantity worked out of each run's fit: l of 11 damping voltages
_NAME = re.compile(r"^\s*([A-Za-z][A-Za-z0-9_]*)\s*$")
# How handouts name the width of a peak and the time a decay takes to halve.
FWHM = re.compile(
    r"\bFWHM\b|full[- ]width (?:at|of) half[- ]max|half[- ]width|halbwertsbreite|"
    r"largeur (?:totale )?à mi[- ]hauteur|larghezza a metà altezza|"
    r"largura (?:total )?a meia[- ]altura|anchura a media altura|半高宽|半峰全宽|半宽|"
    # "over what length is the field at least half of Bmax", "width at half height"
    r"\bat least half (?:of )?(?:the |its )?(?:max|peak|height|\w*max\b)|half[- ]height",
    re.IGNORECASE,
)
HALF_LIFE = re.compile(
    r"half[- ]li(?:fe|ves)|half[- ]time|halbwertszeit|demi[- ]vie|meia[- ]vida|"
    r"semivida|vida media|tempo di dimezzamento|emivita|半衰期|\bt_?(?:1/2|½)\b",
    re.IGNORECASE,
)
# How handouts and statistics texts name a regression's residual standard deviation.
RESIDUAL_SD = re.compile(
    r"residual standard deviation|standard deviation of the residuals|residual standard "
    r"error|standard error of (?:the )?(?:regression|estimate)|root[- ]mean[- ]square error"
    r"|\bRMSE\b|reststandardabweichung|standardabweichung der residuen|"
    r"deviazione standard (?:dei residui|residua)|écart[- ]type (?:des résidus|résiduel)|"
    r"desviaci[oó]n (?:est[aá]ndar|t[ií]pica) (?:de los residuos|residual)",
    re.IGNORECASE,
)
DOUBLING = re.compile(
    r"doubling time|verdopplungszeit|temps de doublement|tempo de duplicação|"
    r"tiempo de duplicación|tempo di raddoppio|倍增时间",
    re.IGNORECASE,
)
_END = " \t?!.,;:"


class FitQuantity(BaseModel):
    """A quantity one task asks for, computed from one fit's parameters."""

    task: str
    name: str
    value: float
    stderr: float | None
    unit: str = ""
    unit_known: bool = True
    """False where an input's unit is not worked out: the value is given without one."""
    relation: str
    """How it follows from the fit, in words: the task's formula or the model's form."""
    fit: str
    """The fit it comes from: `the fit of Transmittance against Wavelength`."""
    response: str = ""
    """The key of that fit's response column."""
    table: str = ""
    """The id of that fit's table."""

    def given(self, relation: bool = True) -> str:
        """The checklist's words for it: `FWHM = 9.63 ± 0.11 nm (from FWHM = 2√(2 ln 2)·w, as
        the task writes it, with the fit of T against λ)`; `likewise` for the relation where
        a value before it told it (τ of each of three runs)."""
        shown = format_value(Parameter(name=self.name, value=self.value, stderr=self.stderr,
                                       unit=self.unit if self.unit_known else ""))  # fmt: skip
        unit = "" if self.unit_known else ", its unit not worked out here"
        how = f"from {self.relation}" if relation else "likewise"
        return f"{self.name} = {shown} ({how}, with {self.fit}{unit})"


def answers(quantities: list[FitQuantity]) -> list[str]:
    """Each quantity's words, its relation told once."""
    told: set[str] = set()
    words = []
    for quantity in quantities:
        words.append(quantity.given(relation=quantity.relation not in told))
        told.add(quantity.relation)
    return words


def fit_quantities(
    tasks: list[str],
    fits: list[Fit],
    tables: list[TableSummary] | None = None,
    budget: ComputeBudget = UNBOUNDED,
    handout: str = "",
) -> list[FitQuantity]:
    """What each task asks for that its fits' parameters give: first the formulas the task
    writes over the parameters of one good fit of a model the assignment asked for, then the
    FWHM, half-life or doubling time it names and no formula of it defines, from such a fit
    (from a standard model that describes the data only where the assignment asks for no
    model at all); a quantity the task defines from the symbols of the `handout`'s model,
    from each fit's time constant (tools.formulas.model_rates)."""
    tables = tables or []
    models = parsed_models(formulas_in(handout))
    # a fit that is not the one its task asks for (of uncorrected counts, of other axes, of
    # one predictor where a regression is asked) gives none of that task's quantities: a
    # half-life or a residual spread from it would be a confident error
    good = [fit for fit in fits if fit.good and fit.model is not None and fit.parameters
            and not not_task_fit(fit, tasks, tables) and not regression_remark(fit)]  # fmt: skip
    wanted = asks(tasks)
    # the assignment's models answer its tasks; a standard model only where it asked for none
    # (a task's `a` is never another fit's parameter of that name)
    asked = [fit for fit in good if fit.requested]
    named_from = asked if any(fit.requested for fit in fits) else good
    found: list[FitQuantity] = []
    by_id = {t.id: t for t in tables}
    sources = {t.id: t.source for t in tables}
    for task in tasks:
        if budget.spent():
            break
        mine: list[FitQuantity] = []
        ask = wanted.get(task)
        own = [f for f in asked if ask is None or not differs(f, ask, by_id.get(f.table))]
        named = [f for f in named_from if ask is None or not differs(f, ask, by_id.get(f.table))]
        # "die Vanadium-Daten": the fit of Vanadium.dat, not Rhodium.dat's as well
        own = of_stem_named(task, own, sources)
        named = of_stem_named(task, named, sources)
        each_run: list[FitQuantity] = []
        for definition in filter(None, map(_definition, formulas_in(task))):
            quantity = _from_formula(task, definition, own)
            if quantity is not None and quantity.name not in {q.name for q in mine}:
                mine.append(quantity)
            elif quantity is None and not each_run:
                # from the runs this task fits, never another task's ("l without the brake"
                # is no l of the braked runs)
                mine_asked = [fit for fit in own if fit.requested == task]
                each_run = _from_model(task, definition, mine_asked, models)[:MAX_PER_RUN]
        written_names = {q.name.lower() for q in mine}
        if RESIDUAL_SD.search(task) and "s" not in written_names:
            # the spread of the model the task fits, never of another task's model
            asks_own = any(fit.requested == task for fit in fits)
            mine += _residual_sd(task, [f for f in named if f.requested == task]
                                 if asks_own else named)  # fmt: skip
        for pattern, name, relation in _NAMED:
            if pattern.search(task) and not written_names & {name.lower(), "fwhm", "t_half"}:
                mine += _named(task, name, relation, named)
        found += each_run + mine[: MAX_PER_TASK - min(len(each_run), MAX_PER_TASK)]
    return found


# A task's `name = expression`: the name, its definition parsed, and the formula as written.
Definition = tuple[str, sympy.Expr, str]


def _definition(written: str) -> Definition | None:
    """`written` (`name = expression`) split and its right side parsed; None where it is no
    such formula."""
    left, _, right = written.partition("=")
    name = _NAME.match(plain_arithmetic(left))
    right = right.strip().rstrip(_END)
    if name is None or not right:
        return None
    try:
        return name[1], parse_expression(right), written.strip().rstrip(_END)
    except FormulaError:
        return None


def _from_formula(task: str, definition: Definition, fits: list[Fit]) -> FitQuantity | None:
    """`definition` evaluated with the first good fit that has every name of its right
    side; None when none has, or it is the fit's own model."""
    name, expression, written = definition
    symbols = {symbol.name for symbol in expression.free_symbols}
    if not symbols:
        return None
    for fit in fits:
        names = {p.name for p in fit.parameters}
        # a formula in the fit's own variable is the model (or a value at a point), not a
        # quantity of its parameters
        if not symbols <= names or fit.variable in symbols or name in (fit.y, fit.variable):
            continue
        return _quantity(task, name, expression, fit, f"{written}, as the task writes it")
    return None


def _from_model(
    task: str, definition: Definition, fits: list[Fit], models: list[Model]
) -> list[FitQuantity]:
    """`definition` (of the model's symbols: `l = λ/I`) worked out of each fit's time
    constant through the handout's model (tools.formulas.model_rates)."""
    name, expression, written = definition
    quantities = []
    for fit in fits:
        if (found := through_the_model(name, expression, models, fit)) is not None:
            in_constant, model = found
            relation = f"{written} and the model {model}"
            quantity = _quantity(task, name, in_constant, fit, relation)
            if quantity is not None:  # one per run: which run is plain
                quantities.append(
                    quantity.model_copy(update={"fit": f"the fit of {axes_of(fit, fits)}"})
                )
    return quantities


def _quantity(
    task: str, name: str, expression: sympy.Expr, fit: Fit, relation: str
) -> FitQuantity | None:
    values = uncertain_parameters(fit)
    try:
        result = evaluate_tree(expression, values, UNCERTAIN_FUNCTIONS)
    except (ValueError, ZeroDivisionError, OverflowError, TypeError, KeyError):
        return None
    value = float(getattr(result, "nominal_value", result))
    error = float(result.std_dev) if isinstance(result, UFloat) else None
    if not math.isfinite(value):
        return None
    unit = _unit(expression, fit)
    return FitQuantity(task=task, name=name, value=value,
                       stderr=error if error is not None and math.isfinite(error) else None,
                       unit=unit or "", unit_known=unit is not None, relation=relation,
                       fit=f"the fit of {fit.y_label} against {fit.x_label}",
                       response=fit.y, table=fit.table)  # fmt: skip


def _unit(expression: sympy.Expr, fit: Fit) -> str | None:
    """The unit of a product of the fit's parameters' powers, "" for a pure number; None
    where a factor's unit is not known or the expression is no such product."""
    unknown = set(unit_unknown(fit))
    units = {p.name: p.unit for p in fit.parameters}
    registry = unit_registry()
    result = registry.dimensionless
    for factor in sympy.Mul.make_args(expression):
        base, power = factor.as_base_exp()
        if not base.free_symbols:
            continue  # a number (2√(2 ln 2)), whatever its power
        if not isinstance(base, sympy.Symbol) or not power.is_Rational:
            return None
        name = base.name
        if name in unknown or name not in units:
            return None
        try:
            unit = registry.Unit(units[name]) if units[name] else registry.dimensionless
        except Exception:  # pint's own errors for a spelling it does not know
            return None
        result = result * unit ** float(power)
    text = f"{result:~P}"
    return "" if text in ("", "dimensionless") else text


def _residual_sd(task: str, fits: list[Fit]) -> list[FitQuantity]:
    """The residual standard deviation of the first fit of each table that has one (each
    thermistor's calibration curve has its own)."""
    first = {fit.table: fit for fit in reversed(fits) if fit.residual_sd is not None}
    return [
        FitQuantity(
            task=task,
            name="s",
            value=fit.residual_sd,  # type: ignore[arg-type]
            stderr=None,
            unit=fit.y_unit,
            unit_known=True,
            fit=f"the fit of {axes_of(fit, fits)}",
            response=fit.y,
            table=fit.table,
            relation=f"the residual standard deviation √(Σr²/(n − p)) of the {fit.model} fit",
        )
        for fit in fits
        if first.get(fit.table) is fit
    ]


def _named(task: str, name: str, relation: str, fits: list[Fit]) -> list[FitQuantity]:
    """The named quantity from each fit whose model has the form it needs, where they are
    fits of one column (a decay's line of ln N and its exponential, "the half-life from each
    fit"); none where they are of several (each peak of a spectrum, each file's): which one
    the task means is for the reader, who finds each fit's width in its row."""
    found = [q for fit in fits if (q := _named_from(task, name, relation, fit)) is not None]
    return found if len({(q.table, q.response) for q in found}) == 1 else []


def _named_from(task: str, name: str, relation: str, fit: Fit) -> FitQuantity | None:
    """The named quantity from `fit`, where its model has the form it needs."""
    if name == "FWHM" and fit.peak is not None and fit.peak.width_kind == "FWHM":
        width = fit.peak.width  # a standard peak model's own FWHM
        return FitQuantity(task=task, name=name, value=width.value, stderr=width.stderr,
                           unit=width.unit, unit_known=bool(width.unit),
                           relation=f"the fitted {fit.model} peak",
                           fit=f"the fit of {fit.y_label} against {fit.x_label}",
                           response=fit.y, table=fit.table)  # fmt: skip
    model = _model_expression(fit)
    variable = fit.variable or "x"
    x = next((s for s in getattr(model, "free_symbols", ()) if s.name == variable), None)
    if model is None or x is None:
        return None
    expression = (_width if name == "FWHM" else _halving)(model, x)
    if expression is None or x in expression.free_symbols:
        return None
    quantity = _quantity(task, name, expression, fit, relation.format(form=_form_text(fit)))
    if quantity is not None:
        quantity.unit, quantity.unit_known = fit.x_unit, bool(fit.x_unit)
        quantity.value = abs(quantity.value)  # a decay's k is negative
    return quantity


def _form_text(fit: Fit) -> str:
    shape = BY_NAME.get(fit.model or "")
    return fit.formula or (shape.formula if shape else fit.model or "")


def _model_expression(fit: Fit) -> sympy.Expr | None:
    """The fit's model as a sympy expression of its parameters and variable: the
    assignment's formula, or a standard model's written form."""
    text = fit.expression
    if not text:
        shape = BY_NAME.get(fit.model or "")
        if shape is None or ("·" not in shape.formula and "/" not in shape.formula):
            return None
        text = shape.formula
    try:
        return parse_expression(text)
    except FormulaError:
        return None


def _peak_part(model: sympy.Expr, x: sympy.Symbol) -> sympy.Expr:
    """The model without its additive terms free of x (a baseline) and its factors free of
    x (an amplitude): the shape whose half maximum is sought."""
    part = model.as_independent(x, as_Add=True)[1]
    return part.as_independent(x, as_Add=False)[1]


def _width(model: sympy.Expr, x: sympy.Symbol) -> sympy.Expr | None:
    """FWHM of a Gaussian exp(q(x)), a Lorentzian 1/q(x) or any q(x)^p with p < 0 (a coil's
    axial field R³/(R² + z²)^(3/2)), q quadratic in x."""
    shape = _peak_part(model, x)
    if isinstance(shape, sympy.exp):
        q = sympy.Poly(sympy.expand(shape.args[0]), x) if _is_poly(shape.args[0], x) else None
        if q is None or q.degree() != 2:
            return None
        a = q.coeffs()[0]
        return 2 * sympy.sqrt(sympy.log(2) / -a)
    base, power = shape.as_base_exp()
    if power.is_Rational and power < 0 and _is_poly(base, x):
        q = sympy.Poly(sympy.expand(base), x)
        if q.degree() != 2:
            return None
        a, b, c = (q.coeff_monomial(x**2), q.coeff_monomial(x), q.coeff_monomial(1))
        # q^p falls to half its peak where q = q_min·2^(−1/p)
        rise = sympy.Integer(2) ** (-1 / power) - 1
        return 2 * sympy.sqrt((c - b**2 / (4 * a)) * rise / a)
    return None


def _halving(model: sympy.Expr, x: sympy.Symbol) -> sympy.Expr | None:
    """ln 2/|k| for the model's one exponential exp(k·x + c)."""
    terms = [e for e in model.atoms(sympy.exp) if x in e.free_symbols]
    if len(terms) != 1 or not _is_poly(terms[0].args[0], x):
        return None
    q = sympy.Poly(sympy.expand(terms[0].args[0]), x)
    if q.degree() != 1:
        return None
    return sympy.log(2) / q.coeff_monomial(x)


def _is_poly(expression: sympy.Expr, x: sympy.Symbol) -> bool:
    return bool(sympy.expand(expression).is_polynomial(x))


_NAMED: list[tuple[re.Pattern[str], str, str]] = [
    (FWHM, "FWHM", "the half maximum of the fitted {form}"),
    (HALF_LIFE, "t½", "t½ = ln 2/k, k the rate of the exponential exp(−k·t) in the fitted {form}"),
    (
        DOUBLING,
        "doubling time",
        "ln 2/k, k the rate of the exponential exp(k·t) in the fitted {form}",
    ),
]
