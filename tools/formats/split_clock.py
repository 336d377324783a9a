"""A time of day written over three columns, hours, minutes and seconds (a kettle's logger
writes `h;m;s;T`, a second file of the same lab `t;m;s;T`): one clock, read as
tools.formats.time_columns reads a column of moments, so that the curve is fitted against the time
since the first row, and the three parts are no variables of their own.

The minutes and seconds columns are told by their names; the hours column may be called
anything. The values must be a clock's: whole hours and minutes, minutes and seconds below
60, and the seconds starting again as the minutes turn. A clock that passes midnight goes on
counting.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from labscribe.tools.columns.column import Column
from labscribe.tools.formats.time_columns import Clock

_MINUTES = re.compile(r"(?:m|mm|mins?|minutes?|minut[oe]s?|minuten)", re.IGNORECASE)
_SECONDS = re.compile(r"(?:s|ss|secs?|seconds?|seg|segundos?|sekunden)", re.IGNORECASE)


def joined_clock(
    columns: list[Column], frame: pd.DataFrame, clocks: dict[str, Clock]
) -> tuple[list[Column], pd.DataFrame, dict[str, Clock], str]:
    """The table with its first hours, minutes and seconds columns made one column of
    seconds since midnight (in `clocks`, so that it becomes time since the first row), and
    a note saying so; as it was, and "", where no three columns are a clock's."""
    for i in range(len(columns) - 2):
        hours, minutes, seconds = columns[i : i + 3]
        if not (_MINUTES.fullmatch(minutes.name) and _SECONDS.fullmatch(seconds.name)):
            continue
        h, m, s = (frame[c.key].to_numpy(dtype=float) for c in (hours, minutes, seconds))
        if not _a_clock(h, m, s):
            continue
        of_day = 3600 * h + 60 * m + s  # midnight as elapsed() reads every clock
        frame = frame.drop(columns=[minutes.key, seconds.key]).assign(**{hours.key: of_day})
        joined = hours.model_copy(update={"name": "time", "unit": "s"})
        note = (f"{hours.name}, {minutes.name} and {seconds.name} are one time "
                "of day in hours, minutes and seconds, read as one clock: time")  # fmt: skip
        kept = [joined if c is hours else c for c in columns if c not in (minutes, seconds)]
        return kept, frame, clocks | {hours.key: Clock(dated=False)}, note
    return columns, frame, clocks, ""


def _a_clock(h: np.ndarray, m: np.ndarray, s: np.ndarray) -> bool:
    read = np.isfinite(h) & np.isfinite(m) & np.isfinite(s)
    if read.sum() < 3:
        return False
    h, m, s = h[read], m[read], s[read]
    whole = bool(np.all(h == np.round(h)) and np.all(m == np.round(m)))
    within = h.min() >= 0 and h.max() < 24 and m.min() >= 0 and m.max() < 60
    within = within and s.min() >= 0 and s.max() < 60
    restarts = bool(np.any((np.diff(s) < 0) & (np.diff(m) != 0)))
    return whole and within and restarts
