"""An angle read off a goniometer in degrees and arc minutes, written as two columns of one
name (`rrbb[°]`, `rrbb[min]`): one angle in degrees, deg + min/60, where the minutes' column
would otherwise read as a time in minutes and each half be fitted on its own."""

from __future__ import annotations

import numpy as np

from labscribe.tools.columns.column import Column
from labscribe.tools.formats.tables import Table

DEGREES = frozenset({"deg", "°"})
ARC_MINUTES = frozenset({"min", "′", "'", "arcmin"})
MINUTES_IN_A_DEGREE = 60.0


def join_arc_minutes(table: Table) -> None:
    """Fold each column of arc minutes into the column of degrees of the same name just
    before it, and say so on the degrees' column."""
    summary, frame = table.summary, table.frame
    joined: list[Column] = []
    for degrees, minutes in zip(summary.columns, summary.columns[1:], strict=False):
        if not _pair(degrees, minutes) or degrees in joined:
            continue
        whole = frame[degrees.key].to_numpy(dtype=float)
        part = frame[minutes.key].to_numpy(dtype=float) / MINUTES_IN_A_DEGREE
        frame[degrees.key] = np.where(whole < 0, whole - part, whole + part)
        degrees.span(frame[degrees.key])
        degrees.formed = f"{degrees.name} in ° + {minutes.name} in arc minutes / 60"
        joined.append(minutes)
    if joined:
        keys = {c.key for c in joined}
        summary.columns = [c for c in summary.columns if c.key not in keys]
        frame.drop(columns=list(keys), inplace=True)


def _pair(degrees: Column, minutes: Column) -> bool:
    """Whether two neighbouring columns are one angle's degrees and arc minutes: one name,
    whole minutes below 60."""
    if degrees.name != minutes.name or degrees.unit not in DEGREES:
        return False
    if minutes.unit not in ARC_MINUTES or minutes.minimum is None or minutes.maximum is None:
        return False
    return minutes.minimum >= 0 and minutes.maximum < MINUTES_IN_A_DEGREE
