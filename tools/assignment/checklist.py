"""The assignment's checklist against the analysis: for each task, what labscribe's own
analysis of the data gives towards it, and what is left for the student.

A task is matched by its words: a fitted parameter by the words prose uses for it (the
number checks' vocabulary, tools.analysis.data_facts), a column by its name, a parameter file's row
by two parts of its name. Matching claims only that a result bears on a task, never that
the task is done: judgement (comparing, explaining, discussing) is always left open.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, Field

from labscribe.tools.analysis.data_facts import topic_words
from labscribe.tools.analysis.folder import Analysis
from labscribe.tools.assignment.coverage import not_covered
from labscribe.tools.assignment.fit_asks import Ask, asks
from labscribe.tools.assignment.handout_tasks import task_number
from labscribe.tools.assignment.judgements import judgements
from labscribe.tools.assignment.part_ranges import holds_throughout
from labscribe.tools.assignment.requested import requested_model
from labscribe.tools.assignment.role_phrases import is_symbol
from labscribe.tools.assignment.stated import (
    extreme_stated,
    extreme_unanswered,
    fitted_named,
    from_nominal,
    model_not_line,
    unit_unknown,
)
from labscribe.tools.assignment.task_files import of_stem_named
from labscribe.tools.assignment.task_material import column_named, material, other_fits, task_words
from labscribe.tools.assignment.task_needs import (
    MEAN,
    PLOT,
    STATISTICS,
    left_undone,
    part_of_data,
    plot_only,
)
from labscribe.tools.assignment.task_results import (
    fitted_function,
    inputs,
    not_asked,
    of_named_files,
    pictured,
    repeat_part,
    swapped_lines,
)
from labscribe.tools.assignment.task_symbols import defined_names
from labscribe.tools.fits.extreme_words import extreme_symbols
from labscribe.tools.fits.fit_quantities import answers
from labscribe.tools.fits.fit_result import Fit, axes_of, format_value
from labscribe.tools.fits.range_fits import (
    ROUGHLY,
    answers_task,
    instead,
    left_out_of,
    no_answer,
    one_per_data,
    roughly,
)
from labscribe.tools.fits.regression_answers import PREDICTED, regression_answers
from labscribe.tools.fits.regression_text import evidence as regression_evidence
from labscribe.tools.fits.repeat_evidence import repeat_evidence
from labscribe.tools.formulas.prediction import evidence as prediction_evidence

MAX_GIVEN = 4  # results listed per task: the rest are in the report's tables
MAX_ANSWERS = 16  # the values a task asks of its fits: k and τ of three runs, l of 11
MORE_GIVEN = "and {count} more results, not listed here (see the fits and tables above)"
PART_LEFT = (
    "not done: the task works on part of the data only (“{part}”); the fits here take all "
    "of it, so none of their values answers it"
)
FIGURE_LEFT = "checking the figure against what the task asks: its axes, scales and labels"
# Named with the columns it was fitted to: a model fitted to other data than the task means
# (the whole spectrum for one photopeak) fails there, not in the task.
ASKED_MODEL_FAILS = (
    "all of it: the model this task asks for, fitted to {axes}, does not describe those data "
    "(see the fits)"
)
ASKED_MODEL_NO_TREND = (
    "all of it: the model this task asks for, fitted to {axes}, finds no trend in those data "
    "(it does no better than their mean), so it gives no value (see the fits)"
)
# Where a value worked out from the nominal data starts: the parameter files' values.
NOMINAL_SOURCE = "the nominal values in the table of parameters"
NOMINAL_WORK = f"work it out from {NOMINAL_SOURCE}"


class TaskEvidence(BaseModel):
    task: str
    given: list[str] = Field(default_factory=list)
    """What the analysis gives towards the task, each with its source."""
    left: str
    """What is left for the student, in a phrase."""


def checklist(analysis: Analysis, figures: Sequence[dict[str, Any]] = ()) -> list[TaskEvidence]:
    """Each of the assignment's tasks with what the analysis gives towards it, and the
    report's `figures` (their records: tools.analysis.data_figures) that show what a plot asks."""
    wanted = asks(analysis.tasks)
    return [
        _evidence(task, of_named_files(analysis, task), n, wanted.get(task), figures)
        for n, task in enumerate(analysis.tasks, start=1)
    ]


