"""The deterministic analysis of a data folder: its tables and their fits, its parameter
files, the assignment's checklist. Zero model calls; bounded time and memory.

`analyse` runs inside scan, after the walk. Its result is JSON (`model_dump(mode="json")`)
so it lives in the graph's state; its `digest()` joins the explorer's first message and
the writer's brief, and its `facts()` feed the number checks.
"""

from __future__ import annotations

import os
import time
from collections import Counter
from dataclasses import dataclass, replace

from pydantic import BaseModel, Field

from labscribe.guards.budgets import ComputeBudget
from labscribe.guards.numbers import Fact
from labscribe.tools.base import Folder, ToolError
from labscribe.tools.column_positions import column_positions
from labscribe.tools.column_symbols import column_symbols
from labscribe.tools.constants import asked_symbols
from labscribe.tools.data_facts import data_facts
from labscribe.tools.extremes import Extreme, asked_extremes, extreme_facts, extremes_digest
from labscribe.tools.fit_quantities import FitQuantity, fit_quantities
from labscribe.tools.fit_result import Fit
from labscribe.tools.fits import fit_table
from labscribe.tools.formed_columns import form_columns
from labscribe.tools.half_power import half_power_bands
from labscribe.tools.line_law import line_law_quantities
from labscribe.tools.notes import NOTE_SUFFIXES, Note, read_notes
from labscribe.tools.parameters import (
    PARAMETER_SUFFIXES,
    NoParameters,
    ParameterRow,
    read_parameters,
)
from labscribe.tools.point_estimate import point_estimates
from labscribe.tools.prediction import Prediction, predictions
from labscribe.tools.quantities import Derived
from labscribe.tools.regression import Regression, polish, regressions
from labscribe.tools.regression_text import (
    between_predictors,
    digest_lines,
    not_the_regression,
    regression_facts,
)
from labscribe.tools.repeat_text import repeat_facts, repeats_digest
from labscribe.tools.repeats import Series, decode, repeated_measurements
from labscribe.tools.requested import Request, requested_models
from labscribe.tools.roles import decide_roles, read_handout
from labscribe.tools.row_numbers import restore_named
from labscribe.tools.scanning import files_with_suffix
from labscribe.tools.stated_units import stated_units
from labscribe.tools.stated_values import measured_inputs, stated_values
from labscribe.tools.tables import TABLE_SUFFIXES, NoTable, Table, TableSummary, read_data
from labscribe.tools.tasks import (
    ASSIGNMENT_SUFFIXES,
    Assignment,
    find_assignment,
    guess_assignment,
    read_assignment,
    task_number,
)

# CPU seconds of the analysing thread (guards.budgets.ComputeBudget): the example folder
# takes under one, the largest real folders of the benches a few.
DEFAULT_BUDGET_SECONDS = 20.0
MAX_FILES = 400  # walked for tables, parameters and the assignment
MAX_TABLE_FILES = 24
MAX_TABLES = 12
MAX_FITTED_TABLES = 8
MAX_PARAMETER_FILES = 8
MAX_PARAMETER_ROWS = 400


@dataclass(frozen=True)
class DigestSize:
    """How much of the analysis a digest shows: each section cut to its own share."""

    chars: int
    tables: int
    fits: int
    parameters: int
    tasks: int
    task_chars: int
    fit_parameters: int
    """Parameters shown of each fit: the writer sees them all."""


# The explorer reads its digest on every turn: a few hundred tokens (≈ 4 characters each).
# The writer reads it once, and needs every number and task it may quote.
EXPLORER_DIGEST = DigestSize(
    chars=2400, tables=4, fits=8, parameters=12, tasks=8, task_chars=100, fit_parameters=6
)
WRITER_DIGEST = DigestSize(
    chars=8000, tables=12, fits=24, parameters=60, tasks=30, task_chars=600, fit_parameters=12
)
DIGEST_CHARS = EXPLORER_DIGEST.chars
# Suffixes whose files are expected to hold a table or settings: a .txt that holds neither
# is a note, not a failure worth listing. A file without a suffix (a logger's `resonanz`, a
# stopwatch's `per_Ana`) is tried as text as well: neither is a failure if it holds none.
_NO_SUFFIX = ""
_OPTIONAL = frozenset({".txt", _NO_SUFFIX})
_TRIED = TABLE_SUFFIXES | {_NO_SUFFIX}


class Unreadable(BaseModel):
    path: str
    reason: str


