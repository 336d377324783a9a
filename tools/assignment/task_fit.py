"""Whether a fit is the fit a task asks for, as the task writes it: its axes (`ln A` against
`t`, `1/b` against `1/g`), the formula it writes, the series it names, and the variant it asks
for. A checklist row may offer a fit as the task's answer, and a verdict on "the assignment's
model" may rest on a fit, only when nothing here tells them apart.

Conventions of handouts, in English, German, French, Spanish and Chinese:
- a straight line on transformed axes ("plot ln A against t and fit a straight line",
  "用最小二乘法拟合直线"): a nonlinear exponential of the raw column is another fit, however
  close its values (its weights and its parameters differ);
- a variant: "with intercept", "mit Achsenabschnitt", "avec ordonnée à l'origine" against
  "through the origin", "Ursprungsgerade", "no constant term";
- a formula written out ("fit the Steinhart–Hart equation 1/T = A + B·ln R + C·(ln R)³"): a
  standard shape of other columns is not it;
- the series: "the mean of the heating and cooling runs" (Mittelwert aus Aufheiz- und
  Abkühlmessung, 升温、降温两次测量的平均值) is neither series alone, nor are "serie 1 e
  serie 2 insieme", "series 1 and series 2 together", "entrambe le serie" (both pooled);
  "the measured bath temperature (not the setpoint)" is not the setpoint's column;
- a correction: "subtract the background ... plot ln(corrected counts)" is not the raw counts.
A column is the axis when the task names it (tools.columns.column_names); where the task's words
name no column, only symbols that plainly differ (`n` against `U2`) tell them apart.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import sympy
from pydantic import BaseModel

from labscribe.tools.assignment.part_ranges import holds_throughout
from labscribe.tools.assignment.requested import (
    LOG_PAPER,
    UNCERTAINTY_OF,
    Request,
    defines_the_answer,
    requested_model,
)
from labscribe.tools.assignment.role_phrases import glossary, is_symbol, sentences
from labscribe.tools.assignment.stated_values import states_a_value
from labscribe.tools.assignment.task_axes import Axes, kinds, mismatch, task_axes
from labscribe.tools.assignment.task_needs import part_of_data
from labscribe.tools.assignment.task_symbols import defined_names
from labscribe.tools.columns.column import Column
from labscribe.tools.columns.column_names import columns_named
from labscribe.tools.columns.symbol_dimensions import CONVENTIONAL, dimension_is, pint_unit
from labscribe.tools.fits.fit_result import Fit
from labscribe.tools.fits.fit_variants import (
    BOTH_SERIES,
    CORRECTED,
    CORRECTED_COLUMN,
    INTERCEPT,
    NOT_THE,
    ORIGIN,
    STRAIGHT,
    STRAIGHT_WORDS,
)
from labscribe.tools.fits.range_fits import answers_task
from labscribe.tools.formats.tables import TableSummary
from labscribe.tools.formulas.axis_expressions import expression_of
from labscribe.tools.formulas.formula_notation import formula_in, formulas_in, plain_symbol
from labscribe.tools.formulas.formula_parse import FormulaError, parse_formula

# A column of counted events, or of a spectrum's channel numbers, as spectra and counters
# name them ("counts", "Impulse", "coups", "channel", "Kanal"): numbers of no dimension.
_COUNTED = re.compile(
    r"(?:counts?|impulse|zählungen|tællinger|tellinger|coups|cuentas|conteggi|计数|"
    r"channels?|kanal|kanäle|kanaler|canal|canaux|canales|kanaal|道址)$",
    re.IGNORECASE,
)
_CORE = re.compile(r"^(?:ln|log|lg|sqrt)\s*\(?|^√|^1\s*/\s*|[²³⁴⁵⁻¹]|\^.*$|[()]")


class Ask(BaseModel):
    """What a task asks of a fit, each as the task words it ("" where it says nothing)."""

    task: str
    axes: Axes | None = None
    formula: str = ""
    straight: str = ""
    intercept: str = ""
    origin: str = ""
    both: str = ""
    corrected: str = ""
    not_the: list[str] = []
    part: str = ""
    worked_out: str = ""
    """The definition of the formula's variable where the task works it out of others
    (`f_m = (f_start + f_end)/2`): the fit is against it."""

    def text(self) -> str:
        """What the task asks, in a phrase: `a straight-line fit of ln A against t`."""
        kind = "a straight-line fit" if self.straight else "a fit"
        axes = f" of {self.axes.text()}" if self.axes is not None else ""
        if self.formula and self.axes is None:
            axes = f" of “{self.formula}”" + (
                f" against {self.worked_out}" if self.worked_out else ""
            )
        quoted = [f"“{cue}”" if cue else "" for cue in (self.intercept or self.origin, self.both)]
        corrected = f"after “{self.corrected}”" if self.corrected else ""
        cues = [*quoted, corrected, f"“{self.part}”" if self.part else ""]
        said = "; ".join(cue for cue in cues if cue)
        return f"{kind}{axes}" + (f" ({said})" if said else "")


def asks(tasks: list[str]) -> dict[str, Ask]:
    """What each task that asks for a fit (or names axes) asks of it; a task inherits the
    series and corrections of the task it takes its axes from, and of earlier tasks that
    define its response's symbol ("ΔL ... Mittelwert aus Aufheiz- und Abkühlmessung")."""
    axes = task_axes(tasks)
    found: dict[str, Ask] = {}
    for number, task in enumerate(tasks):
        request = requested_model(task)
        own = axes.get(task)
        if request is None and own is None:
            continue
        context = [task] + [
            before for before in tasks[:number] if _defines(before, own) or axes.get(before) == own
        ]
        joined = " ".join(context)
        shape = request.shape if request is not None else None
        formula = _model_formula(task, request, own) if request is not None else ""
        # "a straight line on semi-log paper" asks for the exponential the paper straightens
        straight = "" if LOG_PAPER.search(task) else _said(STRAIGHT_WORDS, task)
        found[task] = Ask(
            task=task,
            axes=own,
            formula=formula,
            # "by linear least squares" names a method: a curved formula asks for no line
            straight=straight or (shape if shape in STRAIGHT and not formula else ""),
            intercept=_said(INTERCEPT, task),
            origin=_said(ORIGIN, task),
            both=_said(BOTH_SERIES, joined),
            corrected=_said(CORRECTED, joined),
            not_the=[m["a"] or m["b"] for m in NOT_THE.finditer(task)],
            part=part_of_data(task),
            worked_out=_variable_worked_out(task, formula),
        )
    return found