def _evidence(
    task: str,
    analysis: Analysis,
    number: int = 0,
    ask: Ask | None = None,
    figures: Sequence[dict[str, Any]] = (),
) -> TaskEvidence:
    words = task_words(task)
    drawn = pictured(words, analysis, figures, ask) if PLOT.search(task) else []
    given, not_done = regression_evidence(task, number, analysis.regressions)
    if not_done:
        return TaskEvidence(task=task, left=not_done)
    given = given or regression_answers(task, number, analysis.regressions)
    regressed = bool(given)  # a regression answers it: one-predictor fits are beside the point
    given = prediction_evidence(task, analysis.predictions) + given
    requested = [fit for fit in analysis.fits if fit.requested == task and fit.model is not None]
    whose, inherited = "the model this task asks for", False
    if not requested and ask is not None and ask.axes is None and not ask.formula and number > 1:
        # "bezogen auf die Zählrate der Ausgleichsgeraden": the line of the task before
        earlier = analysis.tasks[number - 2]
        requested = [f for f in analysis.fits if f.requested == earlier and f.model is not None]
        inherited = bool(requested)
        if inherited:
            whose = f"the fit task {task_number(analysis.task_numbers, number - 1)} asks for"
    # a fit of other axes, formula, series or variant than the task's is not the fit it asks
    # for, whatever it is called: it is named as what it is, never offered as the answer
    other_axes = not_asked(analysis, ask)
    asked = [fit for fit in requested if id(fit) not in other_axes]
    # "die Vanadium-Daten" beside Vanadium.dat and Rhodium.dat: that file's fit of the model
    sources = {table.id: table.source for table in analysis.tables}
    asked = of_stem_named(task, asked, sources)
    # "only the values from t* = 180 s on": a fit of all the points is not this task's
    if (part := part_of_data(task)) and not any(fit.task_range for fit in asked):
        # "für die Messreihe p ≤ 1 bar": a file that holds only that part is its fit's
        tables = {t.id: t for t in analysis.tables}
        asked = [f for f in asked if f.table in tables and holds_throughout(task, tables[f.table])]
        if not asked:  # what the whole data give stands: the largest reading of them all
            read = [e.given for e in analysis.extremes if e.task == task and e.given]
            return TaskEvidence(task=task, given=read, left=PART_LEFT.format(part=part))
    unstated: list[str] = []  # parameters whose units the report cannot name
    loose: list[str] = []  # parameters the task asks for that the data do not determine
    by_peaks, asked_alone = one_per_data(asked, whose, analysis.fits)
    given += by_peaks
    for fit in asked_alone:
        if answers_task(fit) and (unknown := unit_unknown(fit)):
            unstated += unknown
            given.append(f"a fit of {axes_of(fit, analysis.fits)} ({whose}; "
                         "the units of its parameters are not worked out, so their values are "
                         "not listed here)")  # fmt: skip
        elif answers_task(fit):
            # a value the task asks for by its symbol that the data do not pin down
            loose += [p.name for p in fit.parameters if not p.derived and not p.determined
                      and p.name in words and is_symbol(p.name)]  # fmt: skip
            values = ", ".join(f"{p.name} = {format_value(p)}" for p in fit.shown_parameters())
            fixed = f", with {', '.join(fit.fixed)} as the task gives" if fit.fixed else ""
            given.append(f"{values} ({whose}, fitted to "
                         f"{axes_of(fit, analysis.fits)}{fixed}{_r_squared(task, fit)}"
                         f"{ROUGHLY if roughly(fit) else ''})")  # fmt: skip
    if asked and not any(answers_task(fit) for fit in asked):
        axes = "; ".join(dict.fromkeys(axes_of(fit, analysis.fits) for fit in asked))
        failed = ASKED_MODEL_NO_TREND if any(f.good for f in asked) else ASKED_MODEL_FAILS
        left = no_answer(asked) or failed.format(axes=axes)
        return TaskEvidence(task=task, given=instead(asked, analysis.fits), left=left)
    for quantity in analysis.derived:
        if quantity.name.lower() in words:
            given.append(f"{quantity.text()} (derived)")
    # what the task asks of its fits (τ from each slope) before the fits it comes from
    from_fit = [q for q in analysis.fit_quantities if q.task == task]  # tools.fits.fit_quantities
    if (function_name := fitted_function(task, analysis)) is not None:
        # "Passen Sie die Funktion A(f) an": another column's fit gives no value of it
        from_fit = [q for q in from_fit if q.response in ("", function_name)]
    given = answers(from_fit) + given
    swapped = [] if from_fit or plot_only(task) else swapped_lines(analysis, ask, other_axes)
    given += swapped
    # the fit the task asks for answers it: other models of its columns are not offered
    answered = {(f.table, f.y, f.x) for f in asked if answers_task(f)}
    # nor does another fit's value of a parameter the task's own fit gives (RC of a against f)
    given_names = {p.name for f in asked if answers_task(f) for p in f.parameters}
    others = [f for f in analysis.fits if f not in requested and id(f) not in other_axes
              and (f.table, f.y, f.x) not in answered
              and not given_names & {p.name for p in f.parameters}]  # fmt: skip
    if function_name is not None:
        others = [f for f in others if function_name in (f.y, f.y_label)]
    # "Bestäm egenfrekvensen" beside egenfrekvens.txt: that file's fit, not every swing's
    others = of_stem_named(task, others, sources)
    # a plot asks for no value; a regression's task, for none of a one-predictor fit
    fitted = [] if regressed or plot_only(task) else other_fits(task, words, others)
    if fitted and (defined := defined_names(task)) and not from_nominal(task):
        # "Ry = 4a²/3 and σ = −b/a": the formulas' inputs are the symbols they name (a, b),
        # never another fit's parameter of another name (a cubic's c0 is no b)
        fitted = other_fits(task, words, others, only=inputs(task, defined, others))
    if fitted and from_nominal(task):
        # a value worked out from the nominal data: another fit's value of the same symbol is
        # no way to it; only a fitted value the task compares with ("your fitted Bmax") bears
        fitted = other_fits(task, words, others, only=fitted_named(task))
    given += fitted
    names_a_column = any(column_named(c, t, words) for t in analysis.tables for c in t.columns)
    # a fit's task asks the confidence of its values ("Λ₀ mit 95-%-Vertrauensbereich"); the
    # repeated measurements answer it only where it asks for a mean
    repeats = analysis.repeats if ask is None or MEAN.search(task) else []
    repeated = repeat_evidence(task, words, repeats, names_a_column)
    given += [repeat_part(task, line) for line in repeated]
    extremes = [e for e in analysis.extremes if e.task == task]
    # "use the model to predict": a straight line's value at the point is not that model's
    if model := model_not_line(task, analysis.tasks[: max(number - 1, 0)]):
        extremes = [e for e in extremes if e.kind != "estimate"]
    # the largest reading answers neither "every maximum" nor a fitted or limiting value
    readings = [e.given for e in extremes if e.given and e.kind in ("maximum", "minimum")]
    unanswered = extreme_unanswered(task) if readings else ""
    if unanswered and (
        any(q.name in unanswered.split() for q in from_fit)
        or extreme_stated(unanswered, given, task)
    ):  # the fit's value (T_max = A/w, the ultimate BOD L0) answers it, not the largest reading
        unanswered = ""
        extremes = [e for e in extremes if e.given not in readings]
    if any(e.kind == "band" for e in extremes):  # read off the data as the task says, not fitted
        given = [line for line in given if line not in fitted]
    given += [e.given for e in extremes if e.given and not (unanswered and e.given in readings)]
    values = list(given)  # what follows is the material the task starts from, not its answer
    given += readings if unanswered else []
    starts_from = material(analysis, words, task)
    given += starts_from
    judged = judgements(task)
    predicted = any(p.task == task for p in analysis.predictions) or any(
        line.startswith(PREDICTED) for line in given
    )
    if predicted:
        judged = [phrase for phrase in judged if phrase != "the prediction"]  # computed above
    nominal = from_nominal(task)
    # a law read off another line (R = 1/slope of I against U) answers a fit of its own axes
    if (ask is not None and other_axes and not asked and not fitted and not regressed
            and not from_fit and not swapped and _fit_asked(task)):  # fmt: skip
        left = _not_done(ask, other_axes, [f for f in requested if id(f) in other_axes])
    elif not given:
        left = next((e.left for e in extremes if e.left), "all of it")
    elif undone := left_undone(task, values, judged, material=bool(given) and not values,
                               named=_names(asked + others, values) | _formed(analysis)
                               | {s.lower() for s in extreme_symbols(task) if extremes}
                               | {line.lower() for line in starts_from},  # `średni kąt`
                               source=NOMINAL_SOURCE if nominal else ""):  # fmt: skip
        left = undone
    elif judged:
        left = f"{', '.join(judged)}, from the values given"
    elif "?" in task or "？" in task:  # "Bei welcher Frequenz erwartet man φ = π/4?"
        left = "checking the values given; then the answer to its question"
    else:
        left = "checking and stating the values given"
    if nominal and not left.startswith(("not done", "all of it")) and not predicted:
        then = f"; then {', '.join(judged)}" if judged else ""
        left = (
            f"not done: the value from the nominal data is not in this report; {NOMINAL_WORK}{then}"
        )
    if model and not left.startswith("not done"):
        left = f"not done: the value of {model} at the point the task names"
    # a value one of the task's fits determines is given, whatever another file leaves open
    determined = {p.name for f in asked if answers_task(f) for p in f.parameters if p.determined}
    loose = list(dict.fromkeys(name for name in loose if name not in determined))
    if loose:
        one = len(loose) == 1
        rest = left.removeprefix("not done: ") if left.startswith("not done: ") else ""
        left = (f"not done: {' and '.join(loose)} {'is' if one else 'are'} not determined by "
                f"the data (see the fits){'; ' + rest if rest else ''}")  # fmt: skip
    if inherited and not left.startswith("not done"):
        left = f"not done: what the task asks of {whose}, worked out from its values"
    left = _unstated(left, unstated, unanswered) + left_out_of(asked)
    missed = not_covered(task, analysis.not_fitted)
    if missed and not left.startswith("all of it"):  # never "checking" over part of the data
        left = f"{left}; {missed}" if left.startswith("not done") else f"not done: {missed}"
    if drawn and plot_only(task) and not left.startswith("not done"):
        given, left = drawn + given, FIGURE_LEFT  # the plot is drawn: only checking it is left
    else:
        given += drawn
    shown = max(MAX_GIVEN, min(len(from_fit), MAX_ANSWERS))
    # never a silent cut of its results: a student reads the row as all the task has
    hidden = sum(1 for line in given[shown:] if line in values)
    more = [MORE_GIVEN.format(count=hidden)] if hidden else []
    return TaskEvidence(task=task, given=given[:shown] + more, left=left)


