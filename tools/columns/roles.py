"""Which column of a table is the response and which the predictor: decided once per table
and recorded on it (`TableSummary.x`, `.response`, `.predictors`, `.roles`), so the requested
fits, the standard fits, the figures and the checklist all read one decision.

The assignment decides where its words name the columns, whatever their order in the file:
its formulas (the left side is the response, the variable the predictor), "plot y against
x", "y as a function of x", "trage y gegen x auf", "作 y-x 图", "以 x 为横坐标"
(tools.assignment.role_phrases). A phrase names a column by the column's name or symbol, or by the
words the handout uses for the symbol ("the period T" names a column `period`;
tools.columns.column_names). A column
that only numbers the rows is never the predictor. Where the assignment names neither, the
data's own evidence decides (a set variable is stepped evenly or round, tools.columns.set_values),
and the table records a sentence saying which column was taken and why.

tools.fits.request_targets says which columns a model the assignment asks for concerns, and
which it names as predictors (a multiple regression's).
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass, field, replace

import numpy as np

from labscribe.tools.analysis.data_facts import mentions_words_of, words_in
from labscribe.tools.assignment.handout_latex import inline_math_text
from labscribe.tools.assignment.requested import FIT_CUE, Request
from labscribe.tools.assignment.role_phrases import glossary, pairings, sentences
from labscribe.tools.assignment.task_needs import MEAN
from labscribe.tools.assignment.tasks import MAX_CHARS, MAX_LINES
from labscribe.tools.base import ToolError
from labscribe.tools.columns.clocks import set_aside_clocks
from labscribe.tools.columns.column import Column, mark_maxima
from labscribe.tools.columns.column_names import (
    Named,
    named_by_formula,
    named_by_pairing,
)
from labscribe.tools.columns.directions import direction_note
from labscribe.tools.columns.row_numbers import set_aside, set_aside_letter_counts
from labscribe.tools.columns.set_values import (
    barely_varies,
    labels_rows,
    read_again_and_again,
    scatters_about_one_value,
    set_evidence,
)
from labscribe.tools.columns.variable_column import SWEPT_NAMES, X_NAMES, follows_counter
from labscribe.tools.explorer.reading import read_in
from labscribe.tools.formats.parameters import ParameterRow
from labscribe.tools.formats.tables import Table, TableSummary
from labscribe.tools.formulas.formula_notation import formulas_in
from labscribe.tools.tool import Folder

MAX_QUOTED = 110  # characters of the assignment's sentence a role note quotes


@dataclass(frozen=True)
class Handout:
    """What of the assignment the roles are read from."""

    tasks: tuple[str, ...] = ()
    text: str = ""
    """The whole handout, tasks included ("" when only the tasks are known)."""
    requests: tuple[Request, ...] = ()
    glossary: dict[str, set[str]] = field(default_factory=dict)
    """Which words name which symbol: {"T": {"period"}} (tools.assignment.role_phrases)."""
    values: tuple[ParameterRow, ...] = ()
    """The values the parameter files and the handout's prose state
    (tools.assignment.stated_values): what a task's definition of a symbol (V_T = k_B T/e) is
    worked out from."""
    stated: tuple[ParameterRow, ...] = ()
    """The values of them the handout's prose states ("Die Amplitude der Generatorspannung
    betrug U_0 = 4,2 V"): a formula's symbol among them that no task asks for is fixed."""

    @classmethod
    def of(cls, tasks: list[str], text: str = "", requests: list[Request] = ()) -> Handout:  # type: ignore[assignment]
        return cls(tuple(tasks), text, tuple(requests), glossary(f"{text}\n" + "\n".join(tasks)))


def read_handout(
    folder: Folder, rel: str | None, tasks: list[str], requests: list[Request]
) -> Handout:
    """The handout `rel` names, read as text beside its tasks (its formulas and the words it
    uses for symbols stand in its prose too); only the tasks where it cannot be read."""
    text = ""
    if rel is not None:
        # one that cannot be read is named by the analysis already
        with contextlib.suppress(ToolError):
            text = read_in(folder, rel, limit=MAX_LINES, max_chars=MAX_CHARS)
    return Handout.of(tasks, inline_math_text(_body(text)), requests)  # `$U_{34}$` is U_34


def _body(text: str) -> str:
    """The document's text without the reader's own lines (`[file: lines 1-65 ...]`)."""
    return "\n".join(
        line for line in text.splitlines()
        if not re.match(r"^\s*(?:\[.*\]|--- page \d+.*---)\s*$", line)
    )  # fmt: skip


def decide_roles(tables: list[Table], handout: Handout) -> None:
    """Record on each table which column is the predictor (its `x`) and which the response,
    from the assignment's words where they name the columns, else from the data; a table
    whose x moves gets its columns' maxima marked again."""
    for table in tables:
        summary = table.summary
        before = summary.x
        set_aside_letter_counts(table, f"{handout.text}\n" + "\n".join(handout.tasks))
        _set_aside_labels(table)
        _decide(table, handout)
        set_aside_clocks(table)
        if note := direction_note(summary):
            summary.roles = f"{summary.roles} {note[0].upper()}{note[1:]}".strip()
        if summary.x != before:
            mark_maxima(summary.columns, table.frame, summary.x)


