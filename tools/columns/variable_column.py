"""Which column of a table the others are measured against: the independent variable, the
columns set aside first because they only number the rows, and the tables that have none
because their columns repeat one quantity (`T, T, T`; `Expt` beside `Speed`). Kept apart
from what a column is (tools.columns.column) so that the readers (tools.formats.grid), the
roles and the repeats all ask this one rule."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
from scipy import stats

from labscribe.tools.columns.column import UNNAMED, Column
from labscribe.tools.columns.counting import counts_rows, reader_index, series_label

MIN_MONOTONIC = 3  # a run of fewer values says nothing about rising or falling
# Three readings of one sample (`Lectura` 1 to 3) rise by chance one time in three: only a
# longer run that rises throughout says lap times (`No., t`), not repeats
MIN_LAPS = 5
# A counter that a column follows this closely (|Spearman ρ|) is a variable: an order n =
# 1 … 6 that V_n rises with has ρ = 1; Geiger counts against their reading's number drift
# by chance (ρ = −0.22 over 100 readings, p = 0.03) and follow nothing.
FOLLOWS = 0.5
REPEAT_SPREAD = 0.02  # repeats of one value scatter by less than this share of it
MIN_REPEATS = 8  # readings enough to tell repeats gathered about a value from a few settings
# Names of columns that are usually the independent variable of a lab table.
X_NAMES = frozenset(
    {"time", "t", "frequency", "freq", "f", "x", "position", "pos", "temperature", "temp",
     "voltage", "u", "angle", "theta", "distance", "d", "length", "wavelength", "lambda",
     "λ", "field", "b", "时间", "频率", "温度", "位置", "电压", "角度", "距离", "长度", "波长"}
)  # fmt: skip
# Names of swept quantities: recorded in a column beside time, they are the variable.
SWEPT_NAMES = frozenset({"frequency", "freq", "wavelength", "频率", "波长"})
# A first column with one of these names counts samples: another monotonic column is the x.
INDEX_NAMES = frozenset(
    {"n", "no", "nr", "index", "idx", "#", "sample", "point", "pt", "序号", "sequence"}
)


def set_aside_row_numbers(
    columns: list[Column], frame: pd.DataFrame, keep: str | None = None
) -> tuple[list[Column], list[Column]]:
    """(the columns, those that only number the rows): a row-numbering column (`rownames`,
    an unnamed first column counting 1..n, `No.`, `trial`; tools.columns.counting) is never a
    variable. `keep` (a table's x set by its instrument) stays whatever it is; a table
    keeps one column at least."""
    named = sum(bool(c.header.strip()) for c in columns) > 1
    aside = [
        c for i, c in enumerate(columns)
        if c.key != keep and c.uncertainty_of is None and not c.unit
        and counts_rows(c.header, frame[c.key].to_numpy(), first=i == 0, named_others=named)
    ]  # fmt: skip
    if not aside and not named and _counter_of_nothing(columns, frame, keep):
        aside = [columns[0]]
    if len(aside) == len(columns):
        return columns, []
    kept = [c for c in columns if c not in aside]
    measured = [c for c in kept if c.uncertainty_of is None]
    if len(measured) == 1 and (
        (len(frame) >= MIN_LAPS and _monotonic(frame[measured[0].key]))
        or any(follows_counter(frame, measured[0], counter) for counter in aside)
    ):
        # repeats never rise throughout, nor fall as a decay does with its sample's number:
        # `No., t` are lap times, `Sample Number, Counts` a source's counts against their
        # count's number, so only a reader's own index stays aside
        aside = [c for c in aside if reader_index(c.header)]
        kept = [c for c in columns if c not in aside]
    return kept, aside


def follows_counter(frame: pd.DataFrame, measured: Column, counter: Column) -> bool:
    """Whether `measured` follows `counter` (|Spearman ρ| at least FOLLOWS over MIN_REPEATS
    rows or more): readings taken one after another of what changes, not repeats of one
    value, nor samples that a number labels."""
    values = frame[measured.key].to_numpy(dtype=float)
    numbers = frame[counter.key].to_numpy(dtype=float)
    finite = np.isfinite(values) & np.isfinite(numbers)
    if finite.sum() < MIN_REPEATS or np.ptp(values[finite]) == 0:
        return False
    return abs(stats.spearmanr(numbers[finite], values[finite]).statistic) >= FOLLOWS


def _counter_of_nothing(columns: list[Column], frame: pd.DataFrame, keep: str | None) -> bool:
    """Whether a table without names starts with a column counting its rows by one (1 to
    100) that no other column follows (|Spearman ρ| below FOLLOWS): the number of each
    reading of a counter, not a variable; an order n = 1 … 6 that V_n rises with is one."""
    first, others = columns[0], [c for c in columns[1:] if c.uncertainty_of is None]
    counter = frame[first.key].to_numpy(dtype=float)
    if (
        first.key == keep
        or not others
        or not counts_rows("", counter, first=True, named_others=True)
    ):
        return False
    for column in others:
        values = frame[column.key].to_numpy(dtype=float)
        finite = np.isfinite(values) & np.isfinite(counter)
        if finite.sum() < MIN_LAPS or np.ptp(values[finite]) == 0:
            return False
        if abs(stats.spearmanr(counter[finite], values[finite]).statistic) >= FOLLOWS:
            return False
    return True


def row_numbers_note(column: Column, frame: pd.DataFrame) -> str:
    """`trial only numbers the rows (1 to 10): not a variable`."""
    values = frame[column.key].dropna()
    span = f" ({values.iloc[0]:g} to {values.iloc[-1]:g})" if len(values) else ""
    name = column.header.strip() or "the unnamed first column"
    return f"{name} only numbers the rows{span}: not a variable"


def series_column(columns: list[Column], frame: pd.DataFrame) -> str | None:
    """The key of the column that labels the series of repeated measurements of one
    quantity (`Expt` beside `Speed`), if the table is that: one such label, and one measured
    column besides (with its uncertainty, if it has one)."""
    labels = [c.key for c in columns if series_label(c.header, frame[c.key].to_numpy())]
    measured = [c for c in columns if c.uncertainty_of is None and c.key not in labels]
    return labels[0] if len(labels) == 1 and len(measured) == 1 else None


def one_name_and_unit(columns: list[Column]) -> bool:
    """Whether the columns share one name but a number (`probe_1` ... `probe_5`) and one
    unit: the form series of one quantity take side by side."""
    stems = {re.sub(r"[\s_.-]*\d+$", "", c.name).lower() for c in columns}
    # or a number inside it: `P1-T`, `P2-T`, `P3-T`, the period of three pendulums
    numbered = {re.sub(r"\d+", "#", c.name).lower() for c in columns}
    one = len(stems) == 1 or (len(numbered) == 1 and "#" in next(iter(numbered)))
    return one and len({c.unit for c in columns}) == 1


def one_quantity(columns: list[Column], frame: pd.DataFrame) -> bool:
    """Whether the table's columns repeat the measurement of one quantity, nothing being
    measured against: one column (with its uncertainty), columns of one name (`T, T, T`),
    or of one name but a number (`T1, T2, T3`; `density, density2`; `P1-T, P2-T`) in one
    unit whose values overlap, or each scatter narrowly about its own, and of which none
    rises or falls throughout, or one column labelled by series (`Expt`, `Speed`)."""
    measured = [c for c in columns if c.uncertainty_of is None]
    if len(measured) == 1 or series_column(columns, frame) is not None:
        return True
    if len({c.name for c in measured}) == 1:
        return True
    if not one_name_and_unit(measured):
        return False
    if any(_monotonic(frame[c.key]) and not _narrow(frame[c.key]) for c in measured):
        return False
    if all(_about_one_value(frame[c.key]) for c in measured):
        return True  # each read again and again about its own value: one quantity's series
    if any(UNNAMED.fullmatch(c.name) for c in measured):
        return False  # `column 1`, `column 2` of a file without names: one name says nothing
    spans = [(c.minimum, c.maximum) for c in measured if c.minimum is not None]
    low, high = max(s[0] for s in spans), min(s[1] for s in spans)  # type: ignore[type-var]
    return len(spans) == len(measured) and low <= high


def independent_variable(
    columns: list[Column], frame: pd.DataFrame, *, after_row_numbers: bool = False
) -> str | None:
    """The key of the column the others are measured against: none where the columns
    repeat the measurement of one quantity (`one_quantity`), else the first column if it is
    monotonic (and does not merely count samples), else a monotonic column named like an
    independent variable (time, frequency, x, position, temperature, voltage ...), else any
    monotonic one, else one so named, else the first. Columns that only number the rows
    are set aside before (`set_aside_row_numbers`); `after_row_numbers` says one stood
    first, so the first column left has no claim of its own."""
    keys = [column.key for column in columns if column.uncertainty_of is None]
    if not keys or one_quantity(columns, frame):
        return None  # repeats of one quantity (T, T, T): nothing is measured against
    swept = [k for k in keys if _name_of(columns, k).lower() in SWEPT_NAMES]
    if swept and _monotonic(frame[swept[0]]):
        return swept[0]  # a sweep recorded over time: the sweep is the variable
    monotonic = [key for key in keys if _monotonic(frame[key])]
    named = [key for key in keys if _name_of(columns, key).lower() in X_NAMES]
    first = keys[0]
    # a sample counter beside a time axis and data is no variable; beside one column, the
    # column is what was counted (lap times against the lap's number)
    counts_samples = (
        _name_of(columns, first).lower() in INDEX_NAMES and len(monotonic) > 1 and len(keys) > 2
    )
    # the first column stands first by choice, unless a row counter stood before it
    # (`Sample, DryCal, ..., Time`): then the named variable leads
    if first in monotonic and not counts_samples and not after_row_numbers:
        return first
    ranked = [key for key in named if key in monotonic] + monotonic + named
    return next((key for key in ranked if not (counts_samples and key == first)), first)


def _about_one_value(column: pd.Series) -> bool:
    """Whether many readings gather about one value, a few strays aside: the middle half
    of them within REPEAT_SPREAD of their median (thirty timings of one pendulum's ten
    swings, one of them mistimed)."""
    values = column.dropna().to_numpy(dtype=float)
    if len(values) < MIN_REPEATS:
        return False
    low, middle, high = np.percentile(values, [25, 50, 75])
    return middle != 0 and float(high - low) <= REPEAT_SPREAD * abs(float(middle))


def _narrow(column: pd.Series) -> bool:
    """Whether the values stay within REPEAT_SPREAD of their size: repeats of one value (a
    probe's five readings of 196.1-196.3 ohm.cm), which may rise or fall throughout by chance
    in a handful of rows, where a swept variable spans a good part of its size."""
    values = column.dropna().to_numpy(dtype=float)
    size = float(np.max(np.abs(values))) if len(values) else 0.0
    return size > 0 and float(np.ptp(values)) <= REPEAT_SPREAD * size


def _monotonic(column: pd.Series) -> bool:
    """Whether the values only rise or only fall, with few repeats (a sweep, a time base)."""
    values = column.dropna().to_numpy()
    if len(values) < MIN_MONOTONIC:
        return False
    steps = np.diff(values)
    one_way = bool((steps >= 0).all() or (steps <= 0).all())
    return one_way and len(np.unique(values)) >= 0.5 * len(values)


def _name_of(columns: list[Column], key: str) -> str:
    return next(column.name for column in columns if column.key == key)