def _unstated(left: str, unstated: list[str], unanswered: str) -> str:
    """`left`, led by what the values listed do not state: parameters without their units,
    every maximum where only the largest reading is listed."""
    missing = []
    unstated = list(dict.fromkeys(unstated))  # each fit's intercept is one name to the student
    if unstated:
        names = " and ".join(unstated)
        missing.append(f"{names} with {'its unit is' if len(unstated) == 1 else 'their units are'}"
                       " not in this report")  # fmt: skip
    if unanswered:
        missing.append(f"{unanswered} is not in this report (only the largest or smallest "
                       "reading is)")  # fmt: skip
    if not missing:
        return left
    rest = left.removeprefix("not done: ") if left.startswith("not done: ") else ""
    return "not done: " + "; ".join(missing + ([rest] if rest else []))


# Words that ask for a fit itself, not a formula's value ("predicted by B(0) = ...").
FIT_WORDS = re.compile(
    r"\bfit(?:s|ting)?\b|regress|least[- ]squares|\bajust|anpass|fitten|ausgleich|"
    r"straight[- ]?line|"
    r"\w*geraden?\b|拟合|回归|直线",
    re.IGNORECASE,
)


def _fit_asked(task: str) -> bool:
    """Whether the task asks for a fit in so many words (a formula to compute asks for none)."""
    return requested_model(task) is not None and FIT_WORDS.search(task) is not None