def _set_aside_labels(table: Table) -> None:
    """Set the columns that label the rows (`组号`, `Gruppe`, `NGC`) aside with those that
    number them: no variable, never fitted; the table's variable chosen again without them."""
    summary = table.summary
    measured = _candidates(table)
    labels = [
        c for c in summary.columns
        if c.uncertainty_of is None and c.ratio_of is None and not c.formed
        and labels_rows(c.name, table.frame[c.key].to_numpy(dtype=float))
        and not _numbers_a_sequence(table, c, measured)
    ]  # fmt: skip
    set_aside(table, labels)


def _numbers_a_sequence(table: Table, label: Column, measured: list[Column]) -> bool:
    """Whether `label` (`Sample Number`) numbers the readings of the one quantity the table
    measures as they change (a source's counts, sample by sample): their variable."""
    others = [c for c in measured if c.key != label.key]
    return len(others) == 1 and follows_counter(table.frame, others[0], label)


def _decide(table: Table, handout: Handout) -> None:
    summary = table.summary
    candidates = _candidates(table)
    if summary.x is None or len(candidates) < 2:
        return
    statements = _statements(summary, candidates, handout)
    for number, (text, named) in enumerate(statements):
        responses = {c.key for c in named.responses}
        if responses & {c.key for c in named.predictors}:
            continue  # its words for both axes name one column: it says nothing of the roles
        predictors = [c for c in named.predictors if c.key not in responses]
        response = named.responses[-1] if named.responses else None
        if (len(predictors) >= 2 or (named.symbols and response is None)) and not FIT_CUE.search(
            text
        ):
            continue  # a formula that defines a quantity (FF = P/(V·I), N = Z/Δt) asks no fit
        if predictors and all(map(stays_put, predictors)):
            continue  # "κ gegen T" where T stays at 20 °C (a titration's): not its variable
        if len(predictors) >= 2:
            _several(summary, predictors, response, text)
            return
        if not predictors and response is not None and len(candidates) == 2 and not named.elsewhere:
            predictors = [c for c in candidates if c.key != response.key]
        if not predictors:
            continue
        x = predictors[0]
        if response is None:  # a later statement may name what is fitted against x
            later = [(t, n.responses[-1]) for t, n in statements[number + 1 :] if n.responses]
            text, response = next(
                ((t, c) for t, c in later if c.key != x.key), (text, None)
            )  # the statement that names the response is the one quoted for it
        summary.x = x.key
        summary.response = response.key if response and response.key != x.key else None
        what = (
            f"{response.name} is taken as the response to {x.name}" if summary.response
            else f"{x.name} is taken as the variable"
        )  # fmt: skip
        summary.roles = f"{what}, as the assignment says ({_quote(text)})."
        return
    if (task := _averaged_each(candidates, handout)) is not None:
        summary.x = None  # a table of repeats: each column's mean is its analysis
        summary.roles = (
            f"The assignment asks for the mean of {_names(candidates)} ({_quote(task)}), "
            "so none is fitted against another."
        )
        return
    _decide_from_data(table, candidates)


def _averaged_each(candidates: list[Column], handout: Handout) -> str | None:
    """The task that asks for the mean of every one of the table's columns by name, where
    no statement names its variable ("Mittelwert und Vertrauensbereich der Leitfähigkeit und
    der Temperatur" of three readings per water sample): none was set."""
    for task in handout.tasks:
        words = words_in(task)
        if MEAN.search(task) and all(mentions_words_of(words, c.name) for c in candidates):
            return task
    return None


def _several(
    summary: TableSummary, predictors: list[Column], response: Column | None, text: str
) -> None:
    """Record a statement that names two or more predictors: a multiple regression's."""
    summary.predictors = [c.key for c in predictors]
    summary.response = response.key if response else None
    names = " and ".join(c.name for c in predictors)
    of = f" of {response.name}" if response else ""
    summary.roles = (
        f"The assignment names {names} as predictors{of} ({_quote(text)}): a fit on several "
        "predictors at once."
    )
    if summary.x not in summary.predictors:
        summary.x = predictors[0].key


def _candidates(table: Table) -> list[Column]:
    """The measured columns that may be a response or a predictor (those that only number
    the rows are set aside when the table is read: tools.columns.counting)."""
    return [
        c for c in table.summary.columns
        if c.uncertainty_of is None and c.ratio_of is None and c.count
    ]  # fmt: skip


