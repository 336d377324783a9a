"""Columns of moments, fitted against the time elapsed since their first row.

A data logger stamps its rows with the moment it took them: Unix times (`1709288100`,
`1709288100000` in ms) or dates and times as text (`2024-03-01T10:15:00`,
`01/03/2024 10:15:00`, `10:15:00.5`). As numbers these are huge offsets with a small
span: a cooling curve of one hour sits at x = 1.7e9, where every model's parameters are
ill-conditioned (a resonance "phase" with Q = 5e6 passes for a fit). What a fit needs is the
time since the run began, so such a column becomes seconds since its table's first row, and
the moment it counts from is said beside every fit against it.

Text is read by pandas with a format it infers from the cells (`guess_datetime_format`),
applied to the whole column: no hand-written date parser.
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd
from pandas.tseries.api import guess_datetime_format

from labscribe.tools.columns.column import Column

_UNIX = pd.Timestamp("1970-01-01")
# Unix times from 2001-09-09 (1e9 s) to 2100-01-01: a logger's clock. A measured quantity
# named like time, in seconds, does not sit in this range.
UNIX_RANGE = (1e9, 4.1e9)
# Unix times are written in these units; each scale's range is apart from the others'.
UNIX_SCALES = {"s": 1.0, "ms": 1e3, "µs": 1e6, "ns": 1e9}
# A column of moments counted in days (`Day fraction since midnight on`, ProCoDA).
_DAY_FRACTION = re.compile(r"day\s*fraction|fraction of (?:a|the) day", re.IGNORECASE)
_TIME_NAME = re.compile(r"time|stamp|epoch|date|zeit|datum|时间|日期", re.I)
# Times of day without a date, which pandas' format guess does not take on.
# A 12-hour clock (`8:48:31 AM`) is one too: Mesa Labs DryCal and US-locale loggers.
CLOCK_FORMATS = ("%H:%M:%S.%f", "%H:%M:%S", "%H:%M", "%I:%M:%S %p", "%I:%M %p")
SECONDS_PER_DAY = 86_400.0
# Cells a format is inferred from (a header or a preamble line may stand first), and cells
# the inferred formats are ranked on before the winner reads the whole column.
FORMAT_SAMPLES = 5
RANK_SAMPLE = 200
MAX_STAMP_CHARS = 64  # a longer cell is no time stamp, and is not handed to the guesser


@dataclass(frozen=True)
class Clock:
    """How a column's cells were read as moments (seconds since 1970-01-01)."""

    dated: bool
    """The cells name a date; False for times of day alone."""
    zone: str = ""
    """"UTC" when the cells are Unix times or name their offset; "" for a local clock."""


