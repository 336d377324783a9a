"""What the columns of a table are: their names and units, from what stands above them
(tools.formats.headings), which column gives another's uncertainty, and which is the independent
variable."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike
from pydantic import BaseModel
from scipy import stats

from labscribe.tools.columns.counting import counts_rows, reader_index, series_label
from labscribe.tools.columns.symbol_dimensions import conventional_column

# The name labscribe gives a column its file names not (`unnamed`).
UNNAMED = re.compile(r"column \d+")
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
_UNCERTAINTY_PREFIX = re.compile(r"^(?:delta|sigma|unc|std|err|d|δ|Δ|σ|u)[_ .]?(?P<of>.+)$", re.I)
_UNCERTAINTY_SUFFIX = re.compile(
    r"^(?P<of>.+?)[_ ](?:err|error|unc|uncertainty|sigma|std|stdev)$", re.I
)
_GUM_UNCERTAINTY = re.compile(r"^u\((?P<of>.+)\)$")
_BARE_UNCERTAINTY = frozenset({"err", "error", "sigma", "σ", "±", "unc", "uncertainty", "std"})
# A column that drives the others (V_in, Vin, U_ein, input, 输入电压): a response measured
# alongside it is read as a ratio too, since a loaded source makes the raw response mislead
# (a generator's output resistance bends a resonance curve's width).
_INPUT_NAME = re.compile(
    r"^(?:[a-z]{1,3}[_ ](?:in|ein|input|drive)|[vu]in|[a-z]?input|drive|excitation)$|输入", re.I
)


class Column(BaseModel):
    key: str
    """Unique within its table: how fits and figures name the column."""
    header: str
    """As the file writes it (empty for a file without a header)."""
    name: str
    unit: str = ""
    count: int
    """Numeric values in the column."""
    minimum: float | None = None
    maximum: float | None = None
    uncertainty_of: str | None = None
    """The key of the column whose uncertainty this one gives (`dV`, `V_err`, `u(V)`)."""
    x_at_maximum: float | None = None
    """Where the column is largest, in the table's independent variable."""
    ratio_of: tuple[str, str] | None = None
    """(numerator, denominator) keys of a column labscribe derived as their ratio."""
    origin: str = ""
    """For a column of moments read as elapsed seconds (tools.formats.time_columns): the moment they
    count from, `2024-03-01 10:15:00`."""
    formed: str = ""
    """For a quantity labscribe formed from other columns as the assignment asks (T² from
    the time of 10 swings, 1/T, P = U·I; tools.formulas.formed_columns): how, in words."""
    formed_from: list[str] = []
    """The keys of the columns it was formed from: their values are in it, so they are not
    fitted on their own (tools.formulas.formed_columns.consumed)."""
    averaged: bool = False
    """For a formed quantity whose mean the assignment asks (D = rF/φ, then its mean): its
    rows are repeated determinations of it, summarised, not fitted
    (tools.columns.averaged_columns)."""

    @classmethod
    def of_values(cls, values: ArrayLike, **fields: Any) -> Column:
        """A column holding `values`: its count and range are those of the finite ones."""
        column = cls(count=0, **fields)
        column.span(values)
        return column

    def span(self, values: ArrayLike) -> None:
        """Count and range over the finite `values` (rows cut or formed since)."""
        numbers = np.asarray(values, dtype=float)
        finite = numbers[np.isfinite(numbers)]
        self.count = int(finite.size)
        self.minimum = float(finite.min()) if finite.size else None
        self.maximum = float(finite.max()) if finite.size else None


def unnamed(position: int) -> str:
    """The name of the column at `position` (from 1) of a file that names none."""
    return f"column {position}"


def describe(frame: pd.DataFrame, spelled: list[tuple[str, str, str]]) -> list[Column]:
    """The columns of `frame` (whose columns are in the order of `spelled`), with unique
    keys, counts and ranges, and uncertainty columns paired with what they qualify."""
    columns = [
        Column(
            key=key,
            header=text,
            name=name,
            unit=unit,
            count=int(frame.iloc[:, i].notna().sum()),
            minimum=_finite(frame.iloc[:, i].min()),
            maximum=_finite(frame.iloc[:, i].max()),
        )
        for i, (key, (text, name, unit)) in enumerate(
            zip(unique_keys([name for _, name, _ in spelled]), spelled, strict=True)
        )
    ]
    pair_uncertainties(columns)
    return columns