def _not_done(ask: Ask, instead: dict[int, str], requested: list[Fit]) -> str:
    """`not done: the task asks for ...; this report has only a fit of X against Y, not
    what this task asks`: the fit labelled as the task's where there is one; where none is,
    no fit of other data is named as if it were the nearest thing to it."""
    if not requested:
        return f"not done: the task asks for {ask.text()}; this report has no such fit"
    return (f"not done: the task asks for {ask.text()}; this report has only "
            f"{instead[id(requested[0])]}, not what this task asks")  # fmt: skip


def _names(fits: list[Fit], values: list[str]) -> frozenset[str]:
    """The words the parameters of the fits listed in `values` go by (a decay is `tau`)."""
    listed = [f for f in fits if f.good and any(f"against {f.x}" in v for v in values)]
    return frozenset(
        word
        for fit in listed
        for p in fit.parameters
        for word in {p.name.lower(), *topic_words(fit, p)}
    )


def _formed(analysis: Analysis) -> frozenset[str]:
    """The quantities formed from the columns as the handout defines them (φ = 2π·a/b): in
    the report as data, so a task that defines one is not left to work it out."""
    return frozenset(c.name.lower() for t in analysis.tables for c in t.columns if c.formed)


def _r_squared(task: str, fit: Fit) -> str:
    """`; R² = 0.6445` where the task asks for R² and the fit has one."""
    asks = next(asked for name, asked, _ in STATISTICS if name == "R²").search(task)
    return f"; R² = {fit.r_squared:.4f}" if asks and fit.r_squared is not None else ""
