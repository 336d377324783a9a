"""Headers as labs write them, beyond one row of names over the data (tools.columns reads
that one):

- behind a comment mark, as gnuplot files, numpy.savetxt and MATLAB/Octave scripts write
  them (`# t  x`, then perhaps `# [s] [m]`; `% t x`, `! `, `; `);
- names of several words over blank-separated columns (`Time (s)   Applied Voltage (V)`),
  placed over the data by position, the column specs inferred by pandas' read_fwf;
- one name fewer than the data has columns, as R's write.table writes a table with its row
  names: the names belong to the last columns, and the first (the row names) has none;
- units spelled out where the names would be (a Siglent scope's `Second,Volt`): unnamed
  columns in those units (a header of symbols, `T,V`, is names).
"""

from __future__ import annotations

import io
import re

import numpy as np
import pandas as pd

from labscribe.tools.cell_grid import Grid
from labscribe.tools.columns import HEADER_LOOKBACK, Heading, heading, is_units_row
from labscribe.tools.instruments import metadata_of_line
from labscribe.tools.units import unit_word

# Data lines read_fwf infers the column specs from, beside the header (its own default).
INFER_ROWS = 100
# A blank between two words of a name: glued while read_fwf infers where columns part, so a
# name's words stay together and only a run of blanks (or data under it) parts two names.
_INNER_BLANK = re.compile(r"(?<=\S) (?=\S)")
_GLUE = "\x1f"
_COMMENT_MARK = re.compile(r"^ *(?:#+|%+|//|!+|;+)")


def heading_of(grid: Grid, numeric: np.ndarray, start: int, positions: list[int]) -> Heading:
    """The heading of the block of data rows that starts at row `start` (its columns at
    `positions`): the lines above it as tools.columns reads them, else its comment lines;
    names placed by position over blank-separated columns; a header one name short of the
    data set over its last columns (a comment's names stay over the first: R writes none)."""
    found = heading(grid.cells, numeric, start)
    data_fields = _data_fields(grid, start, positions)
    if found.header is None:
        commented = _commented(grid, start) if grid.comments else None
        if commented is not None and commented.header is not None and grid.blank_separated:
            commented = _by_position(grid, commented, start, data_fields)
        return commented if commented is not None and _fits(commented, data_fields) else found
    if found.units is None and all(unit_word(cell) for cell in found.header if cell):
        return Heading(None, found.header, found.title, found.rows)  # Siglent's `Second,Volt`
    if found.units is not None and _setting_line(grid.lines[found.rows[0]]):
        # `Horizontal Scale, 0.00001` above `Second,Volt`: a setting, not the names
        return Heading(None, found.units, found.title, found.rows[1:])
    if grid.blank_separated:
        found = _by_position(grid, found, start, data_fields)
    return _one_short(grid, found, start, data_fields)


def _first_column_filled(grid: Grid, start: int) -> bool:
    """Whether every data row of the block at `start` (up to INFER_ROWS of them) writes
    something in its first column."""
    rows = grid.cells.iloc[start : start + INFER_ROWS]
    block = rows[(rows != "").any(axis=1).cummin()]  # up to the first blank line
    return bool((block.iloc[:, 0].str.strip() != "").all())


def _setting_line(line: str) -> bool:
    """Whether `line` writes one of an instrument's settings with its number."""
    return any(row.number is not None for row in metadata_of_line(line))


def _fits(found: Heading, data_fields: int) -> bool:
    """Whether a comment's heading names as many columns as the data have, or one fewer
    (a units row alone always fits)."""
    if found.header is None:
        return True
    return len([cell for cell in found.header if cell]) in (data_fields, data_fields - 1)


def _data_fields(grid: Grid, start: int, positions: list[int]) -> int:
    """How many fields the block's first data row writes (its row names included)."""
    if grid.widths is not None and start < len(grid.widths) and grid.widths[start]:
        return grid.widths[start]
    return len(positions)