def _variable_worked_out(task: str, formula: str) -> str:
    """The definition `task` writes of `formula`'s variable, where it works it out of others
    (`f_m = (f_start + f_end)/2` beside `T = k·f_m (+ c)`); "" where it writes none."""
    try:
        variable = parse_formula(formula).x if formula else ""
    except FormulaError:
        return ""
    names = {plain_symbol(name) for name, _ in defined_names(task)}
    if plain_symbol(variable) not in names:
        return ""
    written = [f for s in sentences(task) for f in formulas_in(s)]
    return next((f for f in written if plain_symbol(f.split("=")[0].strip()) == variable), "")


def _model_formula(task: str, request: Request, axes: Axes | None) -> str:
    """The formula a task asks to fit (the request's, else its first), as written; a
    definition beside its axes ("ΔL über ΔT = ϑ − ϑ0") or beside the curved model it names
    ("l = λ/I" beside a damped fit) is none: the formula's left side must be the response,
    where axes are."""
    first = formula_in(task)
    defined = defines_the_answer(first, request.shape)
    written = request.formula or ("" if defined else first) or ""
    if states_a_value(written) or UNCERTAINTY_OF.match(written):
        return ""  # "in der Plateaumitte (U = 500 V)": a value; `u(z) = u(y)/y`: error bars
    left = written.split("=", 1)[0]
    if axes is None or _core(left.split("(")[0]) == _core(axes.response):
        return _as_written(task, written)
    return ""


