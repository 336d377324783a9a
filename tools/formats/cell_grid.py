"""A file's cells, as text and as numbers: what every tabular format (delimited text, a
spreadsheet's sheet) becomes before its tables are found (tools.formats.grid)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import pandas as pd

from labscribe.tools.columns.column import Column
from labscribe.tools.formats.time_columns import Clock

# A comment line's mark, and a label that says the line lists the columns (`% columns: Z E`,
# `# Spalten: t U`): neither is a name. `# columns: 2` (Octave's count) leaves a number.
COMMENT_MARK = re.compile(
    r"^ *(?:#+|%+|//|!+|;+)(?P<label> *(?:columns?|cols|fields|variables|header|spalten"
    r"|colonnes?|columnas|kolumny|colunas)\b *[:=])?",
    re.IGNORECASE,
)


def lists_columns(line: str) -> bool:
    """Whether a comment line says it lists the columns (`% columns: Z E`): the lines above
    it are a title, not the upper words of its names."""
    mark = COMMENT_MARK.match(line)
    return mark is not None and mark["label"] is not None


@dataclass
class Grid:
    """A file's cells as text and as numbers (NaN where a cell is not a finite number),
    with the text of each row for the metadata reader."""

    cells: pd.DataFrame
    values: pd.DataFrame
    lines: list[str]
    """Each row as the file wrote it (a spreadsheet's row: its cells joined by tabs)."""
    units: dict[int, str] = field(default_factory=dict)
    """Units the reading itself gave a column (seconds, for elapsed times written `1m59s`)."""
    clocks: dict[int, Clock] = field(default_factory=dict)
    """Columns of dates and times, read as seconds since 1970 (tools.formats.time_columns)."""
    comments: dict[int, list[str]] = field(default_factory=dict)
    """The cells of the comment lines just above data (`# t  x`, `% [s] [m]`), by row, the
    mark taken off: a header a gnuplot file or numpy.savetxt writes."""
    widths: list[int] | None = None
    """How many fields each row of a text file wrote (a header one short of its data is
    R's write.table); None for a spreadsheet."""
    blank_separated: bool = False
    """Whether blanks separate the columns: a header's names may then hold single blanks,
    and are placed by position (tools.formats.header_rows)."""


@dataclass
class Found:
    """A table of a grid: its columns, values, title and independent variable."""

    columns: list[Column]
    frame: pd.DataFrame
    title: str
    x: str | None
    notes: list[str] = field(default_factory=list)
    clocks: dict[str, Clock] = field(default_factory=dict)
    """Columns (by key) of dates and times, as seconds since 1970."""
    row_numbers: list[Column] = field(default_factory=list)
    """Columns that only number the rows: kept in `frame`, never a variable."""
    left_out: list[str] = field(default_factory=list)
    """Rows of its run it does not hold, and why, for the report's list of what was left out."""
