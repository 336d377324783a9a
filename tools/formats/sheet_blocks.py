"""Tables a sheet holds side by side, parted by an empty column.

Students keep a second table beside the first (the readings corrected, a table of
changes) under a title of its own, so its header sits a row lower than the first one's.
Read as one grid, the first table's first row of numbers would be taken for its names;
each block is read as its own grid where their data start on different rows.
"""

from __future__ import annotations

import re
from typing import Any

MIN_ROWS = 3  # numeric rows that make a block a table (tools.formats.grid reads no fewer)
_NUMBER = re.compile(r"\s*[-+]?(?:\d+(?:[.,]\d*)?|[.,]\d+)(?:[eE][-+]?\d+)?\s*")


def side_by_side(rows: list[list[Any]]) -> list[list[list[Any]]]:
    """`rows` split into its blocks of columns parted by an empty column, where two or
    more blocks hold a table each and their data start on different rows; else `rows`."""
    width = max((len(row) for row in rows), default=0)
    filled = [any(_filled(row, column) for row in rows) for column in range(width)]
    spans, start = [], None
    for column, used in enumerate([*filled, False]):
        if used and start is None:
            start = column
        elif not used and start is not None:
            spans.append((start, column))
            start = None
    tables = [(span, first) for span in spans if (first := _first_data_row(rows, span)) is not None]
    if len(tables) < 2 or len({first for _, first in tables}) == 1:
        return [rows]
    return [[row[a:b] for row in rows] for (a, b), _ in tables]


def _filled(row: list[Any], column: int) -> bool:
    return column < len(row) and _written(row[column])


def _written(cell: Any) -> bool:
    return cell is not None and str(cell).strip() != ""


def _first_data_row(rows: list[list[Any]], span: tuple[int, int]) -> int | None:
    """The row where the block's first run of MIN_ROWS rows of numbers (two or more a row,
    nothing else) begins, if it has one."""
    run = 0
    for index, row in enumerate(rows):
        cells = [cell for cell in row[span[0] : span[1]] if _written(cell)]
        numbers = len(cells) >= 2 and all(_is_number(cell) for cell in cells)
        run = run + 1 if numbers else 0
        if run == MIN_ROWS:
            return index - MIN_ROWS + 1
    return None


def _is_number(cell: Any) -> bool:
    if isinstance(cell, bool):
        return False
    return isinstance(cell, int | float) or bool(_NUMBER.fullmatch(str(cell)))
