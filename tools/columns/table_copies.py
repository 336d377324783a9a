"""Tables that repeat another's values: a workbook's working copies (`politoCSV` beside
`Polikrystaliczne`, a row counter added; `PolikrystToPandas`, two of its columns with one
sign flipped) or the same data saved twice. A copy is analysed once, as its original: fitted
again it would count the measurement twice and offer a fit of the copy's row counter."""

from __future__ import annotations

import numpy as np

from labscribe.tools.columns.counting import numbers_rows
from labscribe.tools.formats.tables import Table

# Copies are often saved with fewer digits (`1.070512821` for 1.0705128205128205).
_DIGITS = 1e-6
MIN_ROWS = 3


def set_aside_copies(tables: list[Table]) -> tuple[list[Table], list[str]]:
    """`tables` without those that only repeat an earlier one's columns, and a note for each
    copy saying which table it repeats."""
    kept: list[Table] = []
    notes: list[str] = []
    for table in tables:
        original = next((earlier for earlier in kept if _repeats(table, earlier)), None)
        if original is None:
            kept.append(table)
            notes += _set_aside_copied_columns(table)
            continue
        notes.append(f"{_place(table)} repeats the values of {_place(original)}: analysed "
                     "once, as the original")  # fmt: skip
    return kept, notes


def _set_aside_copied_columns(table: Table) -> list[str]:
    """Take out of `table` the columns without a name of their own that repeat a named
    column's values or their negatives (a sheet's `-j` kept for a plot): fitted, they would
    only repeat that column's fits with the sign flipped."""
    summary = table.summary
    named = [c for c in summary.columns if c.header.strip()]
    notes = []
    for column in [c for c in summary.columns if not c.header.strip()]:
        values = _values(table, column.key)
        if values is None:
            continue
        source = next((c for c in named if _same_or_negated(values, _values(table, c.key))), None)
        if source is None:
            continue
        summary.columns = [c for c in summary.columns if c.key != column.key]
        negated = "the negatives of " if not _same(values, _values(table, source.key)) else ""
        notes.append(f"{column.name} of {_place(table)}, which repeats {negated}{source.name} "
                     "row for row")  # fmt: skip
    return notes


def _repeats(copy: Table, original: Table) -> bool:
    """Whether every column of `copy` but its row counters holds, row for row, the values of
    a column of `original` (or their negatives), and some column is no counter."""
    if len(copy.frame) != len(original.frame) or len(copy.frame) < MIN_ROWS:
        return False
    sources = [_values(original, column.key) for column in original.summary.columns]
    sources = [values for values in sources if values is not None]
    compared = 0
    for column in copy.summary.columns:
        values = _values(copy, column.key)
        if values is None:
            return False
        if numbers_rows(values):
            continue
        if not any(_same_or_negated(values, source) for source in sources):
            return False
        compared += 1
    return compared > 0


def _values(table: Table, key: str) -> np.ndarray | None:
    values = np.asarray(table.frame[key], dtype=float)
    return values if np.isfinite(values).any() else None


def _same_or_negated(values: np.ndarray, source: np.ndarray | None) -> bool:
    return source is not None and (_same(values, source) or _same(values, -source))


def _same(values: np.ndarray, source: np.ndarray) -> bool:
    scale = float(np.nanmax(np.abs(source))) or 1.0
    both = np.isfinite(values) & np.isfinite(source)
    if not np.array_equal(both, np.isfinite(values)) or not both.any():
        return False
    return bool(np.all(np.abs(values[both] - source[both]) <= _DIGITS * scale))


def _place(table: Table) -> str:
    title = table.summary.title
    return table.summary.id + (f" ({title})" if title else "")
