"""Repeated measurements of one quantity: which tables hold them (no independent variable:
one column, columns of one name side by side, a column labelled by series, blocks of one
column, readings a counter only numbers) and the series they make, each summarised as a lab
report states it. The numbers of one series are worked out by tools.fits.repeat_statistics;
this module decides what a series is, and so which values they are worked out over.

Outliers are named, never dropped: at most max(1, n // 10) suspects are tested in a
series; where the test flags values, the mean without them is given beside the mean of
all. Several series of one quantity get the mean of all their values too, with a one-way
analysis of variance (scipy.stats.f_oneway) saying whether their means differ more than
their scatter allows.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd
from pydantic import BaseModel, Field
from scipy import stats

from labscribe.guards.bounds import UNBOUNDED, ComputeBudget
from labscribe.tools.columns.coded_values import Coding, read_coding
from labscribe.tools.columns.column import Column
from labscribe.tools.columns.variable_column import one_name_and_unit, series_column
from labscribe.tools.fits.repeat_statistics import (
    MIN_TESTED,
    Summary,
    Weighted,
    esd_outliers,
    summarise,
    weighted_mean,
)
from labscribe.tools.formats.tables import Table

MAX_SUSPECTS = 10
CORRELATED = 0.5  # a lag-1 autocorrelation above this is a signal recorded in time
MIN_CORRELATED = 20  # values needed before their autocorrelation is judged
MAX_SERIES = 24
SAME_ROWS = 0.5  # columns equal in more than this share of rows are versions of one series
# A column's values within this share of their size of each other differ by a formula's
# rounding alone; exactly equal on this many rows, a value copied down (tools.fits.repeats)
ROUNDING = 1e-9
MIN_COPIED = 20


class Outlier(BaseModel):
    value: float
    row: float
    """The row's number: its row-numbering column's value, else its place from 1."""
    statistic: float
    critical: float


class Series(BaseModel):
    table: str
    column: str
    name: str
    unit: str = ""
    label: str = ""
    """Which series of the column: "" for the whole column, `Expt 1`, or `all series`."""
    summary: Summary
    outliers: list[Outlier] = Field(default_factory=list)
    without: Summary | None = None
    """The values without the outliers, where there are any."""
    tested: bool = False
    """Whether the outlier test ran (n ≥ MIN_TESTED, and values not all equal)."""
    weighted: Weighted | None = None
    sigma_column: str = ""
    series_p: float | None = None
    """For all series together: the one-way ANOVA's probability that means differ this much
    by chance."""
    series_f: float | None = None
    """For all series together: the one-way ANOVA's F statistic."""
    pooled_std: float | None = None
    """For all series together: the pooled within-series standard deviation, √(within-series
    mean square), with `pooled_dof` = N − k degrees of freedom."""
    pooled_dof: int | None = None
    means_weighted: Weighted | None = None
    """For all series together: the 1/SE²-weighted mean of the series' means, with the χ²
    of the means about it."""
    coding: Coding | None = None
    """How the handout says the recorded numbers map to the quantity, where it says so."""
    notes: list[str] = Field(default_factory=list)

    @property
    def title(self) -> str:
        """`T`, `Speed, Expt 1`, `Speed, all series`."""
        return f"{self.name}, {self.label}" if self.label else self.name


def repeated_measurements(
    tables: list[Table], *, budget: ComputeBudget = UNBOUNDED
) -> list[Series]:
    """The series of repeated measurements in `tables`: every table with no independent
    variable, each measured column (by the series its label column gives, and all of them
    together), at most MAX_SERIES in all; none are started once `budget` is spent."""
    found: list[Series] = []
    for table in tables:
        if budget.spent():
            continue
        if table.summary.x is None:
            found += _series_of(table)
        elif counts_repeats(table):
            found += _series_of(table, skip=table.summary.x)
        elif readings := numbered_readings(table):
            found += _series_of(table, skip=table.summary.x, only=readings)
        elif averaged := {c.key for c in table.summary.columns if c.averaged}:
            found += _series_of(table, only=averaged)
    return found[:MAX_SERIES]


