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
name no column, only symbols that plainly differ (`n` against `U2`) tell them apart. What the
task asks is read from its words in tools/assignment/fit_asks.py; here it is held against a fit.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import sympy

from labscribe.tools.assignment.fit_asks import Ask, core, task_ask
from labscribe.tools.assignment.part_ranges import holds_throughout
from labscribe.tools.assignment.role_phrases import glossary, is_symbol
from labscribe.tools.assignment.task_axes import Axes, kinds, mismatch
from labscribe.tools.assignment.task_symbols import defined_names
from labscribe.tools.columns.column import Column
from labscribe.tools.columns.column_names import columns_named
from labscribe.tools.columns.symbol_dimensions import CONVENTIONAL, dimension_is, pint_unit
from labscribe.tools.fits.fit_result import Fit
from labscribe.tools.fits.fit_variants import CORRECTED_COLUMN, STRAIGHT
from labscribe.tools.fits.range_fits import answers_task
from labscribe.tools.formats.tables import TableSummary
from labscribe.tools.formulas.axis_expressions import expression_of
from labscribe.tools.formulas.formula_notation import plain_symbol

# A column of counted events, or of a spectrum's channel numbers, as spectra and counters
# name them ("counts", "Impulse", "coups", "channel", "Kanal"): numbers of no dimension.
_COUNTED = re.compile(
    r"(?:counts?|impulse|zählungen|tællinger|tellinger|coups|cuentas|conteggi|计数|"
    r"channels?|kanal|kanäle|kanaler|canal|canaux|canales|kanaal|道址)$",
    re.IGNORECASE,
)


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
        bare = core(phrase)
        found = None
        if table is not None:
            found = columns_named(bare, table.columns, glossary(phrase)) if bare else []
        yield phrase, bare, column, found


def _names_both(fit: Fit, axes: Axes, table: TableSummary | None) -> bool:
    """Whether each of the task's axes in words names the fit's column: an axis in words
    that names no column ("die Hilfsgröße (L·x² − x³/3)") is no column of the fit, so no
    line of it is the task's read the other way. A symbol (`U` over a column `voltage`) is
    told apart by _other_columns."""
    for _, bare, column, found in _axes_beside(fit, axes, table):
        if found is None or is_symbol(bare):
            continue
        if column not in {c.key for c in found} | {c.name for c in found} and bare != column:
            return False
    return True


def _other_columns(fit: Fit, axes: Axes, table: TableSummary | None) -> bool:
    """Whether the task's axis names another column of the table than the fit's, or, where
    it names none, is a symbol plainly other than the column's (`n` against `U2`)."""
    for phrase, bare, column, found in _axes_beside(fit, axes, table):
        if not bare:
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
                    and core(column) not in named
                    and not (
                        keys & set(formed)  # ln(p/p0) formed of the p the task names
                    )
                ):
                    return True
                continue
            if _other_dimension(bare, phrase, column, table):
                return True
        # a formed column (`√I`) is its symbol's (I): ν plots no such column
        own = core(column)
        plain = is_symbol(bare) and is_symbol(own) and not kinds(phrase)
        # a difference ΔT plots the column T as it changes: the same quantity
        if plain and bare.lstrip("Δδ")[:1].lower() != own[:1].lower():
            return True
    return False


def _other_dimension(bare: str, phrase: str, column: str, table: TableSummary) -> bool:
    """Whether a symbol the task plots (`f`, a frequency) names no column while the fit's
    column has a unit of another dimension than the symbol's by convention (`Wavelength`
    in nm): the fit is of another quantity. A generic `x` stands for anything."""
    unit = next((c.unit for c in table.columns if c.name == column), "")
    letter = _conventional_letter(bare)
    if bare == "x" or kinds(phrase) or letter is None:
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


def _conventional_letter(bare: str) -> str | None:
    """The symbol of CONVENTIONAL a plotted symbol is: itself as formulas spell it (ν is
    nu), or the letter its subscript or bars dress (`|V₀|` is a V, a voltage)."""
    spelled = plain_symbol(bare).strip("|")
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


def not_task_fit(fit: Fit, tasks: list[str], tables: list[TableSummary]) -> str:
    """Why `fit`, labelled as a task's, is not the fit that task asks for ("" if it may be)."""
    ask = task_ask(fit, tasks)
    if ask is None:
        return ""
    table = next((t for t in tables if t.id == fit.table), None)
    return differs(fit, ask, table)
