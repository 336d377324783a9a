"""What the columns of a table are: their names and units, from the header and a units
row, which column gives another's uncertainty, and which is the independent variable."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from pydantic import BaseModel

from labscribe.tools.counting import counts_rows, reader_index, series_label
from labscribe.tools.unit_headers import named_by_units
from labscribe.tools.units import known_unit, split_unit

# Headers and units rows are looked for this many non-blank lines above the numbers.
HEADER_LOOKBACK = 3
# A units row names units in this share of its cells at least (Gamry's `bits` and `#`
# beside `s`, `V vs. Ref.`, `A`).
UNITS_SHARE = 0.6
COUNTING = frozenset({"#", "sequence", "bits", "count", "counts", "no.", "n"})
SHORT_NAME = 4  # characters of a short name under a long one (LoggerPro's `t`, `Temp`)
MIN_MONOTONIC = 3  # a run of fewer values says nothing about rising or falling
# Three readings of one sample (`Lectura` 1 to 3) rise by chance one time in three: only a
# longer run that rises throughout says lap times (`No., t`), not repeats
MIN_LAPS = 5
REPEAT_SPREAD = 0.02  # repeats of one value scatter by less than this share of it
# A name starts with a letter, or with `%` or `#` before one (`%Wt`); `0 0 0` is a value.
_NAME_START = re.compile(r"^[^\W\d_%#]|^[%#]\S")
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
_UNCERTAINTY_PREFIX = re.compile(r"^(?:delta|sigma|unc|std|err|d|δ|Δ|σ|u)[_ ]?(?P<of>.+)$", re.I)
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
    """For a column of moments read as elapsed seconds (tools.time_columns): the moment they
    count from, `2024-03-01 10:15:00`."""
    formed: str = ""
    """For a quantity labscribe formed from other columns as the assignment asks (T² from
    the time of 10 swings, 1/T, P = U·I; tools.formed_columns): how, in words."""
    formed_from: list[str] = []
    """The keys of the columns it was formed from: their values are in it, so they are not
    fitted on their own (tools.formed_columns.consumed)."""


@dataclass(frozen=True)
class Heading:
    """What stands above a block's numbers."""

    header: list[str] | None
    units: list[str] | None
    title: str
    rows: list[int] = field(default_factory=list)
    """The rows the header, units row and title stand in."""


