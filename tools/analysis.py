"""The deterministic analysis of a data folder: its tables and their fits, its parameter
files, the assignment's checklist. Zero model calls; bounded time and memory.

`analyse` runs inside scan, after the walk. Its result is JSON (`model_dump(mode="json")`)
so it lives in the graph's state; its `digest()` joins the explorer's first message and
the writer's brief, and its `facts()` feed the number checks.
"""

from __future__ import annotations

import os
import re
import time
from collections import Counter
from dataclasses import dataclass

from pydantic import BaseModel, Field

from labscribe.guards.numbers import Fact
from labscribe.tools.base import Folder, ToolError
from labscribe.tools.fits import Fit, Parameter, fit_table, format_value
from labscribe.tools.parameters import (
    PARAMETER_SUFFIXES,
    NoParameters,
    ParameterRow,
    read_parameters,
)
from labscribe.tools.scanning import files_with_suffix
from labscribe.tools.tables import TABLE_SUFFIXES, NoTable, Table, TableSummary, read_tables
from labscribe.tools.tasks import ASSIGNMENT_SUFFIXES, find_assignment, read_tasks

# scan must leave the explorer most of the run: the tool timeout is 30 s, and the example
# folder is analysed in under a second.
DEFAULT_BUDGET_SECONDS = 20.0
MAX_FILES = 400  # walked for tables, parameters and the assignment
MAX_TABLE_FILES = 24
MAX_TABLES = 12
MAX_FITTED_TABLES = 8
MAX_PARAMETER_FILES = 8
MAX_PARAMETER_ROWS = 400
# The digest is read by the explorer on every turn: a few hundred tokens (≈ 4 characters
# each), with each section cut to its own share.
DIGEST_CHARS = 2000
DIGEST_TABLES, DIGEST_FITS, DIGEST_PARAMETERS, DIGEST_TASKS = 4, 8, 12, 8
DIGEST_TASK_CHARS = 100
# Suffixes whose files are expected to hold a table or settings: a .txt that holds neither
# is a note, not a failure worth listing.
_OPTIONAL = frozenset({".txt"})


class Unreadable(BaseModel):
    path: str
    reason: str


class Analysis(BaseModel):
    tables: list[TableSummary] = Field(default_factory=list)
    fits: list[Fit] = Field(default_factory=list)
    parameters: list[ParameterRow] = Field(default_factory=list)
    assignment: str | None = None
    tasks: list[str] = Field(default_factory=list)
    unreadable: list[Unreadable] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)
    """What was left out to stay within bounds."""
    seconds: float = 0.0

    def digest(self) -> str:
        """A compact text (at most DIGEST_CHARS) of what the analysis found: each table,
        the best fit of each column with its parameters ± standard errors, the key rows of
        the parameter files, the checklist, and what could not be read."""
        parts = ["Deterministic analysis of the data (no model involved):"]
        if self.tables:
            parts.append("Tables:")
            parts += [f"- {_table_line(table)}" for table in self.tables[:DIGEST_TABLES]]
            parts += _more(self.tables, DIGEST_TABLES, "tables")
        if self.fits:
            parts.append("Fits (best model by BIC; ± is one standard error):")
            parts += [f"- {_fit_line(fit)}" for fit in self.fits[:DIGEST_FITS]]
            parts += _more(self.fits, DIGEST_FITS, "fits")
        if self.parameters:
            sources = sorted({row.source for row in self.parameters})
            quoted = _key_rows(self.parameters)[:DIGEST_PARAMETERS]
            parts.append(f"Parameters ({', '.join(sources)}, {len(self.parameters)} rows):")
            names = Counter(row.name for row in self.parameters)
            parts.append("; ".join(_row_text(row, names[row.name] > 1) for row in quoted))
        if self.tasks:
            parts.append(f"Checklist from {self.assignment} ({len(self.tasks)} tasks):")
            parts += [
                f"{i}. {_cut(task, DIGEST_TASK_CHARS)}"
                for i, task in enumerate(self.tasks[:DIGEST_TASKS], start=1)
            ]
            parts += _more(self.tasks, DIGEST_TASKS, "tasks")
        if self.unreadable:
            parts.append(
                "Not analysed: " + "; ".join(f"{u.path} ({u.reason})" for u in self.unreadable)
            )
        return _cut("\n".join(parts), DIGEST_CHARS)

    def facts(self) -> list[Fact]:
        """What the data determine, for the number checks: each table's row count, each
        column's maximum, minimum and where it peaks, and every parameter of a fit that
        describes its column, with its relative precision (`FittedFact.tolerance`)."""
        several = len({table.source for table in self.tables}) > 1
        facts: list[Fact] = []
        for table in self.tables:
            file_words = (_words(os.path.splitext(table.source)[0]),) if several else ()
            facts.append(
                Fact(f"rows of {table.id}", float(table.rows), table.source, ROWS, file_words,
                     exact=True)
            )  # fmt: skip
            facts += _column_facts(table, file_words)
        by_id = {table.id: table for table in self.tables}
        for fit in self.fits:
            if fit.good and fit.table in by_id:
                table = by_id[fit.table]
                file_words = (_words(os.path.splitext(table.source)[0]),) if several else ()
                facts += _fit_facts(fit, table.source, file_words)
        return facts


