"""The deterministic analysis of a data folder: its tables and their fits, its parameter
files, the assignment's checklist. Zero model calls; bounded time and memory.

`analyse` runs inside scan, after the walk. Its result is JSON (`model_dump(mode="json")`)
so it lives in the graph's state; its digest (tools.analysis.analysis_digest) joins the explorer's
first message and the writer's brief, and its `facts()` feed the number checks.
"""

from __future__ import annotations

import time
from dataclasses import replace

from pydantic import BaseModel, Field

from labscribe.guards.bounds import ComputeBudget
from labscribe.guards.numbers import Fact
from labscribe.tools.analysis.data_facts import data_facts
from labscribe.tools.assignment.coverage import some_of
from labscribe.tools.assignment.requested import Request, requested_models
from labscribe.tools.assignment.stated_values import listed_values, measured_inputs, stated_values
from labscribe.tools.assignment.tasks import (
    ASSIGNMENT_SUFFIXES,
    Assignment,
    find_assignment,
    guess_assignment,
    read_assignment,
)
from labscribe.tools.base import ToolError
from labscribe.tools.columns.arcminutes import join_arc_minutes
from labscribe.tools.columns.averaged_columns import mark_averaged
from labscribe.tools.columns.column_positions import column_positions, header_line_described
from labscribe.tools.columns.column_symbols import column_symbols
from labscribe.tools.columns.leading_rows import discard_leading
from labscribe.tools.columns.reference_files import lookup_table, reference_files
from labscribe.tools.columns.roles import decide_roles, read_handout
from labscribe.tools.columns.row_numbers import restore_named
from labscribe.tools.columns.stated_precision import stated_precision
from labscribe.tools.columns.stated_series import label_blocks, stated_series
from labscribe.tools.columns.stated_units import stated_units
from labscribe.tools.columns.stepped_columns import sampled_clocks, stepped_columns
from labscribe.tools.columns.table_copies import set_aside_copies
from labscribe.tools.explorer.notes import NOTE_SUFFIXES, Note, read_notes
from labscribe.tools.explorer.scanning import files_with_suffix
from labscribe.tools.fits.background import subtract_background
from labscribe.tools.fits.count_rates import add_count_rates
from labscribe.tools.fits.extreme_words import worked_out
from labscribe.tools.fits.extremes import Extreme, asked_extremes, extreme_facts
from labscribe.tools.fits.fit_quantities import FitQuantity, fit_quantities
from labscribe.tools.fits.fit_result import Fit, untried_tables
from labscribe.tools.fits.half_power import half_power_bands
from labscribe.tools.fits.point_estimate import point_estimates
from labscribe.tools.fits.regression import Regression, polish, regressions
from labscribe.tools.fits.regression_text import (
    between_predictors,
    not_the_regression,
    regression_facts,
)
from labscribe.tools.fits.repeat_text import repeat_facts
from labscribe.tools.fits.repeats import Series, decode, repeated_measurements
from labscribe.tools.fits.table_fits import fit_tables
from labscribe.tools.formats.decoding import decoded
from labscribe.tools.formats.parameters import (
    PARAMETER_SUFFIXES,
    NoParameters,
    ParameterRow,
    read_parameters,
)
from labscribe.tools.formats.tables import TABLE_SUFFIXES, NoTable, Table, TableSummary, file_suffix
from labscribe.tools.formulas.constants import asked_symbols
from labscribe.tools.formulas.formed_columns import form_columns
from labscribe.tools.formulas.line_law import line_law_quantities
from labscribe.tools.formulas.prediction import predictions
from labscribe.tools.formulas.prediction_result import Prediction
from labscribe.tools.formulas.quantities import Derived
from labscribe.tools.tool import Folder