class Analysis(BaseModel):
    tables: list[TableSummary] = Field(default_factory=list)
    fits: list[Fit] = Field(default_factory=list)
    parameters: list[ParameterRow] = Field(default_factory=list)
    assignment: str | None = None
    """The assignment document's path, when a document's name says it is one."""
    title: str = ""
    """The assignment's title ("Lab 4: ..."), "" without an assignment."""
    aim: str = ""
    """The assignment's own statement of its aim, as written."""
    aim_is_opening: bool = False
    """The aim is the assignment's opening paragraph: it states none in so many words."""
    tasks: list[str] = Field(default_factory=list)
    task_numbers: list[str] = Field(default_factory=list)
    """Each task's number as the handout gives it ("B", "ii"; tools.tasks.task_numbers)."""
    tasks_left_out: int = 0
    """Tasks of the assignment beyond the checklist's length (tools.tasks.MAX_TASKS)."""
    requests: list[Request] = Field(default_factory=list)
    """The models the tasks ask for, fitted first."""
    regressions: list[Regression] = Field(default_factory=list)
    """The multiple regressions the tasks ask for (tools.regression), done or not."""
    derived: list[Derived] = Field(default_factory=list)
    """Quantities the explorer derived from the fits and settings (tools.quantities)."""
    repeats: list[Series] = Field(default_factory=list)
    """Repeated measurements of one quantity, summarised per series (tools.repeats)."""
    extremes: list[Extreme] = Field(default_factory=list)
    """The maxima, minima and thresholds the tasks ask for (tools.extremes)."""
    predictions: list[Prediction] = Field(default_factory=list)
    """What the handout's formulas predict from the parameter values, beside the measured
    values of the same name (tools.prediction)."""
    fit_quantities: list[FitQuantity] = Field(default_factory=list)
    """What the tasks ask for that a fit's parameters give: a task's formula of them (T_max =
    A/w), a FWHM or half-life from the model's form (tools.fit_quantities)."""
    unformed: list[str] = Field(default_factory=list)
    """The axes the assignment asks to plot that no column could form (tools.formed_columns),
    each said in a sentence."""
    lab_notes: list[Note] = Field(default_factory=list)
    """The experimenters' notes, quoted: documents that are neither tables nor settings."""
    unreadable: list[Unreadable] = Field(default_factory=list)
    left_out: list[str] = Field(default_factory=list)
    """What was left out to stay within bounds."""
    seconds: float = 0.0

    def digest(self, size: DigestSize = EXPLORER_DIGEST) -> str:
        """A compact text (at most `size.chars`) of what the analysis found: each table,
        the best fit of each column with its parameters ± standard errors, the key rows of
        the parameter files, the notes and what could not be read, the regressions, repeats,
        extremes and predictions, and last the checklist, which keeps up to a third of the
        room whatever comes before it."""
        parts = ["Deterministic analysis of the data (no model involved):"]
        if self.title:
            parts.append(f"Assignment ({self.assignment}): {self.title}")
        if self.aim:
            how = "opens (it states no aim)" if self.aim_is_opening else "states it"
            parts.append(f"Aim, as the assignment {how}: {_cut(self.aim, size.task_chars * 2)}")
        if self.tables:
            parts.append("Tables:")
            parts += [f"- {_table_line(table)}" for table in self.tables[: size.tables]]
            parts += _more(self.tables, size.tables, "tables")
        if self.fits:
            parts.append(
                "Fits (the assignment's model first where it names one, then the best "
                "standard model by BIC; ± is one standard error):"
            )
            parts += [
                f"- {_fit_line(fit, size.fit_parameters, 2 * size.task_chars)}"
                for fit in self.fits[: size.fits]
            ]
            parts += _more(self.fits, size.fits, "fits")
        if self.parameters:
            sources = sorted({row.source for row in self.parameters})
            quoted = _key_rows(self.parameters)[: size.parameters]
            parts.append(f"Parameters ({', '.join(sources)}, {len(self.parameters)} rows):")
            names = Counter(row.name for row in self.parameters)
            parts.append("; ".join(_row_text(row, names[row.name] > 1) for row in quoted))
        if self.lab_notes:
            parts.append("Notes of the experimenters: " + ", ".join(n.path for n in self.lab_notes))
        if self.unreadable:
            parts.append(
                "Not analysed: " + "; ".join(f"{u.path} ({u.reason})" for u in self.unreadable)
            )
        parts += digest_lines(self.regressions, self.task_numbers)
        parts += repeats_digest(self.repeats, size.tables)
        parts += [_cut(line, 2 * size.task_chars) for line in extremes_digest(self.extremes)]
        if self.predictions:
            parts.append("Predicted from the handout's formulas and the parameter values:")
            parts += [f"- {_cut(p.text(), 2 * size.task_chars)}" for p in self.predictions]
        if self.derived:
            parts.append("Derived by the explorer's request, computed by labscribe:")
            parts += [f"- {d.text()}" for d in self.derived]
        if not self.tasks:
            return _cut("\n".join(parts), size.chars)
        tasks = [f"Checklist from {self.assignment} ({len(self.tasks)} tasks):"]
        tasks += [
            f"{task_number(self.task_numbers, i)}. {_cut(task, size.task_chars)}"
            for i, task in enumerate(self.tasks[: size.tasks], start=1)
        ]
        tasks += _more(self.tasks, size.tasks, "tasks")
        checklist = _cut("\n".join(tasks), size.chars // 3)
        return _cut("\n".join(parts), size.chars - len(checklist) - 1) + "\n" + checklist

    def facts(self) -> list[Fact]:
        """What the data determine, for the number checks (tools.data_facts)."""
        several = len({table.source for table in self.tables}) > 1
        return (
            data_facts(self.tables, self.fits, self.derived)
            + regression_facts(self.regressions, self.tables)
            + repeat_facts(self.repeats, several)
            + extreme_facts(self.extremes)
        )


def analyse(folder: Folder, *, budget_seconds: float = DEFAULT_BUDGET_SECONDS) -> Analysis:
    """The analysis of `folder`: never raises for what the folder holds, and stops starting
    new work once it has spent `budget_seconds` of CPU time (the notes say what was left
    out). Every file is read through the path guard and `Folder.open`."""
    started = time.monotonic()
    budget = ComputeBudget.of_cpu(budget_seconds)
    analysis = Analysis()
    suffixes = _TRIED | PARAMETER_SUFFIXES | ASSIGNMENT_SUFFIXES | NOTE_SUFFIXES
    files = files_with_suffix(folder.root, suffixes, limit=MAX_FILES)
    analysis.assignment = find_assignment(files)
    loaded: list[Table] = []
    settings: list[ParameterRow] = []
    leftover: list[str] = []
    for rel in _with_suffix(files, _TRIED)[:MAX_TABLE_FILES]:
        if rel == analysis.assignment:
            continue
        if budget.spent():
            analysis.left_out.append(f"time budget ran out before reading {rel} and later tables")
            break
        try:
            data = read_data(folder, rel)
        except NoTable as exc:
            leftover.append(rel)
            settings += exc.metadata
            if _suffix(rel) not in _OPTIONAL:
                analysis.unreadable.append(Unreadable(path=rel, reason=_reason(exc, rel)))
        except Exception as exc:  # ToolError, or a reader's bug on input it did not foresee
            if _suffix(rel) != _NO_SUFFIX:  # a binary file without a suffix is no data file
                analysis.unreadable.append(Unreadable(path=rel, reason=_reason(exc, rel)))
        else:
            loaded += data.tables
            settings += data.metadata  # an instrument's settings are parameters, not tables
    if len(loaded) > MAX_TABLES:
        analysis.left_out.append(f"{len(loaded)} tables found; the first {MAX_TABLES} analysed")
    loaded = loaded[:MAX_TABLES]
    analysis.tables = [table.summary for table in loaded]
    _read_parameters(folder, analysis, files, leftover)
    analysis.parameters += settings[: max(0, MAX_PARAMETER_ROWS - len(analysis.parameters))]
    assignment: Assignment | None = None
    if analysis.assignment is not None:
        try:
            assignment = read_assignment(folder, analysis.assignment)
        except ToolError as exc:
            analysis.unreadable.append(Unreadable(path=analysis.assignment, reason=str(exc)))
    else:  # no name says which: the document that sets tasks (not a table read above)
        tables = {table.source for table in analysis.tables}
        guessed = guess_assignment(folder, [rel for rel in files if rel not in tables])
        if guessed is not None:
            analysis.assignment, assignment = guessed
    if assignment is not None:
        analysis.title, analysis.aim = assignment.title, assignment.aim
        analysis.aim_is_opening = assignment.aim_is_opening
        analysis.tasks, analysis.tasks_left_out = assignment.tasks, assignment.tasks_left_out
        analysis.task_numbers = assignment.numbers
        analysis.requests = requested_models(assignment.tasks)
        loaded = restore_named(loaded, analysis.requests)  # `run` in `t = T*run`
        analysis.tables = [table.summary for table in loaded]
    handout = read_handout(folder, analysis.assignment, analysis.tasks, analysis.requests)
    prose = handout.text or "\n".join(analysis.tasks)
    try:  # the values the prose states: what a task's V_T = k_B T/e is worked out from
        stated = stated_values(prose, analysis.assignment or "the assignment")
    except Exception as exc:
        stated = []
        analysis.left_out.append(f"reading the values the handout states failed: {exc}"[:200])
    handout = replace(handout, values=(*analysis.parameters, *stated), stated=tuple(stated))
    for table in loaded:
        _name_columns(table, handout.text)
    try:  # the quantities the assignment plots that no column holds (T², 1/λ, P = U·I)
        analysis.unformed = form_columns(loaded, analysis.tasks, handout.text).unformed
    except Exception as exc:  # the columns as read stand; the rest of the analysis goes on
        analysis.left_out.append(f"forming the assignment's quantities failed: {exc}"[:200])
    try:
        decide_roles(loaded, handout)
    except Exception as exc:  # the file's own layout stands; the rest of the analysis goes on
        analysis.left_out.append(f"reading which column is the variable failed: {exc}"[:200])
    sources = {row.source for row in analysis.parameters}
    analysis.lab_notes = read_notes(
        folder,
        [rel for rel in leftover + _with_suffix(files, NOTE_SUFFIXES - TABLE_SUFFIXES)
         if rel != analysis.assignment and rel not in sources],
    )  # fmt: skip
    try:  # what a folder holds must not cost the rest of the analysis
        analysis.repeats = repeated_measurements(loaded, budget=budget)
        decode(analysis.repeats, prose)  # coded values
        analysis.extremes = asked_extremes(analysis.tasks, loaded, analysis.parameters)
        analysis.extremes += half_power_bands(analysis.tasks, loaded)
    except Exception as exc:
        analysis.left_out.append(f"repeats and extremes failed: {exc}"[:200])
    fitted = loaded[:MAX_FITTED_TABLES]
    analysis.regressions = regressions(analysis.tasks, fitted, budget=budget)
    # a task that asks for several predictors is never fitted as one straight line
    asked = {regression.number for regression in analysis.regressions}
    requests = [request for request in analysis.requests if request.number not in asked]
    for table in fitted:
        try:
            analysis.fits += fit_table(
                table,
                budget=budget,
                requests=requests,
                tables=analysis.tables,
                handout=handout,
            )
        except Exception as exc:  # a fit's failure must not cost the rest of the analysis
            analysis.left_out.append(f"fitting {table.summary.id} failed: {exc}"[:200])
    if len(loaded) > MAX_FITTED_TABLES:
        analysis.left_out.append(f"the first {MAX_FITTED_TABLES} tables fitted")
    analysis.fits, analysis.regressions = between_predictors(
        not_the_regression(polish(analysis.fits, fitted), analysis.regressions,
                           analysis.task_numbers), analysis.regressions)  # fmt: skip
    try:  # a line's value at the point a task names ("for a roller of 8 t")
        analysis.extremes += point_estimates(analysis.tasks, fitted, analysis.fits)
    except Exception as exc:
        analysis.left_out.append(f"the estimates at a point failed: {exc}"[:200])
    try:  # FWHM = 2√(2 ln 2)·w, a half-life: what a task asks of the fitted parameters
        analysis.fit_quantities = fit_quantities(
            analysis.tasks, analysis.fits, analysis.tables, budget
        ) + line_law_quantities(analysis.tasks, handout.text, analysis.fits, {
            task: asked_symbols((task,), "", handout.glossary) for task in analysis.tasks
        }, analysis.tables)  # fmt: skip
    except Exception as exc:
        analysis.left_out.append(f"the quantities from the fits failed: {exc}"[:200])
    if (analysis.parameters or analysis.repeats) and not budget.spent():
        try:
            analysis.predictions = predictions(
                prose, analysis.tasks, list(handout.values), analysis.fits,
                measured_inputs(analysis.repeats),
            )  # fmt: skip
        except Exception as exc:  # a prediction's failure must not cost the analysis
            analysis.left_out.append(f"computing the predictions failed: {exc}"[:200])
    analysis.seconds = round(time.monotonic() - started, 3)
    return analysis


def _name_columns(table: Table, text: str) -> None:
    """The units, symbols and names the handout `text` gives the table's columns ("column
    `pressure` is the vapour pressure in mm Hg", "`Untitled 1` = courant i", "kolumna 1:
    a_d [mm]")."""
    columns = table.summary.columns
    stated_units(columns, text, table.summary.source)
    column_symbols(columns, text)
    column_positions(columns, text, table.summary.source)


def _read_parameters(
    folder: Folder, analysis: Analysis, files: list[str], leftover: list[str]
) -> None:
    """Rows of the parameter files; a .txt is tried only when it held no table."""
    candidates = [
        rel for rel in _with_suffix(files, PARAMETER_SUFFIXES)
        if rel != analysis.assignment and (_suffix(rel) not in TABLE_SUFFIXES or rel in leftover)
    ]  # fmt: skip
    for rel in candidates[:MAX_PARAMETER_FILES]:
        try:
            rows = read_parameters(folder, rel)
        except NoParameters as exc:
            if _suffix(rel) not in _OPTIONAL:
                analysis.unreadable.append(Unreadable(path=rel, reason=_reason(exc, rel)))
            continue
        except Exception as exc:
            analysis.unreadable.append(Unreadable(path=rel, reason=_reason(exc, rel)))
            continue
        room = MAX_PARAMETER_ROWS - len(analysis.parameters)
        analysis.parameters += rows[:room]
        if room <= len(rows):
            break


def _suffix(rel: str) -> str:
    return os.path.splitext(rel)[1].lower()


def _with_suffix(files: list[str], suffixes: frozenset[str]) -> list[str]:
    return [rel for rel in files if _suffix(rel) in suffixes]


def _reason(exc: Exception, rel: str) -> str:
    """Why `rel` was not analysed, without repeating its name."""
    text = str(exc) if isinstance(exc, ToolError) else f"{type(exc).__name__}: {exc}"
    return text.removeprefix(f"cannot read {rel}: ").removeprefix(f"{rel} ")[:200]


def _cut(text: str, limit: int) -> str:
    """`text` cut to `limit` characters at a word's end, marked with an ellipsis."""
    if len(text) <= limit:
        return text
    head = text[: limit - 1]
    return (head.rsplit(" ", 1)[0] if " " in head else head).rstrip(" ,;:") + "…"


def _more(items: list, shown: int, what: str) -> list[str]:
    return [f"… {len(items) - shown} more {what}"] if len(items) > shown else []


def _labelled(name: str, unit: str) -> str:
    return f"{name} [{unit}]" if unit else name


def _table_line(table: TableSummary) -> str:
    x = table.column(table.x) if table.x else None
    others = [
        _labelled(c.name, c.unit) for c in table.columns if c.key != table.x and not c.ratio_of
    ]
    ratios = [c.name for c in table.columns if c.ratio_of]
    others += [f"derived {', '.join(ratios)}"] if ratios else []
    span = f" {x.minimum:g}…{x.maximum:g}" if x and x.minimum is not None else ""
    since = f" since {x.origin}" if x and x.origin else ""
    against = f"x = {_labelled(x.name, x.unit + since)}{span}; " if x else ""
    title = f" ({table.title})" if table.title else ""
    notes = f"; {'; '.join(table.notes)}" if table.notes else ""
    return f"{table.id}{title}: {table.rows} rows; {against}{', '.join(others[:8])}{notes}"


def _fit_line(fit: Fit, shown: int, note_chars: int) -> str:
    """A fit in a line: its model and values, or why none describes the column (that note
    cut to `note_chars`: the report holds it whole)."""
    head = f"{fit.y} vs {fit.x}"
    asked = " [asked for by the assignment]" if fit.requested else ""
    asked += " [asked for by the explorer]" if fit.explorer else ""
    if fit.model is None:
        return f"{head}{asked}: {'; '.join(fit.notes)}"
    values = fit.values_text(shown).replace("; ", ", ")
    kind = f"{fit.model} ({'dip' if fit.peak.dip else 'peak'})" if fit.peak else fit.model
    if not fit.good and not fit.requested:
        return f"{head}: {_cut(fit.notes[-1], note_chars) if fit.notes else 'no model fits well'}"
    extra = [n for n in fit.notes if "about as well" in n or "not determined" in n]
    extra += [fit.verdict] if fit.verdict else []
    tail = f"; {'; '.join(extra)}" if extra else ""
    return f"{head}{asked}: {kind}, {values}; R² = {fit.r_squared:.4f}{tail}"


def _key_rows(rows: list[ParameterRow]) -> list[ParameterRow]:
    """Rows a report quotes first: numbers with units, then other numbers, then the rest."""
    return sorted(rows, key=lambda row: (row.number is None, not row.unit))


def _row_text(row: ParameterRow, ambiguous: bool) -> str:
    """`L_nominal = 10 mH`; `oscilloscope.model = ...` when another section has a `model`."""
    value = f"{row.value} {row.unit}" if row.unit and row.number is not None else row.value
    name = f"{row.section}.{row.name}" if ambiguous and row.section else row.name
    return f"{name} = {_cut(value, 40)}"