# A column that numbers the repeats (`rep`, `Messung`, `n°`, `trial`), its values 1, 2, 3...
_REPEAT_NUMBER = re.compile(
    r"^(?:rep|repeat|repetition|replicate|run|trial|measurement|reading|messung|wiederholung|"
    r"mesure|essai|medida|repetici[óo]n|ensayo|misura|prova|n|no|nr|n°|#|i|k|序号|次数|"
    r"lap|vuelta|runde|tour|giro|volta)\.?"
    r"(?:\s*(?:no\.?|nr\.?|#|n°|number|index))?$",
    re.IGNORECASE,
)


def counts_repeats(table: Table) -> bool:
    """Whether the table's variable only numbers repeats (`rep` 1 to 5) of the one quantity
    its other columns measure side by side (`probe_1` to `probe_5` in one unit): a table of
    repeated measurements, not a curve against the repeat number."""
    summary = table.summary
    x = summary.column(summary.x) if summary.x is not None else None
    if x is None or not _REPEAT_NUMBER.match((x.header.strip() or x.name).strip()):
        return False
    if not _counts_from_one(table, x):
        return False
    measured = [c for c in summary.columns
                if c.key != x.key and c.ratio_of is None and c.uncertainty_of is None]  # fmt: skip
    # one name but a number (`probe_1` ... `probe_5`) in one unit; a column of five that
    # happens to fall throughout is no trend against a number that only counts repeats
    return len(measured) >= 2 and one_name_and_unit(measured)


def numbered_readings(table: Table) -> set[str]:
    """The columns a table's variable only numbers (1, 2, 3 ..., unnamed or named as a
    repeat or a lap) that scatter about one value rather than follow it: a stopwatch's lap
    times against the lap number. Each has at least MIN_CORRELATED values that neither stay
    constant nor drift (lag-1 autocorrelation at most CORRELATED); a cumulative time or a
    signal recorded in time drifts."""
    summary, frame = table.summary, table.frame
    x = summary.column(summary.x) if summary.x is not None else None
    if x is None or (x.header.strip() and not _REPEAT_NUMBER.match(x.header.strip())):
        return set()
    if not _counts_from_one(table, x):
        return set()
    found: set[str] = set()
    for column in summary.columns:
        if column.key == x.key or column.ratio_of or column.uncertainty_of:
            continue
        values = frame[column.key].to_numpy(dtype=float)
        values = values[np.isfinite(values)]
        if len(values) >= MIN_CORRELATED and np.ptp(values) > 0 and _lag_one(values) <= CORRELATED:
            found.add(column.key)
    return found


def _counts_from_one(table: Table, x: Column) -> bool:
    values = table.frame[x.key].to_numpy(dtype=float)
    values = values[np.isfinite(values)]
    return len(values) >= 2 and np.array_equal(values, np.arange(1, len(values) + 1))