# CPU seconds of the analysing thread (guards.bounds.ComputeBudget): the example folder
# takes under one, the largest real folders of the benches a few.
DEFAULT_BUDGET_SECONDS = 20.0
MAX_FILES = 400  # walked for tables, parameters and the assignment
MAX_TABLE_FILES = 48
MAX_TABLES = 40  # a class's runs, one file each (11 voltages and two calibrations)
MAX_PARAMETER_FILES = 8
MAX_PARAMETER_ROWS = 400


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
    """Each task's number as the handout gives it ("B", "ii";
    tools.assignment.handout_tasks.task_numbers)."""
    tasks_left_out: int = 0
    """Tasks of the assignment beyond the checklist's length
    (tools.assignment.handout_tasks.MAX_TASKS)."""
    requests: list[Request] = Field(default_factory=list)
    """The models the tasks ask for, fitted first."""
    regressions: list[Regression] = Field(default_factory=list)
    """The multiple regressions the tasks ask for (tools.fits.regression), done or not."""
    derived: list[Derived] = Field(default_factory=list)
    """Quantities the explorer derived from the fits and settings (tools.formulas.quantities)."""
    repeats: list[Series] = Field(default_factory=list)
    """Repeated measurements of one quantity, summarised per series (tools.fits.repeats)."""
    extremes: list[Extreme] = Field(default_factory=list)
    """The maxima, minima and thresholds the tasks ask for (tools.fits.extremes)."""
    predictions: list[Prediction] = Field(default_factory=list)
    """What the handout's formulas predict from the parameter values, beside the measured
    values of the same name (tools.formulas.prediction)."""
    fit_quantities: list[FitQuantity] = Field(default_factory=list)
    """What the tasks ask for that a fit's parameters give: a task's formula of them (T_max =
    A/w), a FWHM or half-life from the model's form (tools.fits.fit_quantities)."""
    unformed: list[str] = Field(default_factory=list)
    """The axes the assignment asks to plot that no column could form
    (tools.formulas.formed_columns), each said in a sentence."""
    lab_notes: list[Note] = Field(default_factory=list)
    """The experimenters' notes, quoted: documents that are neither tables nor settings."""
    stated: list[ParameterRow] = Field(default_factory=list)
    """The values the assignment states in its prose (`L = 600 mm`;
    tools.assignment.stated_values)."""
    unreadable: list[Unreadable] = Field(default_factory=list)
    left_out: list[str] = Field(default_factory=list)
    """What was left out to stay within bounds."""
    not_fitted: list[str] = Field(default_factory=list)
    """The data files (or tables) found and left unfitted to stay within bounds: past the
    limits on files and tables, or reached after the time budget ran out."""
    seconds: float = 0.0

    def facts(self) -> list[Fact]:
        """What the data determine, for the number checks (tools.analysis.data_facts)."""
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
    tried = [rel for rel in _with_suffix(files, _TRIED) if rel != analysis.assignment]
    for index, rel in enumerate(tried[:MAX_TABLE_FILES]):
        if budget.spent():
            analysis.left_out.append(f"time budget ran out before reading {rel} and later tables")
            analysis.not_fitted += tried[index:MAX_TABLE_FILES]
            break
        try:
            data = decoded(folder, rel, budget)
        except NoTable as exc:
            leftover.append(rel)
            settings += exc.metadata
            if file_suffix(rel) not in _OPTIONAL:
                analysis.unreadable.append(Unreadable(path=rel, reason=_reason(exc, rel)))
        except Exception as exc:  # ToolError, or a reader's bug on input it did not foresee
            if file_suffix(rel) != _NO_SUFFIX:  # a binary file without a suffix is no data file
                analysis.unreadable.append(Unreadable(path=rel, reason=_reason(exc, rel)))
        else:
            loaded += data.tables
            settings += data.metadata  # an instrument's settings are parameters, not tables
            analysis.left_out += [f"{rel}: {what}" for what in data.unread]
    if len(tried) > MAX_TABLE_FILES:
        unread = some_of(tried[MAX_TABLE_FILES:], 3)
        first = f"the first {MAX_TABLE_FILES} read, not {unread}"
        analysis.left_out.append(f"{len(tried)} files that may hold tables; {first}")
        analysis.not_fitted += tried[MAX_TABLE_FILES:]
    loaded, copies = set_aside_copies(loaded)
    analysis.left_out += copies
    if len(loaded) > MAX_TABLES:
        rest = [t.summary for t in loaded[MAX_TABLES:]]
        named = some_of([f"{t.id} ({t.title})" if t.title else t.id for t in rest], 6)
        analysis.left_out.append(
            f"{len(loaded)} tables found; the first {MAX_TABLES} analysed, not {named}"
        )
        analysis.not_fitted += [t.id for t in rest]
    loaded = loaded[:MAX_TABLES]
    analysis.tables = [table.summary for table in loaded]
    _read_parameters(folder, analysis, files, leftover)
    # a text file of settings is tried as a table first: its rows are read once
    read = {(row.source, row.key) for row in analysis.parameters}
    settings = [row for row in settings if (row.source, row.key) not in read]
    room = max(0, MAX_PARAMETER_ROWS - len(analysis.parameters))
    analysis.parameters += settings[:room]
    if len(settings) > room:
        analysis.left_out.append(f"{len(settings)} instrument settings read; the first {room} kept")
    assignment: Assignment | None = None
    if analysis.assignment is not None:
        try:
            assignment = read_assignment(folder, analysis.assignment)
        except ToolError as exc:
            analysis.unreadable.append(Unreadable(path=analysis.assignment, reason=str(exc)))
    if assignment is None or not assignment.tasks:
        # no name says which, or the one named sets no task ("instructions.pdf" beside the
        # "assignment.md" that lists them): the document that sets tasks
        tables = {table.source for table in analysis.tables} | {analysis.assignment}
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
    # and those a list names in words ("- Diamètre de la bille : (2,00 ± 0,01) mm"), shown
    analysis.stated = [*stated, *listed_values(prose, analysis.assignment or "the assignment")]
    handout = replace(handout, values=(*analysis.parameters, *stated), stated=tuple(stated))
    # a colour chart or literature values beside the data: shown to the student, not fitted
    reference = reference_files(handout.text, {table.summary.source for table in loaded})
    analysis.left_out += [
        f"{rel}: the assignment calls it no measurements (“{said[:120]}”), so it is not analysed"
        for rel, said in sorted(reference.items())
    ]
    lookup = {table.summary.id for table in loaded
              if lookup_table([column.name for column in table.summary.columns])}  # fmt: skip
    analysis.left_out += [
        f"{id}: a table to look values up in (its columns headed 0, 1, 2, …), not measurements, "
        "so it is not analysed" for id in sorted(lookup)
    ]  # fmt: skip
    loaded = [table for table in loaded if table.summary.source not in reference
              and table.summary.id not in lookup]  # fmt: skip
    analysis.tables = [table.summary for table in loaded]
    for table in loaded:
        _name_columns(table, handout.text)
    loaded, cut = discard_leading(loaded, handout.text)  # "discard the first 100 readings"
    analysis.left_out += cut
    analysis.tables = [table.summary for table in loaded]
    stepped_columns(loaded, analysis.tasks, handout.text)  # U from "ab 320 V in 10-V-Schritten"
    try:  # what the handout says of a counter's readings: their time, their background
        sampled_clocks(loaded, handout.text)  # t from "20 s per sample"
        subtract_background(loaded, analysis.tasks, handout.text)  # "subtract the background"
    except Exception as exc:  # the counts as read stand; the rest of the analysis goes on
        analysis.left_out.append(f"reading the counter's readings failed: {exc}"[:200])
    try:  # the quantities the assignment plots that no column holds (T², 1/λ, P = U·I)
        # the values the prose states, then the settings files' (`p0 = 0.993 bar`)
        given = [*stated, *analysis.parameters]
        analysis.unformed = form_columns(loaded, analysis.tasks, handout.text, given).unformed
        mark_averaged(loaded, analysis.tasks)  # "D = rF/φ. Bilden Sie den Mittelwert"
    except Exception as exc:  # the columns as read stand; the rest of the analysis goes on
        analysis.left_out.append(f"forming the assignment's quantities failed: {exc}"[:200])
    try:
        decide_roles(loaded, handout)
    except Exception as exc:  # the file's own layout stands; the rest of the analysis goes on
        analysis.left_out.append(f"reading which column is the variable failed: {exc}"[:200])
    add_count_rates(loaded)  # N/t of counts N over counting times t that are no variable
    sources = {row.source for row in analysis.parameters}
    analysis.lab_notes = read_notes(
        folder,
        [rel for rel in leftover + _with_suffix(files, NOTE_SUFFIXES - TABLE_SUFFIXES)
         if rel != analysis.assignment and rel not in sources],
    )  # fmt: skip
    try:  # what a folder holds must not cost the rest of the analysis
        label_blocks(loaded, prose)  # "je 5 Wiederholungen für 9 Kugeldurchmesser"
        listed = stated_series(prose, analysis.assignment or "the assignment")  # "N_U = {…}"
        analysis.repeats = repeated_measurements(loaded + listed, budget=budget)
        decode(analysis.repeats, prose)  # coded values
        computed = worked_out(handout.text)  # `E_max = 1,92 MeV · √(…)`: no column's largest
        analysis.extremes = asked_extremes(analysis.tasks, loaded, analysis.parameters, computed)
        analysis.extremes += half_power_bands(analysis.tasks, loaded)
    except Exception as exc:
        analysis.left_out.append(f"repeats and extremes failed: {exc}"[:200])
    # every table while the budget lasts: one reached after it gets OUT_OF_TIME, not silence
    analysis.regressions = regressions(analysis.tasks, loaded, budget=budget)
    # a task that asks for several predictors is never fitted as one straight line
    asked = {regression.number for regression in analysis.regressions}
    requests = [request for request in analysis.requests if request.number not in asked]
    fits, failed = fit_tables(loaded, budget=budget, requests=requests,
                              summaries=analysis.tables, handout=handout)  # fmt: skip
    analysis.fits += fits
    analysis.left_out += failed
    untried = untried_tables(analysis.fits)
    analysis.not_fitted += [t.summary.id for t in loaded if t.summary.id in untried]
    analysis.fits, analysis.regressions = between_predictors(
        not_the_regression(polish(analysis.fits, loaded), analysis.regressions,
                           analysis.task_numbers), analysis.regressions)  # fmt: skip
    try:  # a line's value at the point a task names ("for a roller of 8 t")
        analysis.extremes += point_estimates(analysis.tasks, loaded, analysis.fits)
    except Exception as exc:
        analysis.left_out.append(f"the estimates at a point failed: {exc}"[:200])
    try:  # FWHM = 2√(2 ln 2)·w, a half-life: what a task asks of the fitted parameters
        analysis.fit_quantities = fit_quantities(
            analysis.tasks, analysis.fits, analysis.tables, budget, handout.text
        ) + line_law_quantities(analysis.tasks, handout.text, analysis.fits, {
            task: asked_symbols((task,), "", handout.glossary) for task in analysis.tasks
        }, analysis.tables)  # fmt: skip
    except Exception as exc:
        analysis.left_out.append(f"the quantities from the fits failed: {exc}"[:200])
    if (handout.values or analysis.repeats) and not budget.spent():
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
    header_line_described(columns, text)
    join_arc_minutes(table)  # a goniometer's `θ[°]`, `θ[min]`: one angle
    stated_precision(table, text)


