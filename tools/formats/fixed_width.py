"""Headers of fixed-width exports, read by the character positions their cells share with
the data under them (tools.formats.header_rows calls this for blank-separated columns).

Instruments that print a table for the eye (Mettler Toledo STARe, Hiden IGA, many loggers)
align each name and unit with its column, not with a single blank: a name may hold blanks
(`Applied Voltage`), a units row may leave a column without a unit (`Index` over no unit),
and a name may run over two rows (`Gas` over `Density`) above a units row and a dashed
rule. Split at blanks, such rows lose their columns; read by position, as pandas' read_fwf
infers the columns from the data, every cell lands over its own.
"""

from __future__ import annotations

import io
import re

import numpy as np
import pandas as pd

from labscribe.tools.formats.cell_grid import COMMENT_MARK, Grid
from labscribe.tools.formats.headings import HEADER_LOOKBACK, Heading, heading, is_rule

# Data lines read_fwf infers the column specs from, beside the header (its own default).
INFER_ROWS = 100
# A blank between two words of a name: glued while read_fwf infers where columns part, so a
# name's words stay together and only a run of blanks (or data under it) parts two names.
_INNER_BLANK = re.compile(r"(?<=\S) (?=\S)")
_GLUE = "\x1f"


def block_lines(grid: Grid, numeric: np.ndarray, start: int) -> list[str]:
    """The text of the block of data rows that starts at row `start` (at most INFER_ROWS
    rows): what read_fwf infers the columns from, and nothing past the block."""
    stop = start
    while stop < len(numeric) and stop - start < INFER_ROWS and numeric[stop]:
        stop += 1
    return grid.lines[start:stop]


def line_of(grid: Grid, row: int) -> str:
    """Row `row`'s text, a comment's mark blanked so every name keeps its position."""
    line = grid.lines[row]
    if row in grid.comments:
        line = COMMENT_MARK.sub(lambda mark: " " * len(mark[0]), line)
    return line


def names_by_position(header: str, data: list[str]) -> list[str] | None:
    """The names `header` writes over the columns of the blank-separated `data` lines, each
    name the text over one column as pandas' read_fwf infers the columns (a name's words
    kept together; "" over a column the line leaves blank); None when read_fwf cannot read
    them."""
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


def aligned_heading(
    grid: Grid, numeric: np.ndarray, start: int, rows: list[int], data_fields: int
) -> Heading | None:
    """The heading the lines `rows` (above the block at `start`, nearest last) write when
    each is read by position over the block's `data_fields` columns: the nearest lines that
    align, read as tools.formats.headings.heading reads a header, a units row and names over two
    rows. None when no line aligns or they name no column."""
    data = block_lines(grid, numeric, start)
    aligned: list[tuple[int, list[str]]] = []
    for row in reversed(rows):
        cells = names_by_position(line_of(grid, row), data)
        if cells is None or len(cells) != data_fields:
            break  # a preamble line above the header: the header ends below it
        aligned.insert(0, (row, cells))
    if not aligned:
        return None
    frame = pd.DataFrame([cells for _, cells in aligned], dtype=str)
    found = heading(frame, np.zeros(len(aligned), dtype=bool), len(aligned))
    if found.header is None or not any(found.header):
        return None
    placed = [aligned[i][0] for i in found.rows]
    return Heading(found.header, found.units, found.title, placed)


def lines_above(grid: Grid, numeric: np.ndarray, start: int) -> list[int]:
    """The rows of the nearest HEADER_LOOKBACK lines above row `start` that write
    something, top first: blank lines and rules (`-----`) passed over, a data row ends
    them."""
    rows: list[int] = []
    row = start - 1
    while row >= 0 and len(rows) < HEADER_LOOKBACK and not numeric[row]:
        cells = [cell.strip() for cell in grid.cells.iloc[row].tolist() if cell.strip()]
        if cells and not is_rule(cells):
            rows.append(row)
        row -= 1
    return rows[::-1]