def clock_times(text: pd.Series) -> tuple[pd.Series, Clock] | None:
    """Cells that write a date and time, or a time of day, as seconds since 1970 (NaN where
    a cell does not parse), and how they were read; None when no format reads any cell.
    Formats are inferred from a few cells and ranked on a sample: the one that reads the
    most cells and never runs backwards wins; among equals, a date that reads either way
    (`01/03/2024`) is read day first, unless it starts with the year (ISO 8601)."""
    cells = text.str.strip()
    cells = cells.where(cells.str.len() <= MAX_STAMP_CHARS, "")
    filled = cells[cells != ""]
    if filled.empty:
        return None
    sample = filled.iloc[np.unique(np.linspace(0, len(filled) - 1, RANK_SAMPLE).astype(int))]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pandas warns of the day-first guess it is asked for
        guessed = [
            guess_datetime_format(cell, dayfirst=dayfirst)
            for cell in sample.iloc[:: max(1, len(sample) // FORMAT_SAMPLES)]
            for dayfirst in (True, False)
        ]
    meridian = sample.str.contains(r"[AaPp][Mm]\s*$").any()  # 12-hour clocks only where written
    clocks = [fmt for fmt in CLOCK_FORMATS if meridian or "%p" not in fmt]
    formats = [fmt for fmt in dict.fromkeys(guessed) if fmt] + clocks
    ranked = max(formats, key=lambda fmt: _rank(fmt, sample))
    if not _rank(ranked, sample)[0]:
        return None
    stamps = pd.to_datetime(cells, format=ranked, errors="coerce")
    zone = ""
    if getattr(stamps.dt, "tz", None) is not None:
        stamps, zone = stamps.dt.tz_convert("UTC").dt.tz_localize(None), "UTC"
    seconds = (stamps - _UNIX).dt.total_seconds()
    return seconds, Clock(dated=ranked not in CLOCK_FORMATS, zone=zone)


def _rank(fmt: str, sample: pd.Series) -> tuple[int, bool, bool]:
    """(cells read, never backwards, conventional order of day and month) of `fmt`."""
    stamps = pd.to_datetime(sample, format=fmt, errors="coerce").dropna()
    rising = bool((stamps.diff().dropna() >= pd.Timedelta(0)).all())
    day, month, year = (fmt.find(part) for part in ("%d", "%m", "%Y"))
    conventional = min(day, month, year) < 0 or (day < month) != (year < month)
    return len(stamps), rising, conventional


def unix_scale(column: Column, values: pd.Series) -> str | None:
    """The unit of a column of Unix times (named like a time, every value in the range of
    one scale, in that unit or none), else None."""
    if not _TIME_NAME.search(column.name):
        return None
    finite = values.dropna()
    if finite.empty:
        return None
    low, high = float(finite.min()), float(finite.max())
    for unit, scale in UNIX_SCALES.items():
        inside = UNIX_RANGE[0] * scale <= low and high <= UNIX_RANGE[1] * scale
        if inside and column.unit in ("", unit):
            return unit
    return None


def through_midnight(of_day: pd.Series) -> pd.Series:
    """Times of day (seconds since midnight) as seconds since the first row's midnight: a
    day more each time the clock steps back by more than half a day (23:59:58, then
    00:00:03), in every path that reads times of day (a text file's clock, a workbook's
    time cells, a logger's day fractions, hours, minutes and seconds in three columns)."""
    turned = of_day.dropna().diff() < -SECONDS_PER_DAY / 2
    return of_day + (turned.cumsum() * SECONDS_PER_DAY).reindex(of_day.index)


def elapsed(
    columns: list[Column], frame: pd.DataFrame, clocks: dict[str, Clock]
) -> tuple[list[Column], pd.DataFrame]:
    """The table with each column of moments (in `clocks`, or Unix times by unix_scale) as
    seconds since its first row, the moment it counts from in the column's `origin`."""
    changed = []
    for column in columns:
        clock = clocks.get(column.key)
        values = frame[column.key]
        scale = 1.0
        if clock is None and _DAY_FRACTION.search(column.name):
            # ProCoDA's `Day fraction since midnight on`: days, each 86,400 s
            clock, scale = Clock(dated=False), 1 / SECONDS_PER_DAY
        if clock is None:
            unit = unix_scale(column, values)
            if unit is None:
                changed.append(column)
                continue
            clock, scale = Clock(dated=True, zone="UTC"), UNIX_SCALES[unit]
        first = values.dropna()
        if first.empty:
            changed.append(column)
            continue
        seconds = values / scale if clock.dated else through_midnight(values / scale)
        start = float(seconds.dropna().iloc[0])
        seconds = seconds - start
        frame = frame.assign(**{column.key: seconds})  # the reader's frame stays as read
        update = {"unit": "s", "minimum": float(seconds.min()),
                  "maximum": float(seconds.max()), "origin": _moment(start, clock)}  # fmt: skip
        changed.append(column.model_copy(update=update))
    return changed, frame


def _moment(seconds: float, clock: Clock) -> str:
    """`2024-03-01 10:15:00`, `10:15:00.500000`, `2024-03-01 10:15:00 UTC`."""
    moment = _UNIX + pd.Timedelta(seconds=seconds)
    text = moment.isoformat(sep=" ") if clock.dated else moment.time().isoformat()
    return f"{text} {clock.zone}".strip()
