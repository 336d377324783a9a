"""The −3 dB band a task asks for: where a resonance's response falls to its largest value
over √2 on either side of the peak ("les fréquences de coupure à −3 dB (U = U_max/√2) par
interpolation linéaire", "the half-power points", "die Frequenzen, bei denen U auf U_max/√2
abgefallen ist"), each interpolated linearly between the two measured points around it, the
band's width, and, where the task names a quality factor, Q = the peak's position over that
width. The peak is the largest measured value: a fitted resonance is a different method, and
its own values stand with its fit.
"""

from __future__ import annotations

import math
import re

import numpy as np

from labscribe.tools.columns.column import Column
from labscribe.tools.fits.extreme_columns import (
    measured_columns,
    named_columns,
    quantity_text,
    symbol_column,
)
from labscribe.tools.fits.extremes import Extreme, crossing_between
from labscribe.tools.formats.tables import Table

HALF_POWER = re.compile(
    r"[-−–]\s*3\s*dB|/\s*√\s*2|/\s*sqrt\s*\(?\s*2|1\s*/\s*√\s*2|half[- ]power|"
    r"demi[- ]puissance|halbe[nr]? leistung|potenza dimezzata|media potencia",
    re.IGNORECASE,
)
QUALITY = re.compile(
    r"quality factor|\bQ\b|facteur de qualité|gütefaktor|\bgüte|fattore di (?:qualità|merito)"
    r"|factor de (?:calidad|mérito)",
    re.IGNORECASE,
)
# The quantity whose level it is: "U = U_max/√2", "I = I_0/sqrt(2)".
_LEVEL_OF = re.compile(
    r"(?P<symbol>[A-Za-z\u0370-\u03ff](?:_\{?\w{1,6}\}?)?)\s*=\s*\S+\s*/\s*(?:√|sqrt)"
)


def half_power_bands(tasks: list[str], tables: list[Table]) -> list[Extreme]:
    """The −3 dB band of each task that asks for one, where the data give it."""
    return [band for task in tasks if HALF_POWER.search(task)
            for band in _band(task, tables)]  # fmt: skip


def _response(
    task: str, tables: list[Table]
) -> tuple[Table, Column, np.ndarray, np.ndarray] | None:
    """The table, its variable and the response the task's level is of: the symbol before
    `= X_max/√2`, else a column the task names, else a table's one measured column, that
    peaks inside its range. A column the task does not name beside others is no one's
    level: a filter's time shift peaks where its transmittance, not formed, falls."""
    level = _LEVEL_OF.search(task)
    named = symbol_column(level["symbol"], tables) if level else None
    pairs = [named] if named else named_columns(task, tables) or [
        (table, column) for table, column in measured_columns(tables)
        if len(measured_columns([table])) == 2  # its variable and this response alone
    ]  # fmt: skip
    peaked = []
    for table, column in pairs:
        x_key = table.summary.x
        if x_key is None or column.key == x_key:
            continue
        x = table.frame[x_key].to_numpy(dtype=float)
        y = table.frame[column.key].to_numpy(dtype=float)
        keep = np.isfinite(x) & np.isfinite(y)
        order = np.argsort(x[keep], kind="stable")
        x, y = x[keep][order], y[keep][order]
        if len(y) >= 3 and 0 < int(np.argmax(y)) < len(y) - 1:
            peaked.append((table, column, x, y))
    return peaked[0] if len(peaked) == 1 else None


def _band(task: str, tables: list[Table]) -> list[Extreme]:
    found = _response(task, tables)
    if found is None:
        return []
    table, y_column, x, y = found
    summary = table.summary
    x_column = summary.column(summary.x)  # type: ignore[arg-type]
    peak = int(np.argmax(y))
    level = y[peak] / math.sqrt(2)
    below = np.flatnonzero(y[:peak] < level)
    above = np.flatnonzero(y[peak:] < level) + peak
    unit = x_column.unit
    head = (f"the −3 dB points, where {y_column.name} falls to its largest measured value "
            f"{quantity_text(y[peak], y_column.unit, 4)} over √2 = "
            f"{quantity_text(level, y_column.unit, 4)}")  # fmt: skip
    if not len(below) or not len(above):
        side = "below" if not len(below) else "above"
        return [Extreme(task=task, kind="band", name=x_column.name, table=summary.id,
                        given=f"{head}: the data do not fall that far {side} the peak, so "
                              f"the band is not measured ({summary.id})")]  # fmt: skip
    i, j = int(below[-1]), int(above[0])
    low, high = crossing_between(x, y, i, level), crossing_between(x, y, j - 1, level)
    width = high - low
    given = (f"{head}, interpolated linearly between the measured points: {x_column.name} = "
             f"{quantity_text(low, unit, 4)} and {quantity_text(high, unit, 4)}; the band's "
             f"width {quantity_text(width, unit, 4)}")  # fmt: skip
    if QUALITY.search(task) and width > 0:
        given += (f"; Q = {x_column.name} at the peak over the width = "
                  f"{x[peak]:.4g}/{width:.4g} = {x[peak] / width:.3g}")  # fmt: skip
    return [Extreme(task=task, kind="band", value=float(width), unit=unit, name=x_column.name,
                    table=summary.id, given=f"{given} ({summary.id})")]  # fmt: skip