def spell(heading: Heading, positions: list[int]) -> list[tuple[str, str, str]]:
    """(header as written, name, unit) of the columns at `positions`: the unit from the
    units row when there is one, else from the header (`V_R (V)`, `freq_Hz`)."""
    spelled = []
    for i, p in enumerate(positions):
        text = heading.header[p] if heading.header is not None else ""
        name, unit = split_unit(text) if text else (f"column {i + 1}", "")
        if heading.units is not None and heading.units[p] not in ("", "-"):
            unit = _unit_cell(heading.units[p]) or unit
        spelled.append((text, name, unit))
    return named_by_units(spelled)


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
    _pair_uncertainties(columns)
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
                Column(key=key, header="", name=f"{column.name}/{source.name}",
                       count=int(values.notna().sum()), minimum=_finite(values.min()),
                       maximum=_finite(values.max()), ratio_of=(column.key, source.key))
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
    an unnamed first column counting 1..n, `No.`, `trial`; tools.counting) is never a
    variable. `keep` (a table's x set by its instrument) stays whatever it is; a table
    keeps one column at least."""
    named = sum(bool(c.header.strip()) for c in columns) > 1
    aside = [
        c for i, c in enumerate(columns)
        if c.key != keep and c.uncertainty_of is None and not c.unit
        and counts_rows(c.header, frame[c.key].to_numpy(), first=i == 0, named_others=named)
    ]  # fmt: skip
    if len(aside) == len(columns):
        return columns, []
    kept = [c for c in columns if c not in aside]
    measured = [c for c in kept if c.uncertainty_of is None]
    if len(measured) == 1 and len(frame) >= MIN_LAPS and _monotonic(frame[measured[0].key]):
        # repeats never rise throughout: `No., t` are lap times against their number, so
        # only a reader's own index stays aside
        aside = [c for c in aside if reader_index(c.header)]
        kept = [c for c in columns if c not in aside]
    return kept, aside


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
    return len(stems) == 1 and len({c.unit for c in columns}) == 1


def one_quantity(columns: list[Column], frame: pd.DataFrame) -> bool:
    """Whether the table's columns repeat the measurement of one quantity, nothing being
    measured against: one column (with its uncertainty), columns of one name (`T, T, T`),
    or of one name but a number (`T1, T2, T3`; `density, density2`) in one unit whose
    values overlap and of which none rises or falls throughout, or one column labelled
    by series (`Expt`, `Speed`)."""
    measured = [c for c in columns if c.uncertainty_of is None]
    if len(measured) == 1 or series_column(columns, frame) is not None:
        return True
    if len({c.name for c in measured}) == 1:
        return True
    if not one_name_and_unit(measured):
        return False
    if any(_monotonic(frame[c.key]) and not _narrow(frame[c.key]) for c in measured):
        return False
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


def heading(cells: pd.DataFrame, numeric: np.ndarray, start: int) -> Heading:
    """(header cells, units cells, title) from the lines above row `start`: the nearest
    lines of several cells are the header, or a units row and the header above it; a line
    of one cell above them is the block's title when it reads like one (`[Block 2]`)."""
    several: list[tuple[int, list[str]]] = []
    title, titled = "", []
    row = start - 1
    while row >= 0 and len(several) < HEADER_LOOKBACK and not numeric[row]:
        line = [cell.strip() for cell in cells.iloc[row].tolist()]
        filled = [cell for cell in line if cell]
        if is_rule(filled):
            row -= 1  # a dashed rule under the header (Hiden's `-----`) parts no block
            continue
        text = " ".join(filled)
        if not several and len(filled) == 1 and _lone_unit(text):
            several.append((row, line))  # `(m),,,,,`: the units row of the first column alone
            row -= 1
            continue
        if len(filled) == 1 or (_bracketed(text) and text.count("]") + text.count("】") == 1):
            title, titled = _title(text), [row]
            break
        if filled:
            several.append((row, _with_units_attached(line)))
        row -= 1
    if len(several) >= 2 and is_units_row([cell for cell in several[0][1] if cell]):
        (units_row, units), (header_row, header) = several[:2]
        upper = several[2][1] if len(several) == 3 else []
        data = int((cells.iloc[start] != "").sum()) if start < len(cells) else len(upper)
        if named := _names_above_units(upper, header, data):
            return Heading(named, units, title, [several[2][0], header_row, units_row, *titled])
        return Heading(header, units, title, [header_row, units_row, *titled])
    if len(several) == 3 and is_units_row([cell for cell in several[1][1] if cell]):
        # names, units, then a row of comments (an Origin worksheet's label rows)
        (units_row, units), (header_row, header) = several[1:]
        return Heading(header, units, title, [header_row, units_row, several[0][0], *titled])
    if len(several) >= 2 and (joined := _names_over_two_rows(several[1][1], several[0][1])):
        return Heading(joined, None, title, [several[1][0], several[0][0], *titled])
    if several:
        return Heading(several[0][1], None, title, [several[0][0], *titled])
    return Heading(None, None, title, titled)


def _lone_unit(text: str) -> bool:
    """Whether a line's one cell is a unit in brackets (`(m)`, `[s]`), not a block's title
    (`[Block 2]`)."""
    return _bracketed(text) and known_unit(text[1:-1].strip()) is not None


def _names_above_units(upper: list[str], header: list[str], data: int) -> list[str] | None:
    """The names of a header over a units row when the row above it is part of them:
    names over two rows (Hiden's `Gas` over `Density`), or long names over short ones
    (LoggerPro's and Vernier Format 2's `Time`, `Force` over `t`, `F` over `s`, `N`); None
    when it is neither (a line of the preamble). Either writes no more names than the
    data have columns."""
    if not upper or sum(bool(cell) for cell in upper) > data:
        return None
    pairs = [(up, low) for up, low in zip(upper, header, strict=False) if up or low]
    if len(pairs) >= 2 and all(
        up and low and _NAME_START.match(up) and len(low) < len(up) and len(low) <= SHORT_NAME
        for up, low in pairs
    ):
        return upper  # the short names are symbols: the long ones name the columns
    return _names_over_two_rows(upper, header, partial=True)


def _names_over_two_rows(
    upper: list[str], lower: list[str], partial: bool = False
) -> list[str] | None:
    """Names written over two rows (PerkinElmer Pyris: `Unsubtracted` over `Weight`), each
    lower cell under a filled upper one and every cell words; None otherwise. `partial`
    asks that some names stop at the upper row (Hiden's `Gas` over `Density` beside
    `Pressure` alone), as over a units row, where a full row above the names is a line of
    the preamble more often than their first words."""
    if not all(_NAME_START.match(cell) for cell in upper + lower if cell):
        return None  # names start with a letter: `0 0 0` is a value
    under = [bool(low) for low in lower]
    if not any(under) or any(low and not up for up, low in zip(upper, lower, strict=False)):
        return None
    if partial and sum(bool(up) for up in upper) <= sum(under):
        return None
    if sum(under) < 2 or len(lower) > len(upper):
        return None
    return [f"{up} {low}".strip() for up, low in zip(upper, lower + [""] * len(upper),
                                                      strict=False)]  # fmt: skip


def _with_units_attached(line: list[str]) -> list[str]:
    """`t [s] x [m]`, split at blanks, as the two headers `t [s]` and `x [m]`; a units row
    (`"(s)","(mm)"`) and empty cells stay where they are."""
    filled = [cell for cell in line if cell]
    if not any(_bracketed(cell) for cell in line[1:]) or all(_bracketed(c) for c in filled):
        return line
    merged: list[str] = []
    for cell in line:
        if merged and cell and _bracketed(cell) and merged[-1] and not _bracketed(merged[-1]):
            merged[-1] = f"{merged[-1]} {cell}"
        else:
            merged.append(cell)
    return merged + [""] * (len(line) - len(merged))


def is_rule(filled: list[str]) -> bool:
    """Whether the filled cells of a line draw a rule (`-----`, `=====`, `|---|---|`)."""
    text = "".join(filled)
    return len(text) >= 3 and not text.strip("-=_~:|+")


def _bracketed(cell: str) -> bool:
    return len(cell) >= 2 and cell[0] in "[(（【" and cell[-1] in "])）】"


def _title(line: str) -> str:
    """A block heading (`[Block 2]`, `Sweep 2`), or "" for a preamble line (`Date: ...`)."""
    text = line.strip()
    if text.startswith(("[", "【")):
        return text.strip("[]【】 ")
    return "" if re.search(r"[:=：]", text) or len(text) > 60 else text


def is_units_row(filled: list[str]) -> bool:
    """Most cells name a unit (`Hz`, `(mm)`, `V vs. Ref.`, `second`) and none is a number;
    a cell that counts (`#`, `Sequence`, `bits`) counts as one."""
    marks = [cell for cell in filled if cell not in ("-", "")]
    if not marks or any(_is_number(cell) for cell in marks):
        return False
    units = sum(_unit_cell(cell) is not None for cell in marks)
    return units == len(marks) or (units >= 2 and units >= UNITS_SHARE * len(marks))


def _unit_cell(cell: str) -> str | None:
    """The unit a units-row cell gives: `Hz`, `[Hz]`, `(V)`, `V vs. Ref.`; "" for a cell
    that counts (`#`, `Sequence`); None if it is not one."""
    inner = cell.strip()
    if inner.lower() in COUNTING:
        return ""
    if _bracketed(inner):
        inner = inner[1:-1].strip()
        return known_unit(inner) or (inner if 0 < len(inner) <= 16 else None)
    against = re.match(r"^(\S+)\s+vs\.?\s", inner)  # a potential against its reference
    return known_unit(against[1] if against else inner)


def _is_number(cell: str) -> bool:
    try:
        float(cell.replace(",", "."))
    except ValueError:
        return False
    return True


def _pair_uncertainties(columns: list[Column]) -> None:
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
            of = match and (by_name.get(match["of"].lower()) or _subscripted(others, match["of"])
                            or abbreviated)  # fmt: skip
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


def _subscripted(columns: list[Column], symbol: str) -> str | None:
    """The key of the one column whose name is `symbol` with a subscript (`E_Ka` for the
    `sigma_E` beside it), None where no column or several are."""
    found = [c.key for c in columns if re.match(rf"{re.escape(symbol)}_\w", c.name, re.I)]
    return found[0] if len(found) == 1 else None


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