def _read_parameters(
    folder: Folder, analysis: Analysis, files: list[str], leftover: list[str]
) -> None:
    """Rows of the parameter files; a .txt is tried only when it held no table."""
    candidates = [
        rel for rel in _with_suffix(files, PARAMETER_SUFFIXES)
        if rel != analysis.assignment
        and (file_suffix(rel) not in TABLE_SUFFIXES or rel in leftover)
    ]  # fmt: skip
    for rel in candidates[:MAX_PARAMETER_FILES]:
        try:
            rows = read_parameters(folder, rel)
        except NoParameters as exc:
            if file_suffix(rel) not in _OPTIONAL:
                analysis.unreadable.append(Unreadable(path=rel, reason=_reason(exc, rel)))
            continue
        except Exception as exc:
            analysis.unreadable.append(Unreadable(path=rel, reason=_reason(exc, rel)))
            continue
        room = MAX_PARAMETER_ROWS - len(analysis.parameters)
        analysis.parameters += rows[:room]
        if room <= len(rows):
            break


def _with_suffix(files: list[str], suffixes: frozenset[str]) -> list[str]:
    return [rel for rel in files if file_suffix(rel) in suffixes]


def _reason(exc: Exception, rel: str) -> str:
    """Why `rel` was not analysed, without repeating its name."""
    text = str(exc) if isinstance(exc, ToolError) else f"{type(exc).__name__}: {exc}"
    return text.removeprefix(f"cannot read {rel}: ").removeprefix(f"{rel} ")[:200]
