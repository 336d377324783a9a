"""What the columns of a table are: their names and units, from what stands above them
(tools.formats.headings), and which column gives another's uncertainty. Which is the
independent variable is tools.columns.variable_column's."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike
from pydantic import BaseModel

from labscribe.tools.columns.symbol_dimensions import conventional_column

# The name labscribe gives a column its file names not (`unnamed`).
UNNAMED = re.compile(r"column \d+")
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
    fitted on their own (tools.formulas.formed_lineage.consumed)."""
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


def unique_keys(names: list[str]) -> list[str]:
    seen: Counter[str] = Counter()
    keys = []
    for name in names:
        seen[name] += 1
        keys.append(name if seen[name] == 1 else f"{name} {seen[name]}")
    return keys


def _finite(value: float) -> float | None:
    return float(value) if np.isfinite(value) else None