def _series_of(table: Table, skip: str | None = None, only: set[str] | None = None) -> list[Series]:
    summary, frame = table.summary, table.frame
    rows = _row_numbers(table) if skip is None else frame[skip].to_numpy(dtype=float)
    sigmas = {c.uncertainty_of: c.key for c in summary.columns if c.uncertainty_of}
    # a quantity formed row by row (tools.columns.averaged_columns) is one series, whatever labels
    label_key = series_column(summary.columns, frame) if skip is None and only is None else None
    measured = [
        c for c in summary.columns
        if c.uncertainty_of is None and c.ratio_of is None and c.key not in (label_key, skip)
        and c.count and (only is None or c.key in only)
        and not _copied_constant(frame[c.key].to_numpy(dtype=float))
    ]  # fmt: skip
    if not measured:
        return []
    parts: list[tuple[Series, np.ndarray]] = []
    if label_key is not None:
        label = summary.column(label_key)
        groups = frame[label_key].to_numpy(dtype=float)
        for value in dict.fromkeys(groups[np.isfinite(groups)]):
            # a block the handout labels by its setting: `d = 9 mm`
            name = (f"{label.name} = {value:g} {label.unit}".strip() if label.formed
                    else f"{label.header.strip() or label.name} {value:g}")  # fmt: skip
            parts.append(_one(table, measured[0], sigmas.get(measured[0].key),
                              groups == value, rows, name))  # fmt: skip
    else:
        everything = np.ones(len(frame), dtype=bool)
        parts += [_one(table, c, sigmas.get(c.key), everything, rows, "") for c in measured]
    found = [series for series, _ in parts]
    versions = _versions(frame, measured) if label_key is None else []
    if versions:
        found[0].notes.append(
            f"{versions[0]} and {versions[1]} hold the same value in most rows: versions of the "
            "same measurements (one corrected, say), so they are not pooled"
        )
    elif (
        len(parts) > 1
        and one_name_and_unit(measured)
        and not _settings_label(table, label_key)
        and _overlapping([values for _, values in parts])
    ):  # a diameter and a height, each read five times, make no pool; nor do two poses
        found.insert(0, _pooled(table, measured, [values for _, values in parts]))
    return found


def _overlapping(groups: list[np.ndarray]) -> bool:
    """Whether the groups' ranges share values: series of one value read again, not of
    several (a doll's times in two poses, 2.0–2.4 s and 3.2–3.5 s)."""
    ranges = [(np.nanmin(g), np.nanmax(g)) for g in groups if np.isfinite(g).any()]
    return bool(ranges) and max(low for low, _ in ranges) <= min(high for _, high in ranges)


def _copied_constant(values: np.ndarray) -> bool:
    """Whether a column holds one value copied down a sheet (`N` = 130 turns, `μ0` on
    every row): equal but for a formula's rounding, or exactly equal on MIN_COPIED rows or
    more. Readings repeated scatter, or on a few rows may agree."""
    values = values[np.isfinite(values)]
    if len(values) < 2:
        return False
    spread = float(np.ptp(values))
    if spread == 0:
        return len(values) >= MIN_COPIED
    return spread <= ROUNDING * float(np.max(np.abs(values)))


def _versions(frame: pd.DataFrame, columns: list[Column]) -> tuple[str, str] | tuple[()]:
    """Two columns that agree in most rows where both have a value (Cavendish's `density`
    and `density2`, the second with one value corrected): not independent series."""
    for i, first in enumerate(columns):
        for second in columns[i + 1 :]:
            a, b = frame[first.key], frame[second.key]
            both = a.notna() & b.notna()
            if both.sum() >= MIN_TESTED and (a[both] == b[both]).mean() > SAME_ROWS:
                return first.name, second.name
    return ()


def _row_numbers(table: Table) -> np.ndarray:
    """Each row's number: its row-numbering column's value, else its place from 1."""
    if table.summary.row_numbers:
        return table.frame[table.summary.row_numbers[0].key].to_numpy(dtype=float)
    return np.arange(1, len(table.frame) + 1, dtype=float)


def _one(
    table: Table,
    column: Column,
    sigma_key: str | None,
    chosen: np.ndarray,
    rows: np.ndarray,
    label: str,
) -> tuple[Series, np.ndarray]:
    """The series of `column`'s `chosen` rows, and its values."""
    values = table.frame[column.key].to_numpy(dtype=float)
    keep = chosen & np.isfinite(values)
    series = Series(table=table.summary.id, column=column.key, name=column.name,
                    unit=column.unit, label=label, summary=summarise(values[keep]))  # fmt: skip
    _judge_outliers(series, values[keep], rows[keep])
    if sigma_key is not None:
        sigma = table.frame[sigma_key].to_numpy(dtype=float)[keep]
        series.sigma_column = sigma_key
        usable = np.isfinite(sigma) & (sigma > 0)
        if usable.sum() >= 1:
            series.weighted = weighted_mean(values[keep][usable], sigma[usable])
        if usable.sum() < len(usable):
            missing = len(usable) - int(usable.sum())
            series.notes.append(
                f"{missing} value{'s' if missing > 1 else ''} without a positive {sigma_key} "
                f"{'are' if missing > 1 else 'is'} left out of the weighted mean"
            )
    if series.summary.n >= MIN_CORRELATED:
        lag = _lag_one(values[keep])
        if lag > CORRELATED:
            series.notes.append(
                f"successive values are correlated (lag-1 autocorrelation {lag:.2f}): they drift "
                "rather than scatter independently, so the standard error and the interval, "
                "which assume independent values, understate the uncertainty"
            )
    return series, values[keep]