def _commented(grid: Grid, start: int) -> Heading | None:
    """The heading the comment lines just above row `start` write (blank lines aside): no
    number among its names, no `key: value`."""
    rows: list[int] = []
    row = start - 1
    while row >= 0 and len(rows) < HEADER_LOOKBACK and not (grid.cells.iloc[row] != "").any():
        if row in grid.comments:
            rows.append(row)
        row -= 1
    if not rows:
        return None
    rows.reverse()
    width = max(grid.cells.shape[1], *(len(grid.comments[r]) for r in rows))
    lines = [grid.comments[r] + [""] * (width - len(grid.comments[r])) for r in rows]
    found = heading(pd.DataFrame(lines, dtype=str), np.zeros(len(rows), dtype=bool), len(rows))
    if found.header is None:
        return None
    placed = [rows[i] for i in found.rows]
    named = [cell for cell in found.header if cell]
    if found.units is None and is_units_row(named):  # `# [s] [m]` alone: units, no names
        return Heading(None, found.header, "", placed)
    if any(_not_a_name(cell) for cell in named):
        return None
    return Heading(found.header, found.units, "", placed)


def _not_a_name(cell: str) -> bool:
    """A number or a setting (`rows: 5`, `n=3`): no column's name."""
    try:
        float(cell.replace(",", "."))
    except ValueError:
        return cell.endswith(":") or "=" in cell
    return True


def _by_position(grid: Grid, found: Heading, start: int, data_fields: int) -> Heading:
    """`found` with its header's names placed over the data by position, where its words,
    split at blanks, are not as many as the data's columns."""
    assert found.header is not None
    if len([cell for cell in found.header if cell]) == data_fields:
        return found
    row = found.rows[0]
    line = grid.lines[row]
    if row in grid.comments:  # the mark blanked, so every name keeps its position
        line = _COMMENT_MARK.sub(lambda mark: " " * len(mark[0]), line)
    if "  " not in line.strip():
        return found  # names parted by single blanks are not placed by position
    data = [grid.lines[r] for r in range(start, min(start + INFER_ROWS, len(grid.lines)))]
    names = names_by_position(line, data)
    if names is None or not all(names) or len(names) not in (data_fields, data_fields - 1):
        return found
    width = len(found.header)
    header = (names + [""] * width)[:width]
    return Heading(header, found.units, found.title, found.rows)


def names_by_position(header: str, data: list[str]) -> list[str] | None:
    """The names `header` writes over the columns of the blank-separated `data` lines, each
    name the text over one column as pandas' read_fwf infers the columns (a name's words
    kept together); None when read_fwf cannot read them."""
    glued = _INNER_BLANK.sub(_GLUE, header.expandtabs().rstrip())
    text = "\n".join([glued, *(line.expandtabs().rstrip() for line in data)])
    try:
        frame = pd.read_fwf(io.StringIO(text), colspecs="infer", infer_nrows=len(data) + 1,
                            header=None, nrows=1, dtype=str, keep_default_na=False)  # fmt: skip
    except (ValueError, pd.errors.ParserError):
        return None
    if frame.empty:
        return None
    return [str(cell).replace(_GLUE, " ").strip() for cell in frame.iloc[0].tolist()]


def _one_short(grid: Grid, found: Heading, start: int, data_fields: int) -> Heading:
    """`found` with its names moved one column right when the header writes one name fewer
    than the data row has fields (R's write.table: the row names come first, unnamed, and
    every row has one: a first column left empty is no row names, and the extra field is
    elsewhere, a cell with a comma of its own such as MultiVu's `(50.0, 'Call was ...')`)."""
    assert found.header is not None
    named = [cell for cell in found.header if cell]
    if len(named) != data_fields - 1 or not all(found.header[: len(named)]):
        return found
    if not _first_column_filled(grid, start):
        return found
    if len(found.header) <= len(named):
        return found  # no column left empty to move the names into
    row = found.rows[0]
    written = len(named)
    if grid.widths is not None and row not in grid.comments and not grid.blank_separated:
        written = grid.widths[row]  # `t,x,` writes three fields: its third name is empty
    if written != len(named):
        return found
    units = found.units
    if units is not None and len([cell for cell in units if cell]) == len(named):
        units = ["", *units[:-1]]
    return Heading(["", *found.header[:-1]], units, found.title, found.rows)