def add_ratios(
    columns: list[Column], frame: pd.DataFrame, x: str | None
) -> tuple[list[Column], pd.DataFrame]:
    """The columns and values with, for each input column (`_INPUT_NAME`), the ratio of
    every other column in its unit to it (`V_R/V_in`, dimensionless); NaN where the input
    is zero."""
    inputs = [c for c in columns if c.key != x and c.unit and _INPUT_NAME.search(c.name)]
    ratios: dict[str, pd.Series] = {}
    derived: list[Column] = []
    for source in inputs:
        divisor = frame[source.key].where(frame[source.key] != 0)
        for column in columns:
            if column in inputs or column.key == x or column.uncertainty_of is not None:
                continue
            if column.unit != source.unit:
                continue
            key = f"{column.key}/{source.key}"
            values = frame[column.key] / divisor
            ratios[key] = values
            derived.append(
                Column.of_values(values, key=key, header="", name=f"{column.name}/{source.name}",
                                 ratio_of=(column.key, source.key))
            )  # fmt: skip
    if not derived:
        return columns, frame
    return columns + derived, pd.concat([frame, pd.DataFrame(ratios)], axis=1)


def inputs_of(columns: list[Column]) -> set[str]:
    """Keys of the columns some derived ratio divides by."""
    return {c.ratio_of[1] for c in columns if c.ratio_of is not None}


def mark_maxima(columns: list[Column], frame: pd.DataFrame, x: str | None) -> None:
    """Record, on each dependent column, the x where it is largest."""
    for column in columns:
        if x is not None and column.key != x and column.count:
            column.x_at_maximum = _finite(frame[x][frame[column.key].idxmax()])


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


def pair_uncertainties(columns: list[Column]) -> None:
    """Mark columns that give another column's uncertainty (`dV`, `V_err`, `u(V)`, or a
    bare `err` right after the column it belongs to)."""
    by_name = {column.name.lower(): column.key for column in columns}
    for i, column in enumerate(columns):
        name = column.name.strip()
        for pattern in (_GUM_UNCERTAINTY, _UNCERTAINTY_PREFIX, _UNCERTAINTY_SUFFIX):
            match = pattern.match(name)
            others = [c for c in columns if c is not column]
            # an abbreviation names a column only before `_err` (`v_err`): `ΔT` is no
            # uncertainty of the temperature before it
            abbreviated = (
                pattern is _UNCERTAINTY_SUFFIX
                and match
                and _abbreviated(columns[:i], match["of"], column.unit)
            )
            of = match and (
                by_name.get(match["of"].lower()) or _subscripted(others, match["of"])
                or abbreviated or _differential(columns[:i], name, column.unit)
            )  # fmt: skip
            if of and of != column.key:
                column.uncertainty_of = of
                break
        else:
            if name.lower() in _BARE_UNCERTAINTY and i > 0:
                column.uncertainty_of = columns[i - 1].key


def _abbreviated(before: list[Column], short: str, unit: str) -> str | None:
    """The key of the column just before an uncertainty column whose name `short` begins
    (`v_err` after `voltage (V)`, `curr_err` after `current (A)`), in the same unit."""
    if not before or not short.isalpha():
        return None
    last = before[-1]
    same = last.name.lower().startswith(short.lower()) and last.uncertainty_of is None
    return last.key if same and (last.unit == unit or not unit) else None


def _differential(before: list[Column], name: str, unit: str) -> str | None:
    """The key of the column right before `dL`, `dT`, `dp` that the symbol after the d
    stands for, in the same unit: by its name's first letter (`Laenge`, `Temperatur`), or
    by the quantity the symbol conventionally is (p: a pressure, `Druck` in hPa)."""
    symbol = name[1:] if re.fullmatch(r"d[A-Za-z]", name) else None
    if symbol is None or not before or not unit or before[-1].uncertainty_of is not None:
        return None
    last = before[-1]
    if last.unit != unit:
        return None
    if last.name[:1].lower() == symbol.lower() or conventional_column(symbol, [last]):
        return last.key
    return None


def _subscripted(columns: list[Column], symbol: str) -> str | None:
    """The key of the one column whose name is `symbol` with a subscript (`E_Ka` for the
    `sigma_E` beside it), None where no column or several are."""
    found = [c.key for c in columns if re.match(rf"{re.escape(symbol)}_\w", c.name, re.I)]
    return found[0] if len(found) == 1 else None


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


def unique_keys(names: list[str]) -> list[str]:
    seen: Counter[str] = Counter()
    keys = []
    for name in names:
        seen[name] += 1
        keys.append(name if seen[name] == 1 else f"{name} {seen[name]}")
    return keys


def _finite(value: float) -> float | None:
    return float(value) if np.isfinite(value) else None
