"""The analysis as the text the models read (tools.analysis.folder): its `digest` joins the
explorer's first message (a few hundred tokens, read on every turn) and the writer's brief
(read once, with every number and task it may quote)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from labscribe.tools.analysis.folder import Analysis
from labscribe.tools.assignment.handout_tasks import task_number
from labscribe.tools.fits.extremes import extremes_digest
from labscribe.tools.fits.fit_result import Fit
from labscribe.tools.fits.regression_text import digest_lines
from labscribe.tools.fits.repeat_text import repeats_digest
from labscribe.tools.formats.parameters import ParameterRow
from labscribe.tools.formats.tables import TableSummary


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


# In characters, ≈ 4 a token: the explorer reads its digest every turn, the writer once.
EXPLORER_DIGEST = DigestSize(
    chars=2400, tables=4, fits=8, parameters=12, tasks=8, task_chars=100, fit_parameters=6
)
WRITER_DIGEST = DigestSize(
    chars=8000, tables=12, fits=24, parameters=60, tasks=30, task_chars=600, fit_parameters=12
)


def digest(analysis: Analysis, size: DigestSize = EXPLORER_DIGEST) -> str:
    """A compact text (at most `size.chars`) of what the analysis found: each table,
    the best fit of each column with its parameters ± standard errors, the key rows of
    the parameter files, the notes and what could not be read, the regressions, repeats,
    extremes and predictions, and last the checklist, which keeps up to a third of the
    room whatever comes before it."""
    parts = ["Deterministic analysis of the data (no model involved):"]
    if analysis.title:
        parts.append(f"Assignment ({analysis.assignment}): {analysis.title}")
    if analysis.aim:
        how = "opens (it states no aim)" if analysis.aim_is_opening else "states it"
        parts.append(f"Aim, as the assignment {how}: {_cut(analysis.aim, size.task_chars * 2)}")
    if analysis.tables:
        parts.append("Tables:")
        parts += [f"- {_table_line(table)}" for table in analysis.tables[: size.tables]]
        parts += _more(analysis.tables, size.tables, "tables")
    if analysis.fits:
        parts.append(
            "Fits (the assignment's model first where it names one, then the best "
            "standard model by BIC; ± is one standard error):"
        )
        parts += [
            f"- {_fit_line(fit, size.fit_parameters, 2 * size.task_chars)}"
            for fit in analysis.fits[: size.fits]
        ]
        parts += _more(analysis.fits, size.fits, "fits")
    if analysis.parameters:
        sources = sorted({row.source for row in analysis.parameters})
        quoted = _key_rows(analysis.parameters)[: size.parameters]
        parts.append(f"Parameters ({', '.join(sources)}, {len(analysis.parameters)} rows):")
        names = Counter(row.name for row in analysis.parameters)
        parts.append("; ".join(_row_text(row, names[row.name] > 1) for row in quoted))
    if analysis.lab_notes:
        parts.append("Notes of the experimenters: " + ", ".join(n.path for n in analysis.lab_notes))
    if analysis.unreadable:
        parts.append(
            "Not analysed: " + "; ".join(f"{u.path} ({u.reason})" for u in analysis.unreadable)
        )
    if analysis.left_out:
        parts.append("Left out of the analysis: " + "; ".join(analysis.left_out))
    parts += digest_lines(analysis.regressions, analysis.task_numbers)
    parts += repeats_digest(analysis.repeats, size.tables)
    parts += [_cut(line, 2 * size.task_chars) for line in extremes_digest(analysis.extremes)]
    if analysis.predictions:
        parts.append("Predicted from the handout's formulas and the parameter values:")
        parts += [f"- {_cut(p.text(), 2 * size.task_chars)}" for p in analysis.predictions]
    if analysis.derived:
        parts.append("Derived by the explorer's request, computed by labscribe:")
        parts += [f"- {d.text()}" for d in analysis.derived]
    if not analysis.tasks:
        return _cut("\n".join(parts), size.chars)
    tasks = [f"Checklist from {analysis.assignment} ({len(analysis.tasks)} tasks):"]
    tasks += [
        f"{task_number(analysis.task_numbers, i)}. {_cut(task, size.task_chars)}"
        for i, task in enumerate(analysis.tasks[: size.tasks], start=1)
    ]
    tasks += _more(analysis.tasks, size.tasks, "tasks")
    checklist = _cut("\n".join(tasks), size.chars // 3)
    return _cut("\n".join(parts), size.chars - len(checklist) - 1) + "\n" + checklist


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
    head = f"{fit.y_label} vs {fit.x_label}"
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
