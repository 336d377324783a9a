"""A multiple regression as each reader of the analysis states it: a line of the digest, the
checklist's evidence for its task, facts for the number checks, and the sentence a
one-predictor fit of the same response carries, that it is not the regression asked for."""

from __future__ import annotations

import os
import re

from labscribe.guards.numbers import Fact
from labscribe.tools.analysis.data_facts import words_of
from labscribe.tools.assignment.handout_tasks import task_number
from labscribe.tools.fits.fit_result import Fit, format_value
from labscribe.tools.fits.regression import Coefficient, Regression
from labscribe.tools.formats.tables import TableSummary

NOT_THE_REGRESSION = "not the regression task {number} asks for"
NOT_THE_REGRESSION_START = NOT_THE_REGRESSION.split("{")[0]
# A task that asks for "each coefficient" after a regression's task asks about its result.
COEFFICIENT_WORDS = re.compile(r"coefficient|koeffizient|系数|regress", re.IGNORECASE)
# A one-predictor fit of the same response has a slope and an intercept of its own: a
# regression's coefficient is "the coefficient of temperature", its intercept the
# regression's, so that a sentence about the other fit is not held to these values.
INTERCEPT_TOPIC = frozenset({"intercept", "constant", "offset"})
COEFFICIENT_TOPIC = frozenset({"coefficient", "coefficients"})
REGRESSION_WORDS = frozenset({"regression", "multiple", "plane"})
# A task that compares the coefficients digit by digit with certified or published values
# needs every digit the computation holds, not the two of its standard error.
ASKS_DIGITS = re.compile(
    r"significant (?:digits|figures)|\bdigits\b|certified|\bNIST\b|reference values?|"
    r"signifikante\w* (?:stellen|ziffern)|zertifiziert|有效数字|认证值",
    re.IGNORECASE,
)
FULL_DIGITS = 15  # a double holds 15 to 17 significant digits; NIST certifies 15


def listed(names: list[str]) -> str:
    """`a`, `a and b`, `a, b and c`."""
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


def on_what(regression: Regression) -> str:
    """`yield on temperature and pressure`."""
    return f"{regression.response} on {listed(regression.predictors) or 'several predictors'}"


def coefficient_text(coefficient: Coefficient, formula: bool, full: bool = False) -> str:
    """`temperature = 3.010 ± 0.013 g/C`; `b1 (x1) = ...` for a formula's parameter; with
    `full`, every digit: `GNP = -0.0358191792925910 ± 0.0334910077722432`."""
    term = f" ({coefficient.term})" if formula and coefficient.term not in ("", "1") else ""
    if full:
        unit = f" {coefficient.unit}" if coefficient.unit else ""
        error = (f" ± {coefficient.stderr:.{FULL_DIGITS}g}"
                 if coefficient.stderr is not None else "")  # fmt: skip
        return f"{coefficient.name}{term} = {coefficient.value:.{FULL_DIGITS}g}{error}{unit}"
    p = f" (p = {coefficient.p_value:.2g})" if coefficient.p_value is not None else ""
    return f"{coefficient.name}{term} = {format_value(coefficient)}{p}"


def summary_text(regression: Regression, full: bool = False) -> str:
    """The regression in one line: its model, coefficients, R² and points; or why not.
    With `full`, the coefficients to FULL_DIGITS significant digits, as computed."""
    head = f"multiple linear regression of {on_what(regression)} ({regression.table})"
    if not regression.done:
        return f"{head}: not done, because {regression.why_not}"
    values = "; ".join(coefficient_text(c, bool(regression.formula), full)
                       for c in regression.coefficients)  # fmt: skip
    if full:  # the row has room for the digits only; R² stands in the regression's own row
        return (f"the regression of task {regression.number} ({regression.table}) to "
                f"{FULL_DIGITS} significant digits (± one standard error): {values}")  # fmt: skip
    weighted = f", weighted by {regression.weighted_by}" if regression.weighted_by else ""
    quality = (
        f"R² = {regression.r_squared:.4f}, adjusted R² = {regression.adjusted_r_squared:.4f}, "
        f"{regression.points} points{weighted}"
    )
    verdict = "" if regression.good else "; it does not describe the data"
    return f"{head}: {values}; {quality}{verdict}"


