"""labscribe's own figure of each analysed table: the data, the best fit, and the residuals
below, drawn by this trusted code with matplotlib's Agg backend (no model, no sandbox), so
a folder with a table always has a figure.

Each figure is bounded by construction: at most MAX_PLOT_POINTS points a series, three
series, a fixed size and dpi (bench/bench_figures.py measures the worst case). The figures
are drawn in the caller's thread, never on one abandoned at a time limit: a thread left
inside matplotlib's C++ code when the interpreter exits aborts the process. No figure is
started once the time budget is spent.
"""

from __future__ import annotations

import contextlib
import io
import re
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from labscribe.guards.bounds import ComputeBudget
from labscribe.tools.analysis.figure_plan import FigureJob, figure_jobs
from labscribe.tools.analysis.folder import Analysis
from labscribe.tools.assignment.stated_values import stated_values
from labscribe.tools.columns.stepped_columns import stepped_columns
from labscribe.tools.fits.column_fits import evaluate
from labscribe.tools.fits.fit_claims import FOLLOWS, asked_by_all
from labscribe.tools.fits.fit_result import Fit, alike, format_value
from labscribe.tools.fits.regression_text import regression_remark
from labscribe.tools.formats.decoding import decoded_tables
from labscribe.tools.formats.tables import Table, TableSummary
from labscribe.tools.formulas.formed_columns import form_columns
from labscribe.tools.sandbox.figure_names import free_name
from labscribe.tools.sandbox.out_files import out_folder, write_whole
from labscribe.tools.tool import Folder

FIGURE_INCHES = (6.4, 4.8)  # a LaTeX \textwidth figure at its natural size
DPI = 150  # sharp in print, about 100 KB a PNG
MAX_PLOT_POINTS = 2000  # more points than pixels across add time and nothing visible
CURVE_POINTS = 600
# Rendering one figure takes about 0.1 s warm, a few seconds when matplotlib first builds
# its font cache; eight figures stay well inside the budget.
BUDGET_SECONDS = 30.0  # CPU seconds of the drawing thread (guards.bounds.ComputeBudget)
# Latin text first, then a CJK fallback for Chinese column names (where installed):
# matplotlib takes each glyph from the first family that has it.
_FAMILIES = ("DejaVu Sans", "Noto Sans CJK SC", "Noto Sans CJK JP", "WenQuanYi Zen Hei",
             "Droid Sans Fallback")  # fmt: skip


def draw_data_figures(
    folder: Folder,
    analysis: Analysis,
    out_dir: Path,
    *,
    budget_seconds: float = BUDGET_SECONDS,
    announce: Callable[[int, int], None] = lambda number, total: None,
) -> list[dict[str, Any]]:
    """A PNG in `out_dir` for each analysed table: one per column whose fit describes it
    (tools.analysis.figure_plan), or, when none does, one of the data alone. Returns {"path":
    "figures/<name>.png", "caption", "table", "x", "y"} (what it shows, by key) for each
    figure written; a figure that fails is left out, and none is started once
    `budget_seconds` of CPU time are spent. `announce(number, total)` is called before
    each figure. The tables are read again, through `Folder`, since the analysis keeps no
    data."""
    budget = ComputeBudget.of_cpu(budget_seconds)
    jobs = figure_jobs(analysis)
    if jobs:
        out_folder(out_dir)
    records: list[dict[str, Any]] = []
    names: set[str] = set()
    read: dict[str, list[Table]] = {}
    formed: set[str] = set()
    for number, job in enumerate(jobs, start=1):
        summary, fit = job.summary, job.fit
        if budget.spent():
            break
        table = _reread(folder, summary, read)
        if table is None:
            continue
        if any(c.formed for c in summary.columns) and summary.id not in formed:
            formed.add(summary.id)  # the quantities the analysis formed, formed again
            # from the tasks, and from how each was formed, which may stand in prose only
            how = "\n".join([analysis.aim, *(c.formed for c in summary.columns if c.formed)])
            with contextlib.suppress(Exception):
                # a set variable stated by a rule, and values the prose states, as the
                # descriptions repeat them ("U = 320 V + 10 V a row", "Δt = 10 s as stated")
                stepped_columns([table], analysis.tasks, how)
                form_columns([table], analysis.tasks, how, stated_values(how, ""))
        announce(number, len(jobs))
        name = _name(summary, fit.y if fit else None, names)
        try:
            _draw(table, job, out_dir / f"{name}.png")
        except Exception:  # the data's shape must never cost the report its other figures
            continue
        tried = any(f.table == summary.id and f.model for f in analysis.fits)
        shown = next((group for group in alike(analysis.fits) if fit in group), [fit])
        caption = _caption(summary, fit, tried, asked_by_all(shown, analysis) if fit else "")
        records.append({"path": f"figures/{name}.png", "caption": caption} | job.shows())
    return records


