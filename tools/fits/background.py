"""Counts with the background taken off, as a counting lab's task asks ("Subtract the mean
background from the sample counts", "Nullrate abziehen"). The background is counted on its
own, in a file named for it (`background20min20sec2024.txt` beside
`cesium20min20sec2024.txt`), a reading as long as the source's. Its mean is taken off each
of the source's readings, with Poisson's uncertainty for the reading and the mean's standard
error: u(N − N̄_b) = √(N + u(N̄_b)²).

A background file pairs with the files of the same settings: the same name once its first
word (what was counted) is taken off (`20min20sec2024`); a folder's only background file
pairs with every file that counts under its column's name. The corrected counts are a
quantity formed of the source's counts (tools.formulas.formed_lineage: the raw counts are then not
fitted on their own), named so that a task's fit of corrected counts finds it
(tools.fits.fit_variants.CORRECTED_COLUMN).
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

import numpy as np

from labscribe.tools.columns.column import Column
from labscribe.tools.fits.fit_variants import CORRECTED
from labscribe.tools.formats.tables import Table
from labscribe.tools.formulas.appended_columns import append_formed, append_uncertainty

# What a background measurement's file is called, in the languages of counting labs.
BACKGROUND_FILE = re.compile(
    r"background|bkg|untergrund|nulleffekt|nullrate|nullmessung|fondo|bruit|pozad|фон|本底",
    re.IGNORECASE,
)
_FIRST_WORD = re.compile(r"[^\W\d_]+")
MIN_READINGS = 3
CORRECTED_NAME = "{name} − background"


def subtract_background(tables: list[Table], tasks: list[str], text: str) -> None:
    """Give each table a background file pairs with its counts less the background's mean,
    where a task or the handout asks for the background to be taken off."""
    if not any(CORRECTED.search(said) for said in [*tasks, text]):
        return
    backgrounds = [(t, c) for t in tables if (c := _background_counts(t)) is not None]
    sources = [t for t in tables if all(t is not b for b, _ in backgrounds)]
    for background, column in backgrounds:
        values = background.frame[column.key].to_numpy(dtype=float)
        values = values[np.isfinite(values)]
        mean = float(values.mean())
        sem = float(values.std(ddof=1) / np.sqrt(len(values)))
        for table in _paired(background, column, sources, only=len(backgrounds) == 1):
            _subtract(table, column.name, mean, sem, background.summary.source)


def _background_counts(table: Table) -> Column | None:
    """The one column of counts a background file holds, read as repeats (no variable)."""
    if not BACKGROUND_FILE.search(PurePosixPath(table.summary.source).stem):
        return None
    counted = [c for c in table.summary.columns if c.uncertainty_of is None and not c.formed]
    if len(counted) != 1 or table.summary.x not in (None, counted[0].key):
        return None
    values = table.frame[counted[0].key].to_numpy(dtype=float)
    return counted[0] if np.isfinite(values).sum() >= MIN_READINGS else None


def _settings(source: str) -> str:
    """A file's name without its first word, what was counted: the settings its readings
    were taken with (`20min20sec2024` of `cesium20min20sec2024.txt`)."""
    return _FIRST_WORD.sub("", PurePosixPath(source).stem, count=1)


def _paired(background: Table, column: Column, sources: list[Table], *, only: bool) -> list[Table]:
    """The tables whose counts `background`'s are the background of: those of its settings
    that hold a column of its name, else, for a folder's only background, all such."""
    counting = [t for t in sources if any(c.name == column.name for c in t.summary.columns)]
    settings = _settings(background.summary.source)
    same = [t for t in counting if _settings(t.summary.source) == settings]
    return same or (counting if only else [])


def _subtract(table: Table, name: str, mean: float, sem: float, source: str) -> None:
    summary = table.summary
    count = next(c for c in summary.columns if c.name == name)
    counts = table.frame[count.key].to_numpy(dtype=float)
    how = (f"{name} less the background's mean, {mean:.4g} ± {sem:.2g} a reading "
           f"({source})")  # fmt: skip
    unit = count.unit or "counts"  # a count is a number of events, its unit known
    key = append_formed(table, CORRECTED_NAME.format(name=name), counts - mean, unit, how,
                        [count.key])  # fmt: skip
    if summary.response == count.key:
        summary.response = key
    sigma = np.sqrt(np.maximum(counts, 1.0) + sem**2)  # no count has the error of one
    append_uncertainty(
        table, key, sigma, f"√({name} + u(background)²), Poisson's uncertainty with the mean's"
    )