def _as_written(task: str, formula: str) -> str:
    """`formula` with what the notation reader left off its left side ("1/" of "1/T = A +
    B·ln R"), as the task writes it: a quoted formula must be the task's."""
    start = task.find(formula)
    if start < 0:
        return formula
    head = re.search(r"(?:[\d.]+\s*/\s*|\(\s*)+$", task[:start])
    return task[head.start() if head else start : start + len(formula)]


def _said(pattern: re.Pattern[str], text: str) -> str:
    found = pattern.search(text)
    return found.group().strip() if found else ""


def _defines(text: str, axes: Axes | None) -> bool:
    """Whether `text` names the response's symbol (`ΔL`, `R_T`): where it is defined."""
    if axes is None:
        return False
    core = _core(axes.response)
    return (
        bool(core)
        and is_symbol(core.lstrip("Δ"))
        and re.search(rf"(?<![\w]){re.escape(core)}(?![\w])", text) is not None
    )


def _core(expression: str) -> str:
    return _CORE.sub("", expression.strip()).strip()


# An axis the task plots as a multiple of a column: "gegen die halbierten Laufzeiten" (the
# echo's path is twice the height), "against half the time", "the doubled distance".
SCALED_AXIS = re.compile(
    r"\bhalbierte[nrs]?\s+\w+|\bhalved\s+\w+|\bhalf\s+(?:of\s+)?the\s+(?:time|distance|path|"
    r"length|period|transit)\w*|\bverdoppelte[nrs]?\s+\w+|\bdoubled\s+\w+|\bla mitad de\w*\s+\w+",
    re.IGNORECASE,
)


def _formed(table: TableSummary, key: str) -> bool:
    return any(c.key == key and c.formed for c in table.columns)


def differs(fit: Fit, ask: Ask, table: TableSummary | None = None) -> str:
    """Why `fit` is not the fit `ask` describes, in a phrase ("" when nothing tells them
    apart): other axes, another formula, a nonlinear fit for a straight line, the wrong
    variant, one series for both, raw counts for corrected ones."""
    if ask.axes is not None and (mismatch(fit, ask.axes) or _other_columns(fit, ask.axes, table)):
        return f"a fit of {fit.y_label} against {fit.x_label}"
    scaled = SCALED_AXIS.search(ask.task)
    if scaled and table is not None and not _formed(table, fit.x):
        # "gegen die halbierten Laufzeiten": the slope against t is half the task's
        return f"a fit of {fit.y_label} against {fit.x_label} as measured, not “{scaled[0]}”"
    if fit.variable and table is not None and _other_dimension(fit.variable, "", fit.x, table):
        # the formula's f (a frequency) against a column in seconds: another file's model
        return f"a fit of {fit.y_label} against {fit.x_label}"
    if fit.variable and table is not None and _worked_out(fit.variable, fit.x, ask.task, table):
        return f"a fit of {fit.y_label} against {fit.x_label}"
    # a straight line asked beside a curved formula is the formula's linearisation: the axes
    # and the straight-line rule judge it, not the formula
    if ask.formula and not fit.variable and not ask.straight:
        return f"a {fit.model} fit of {fit.y_label} against {fit.x_label}"
    if ask.straight and _curved(fit) and not _line_in_axis(fit, ask.axes):
        return f"a nonlinear fit of {fit.y_label} against {fit.x_label}"
    has_intercept = _has_intercept(fit)
    if ask.intercept and not has_intercept:
        return f"a fit of {fit.y_label} against {fit.x_label} through the origin"
    if ask.origin and not ask.intercept and has_intercept and (fit.model or "") in STRAIGHT:
        return f"a fit of {fit.y_label} against {fit.x_label} with an intercept"
    if ask.corrected and not CORRECTED_COLUMN.search(fit.y):
        return f"a fit of the uncorrected {fit.y_label} against {fit.x_label}"
    if ask.both and table is not None and _one_series(fit, table):
        return f"a fit of {fit.y_label} alone against {fit.x_label}"
    if ask.part and not fit.task_range and not (table and holds_throughout(ask.task, table)):
        # "Plateausteigung", "only the values from t* = 180 s on": not a fit of all the rows
        return f"a fit of {fit.y_label} against {fit.x_label} over all its rows"
    if table is not None and ask.not_the:
        excluded = {
            c.name for phrase in ask.not_the for c in columns_named(phrase, table.columns, {})
        }
        if fit.x in excluded or fit.y in excluded:
            return f"a fit of {fit.y_label} against {fit.x_label}"
    return ""