def _statements(
    summary: TableSummary, candidates: list[Column], handout: Handout
) -> list[tuple[str, Named]]:
    """What the assignment says of this table's columns: first what its tasks say of the
    axes ("plot T against L"; a pair this table holds both axes of before one it holds one
    of), then the formulas its tasks ask to fit, then the rest of the handout, its words
    before its formulas."""
    words = handout.glossary
    tasks = [s for task in handout.tasks for s in sentences(task)]
    rest = [s for s in sentences(handout.text) if s not in tasks]
    said = [(s, named_by_pairing(p, candidates, words)) for s in tasks for p in pairings(s)]
    found = sorted(
        said, key=lambda statement: not (statement[1].responses and statement[1].predictors)
    )
    found += [(r.task, named_by_formula(r.formula, candidates, words))
              for r in handout.requests if r.formula]  # fmt: skip
    found += [(s, named_by_pairing(p, candidates, words)) for s in rest for p in pairings(s)]
    # a formula of the prose defines or states (`x = R_max·ρ`, `T = const`): where its right
    # side names no column, the table's other column is not its variable
    found += [(s, replace(named, elsewhere=not named.predictors))
              for s in rest for f in formulas_in(s)
              for named in [named_by_formula(f, candidates, words)]]  # fmt: skip
    return [(text, named) for text, named in found if named.responses or named.predictors]


def _quote(text: str) -> str:
    cut = text if len(text) <= MAX_QUOTED else text[: MAX_QUOTED - 1].rsplit(" ", 1)[0] + "…"
    return f"“{cut}”"


def stays_put(column: Column) -> bool:
    """Whether `column` holds a condition recorded beside the readings, one that only stays
    put (a titration's 20.1–21.2 °C; tools.columns.set_values.barely_varies): no variable."""
    return barely_varies(column.minimum, column.maximum, column.unit)


def _timed_side_by_side(table: Table, candidates: list[Column]) -> bool:
    """Whether the columns, of one unit, are each one quantity read again and again (a
    sphere's and a cylinder's times of four swings, ten of each) and none follows another:
    nothing was set, so nothing is measured against."""
    frame = table.frame
    if len({c.unit for c in candidates}) != 1 or not candidates[0].unit:
        return False
    if not all(read_again_and_again(frame[c.key].to_numpy(dtype=float)) for c in candidates):
        return False
    return not any(
        follows_counter(frame, one, other)
        for i, one in enumerate(candidates)
        for other in candidates[i + 1 :]
    )


def _decide_from_data(table: Table, candidates: list[Column]) -> None:
    """The variable where the assignment names none: the chosen x where its values show it
    was set, else the one column whose values do, else the chosen x; with a sentence."""
    summary = table.summary
    if all(
        scatters_about_one_value(table.frame[c.key].to_numpy(dtype=float)) for c in candidates
    ) or _timed_side_by_side(table, candidates):
        summary.x = None  # a table of repeats: each column's mean is its analysis
        summary.roles = (
            f"{_names(candidates)} are each read again and again: their values scatter "
            "about one value and none was set, so none is fitted against another."
        )
        return
    # a condition that stays put (a titration's 20.1–21.2 °C) was set, if at all, to be kept
    evidence = {
        c.key: "" if stays_put(c) else set_evidence(table.frame[c.key].to_numpy(dtype=float))
        for c in candidates
    }
    chosen = summary.column(summary.x or "")
    if chosen not in candidates:  # a column that numbers the rows is no variable
        setting = [c for c in candidates if evidence[c.key]]
        chosen = setting[0] if len(setting) == 1 else candidates[0]
        summary.x = chosen.key
    others = [c for c in candidates if c.key != chosen.key]
    if not evidence[chosen.key] and not _named_variable(chosen):
        # a logger's setpoint is round but no variable beside its clock: only a column whose
        # values run in order as the rows do takes the place of one that also runs in order
        ordered = _in_order(table, chosen)
        setting = [c for c in others if evidence[c.key] and (_in_order(table, c) or not ordered)]
        if len(setting) == 1:
            chosen = setting[0]
            summary.x = chosen.key
            others = [c for c in candidates if c.key != chosen.key]
    measured = [c for c in others if not evidence[c.key]]
    if evidence[chosen.key]:
        tail = f", {_possessive(measured)} are measured" if measured else ""
        summary.roles = f"{chosen.name} was taken as the variable: {evidence[chosen.key]}{tail}."
    else:
        summary.roles = (
            f"{chosen.name} was taken as the variable by its place and name in the table: "
            "neither the assignment nor the values say which column was set."
        )


def _named_variable(column: Column) -> bool:
    """Whether the column is named as a variable is (`time`, `frequency`, `λ`)."""
    name = column.name.strip()
    # a one-letter name keeps its case: `t` is a time, `T` a period or a temperature
    return name in X_NAMES if len(name) == 1 else name.lower() in X_NAMES | SWEPT_NAMES


def _in_order(table: Table, column: Column) -> bool:
    steps = np.diff(table.frame[column.key].dropna().to_numpy(dtype=float))
    return bool(len(steps)) and bool(np.all(steps >= 0) or np.all(steps <= 0))


def _names(columns: list[Column]) -> str:
    names = [c.name for c in columns]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _possessive(columns: list[Column]) -> str:
    names = [f"{c.name}'s" for c in columns[:3]]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