@dataclass(frozen=True)
class FittedFact(Fact):
    """A fitted parameter as a fact, with how far a stated value may stray from it."""

    tolerance: float | None = None
    """Twice the relative standard error: a value within 2σ of the fit agrees with it.
    None when the fit gave no uncertainty. (guards.numbers applies its own 2 % until Fact
    carries this field; see the integration notes.)"""


def analyse(folder: Folder, *, budget_seconds: float = DEFAULT_BUDGET_SECONDS) -> Analysis:
    """The analysis of `folder`: never raises for what the folder holds, and stops starting
    new work once `budget_seconds` have passed (the notes say what was left out). Every
    file is read through the path guard and `Folder.open`."""
    started = time.monotonic()
    deadline = started + budget_seconds
    analysis = Analysis()
    suffixes = TABLE_SUFFIXES | PARAMETER_SUFFIXES | ASSIGNMENT_SUFFIXES
    files = files_with_suffix(folder.root, suffixes, limit=MAX_FILES)
    analysis.assignment = find_assignment(files)
    loaded: list[Table] = []
    leftover: list[str] = []
    for rel in _with_suffix(files, TABLE_SUFFIXES)[:MAX_TABLE_FILES]:
        if rel == analysis.assignment:
            continue
        if time.monotonic() > deadline:
            analysis.notes.append(f"time budget ran out before reading {rel} and later tables")
            break
        try:
            loaded += read_tables(folder, rel)
        except NoTable as exc:
            leftover.append(rel)
            if _suffix(rel) not in _OPTIONAL:
                analysis.unreadable.append(Unreadable(path=rel, reason=_reason(exc, rel)))
        except Exception as exc:  # ToolError, or a reader's bug on input it did not foresee
            analysis.unreadable.append(Unreadable(path=rel, reason=_reason(exc, rel)))
    if len(loaded) > MAX_TABLES:
        analysis.notes.append(f"{len(loaded)} tables found; the first {MAX_TABLES} analysed")
    loaded = loaded[:MAX_TABLES]
    analysis.tables = [table.summary for table in loaded]
    _read_parameters(folder, analysis, files, leftover)
    if analysis.assignment is not None:
        try:
            analysis.tasks = read_tasks(folder, analysis.assignment)
        except ToolError as exc:
            analysis.unreadable.append(Unreadable(path=analysis.assignment, reason=str(exc)))
    for table in loaded[:MAX_FITTED_TABLES]:
        try:
            analysis.fits += fit_table(table, deadline=deadline)
        except Exception as exc:  # a fit's failure must not cost the rest of the analysis
            analysis.notes.append(f"fitting {table.summary.id} failed: {exc}"[:200])
    if len(loaded) > MAX_FITTED_TABLES:
        analysis.notes.append(f"the first {MAX_FITTED_TABLES} tables fitted")
    analysis.seconds = round(time.monotonic() - started, 3)
    return analysis


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
    others = [_labelled(c.name, c.unit) for c in table.columns if c.key != table.x]
    span = f" {x.minimum:g}…{x.maximum:g}" if x and x.minimum is not None else ""
    against = f"x = {_labelled(x.name, x.unit)}{span}; " if x else ""
    title = f" ({table.title})" if table.title else ""
    notes = f"; {'; '.join(table.notes)}" if table.notes else ""
    return f"{table.id}{title}: {table.rows} rows; {against}{', '.join(others[:8])}{notes}"


def _fit_line(fit: Fit) -> str:
    head = f"{fit.y} vs {fit.x}"
    if fit.model is None:
        return f"{head}: {'; '.join(fit.notes)}"
    if not fit.good:
        return f"{head}: {fit.notes[-1] if fit.notes else 'no model fits well'}"
    shown = fit.key_parameters() + [
        p for p in fit.parameters if p.derived and p not in fit.key_parameters()
    ]
    values = ", ".join(f"{p.name} = {format_value(p)}" for p in shown[:4])
    kind = f"{fit.model} ({'dip' if fit.peak.dip else 'peak'})" if fit.peak else fit.model
    extra = [n for n in fit.notes if "about as well" in n or "not determined" in n]
    tail = f"; {'; '.join(extra)}" if extra else ""
    return f"{head}: {kind}, {values}; R² = {fit.r_squared:.4f}{tail}"