def _settings_label(table: Table, key: str | None) -> bool:
    """Whether the series are blocks the handout says were taken at several settings (a
    ball's diameter each, tools.columns.stated_series): no one quantity to pool."""
    return key is not None and bool(table.summary.column(key).formed)


def _pooled(table: Table, columns: list[Column], groups: list[np.ndarray]) -> Series:
    """All values of the series `groups` together (not tested for outliers: the series
    are), with whether their means differ more than their scatter allows."""
    names = list(dict.fromkeys(c.name for c in columns))
    what = "all series" if len(columns) == 1 else f"all {len(columns)} columns"
    name = " and ".join(names) if len(names) <= 2 else f"{names[0]} to {names[-1]}"
    series = Series(table=table.summary.id, column=columns[0].key, name=name,
                    unit=columns[0].unit, label=what,
                    summary=summarise(np.concatenate(groups)))  # fmt: skip
    compared = [group for group in groups if len(group) >= 2]
    if len(compared) >= 2 and all(np.ptp(group) > 0 for group in compared):
        anova = stats.f_oneway(*compared)
        series.series_p, series.series_f = float(anova.pvalue), float(anova.statistic)
        dof = sum(len(group) for group in compared) - len(compared)
        within = sum(float(np.sum((group - np.mean(group)) ** 2)) for group in compared)
        series.pooled_std, series.pooled_dof = math.sqrt(within / dof), dof
        means = np.array([np.mean(group) for group in compared])
        errors = np.array([np.std(group, ddof=1) / math.sqrt(len(group)) for group in compared])
        series.means_weighted = weighted_mean(means, errors)
    return series


def decode(repeats: list[Series], handout: str) -> None:
    """Give the series whose column has no unit of its own (or the coding's) the coding the
    `handout` states (tools.columns.coded_values); where it says the values are coded but no mapping
    can be read, a note that their numbers are the coded ones."""
    decoding = read_coding(handout)
    noted: set[tuple[str, str]] = set()
    for series in repeats:
        # a unit of its own is not the coded one; the coding's unit, as the handout's prose
        # gives it (tools.columns.stated_units), is
        if series.unit and (decoding.coding is None or series.unit != decoding.coding.unit):
            continue
        if decoding.coding is not None:
            series.coding = decoding.coding
        elif decoding.unread and (series.table, series.column) not in noted:
            noted.add((series.table, series.column))  # once per column, not per series
            series.notes.append(
                f"the assignment says the values are coded (“{decoding.unread}”), but how they "
                "map to the quantity could not be read: these numbers are the coded ones"
            )


def _judge_outliers(series: Series, values: np.ndarray, rows: np.ndarray) -> None:
    n = len(values)
    if n < MIN_TESTED or np.ptp(values) == 0:
        return
    series.tested = True
    flagged = esd_outliers(values, min(MAX_SUSPECTS, max(1, n // 10)))
    series.outliers = [
        Outlier(value=float(values[i]), row=float(rows[i]), statistic=statistic,
                critical=critical)
        for i, statistic, critical in flagged
    ]  # fmt: skip
    if flagged:
        kept = np.delete(values, [i for i, _, _ in flagged])
        series.without = summarise(kept)


def _lag_one(values: np.ndarray) -> float:
    centred = values - values.mean()
    denominator = float(np.sum(centred**2))
    return float(np.sum(centred[1:] * centred[:-1]) / denominator) if denominator else 0.0