def _why(why: str, fit: Fit) -> str:
    """`why` as the caption says it: "the model task 2 asks for, linear", "a linear fit (not
    the model task 1 asks for, which is ...)"."""
    return f"a {fit.model} fit ({why})" if why.startswith("not ") else f"{why}, {fit.model}"


def _reread(folder: Folder, summary: TableSummary, read: dict[str, list[Table]]) -> Table | None:
    if summary.source not in read:
        try:
            read[summary.source] = decoded_tables(folder, summary.source)
        except Exception:  # changed or gone since the analysis: no figure, no failure
            read[summary.source] = []
    table = next((t for t in read[summary.source] if t.summary.id == summary.id), None)
    if table is not None:  # the names, units and uncertainties the handout gave them
        analysed = {c.key: c for c in summary.columns}
        for column in table.summary.columns:
            if (named := analysed.get(column.key)) is not None:
                column.name, column.unit = named.name, named.unit
                column.uncertainty_of = named.uncertainty_of
    return table


def _name(summary: TableSummary, y: str | None, taken: set[str]) -> str:
    stem = re.sub(r"\.[^./]*$", "", summary.source.rsplit("/", 1)[-1])
    parts = [stem, f"block{summary.block}" if "#" in summary.id else "", y or "data"]
    slug = "-".join(re.sub(r"[^A-Za-z0-9_]+", "_", p).strip("_") for p in parts if p)
    unique = free_name(f"data-{slug}", taken)
    taken.add(unique)
    return unique


def _label(summary: TableSummary, key: str) -> str:
    column = summary.column(key)
    return _as_text(f"{column.name} [{column.unit}]" if column.unit else column.name)


def _as_text(text: str) -> str:
    """`text` as matplotlib draws it literally: a `$` from the data would start mathtext,
    and an unbalanced one fails the whole figure."""
    return text.replace("$", r"\$")


def _thin(n: int) -> np.ndarray:
    return np.linspace(0, n - 1, min(n, MAX_PLOT_POINTS)).round().astype(int)


def _draw(table: Table, job: FigureJob, path: Path) -> None:
    # matplotlib costs a second to import: a command that draws no figure (a resume, a run
    # with --no-figures, `labscribe --help`) never pays it
    from matplotlib import font_manager
    from matplotlib.figure import Figure

    summary, frame, fit, x_key = table.summary, table.frame, job.fit, job.x
    font = font_manager.FontProperties(family=[f for f in _FAMILIES if _installed(f)])
    figure = Figure(figsize=FIGURE_INCHES, dpi=DPI, layout="constrained")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a glyph no installed font has is drawn as a box
        if fit is None:
            axes = figure.add_subplot()
            keys = job.ys
            for key in keys:
                x, y = _pairs(frame, x_key, key)
                index = _thin(len(x))
                axes.plot(x[index], y[index], "o", ms=3, label=_as_text(summary.column(key).name))
            axes.set_xlabel(_label(summary, x_key), fontproperties=font)
            if len(keys) == 1:
                axes.set_ylabel(_label(summary, keys[0]), fontproperties=font)
            axes.legend(prop=font)
        else:
            top, bottom = figure.subplots(2, 1, sharex=True, height_ratios=(3, 1))
            x, y = fitted_points(frame, x_key, fit)
            curve_x = np.linspace(x.min(), x.max(), CURVE_POINTS)
            top.plot(x, y, "o", ms=3, color="tab:blue", label="data")
            top.plot(curve_x, evaluate(fit, curve_x), "-", color="tab:red",
                     label=f"{fit.model} fit (R² = {fit.r_squared:.4f})")  # fmt: skip
            top.set_ylabel(_label(summary, fit.y), fontproperties=font)
            top.legend(prop=font)
            bottom.axhline(0, color="0.5", lw=0.8)
            bottom.plot(x, y - evaluate(fit, x), "o", ms=2, color="tab:blue")
            unit = summary.column(fit.y).unit
            bottom.set_ylabel(
                _as_text(f"residual [{unit}]" if unit else "residual"), fontproperties=font
            )
            bottom.set_xlabel(_label(summary, x_key), fontproperties=font)
        drawn = io.BytesIO()
        figure.savefig(drawn, format="png")
    write_whole(path, drawn.getvalue())