def read_the_other_way(fit: Fit, ask: Ask, table: TableSummary | None) -> bool:
    """Whether `fit` is the straight line the task asks for with its axes swapped (I
    against U where it plots U against I): the same line, whose R² is the task's."""
    if ask.axes is None or (fit.model or "") not in STRAIGHT or not answers_task(fit):
        return False  # a line through a flat background is no line of the task's, either way
    swapped = Axes(response=ask.axes.predictor, predictor=ask.axes.response)
    return (
        not mismatch(fit, swapped)
        and not _other_columns(fit, swapped, table)
        and _names_both(fit, swapped, table)
    )


def _axes_beside(
    fit: Fit, axes: Axes, table: TableSummary | None
) -> Iterator[tuple[str, str, str, list[Column] | None]]:
    """Each of the task's axes beside the fit's column on it: (the phrase, its core, the
    column's key, the table's columns the core names, None without a table)."""
    for phrase, column in ((axes.response, fit.y), (axes.predictor, fit.x)):
        core = _core(phrase)
        found = None
        if table is not None:
            found = columns_named(core, table.columns, glossary(phrase)) if core else []
        yield phrase, core, column, found


def _names_both(fit: Fit, axes: Axes, table: TableSummary | None) -> bool:
    """Whether each of the task's axes in words names the fit's column: an axis in words
    that names no column ("die Hilfsgröße (L·x² − x³/3)") is no column of the fit, so no
    line of it is the task's read the other way. A symbol (`U` over a column `voltage`) is
    told apart by _other_columns."""
    for _, core, column, found in _axes_beside(fit, axes, table):
        if found is None or is_symbol(core):
            continue
        if column not in {c.key for c in found} | {c.name for c in found} and core != column:
            return False
    return True


def _other_columns(fit: Fit, axes: Axes, table: TableSummary | None) -> bool:
    """Whether the task's axis names another column of the table than the fit's, or, where
    it names none, is a symbol plainly other than the column's (`n` against `U2`)."""
    for phrase, core, column, found in _axes_beside(fit, axes, table):
        if not core:
            continue
        if table is not None:
            named = {c.name for c in found or []}
            if named:
                # a formed column (T² of the T columns) answers to its columns' name; a
                # column `T` the handout calls t answers to its name
                keys = {c.key for c in found or []}
                formed = next((c.formed_from for c in table.columns if c.key == column), [])
                if (
                    column not in named | keys
                    and _core(column) not in named
                    and not (
                        keys & set(formed)  # ln(p/p0) formed of the p the task names
                    )
                ):
                    return True
                continue
            if _other_dimension(core, phrase, column, table):
                return True
        # a formed column (`√I`) is its symbol's (I): ν plots no such column
        own = _core(column)
        plain = is_symbol(core) and is_symbol(own) and not kinds(phrase)
        # a difference ΔT plots the column T as it changes: the same quantity
        if plain and core.lstrip("Δδ")[:1].lower() != own[:1].lower():
            return True
    return False


def _other_dimension(core: str, phrase: str, column: str, table: TableSummary) -> bool:
    """Whether a symbol the task plots (`f`, a frequency) names no column while the fit's
    column has a unit of another dimension than the symbol's by convention (`Wavelength`
    in nm): the fit is of another quantity. A generic `x` stands for anything."""
    unit = next((c.unit for c in table.columns if c.name == column), "")
    letter = _conventional_letter(core)
    if core == "x" or kinds(phrase) or letter is None:
        return False
    if not unit and _COUNTED.match(column):  # counted events have no dimension: E is no count
        return True
    return pint_unit(unit) is not None and not dimension_is(unit, CONVENTIONAL[letter])


