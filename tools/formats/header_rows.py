"""Headers as labs write them, beyond one row of names over the data (tools.columns.column reads
that one):

- behind a comment mark, as gnuplot files, numpy.savetxt and MATLAB/Octave scripts write
  them (`# t  x`, then perhaps `# [s] [m]`; `% t x`, `! `, `; `);
- names of several words over blank-separated columns (`Time (s)   Applied Voltage (V)`),
  placed over the data by position, the column specs inferred by pandas' read_fwf;
- one name fewer than the data has columns, as R's write.table writes a table with its row
  names: the names belong to the last columns, and the first (the row names) has none,
  where every row writes one (MultiVu's empty Comment column is no row names);
- units spelled out where the names would be (a Siglent scope's `Second,Volt`): unnamed
  columns in those units (a header of symbols, `T,V`, is names);
- fixed-width header lines, a units row and names over two rows among them, aligned with
  the data's columns by position (tools.formats.fixed_width);
- header cells parted otherwise than the data's: by `|` or tabs of their own, names closed
  by their unit, rows labelled `#NAME`, `#UNIT`, `Units` (tools.formats.header_cells);
- a label and its values above the data (a stopwatch's `Total time,0,07,35.55`), no names.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from labscribe.tools.columns.units import unit_word
from labscribe.tools.columns.written_numbers import NUMBER
from labscribe.tools.formats.cell_grid import Grid, lists_columns
from labscribe.tools.formats.fixed_width import (
    COMMENT_MARK,
    INFER_ROWS,
    aligned_heading,
    block_lines,
    line_of,
    lines_above,
    names_by_position,
)
from labscribe.tools.formats.header_cells import labelled_rows, names_closed_by_units, own_cells
from labscribe.tools.formats.headings import HEADER_LOOKBACK, Heading, heading, is_units_row
from labscribe.tools.formats.instruments import metadata_of_line

# A date (16.04.2024, 2024-04-16, 04/16/2024) or a time of day (18:40:37) in a line.
_MOMENT = re.compile(
    r"(?<![\d.])(?:\d{1,2}[./]\d{1,2}[./]\d{2,4}|\d{4}-\d{2}-\d{2}|\d{1,2}:\d{2}(?::\d{2})?)(?![\d.]\d)"
)
MAX_NAME_WORDS = 4  # a one-column table's name line (`# fall time [s]`), not a sentence


def heading_of(grid: Grid, numeric: np.ndarray, start: int, positions: list[int]) -> Heading:
    """The heading of the block of data rows that starts at row `start` (its columns at
    `positions`): the lines above it as tools.columns.column reads them, else its comment lines;
    names placed by position over blank-separated columns; a header one name short of the
    data set over its last columns (a comment's names stay over the first: R writes none)."""
    found = _apart(grid, numeric, start, heading(grid.cells, numeric, start))
    data_fields = _data_fields(grid, start, positions)
    if (labelled := _labelled(grid, numeric, start, positions, found)) is not None:
        return labelled
    if found.header is None:
        commented = _commented(grid, start, data_fields) if grid.comments else None
        if commented is not None and commented.header is not None and grid.blank_separated:
            commented = _by_position(grid, numeric, commented, start, data_fields)
        return commented if commented is not None and _fits(commented, data_fields) else found
    if found.units is None and all(unit_word(cell) for cell in found.header if cell):
        return Heading(None, found.header, found.title, found.rows)  # Siglent's `Second,Volt`
    if found.units is None and (
        _labelled_values(found.header, data_fields)
        or _wider_record(grid, found.rows[0], data_fields)
    ):
        return Heading(None, None, found.title, found.rows[1:])
    if found.units is not None and _setting_line(grid.lines[found.rows[0]]):
        # `Horizontal Scale, 0.00001` above `Second,Volt`: a setting, not the names
        return Heading(None, found.units, found.title, found.rows[1:])
    if grid.blank_separated:
        found = _regrouped(grid, found, data_fields)
        found = _by_position(grid, numeric, found, start, data_fields)
    return _one_short(grid, found, start, data_fields)


def _apart(grid: Grid, numeric: np.ndarray, start: int, found: Heading) -> Heading:
    """`found` without its upper row of names where a blank line parts it from the lower,
    or it writes a setting: a scope's `Trigger,CH1 rising 0.50 V` above a blank line and
    `Time(s),CH1(V)` is a setting, not the first words of the names over two rows."""
    if found.header is None or found.units is not None or len(found.rows) < 2:
        return found
    upper, lower = found.rows[0], found.rows[1]
    if not (upper < lower and (lower > upper + 1 or _setting_line(grid.lines[upper]))):
        return found
    below = heading(grid.cells.iloc[lower:], numeric[lower:], start - lower)
    if below.header is None or [lower + row for row in below.rows] != [lower]:
        return found
    return Heading(below.header, None, found.title, [lower, *found.rows[2:]])


def _labelled(
    grid: Grid, numeric: np.ndarray, start: int, positions: list[int], found: Heading
) -> Heading | None:
    """The heading rows labelled by their first cell write (`#NAME`, `#UNIT`; `Long Name`,
    `Units`), their names and units over the data's columns in order, the label's own
    column left out; None where the rows above the data are not so labelled. Units a row
    labels as such are read as units, as square brackets are."""
    commented = found.header is None and bool(grid.comments)
    rows = _comment_rows(grid, start) if commented else lines_above(grid, numeric, start)
    if not rows:
        return None
    cells = [_row_cells(grid, row, len(positions)) for row in rows]
    read = labelled_rows(cells, len(positions))
    if read is None:
        return None
    width = max(grid.cells.shape[1], max(positions) + 1)
    header = [""] * width
    units = [""] * width if read.units is not None else None
    for i, p in enumerate(positions):
        header[p] = read.names[i]
        if units is not None and read.units is not None and read.units[i]:
            units[p] = f"[{read.units[i]}]"
    title = found.title if not commented else ""
    return Heading(header, units, title, [rows[i] for i in read.rows])


def _row_cells(grid: Grid, row: int, data_fields: int) -> list[str]:
    """Row `row`'s cells: a comment's as split with the data's delimiter, or by a separator
    of its own where that names the data's columns; a line of the data's own, its cells."""
    if row not in grid.comments:
        return [cell.strip() for cell in grid.cells.iloc[row].tolist()]
    cells = grid.comments[row]
    if len([cell for cell in cells if cell]) != data_fields:
        text = COMMENT_MARK.sub("", grid.lines[row])
        cells = own_cells(text, data_fields) or cells
    return cells


def _regrouped(grid: Grid, found: Heading, data_fields: int) -> Heading:
    """`found` with its names regrouped where they are not one a column of blank-separated
    data: parted by a separator of their own (`|`, tabs), or several words closed by their
    unit (`Inverse Wavelength[nm^-1] Slope dSlope`)."""
    assert found.header is not None
    if len([cell for cell in found.header if cell]) == data_fields:
        return found
    text = COMMENT_MARK.sub("", grid.lines[found.rows[0]])
    names = own_cells(text, data_fields) or names_closed_by_units(found.header, data_fields)
    if names is None:
        return found
    width = max(len(found.header), len(names))
    return Heading(names + [""] * (width - len(names)), found.units, found.title, found.rows)


def _first_column_filled(grid: Grid, start: int) -> bool:
    """Whether every data row of the block at `start` (up to INFER_ROWS of them) writes
    something in its first column."""
    rows = grid.cells.iloc[start : start + INFER_ROWS]
    block = rows[(rows != "").any(axis=1).cummin()]  # up to the first blank line
    return bool((block.iloc[:, 0].str.strip() != "").all())


def _setting_line(line: str) -> bool:
    """Whether `line` writes one of an instrument's settings with its number."""
    return any(row.number is not None for row in metadata_of_line(line))


def _labelled_values(header: list[str], data_fields: int) -> bool:
    """Whether a line above the data is a label and its values, not names: a stopwatch's
    `Total time,0,07,35.55` over its laps. Its cells after the first are numbers and it
    writes fewer of them than the data have columns; a header of numbers as wide as the
    data (`Trial,1,2,3`) names series."""
    filled = [cell for cell in header if cell]
    return (
        2 <= len(filled) < data_fields
        and not re.fullmatch(NUMBER, filled[0])
        and all(re.fullmatch(NUMBER, cell) for cell in filled[1:])
    )


def _wider_record(grid: Grid, row: int, data_fields: int) -> bool:
    """Whether the line above the data is a record of its own, not names: it wrote more
    fields than the data do, and its cells left over the data's columns are mostly numbers
    (an Oslo MCA export's `H 2 1024 "2023-03-14 15:16:52" 60 1.02` over channel and counts,
    its settings read beside them)."""
    written = grid.widths[row] if grid.widths is not None and row < len(grid.widths) else 0
    filled = [cell for cell in _row_cells(grid, row, data_fields) if cell]
    numbers = sum(bool(re.fullmatch(NUMBER, cell)) for cell in filled)
    return max(written, len(filled)) > data_fields and numbers * 2 >= len(filled) > 0


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


def _comment_rows(grid: Grid, start: int) -> list[int]:
    """The rows of the comment lines just above row `start` (blank lines aside, at most
    HEADER_LOOKBACK, none above a line that says it lists the columns or an empty comment
    line, which parts a banner from the heading: `# Zerfall von Rhodium, Messzeit t= 15s`,
    `#`, `# t[s]   N[Impulse]`), top first."""
    rows: list[int] = []
    row = start - 1
    while row >= 0 and len(rows) < HEADER_LOOKBACK and not (grid.cells.iloc[row] != "").any():
        if row in grid.comments:
            if rows and not any(cell.strip() for cell in grid.comments[row]):
                break
            rows.append(row)
            if lists_columns(grid.lines[row]):
                break
        row -= 1
    return rows[::-1]


def _commented(grid: Grid, start: int, data_fields: int) -> Heading | None:
    """The heading the comment lines just above row `start` write (blank lines aside): no
    number among its names, no `key: value`; names parted by a separator of their own or
    closed by their units regrouped (tools.formats.header_cells)."""
    rows = _comment_rows(grid, start)
    if not rows:
        return None
    cells = [_row_cells(grid, r, data_fields) for r in rows]
    width = max(grid.cells.shape[1], *(len(c) for c in cells))
    lines = [c + [""] * (width - len(c)) for c in cells]
    found = heading(pd.DataFrame(lines, dtype=str), np.zeros(len(rows), dtype=bool), len(rows))
    if found.header is None:
        return None
    placed = [rows[i] for i in found.rows]
    named = [cell for cell in found.header if cell]
    if found.units is None and is_units_row(named):  # `# [s] [m]` alone: units, no names
        return Heading(None, found.header, "", placed)
    if any(_not_a_name(cell) for cell in named):
        return None
    return _regrouped(grid, Heading(found.header, found.units, "", placed), data_fields)


def one_column_heading(comments: list[str]) -> str | None:
    """The header a one-column file writes in the comment lines just above its numbers
    (their marks stripped, top first), as numpy.savetxt writes a single column's: a name
    line (`t`, `t [s]`), perhaps over a units line (`[s]`), read back as one header
    (`t [s]`); a units line alone is `[s]`. None when the last line is prose (a title,
    a sentence), which names no column."""
    texts = [text.strip() for text in comments if text.strip()]
    if not texts:
        return None
    units = ""
    if is_units_row([texts[-1]]) and " " not in texts[-1]:
        units, texts = texts[-1], texts[:-1]
    name = texts[-1] if texts else ""
    if not name or len(name.split()) > MAX_NAME_WORDS or _not_a_name(name) or name[-1] in ".:;,":
        return units if units.startswith(("[", "(")) else None
    return f"{name} {units}".strip()


def _not_a_name(cell: str) -> bool:
    """A number, a setting (`rows: 5`, `n=3`), or a date or time of day (a banner's
    `Created with Tensionmeter 1.0 on 16.04.2024, 18:40:37.`): no column's name."""
    try:
        float(cell.replace(",", "."))
    except ValueError:
        return cell.endswith(":") or "=" in cell or _MOMENT.search(cell) is not None
    return True


def _by_position(
    grid: Grid, numeric: np.ndarray, found: Heading, start: int, data_fields: int
) -> Heading:
    """`found` read again by position over the blank-separated data where its lines are
    laid out so (a run of blanks inside): the lines above the data aligned with its columns
    as read_fwf infers them (tools.formats.fixed_width), since a blank split may lose a name's or
    a unit's column even where the counts agree (`Gas` over `Density`, `(% d.b.)`); else,
    where the header does not write one name a column, its names placed so."""
    assert found.header is not None
    if any(_spaced(line_of(grid, row)) for row in found.rows):
        commented = found.rows[0] in grid.comments
        rows = _comment_rows(grid, start) if commented else lines_above(grid, numeric, start)
        aligned = aligned_heading(grid, numeric, start, rows, data_fields)
        # the aligned lines must reach the top of the header the blank split found: a
        # units row alone is no header of names
        reaches = aligned is not None and min(aligned.rows) <= found.rows[0]
        if aligned is not None and reaches and _named(aligned) in (data_fields, data_fields - 1):
            return Heading(aligned.header, aligned.units, found.title or aligned.title,
                           aligned.rows)  # fmt: skip
    names = _named(found)
    line = line_of(grid, found.rows[0])
    if not _spaced(line) or names == data_fields:
        return found  # names parted by single blanks are not placed by position
    placed = names_by_position(line, block_lines(grid, numeric, start))
    if placed is None or not all(placed) or len(placed) not in (data_fields, data_fields - 1):
        return found
    width = len(found.header)
    header = (placed + [""] * width)[:width]
    return Heading(header, found.units, found.title, found.rows)


def _named(found: Heading) -> int:
    """How many columns `found`'s header names."""
    return len([cell for cell in found.header or [] if cell])


def _spaced(line: str) -> bool:
    """Whether a run of blanks parts the line's cells: a line laid out by position."""
    return "  " in line.strip()


def _one_short(grid: Grid, found: Heading, start: int, data_fields: int) -> Heading:
    """`found` with its names moved one column right when the header writes one name fewer
    than the data row has fields (R's write.table: the row names come first, unnamed, and
    every row has one: a first column left empty is no row names, and the extra field is
    elsewhere, a cell with a comma of its own such as MultiVu's `(50.0, 'Call was ...')`)."""
    assert found.header is not None
    if grid.widths is None:
        return found  # a spreadsheet's names stand in the cells over their columns
    named = [cell for cell in found.header if cell]
    if len(named) != data_fields - 1 or not all(found.header[: len(named)]):
        return found
    if not _first_column_filled(grid, start):
        return found
    if len(found.header) <= len(named):
        return found  # no column left empty to move the names into
    row = found.rows[0]
    written = len(named)
    if row not in grid.comments and not grid.blank_separated:
        written = grid.widths[row]  # `t,x,` writes three fields: its third name is empty
    if written != len(named):
        return found
    units = found.units
    if units is not None and len([cell for cell in units if cell]) == len(named):
        units = ["", *units[:-1]]
    return Heading(["", *found.header[:-1]], units, found.title, found.rows)