def fitted_points(frame: pd.DataFrame, x_key: str, fit: Fit) -> tuple[np.ndarray, np.ndarray]:
    """The points a fit's figure draws, sorted by x and thinned to MAX_PLOT_POINTS: those of
    its range where it is a fit of part of the data (one peak's window), so that its curve
    and residuals are drawn where they were fitted."""
    x, y = _pairs(frame, x_key, fit.y)
    if fit.task_range is not None:
        inside = (x >= fit.task_range[0]) & (x <= fit.task_range[1])
        x, y = (x[inside], y[inside]) if inside.any() else (x, y)
    index = _thin(len(x))
    return x[index], y[index]


def _pairs(frame: pd.DataFrame, x_key: str, y_key: str) -> tuple[np.ndarray, np.ndarray]:
    """The finite (x, y) pairs of two columns, sorted by x."""
    x = frame[x_key].to_numpy(dtype=float)
    y = frame[y_key].to_numpy(dtype=float)
    keep = np.isfinite(x) & np.isfinite(y)
    order = np.argsort(x[keep], kind="stable")
    return x[keep][order], y[keep][order]


def _installed(family: str) -> bool:
    from matplotlib import font_manager  # imported by _draw, its one caller

    return any(entry.name == family for entry in font_manager.fontManager.ttflist)


def _caption(summary: TableSummary, fit: Fit | None, tried: bool = True, asked: str = "") -> str:
    """The figure's caption: the fit drawn, with why it was made (`asked`: which task's
    model, if any; tools.fits.fit_claims.asked_by); else why none is, as it is: no model fitted
    to the table describes its data (`tried`), or none was fitted to them."""
    where = f"{summary.id}" + (f", {summary.title}" if summary.title else "")
    x = summary.column(fit.x if fit is not None else summary.x or "").name
    variable = summary.column(summary.x or "") if fit is None and summary.x else None
    if (
        variable is not None
        and variable.minimum is not None
        and variable.minimum == variable.maximum
    ):
        unit = f" {variable.unit}" if variable.unit else ""
        return (
            f"The data of {where}: {x} is {variable.minimum:g}{unit} in every row, so the rows "
            "are repeated measurements, not a curve, and no fit is drawn."
        )
    if fit is None:
        why = (
            "No model fitted to them describes them well (see the notes on the fits), so no fit is "
            "drawn."
            if tried
            else "No model was fitted to them, so no fit is drawn."
        )
        return f"The data of {where} against {x}. {why}"
    named = ", ".join(f"{p.name} = {format_value(p)}" for p in fit.key_parameters())
    remark = regression_remark(fit)
    return (
        f"{fit.y_label} against {x} ({where}) with {_why(asked or fit.label, fit)}: {named} "
        f"(R² = {fit.r_squared:.4f}). Lower panel: residuals."
        + (f" This is {remark}." if remark else "")
        + (f" {FOLLOWS.capitalize()} (see the notes on the fits)." if fit.follows else "")
    )