def digest_lines(regressions: list[Regression], task_numbers: list[str]) -> list[str]:
    """The digest's section on the regressions the tasks ask for, each task numbered as the
    handout does (`task_numbers`)."""
    if not regressions:
        return []
    lines = ["Multiple regressions the tasks ask for (statsmodels OLS; ± is one standard error):"]
    for regression in regressions:
        notes = [n for n in regression.notes if "poorly" in n or "does not describe" in n]
        tail = f"; {'; '.join(notes)}" if notes else ""
        number = task_number(task_numbers, regression.number)
        lines.append(f"- task {number}: {summary_text(regression)}{tail}")
    return lines


def evidence(task: str, number: int, regressions: list[Regression]) -> tuple[list[str], str]:
    """What the regressions give towards task `number`, and what is left when the one it asks
    for was not done ("" when nothing is left to say): its own regression, or, for a later
    task about coefficients, the regression of an earlier task."""
    own = [r for r in regressions if r.number == number]
    if own and not own[0].done:
        return [], f"all of it: the regression was not done, because {own[0].why_not}"
    earlier = [r for r in regressions if r.number < number and r.done]
    chosen = own or (earlier[-1:] if COEFFICIENT_WORDS.search(task) else [])
    full = ASKS_DIGITS.search(task) is not None
    return [summary_text(r, full) for r in chosen if r.done], ""


def not_the_regression(
    fits: list[Fit], regressions: list[Regression], task_numbers: list[str]
) -> list[Fit]:
    """`fits`, each one-predictor fit of a regression's response (in its table) with a note
    that it is not the regression the task asks for (the task numbered as the handout does,
    `task_numbers`)."""
    marked = []
    for fit in fits:
        for regression in regressions:
            if fit.table == regression.table and fit.y == regression.response_key:
                note = _note(regression, task_number(task_numbers, regression.number))
                fit = fit.model_copy(update={"notes": [*fit.notes, note]})
        marked.append(fit)
    return marked


def between_predictors(
    fits: list[Fit], regressions: list[Regression]
) -> tuple[list[Fit], list[Regression]]:
    """`fits` without those of one predictor against another of a regression done on their
    table (the assignment asked how the response depends on them, not how they depend on
    each other), unless a task asks for that fit; each regression with a note naming what
    was left out."""
    kept: list[Fit] = []
    apart: dict[int, list[str]] = {}
    for fit in fits:
        regression = next((r for r in regressions if r.done and r.table == fit.table
                           and {fit.y, fit.x} <= set(r.predictor_keys)), None)  # fmt: skip
        if regression is None or fit.requested:
            kept.append(fit)
        else:
            apart.setdefault(regression.number, []).append(f"{fit.y_label} against {fit.x_label}")
    noted = [
        r.model_copy(update={"notes": [*r.notes, (
            f"the predictors were not fitted one against another ({listed(apart[r.number])}): "
            "the task asks how the response depends on them together")]})
        if r.number in apart else r
        for r in regressions
    ]  # fmt: skip
    return kept, noted


def regression_remark(fit: Fit) -> str:
    """The note that `fit` is not the regression a task asks for; "" when it has none."""
    return next((note for note in fit.notes if note.startswith(NOT_THE_REGRESSION_START)), "")


def _note(regression: Regression, number: str) -> str:
    asked = NOT_THE_REGRESSION.format(number=number)
    where = "given apart" if regression.done else "which could not be done"
    return f"{asked}, which is {on_what(regression)} together ({where})"


def regression_facts(regressions: list[Regression], tables: list[TableSummary]) -> list[Fact]:
    """Every coefficient the data determine, held to twice its standard error: about its
    predictor ("the coefficient of temperature"), or, for the intercept, the regression of
    the response ("the regression's intercept of yield")."""
    sources = {t.id: t.source for t in tables}
    several = len(set(sources.values())) > 1
    facts: list[Fact] = []
    for regression in regressions:
        source = sources.get(regression.table, regression.table)
        file_words = (words_of(os.path.splitext(source)[0]),) if several else ()
        for coefficient in regression.coefficients:
            if coefficient.relative is not None and coefficient.relative > 1:
                continue  # a coefficient the data do not determine is no fact
            intercept = coefficient.term == "1"
            topic = INTERCEPT_TOPIC if intercept else COEFFICIENT_TOPIC
            about = (
                (words_of(regression.response), REGRESSION_WORDS)
                if intercept
                else (words_of(coefficient.term),)
            )
            label = (f"{coefficient.name} of the multiple regression of {regression.model} "
                     f"in {regression.table} ({format_value(coefficient)})")  # fmt: skip
            relative = coefficient.relative
            facts.append(Fact(label, coefficient.value, source, topic, (*file_words, *about),
                              tolerance=None if relative is None else 2 * relative))  # fmt: skip
    return facts