def _worked_out(variable: str, column: str, task: str, table: TableSummary) -> bool:
    """Whether the formula's variable (`f_m`) is a quantity the task works out of others
    (`f_m = (f_start + f_end)/2`) and no column holds: a fit against `column`, a raw
    column, is not of it."""
    symbol = plain_symbol(variable)
    worked_out = {plain_symbol(name) for name, _ in defined_names(task)}
    return (
        symbol in worked_out
        and symbol != plain_symbol(column)
        and not columns_named(variable, table.columns, {})
    )


def _conventional_letter(core: str) -> str | None:
    """The symbol of CONVENTIONAL a plotted symbol is: itself as formulas spell it (ν is
    nu), or the letter its subscript or bars dress (`|V₀|` is a V, a voltage)."""
    spelled = plain_symbol(core).strip("|")
    for letter in (spelled, spelled.split("_")[0]):
        if letter in CONVENTIONAL:
            return letter
    return None


def _line_in_axis(fit: Fit, axes: Axes | None) -> bool:
    """Whether a formula fitted against x is the straight line of the task's axis: `V =
    m·i² + c` against i is the line of V against i², its m the slope and c the intercept."""
    if axes is None or not fit.expression or not fit.variable:
        return False
    formula, predictor = expression_of(fit.expression), expression_of(axes.predictor)
    if formula is None or predictor is None:
        return False
    if fit.variable not in {s.name for s in predictor.free_symbols}:
        return False
    axis = sympy.Dummy("axis")
    on_axis = sympy.expand(formula.subs(predictor, axis))
    if fit.variable in {s.name for s in on_axis.free_symbols}:
        return False
    return bool(on_axis.is_polynomial(axis)) and sympy.degree(on_axis, axis) == 1


def _curved(fit: Fit) -> bool:
    """Whether the fit is not a straight line of its own columns (an exponential, a power
    law, a formula with exp or a power of its variable)."""
    model = (fit.model or "").lower()
    if model in STRAIGHT or fit.straightened:  # the line of ln y a task asks for is straight
        return False
    formula = fit.expression or fit.formula
    return not model.startswith("linear") and (
        bool(re.search(r"exp|e\^|\*\*|\^|log|ln\(|sqrt|[²³⁴⁵]", formula)) or not fit.variable
    )


def _has_intercept(fit: Fit) -> bool:
    """Whether the fit has a constant term (a straight line's intercept, a formula's offset)."""
    names = {p.name.lower() for p in fit.parameters}
    if names & {"intercept", "c", "offset", "b0", "c0", "y0"}:
        return True
    return (fit.model or "") == "linear"


def _one_series(fit: Fit, table: TableSummary) -> bool:
    """Whether the table holds another measured series like the fit's (same unit, not the
    predictor), so that the fit's column is one series of several."""
    mine = next((c for c in table.columns if c.name == fit.y), None)
    if mine is None or mine.formed:
        return False
    siblings = [
        c for c in table.columns
        if c.name not in (fit.y, fit.x) and c.unit == mine.unit and not c.formed
        and c.key != table.x and c.uncertainty_of is None
    ]  # fmt: skip
    return bool(siblings)


def task_ask(fit: Fit, tasks: list[str]) -> Ask | None:
    """What the task that asks for `fit` asks of it, or None if no task does."""
    return asks(tasks).get(fit.requested) if fit.requested else None


def not_task_fit(fit: Fit, tasks: list[str], tables: list[TableSummary]) -> str:
    """Why `fit`, labelled as a task's, is not the fit that task asks for ("" if it may be)."""
    ask = task_ask(fit, tasks)
    if ask is None:
        return ""
    table = next((t for t in tables if t.id == fit.table), None)
    return differs(fit, ask, table)
