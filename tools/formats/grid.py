"""The tables in a grid of cells, whatever the file the grid came from (delimited text, a
spreadsheet's sheet): runs of numeric rows, each with its header and units rows and its
independent variable, and the instrument's metadata around them as parameters.

Instruments write their metadata where they like: in a preamble (`Sample Interval,1e-9`,
`Init E (V) = 0`), in columns beside the data (a Tektronix scope), in a units row under
columns of their own (a Rigol's Start and Increment), or as a small results table above the
data (an Instron's Maximum Load). Whatever is not data becomes a parameter of the analysis;
what the metadata says of the data (a sample interval, units, a channel's name) completes
the tables (tools.formats.instruments).
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from labscribe.tools.columns.column import Column, add_ratios, describe, mark_maxima
from labscribe.tools.columns.counting import counting_name
from labscribe.tools.columns.variable_column import (
    independent_variable,
    row_numbers_note,
    set_aside_row_numbers,
)
from labscribe.tools.formats.cell_grid import Found, Grid
from labscribe.tools.formats.channel_settings import channel_settings
from labscribe.tools.formats.groups import group_column, group_title, group_words, without_index
from labscribe.tools.formats.header_rows import heading_of
from labscribe.tools.formats.headings import HEADER_LOOKBACK, Heading, heading, spell
from labscribe.tools.formats.instruments import apply_metadata, metadata_of_line, metadata_of_lines
from labscribe.tools.formats.parameters import ParameterRow
from labscribe.tools.formats.part_tables import names_a_value, part_rows, unit_of_rows
from labscribe.tools.formats.side_by_side_runs import run_groups
from labscribe.tools.formats.split_clock import joined_clock
from labscribe.tools.formats.stated_means import mark_stated_means
from labscribe.tools.formats.superseded import set_aside_superseded
from labscribe.tools.formats.time_columns import elapsed

MAX_TABLES_PER_FILE = 8  # blocks beyond this are instrument dumps, not report material
# What labs and spreadsheets write where a reading is missing.
MISSING = re.compile(
    r"\s*(?:n/?a|nan|null|none|missing|[-–—]+|\?+|#n/?a|#value!|#div/0!|#ref!|#num!)\s*",
    re.IGNORECASE,
)
MIN_ROWS = 3  # fewer numeric rows are a parameter line or a stray pair, not a table
# A run too short for a table just after one, in its columns: a footer of results under
# their own heading, or readings a stray line broke off. Either way the student is told.
BREAK_LINES = 2
BROKEN_OFF = (
    "{rows} after the line “{line}” below the table {are} read as settings under that line, "
    "not as rows of the table: if {they} readings, that line breaks the data"
)
MAX_METADATA = 80  # metadata rows kept of one file: a header, not a dump
# Columns numeric in this share of the numeric rows hold data; columns filled in at most
# SIDE_SHARE of them hold something else (a scope's settings beside its samples).
DATA_SHARE = 0.8
SIDE_SHARE = 0.2
COLUMN_SHARE = 0.2  # of a run's rows a column must fill to be one of its columns


def tables_in(grid: Grid) -> tuple[list[Found], list[ParameterRow], int]:
    """The tables of `grid` (each run of MIN_ROWS or more numeric rows, split into runs
    side by side where the header says so), the metadata as parameter rows (source left
    empty for the caller), and how many blocks the grid held."""
    if (parts := part_rows(grid)) is not None:
        return [], parts, 0  # a table of parts and their values: settings, no data
    metadata: list[ParameterRow] = []
    # a cell that says a reading is missing (`n/a`, `-`, `#N/A`) is an empty one
    missing = grid.cells.apply(lambda column: column.str.fullmatch(MISSING, na=False))
    numeric = _numeric_rows(grid.cells.mask(missing, ""), grid.values)
    side = _side_metadata(grid, numeric)
    if side:  # its cells are blanked now: read the rows again
        metadata += side
        numeric = _numeric_rows(grid.cells.mask(missing, ""), grid.values)
    numeric = _headers_apart(grid, numeric, missing)
    longest = max(_runs(numeric), key=lambda run: run[1] - run[0], default=(0, 0))
    channels, read = channel_settings(grid, longest[0])
    numeric[read] = False  # `Probe Attenuation,1,,10,` is two settings, not a row of data
    runs = _runs(numeric)
    used = np.zeros(len(numeric), dtype=bool)
    used[read] = True
    found: list[Found] = []
    table_end = 0  # where the last run read as a table stops
    for start, stop in runs:
        used[start:stop] = True
        if stop - start < MIN_ROWS:
            if found and (broken := _broken_off(grid, table_end, (start, stop))):
                found[-1].left_out.append(broken)
            metadata += _results_block(grid, numeric, (start, stop), used)
            continue
        if len(found) >= MAX_TABLES_PER_FILE:
            continue
        previous = found[-1] if found else None
        tables = _tables_of_run(grid, numeric, (start, stop), previous, used)
        if not tables:  # one number a line (`L1 ; 1.15 ; comment`): settings, read as such
            used[start:stop] = False
        table_end = stop if tables else table_end
        found += tables
    metadata += metadata_of_lines(
        [(i, line) for i, line in enumerate(grid.lines[: len(used)]) if not used[i]]
    )
    metadata = (metadata + channels)[:MAX_METADATA]
    for table in found:
        apply_metadata(table, metadata)
    return found, metadata, sum(1 for a, b in runs if b - a >= MIN_ROWS)


def finish(found: Found) -> tuple[list[Column], pd.DataFrame, str | None]:
    """The table's columns with moments as elapsed seconds, ratios to inputs and maxima
    marked, its values, its x."""
    columns, frame, clocks, joined = joined_clock(found.columns, found.frame, found.clocks)
    found.notes += [joined] if joined else []
    columns, frame = elapsed(columns, frame, clocks)
    counted_first = columns[0]
    columns, found.row_numbers = set_aside_row_numbers(columns, frame, keep=found.x)
    found.notes += [row_numbers_note(c, frame) for c in found.row_numbers]
    columns, superseded = set_aside_superseded(columns)
    found.notes += superseded
    x = (
        found.x
        if found.x is not None
        else independent_variable(
            columns, frame, after_row_numbers=counted_first in found.row_numbers
        )
    )
    columns, frame = add_ratios(columns, frame, x)
    mark_stated_means(columns, frame)
    mark_maxima(columns, frame, x)
    return columns, frame, x


def _numeric_rows(cells: pd.DataFrame, values: pd.DataFrame) -> np.ndarray:
    """Which rows are numbers: two or more of their cells are, and most of the filled ones,
    a column of words in the rows that hold numbers aside (a logger's `Chamber Status`);
    `cells` has its cells that say a reading is missing emptied."""
    texts = (cells != "") & values.isna()
    numbers = values.notna().sum(axis=1).to_numpy()
    candidates = numbers >= 2
    wordy = np.zeros(len(cells.columns), dtype=bool)
    if candidates.any():
        wordy = (texts[candidates].mean() >= DATA_SHARE).to_numpy()
    filled = ((cells != "").to_numpy() & ~wordy).sum(axis=1)
    numeric = candidates & (numbers >= 0.6 * filled)
    # a row with a reading missing (`42.12<TAB>` in a CASSY export) between rows of numbers
    # is a row of the table with an empty cell, not the end of it
    gapped = (numbers >= 1) & (numbers == filled) & ~numeric
    return numeric | _between(numeric, gapped)


def _between(numeric: np.ndarray, gapped: np.ndarray) -> np.ndarray:
    """The `gapped` rows that stand, alone or together, between two numeric rows."""
    joined = np.zeros(len(numeric), dtype=bool)
    start = None
    for row in range(len(numeric)):
        if gapped[row] and start is None and row > 0 and numeric[row - 1]:
            start = row
        elif not gapped[row] and start is not None:
            joined[start:row] = bool(numeric[row])
            start = None
    return joined


def _headers_apart(grid: Grid, numeric: np.ndarray, missing: pd.DataFrame) -> np.ndarray:
    """`numeric`, with the first row of each run, and those just above it, taken out where
    they write text in a column the run fills with numbers: a header that names channels
    by number (Keysight's `x-axis,1,2`) is mostly numbers, but no data. A cell that says a
    reading is `missing` (a sheet's `#DIV/0!`) is no text."""
    numeric = numeric.copy()
    for start, stop in _runs(numeric):
        if stop - start <= MIN_ROWS:
            continue
        data = grid.values.iloc[start + 1 : stop].notna().mean() >= DATA_SHARE
        for row in range(start, max(-1, start - HEADER_LOOKBACK - 1), -1):
            texts = (grid.cells.iloc[row] != "") & grid.values.iloc[row].isna()
            if numeric[row] and (texts & ~missing.iloc[row] & data).any():
                numeric[row] = False
    return numeric


def _runs(numeric: np.ndarray) -> list[tuple[int, int]]:
    """[start, stop) of each run of numeric rows."""
    padded = np.concatenate([[False], numeric, [False]])
    edges = np.flatnonzero(np.diff(padded.astype(np.int8)))
    return [(int(a), int(b)) for a, b in zip(edges[0::2], edges[1::2], strict=True)]


def _side_metadata(grid: Grid, numeric: np.ndarray) -> list[ParameterRow]:
    """Settings written in columns beside the data (`Sample Interval,1e-9,,t,v` on the first
    rows of a scope's export; `Start,Increment` over their values in a units row): read as
    parameters, and blanked so the data's rows and header read as such."""
    rows = np.flatnonzero(numeric | (grid.values.notna().sum(axis=1).to_numpy() >= 2))
    if len(rows) < 2 * MIN_ROWS:
        return []
    block_values = grid.values.iloc[rows]
    block_cells = grid.cells.iloc[rows]
    data = [c for c in grid.cells.columns if block_values[c].notna().mean() >= DATA_SHARE]
    # the line above the data names its columns: a sparse column named like a data column
    # is a shorter series of the same quantities beside it, not settings
    names = {grid.cells.iat[rows[0] - 1, c].strip() for c in data} if rows[0] else set()
    side = [
        c for c in grid.cells.columns
        if c not in data and 0 < (block_cells[c] != "").mean() <= SIDE_SHARE
        and not (rows[0] and grid.cells.iat[rows[0] - 1, c].strip() in names - {""})
        and not _labels_blocks(grid, numeric, c)
    ]  # fmt: skip
    if len(data) < 2 or not side:
        return []
    lines = np.flatnonzero((grid.cells.iloc[:, side] != "").any(axis=1).to_numpy()).tolist()
    found: list[ParameterRow] = []
    for k, i in enumerate(lines):
        cells = [grid.cells.iat[i, c].strip() for c in side]
        numbers = [float(grid.values.iat[i, c]) for c in side]
        below = lines[k + 1] if k + 1 < len(lines) else None
        if below is not None and _names_over_values(cells, numbers, grid, below, side):
            values = [float(grid.values.iat[below, c]) for c in side]
            texts = [grid.cells.iat[below, c].strip() for c in side]
            found += [
                ParameterRow(source="", key=name, name=name, value=text, number=value)
                for name, text, value in zip(cells, texts, values, strict=True)
                if name and np.isfinite(value)
            ]  # fmt: skip
        elif not any(np.isfinite(v) for v in numbers[:1]):  # a label and its value
            found += metadata_of_line("\t".join(cell for cell in cells if cell))
    grid.cells.iloc[lines, side] = ""
    grid.values.iloc[lines, side] = np.nan
    return found


def _labels_blocks(grid: Grid, numeric: np.ndarray, column: int) -> bool:
    """Whether `column` labels blocks of a run of data rows (`1ra serie` over its readings,
    then `2da serie`): group labels, not settings beside the data."""
    return any(
        group_column(grid.cells.iloc[a:b, [column]], grid.values.iloc[a:b, [column]], None)
        is not None
        for a, b in _runs(numeric) if b - a >= MIN_ROWS
    )  # fmt: skip


def _names_over_values(
    cells: list[str], numbers: list[float], grid: Grid, below: int, side: list[int]
) -> bool:
    """Whether a row of names stands over a row of their values (Rigol's `Start,Increment`
    over `-3e-07,5e-10`), rather than holding labels with their values."""
    if any(np.isfinite(v) for v in numbers) or sum(bool(c) for c in cells) < 2:
        return False
    values = [grid.values.iat[below, c] for c in side]
    first = next((v for c, v in zip(cells, values, strict=True) if c), np.nan)
    return bool(np.isfinite(first))


def _results_block(
    grid: Grid, numeric: np.ndarray, span: tuple[int, int], used: np.ndarray
) -> list[ParameterRow]:
    """A run of one or two numeric rows under a header (an export's results: `Maximum
    Load` over its value and unit) as parameters, one per column."""
    start, stop = span
    found = heading(grid.cells, numeric, start)
    if found.header is None:
        return []
    names = sum(bool(cell) for cell in found.header)
    if found.units is None and names <= 2 and all(_labelled(grid, i) for i in range(start, stop)):
        return []  # a labelled row under a `key,value` line: `Scan range,5.0,80.0` is a setting
    positions = [p for p in grid.cells.columns if grid.values.iloc[start:stop][p].notna().any()]
    if not all(names_a_value(found.header[p]) for p in positions):
        used[start:stop] = False  # its lines are settings of their own, read line by line
        return []  # a line of a datasheet above another (`B = 3977 K ± 0.75 %`), no header
    used[found.rows] = True
    rows: list[ParameterRow] = []
    spelled = spell(found, positions)
    for offset, i in enumerate(range(start, stop)):
        suffix = f" ({offset + 1})" if stop - start > 1 else ""
        for p, (header, name, unit) in zip(positions, spelled, strict=True):
            value = grid.values.iat[i, p]
            if header and np.isfinite(value):
                rows.append(
                    ParameterRow(source="", section=found.title, key=header + suffix,
                                 name=name + suffix, value=grid.cells.iat[i, p].strip(),
                                 number=float(value), unit=unit)
                )  # fmt: skip
    return rows


def _broken_off(grid: Grid, table_end: int, span: tuple[int, int]) -> str | None:
    """What a run too short for a table says where it lies just below one (`table_end`), in
    its columns: a footer of results, or readings a stray line broke off; None elsewhere."""
    start, stop = span
    filled = grid.values.iloc[[table_end - 1, start]].notna().to_numpy()
    if start - table_end > BREAK_LINES or not (filled[0] == filled[1]).all():
        return None
    one = stop - start == 1
    return BROKEN_OFF.format(
        rows="the numeric row" if one else f"the {stop - start} numeric rows",
        line=grid.lines[start - 1].strip()[:60], are="is" if one else "are",
        they="it is" if one else "they are",
    )  # fmt: skip


def _labelled(grid: Grid, row: int) -> bool:
    """Whether the row's first filled cell is words, not a number."""
    filled = np.flatnonzero((grid.cells.iloc[row] != "").to_numpy())
    return bool(len(filled)) and bool(np.isnan(grid.values.iat[row, filled[0]]))


def _tables_of_run(
    grid: Grid,
    numeric: np.ndarray,
    span: tuple[int, int],
    previous: Found | None,
    used: np.ndarray,
) -> list[Found]:
    """The table of the run of rows `span`, split into the runs its header puts side by
    side (`Time (s) Run #1; ...; Time (s) Run #2`); none if it has fewer than two numeric
    columns. A block without a header of its own takes the previous block's, when the
    columns agree in number."""
    run = grid.values.iloc[span[0] : span[1]]
    found = heading(grid.cells, numeric, span[0])
    # a column of data fills a fair share of the run: a shorter run beside a longer one
    # fills fewer rows than half; a shorter series under names that repeat those of a
    # longer one beside it (an isotherm's desorption branch) fills fewer still
    counts = run.notna().sum()
    filled = max(MIN_ROWS, COLUMN_SHARE * len(run))
    positions = [p for p in run.columns if counts[p] >= filled]
    if found.header is not None:
        kept = {found.header[p] for p in positions if found.header[p]}
        positions = [p for p in run.columns if p in positions or (
            counts[p] >= MIN_ROWS and found.header[p] in kept)]  # fmt: skip
    if len(positions) < 2:
        return []
    found = heading_of(grid, numeric, span[0], positions)
    used[found.rows] = True
    if found.header is None and previous is not None and len(previous.columns) == len(positions):
        spelled = [(c.header, c.name, c.unit) for c in previous.columns]
    else:
        spelled = spell(found, positions)
    cells = grid.cells.iloc[span[0] : span[1]]
    shared = unit_of_rows(found.header, cells)  # `uom` = `SEC` on every row
    spelled = [
        (header, name, unit or grid.units.get(p, "") or ("" if counting_name(header) else shared))
        for p, (header, name, unit) in zip(positions, spelled, strict=True)
    ]
    label = group_column(cells, run, found.header)
    words = group_words(cells, label) if label is not None else pd.Series("", index=run.index)
    header = found.header[label] if label is not None and found.header else ""
    tables = []
    for group in run_groups(spelled, found.title):
        chosen = [positions[i] for i in group.members]
        columns = describe(run[chosen], group.spelled)
        whole = run[chosen].set_axis([c.key for c in columns], axis=1)
        if label is not None:  # R's row names run on across the groups: none numbers a group
            columns, whole = without_index(columns, whole)
            chosen = chosen[len(chosen) - len(columns) :]
        for word in dict.fromkeys(words):  # one table per group a column of words names
            frame = whole[words == word].reset_index(drop=True)
            frame = frame.dropna(how="all").reset_index(drop=True)  # a shorter run's empty rows
            title = group_title(group.title, header, word) if word else group.title
            if len(frame) >= MIN_ROWS and len(columns) >= 2:
                clocks = {c.key: grid.clocks[p] for c, p in zip(columns, chosen, strict=True)
                          if p in grid.clocks}  # fmt: skip
                tables.append(Found(_spanning(columns, frame), frame, title, None, clocks=clocks))
    return tables


def _spanning(columns: list[Column], frame: pd.DataFrame) -> list[Column]:
    """The columns as a group of rows holds them: its own counts and ranges (one water
    sample's 19.4–19.6 °C, not the file's 19.1–21.2 °C)."""
    own = [column.model_copy() for column in columns]
    for column in own:
        column.span(frame[column.key])
    return own


__all__ = ["Grid", "Heading", "finish", "tables_in"]