def _key_rows(rows: list[ParameterRow]) -> list[ParameterRow]:
    """Rows a report quotes first: numbers with units, then other numbers, then the rest."""
    return sorted(rows, key=lambda row: (row.number is None, not row.unit))


def _row_text(row: ParameterRow, ambiguous: bool) -> str:
    """`L_nominal = 10 mH`; `oscilloscope.model = ...` when another section has a `model`."""
    value = f"{row.value} {row.unit}" if row.unit and row.number is not None else row.value
    name = f"{row.section}.{row.name}" if ambiguous and row.section else row.name
    return f"{name} = {_cut(value, 40)}"


# --- facts for the number checks ----------------------------------------------------------

ROWS = frozenset({"rows", "points", "samples", "measurements", "readings", "entries"})
PEAK = frozenset({"peak", "peaks", "peaked", "resonance", "resonant", "maximum", "maximal"})
HIGHEST = frozenset({"maximum", "max", "maximal", "highest", "largest", "peak"})
LOWEST = frozenset({"minimum", "min", "minimal", "lowest", "smallest"})
# The words a sentence uses for each fitted parameter. Disjoint where two parameters of one
# fit could share a sentence (a FWHM is a "width", its sigma is only "sigma"), since a fact
# every on-topic sentence states wrongly is reported as a mismatch.
_COMMON = {
    "slope": {"slope", "gradient"}, "intercept": {"intercept"},
    "c0": {"constant", "intercept"}, "c1": {"linear", "coefficient"},
    "c2": {"quadratic", "coefficient"}, "c3": {"cubic", "coefficient"},
    "exponent": {"exponent", "power", "index"}, "center": {"peak", "centre", "center", "position"},
    "fwhm": {"fwhm", "width", "linewidth"}, "sigma": {"sigma"}, "height": {"height"},
    "frequency": {"frequency", "oscillation"}, "phase": {"phase"},
    "Q": {"quality", "q"}, "bandwidth": {"bandwidth", "width", "fwhm"},
    "c": {"offset", "baseline", "background"}, "amplitude": {"amplitude"},
}  # fmt: skip
_BY_MODEL = {
    ("exponential", "decay"): {"decay", "lifetime", "tau", "constant"},
    ("damped oscillation", "decay"): {"decay", "damping", "tau", "constant"},
    ("resonance", "f0"): {"resonance", "resonant", "peak"},
    ("resonance phase", "f0"): {"resonance", "resonant", "crossing"},
    ("gaussian", "amplitude"): {"area"},
    ("lorentzian", "amplitude"): {"area"},
}


def _words(name: str) -> frozenset[str]:
    """How prose names a column or a file: "V_R" is "v_r" or "vr", "frequency" itself."""
    parts = [p for p in re.split(r"[^a-z0-9]+", name.lower()) if p]
    if not parts:
        return frozenset()
    return frozenset({"_".join(parts), "".join(parts)} | {p for p in parts if len(p) >= 3})


def _column_facts(table: TableSummary, file_words: tuple[frozenset[str], ...]) -> list[Fact]:
    facts: list[Fact] = []
    x = table.column(table.x) if table.x else None
    for column in table.columns:
        words = _words(column.name)
        if column.key == table.x or not words or column.maximum is None:
            continue
        subjects = (*file_words, words)
        facts += [
            Fact(f"maximum of {column.key} in {table.id}", column.maximum, table.source,
                 HIGHEST, subjects),
            Fact(f"minimum of {column.key} in {table.id}", column.minimum or 0.0, table.source,
                 LOWEST, subjects),
        ]  # fmt: skip
        if x is not None and column.x_at_maximum is not None:
            facts.append(
                Fact(f"{x.key} where {column.key} peaks in {table.id}", column.x_at_maximum,
                     table.source, PEAK, (*subjects, _words(x.name) | {x.unit.lower()}))
            )  # fmt: skip
    return facts


def _fit_facts(fit: Fit, source: str, file_words: tuple[frozenset[str], ...]) -> list[Fact]:
    facts: list[Fact] = []
    subjects = (*file_words, _words(fit.y))
    for parameter in fit.parameters:
        topic = _BY_MODEL.get((fit.model or "", parameter.name), _COMMON.get(parameter.name))
        relative = parameter.relative
        if not topic or (relative is not None and relative > 1):
            continue  # a parameter the data do not determine is no fact
        facts.append(
            FittedFact(
                f"{parameter.name} of the {fit.model} fit of {fit.y} against {fit.x} in "
                f"{fit.table} ({format_value(parameter)})",
                parameter.value, source, frozenset(topic), subjects,
                tolerance=_tolerance(parameter),
            )
        )  # fmt: skip
    return facts


def _tolerance(parameter: Parameter) -> float | None:
    relative = parameter.relative
    return None if relative is None else 2 * relative
