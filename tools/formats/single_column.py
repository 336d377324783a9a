"""A text file of one column of numbers: a stopwatch's ten timings under `T (s)`, or several
such series in blocks apart. No delimiter splits its lines (tools.formats.text_tables finds none),
yet each run of numbers is a table: the repeated measurement of one quantity.

The lines are converted by pandas (decimal commas where the file writes them); a run of
MIN_ROWS numbers or more is a table, with the line above it as its header, and the file's
other lines are read as its settings. A text whose lines are mostly not numbers (a note that
lists a few values) holds no table.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from labscribe.tools.columns.column import describe
from labscribe.tools.columns.units import split_unit
from labscribe.tools.formats.cell_grid import Found
from labscribe.tools.formats.fixed_width import COMMENT_MARK
from labscribe.tools.formats.grid import MAX_TABLES_PER_FILE, MIN_ROWS, _runs
from labscribe.tools.formats.header_rows import one_column_heading
from labscribe.tools.formats.instruments import apply_metadata, metadata_of_line
from labscribe.tools.formats.readers import Read
from labscribe.tools.formats.text_tables import COMMENT_PREFIXES, MAX_LINES

# Numbers make up at least this share of the lines that are not blank or comments: a note
# with a few numbers in it is not a table.
NUMBER_SHARE = 0.6
MAX_HEADER_CHARS = 60
# A tab or semicolon, or a comma that is no decimal mark (`No.,x`, `2,`): a line of columns.
SEPARATOR = r"[\t;]|,(?!\d)|(?<!\d),"


def one_column(text: str, notes: list[str], encoding: str) -> Read | None:
    """The tables of a text (decoded from `encoding`) whose lines each hold one number, each
    run of MIN_ROWS or more numbers under its header line; None when it has none, or numbers
    are too few of its lines."""
    lines = [line.strip() for line in text.splitlines()[:MAX_LINES]]
    cells = pd.Series(["" if line.startswith(COMMENT_PREFIXES) else line for line in lines])
    if cells.str.contains(SEPARATOR).any():
        return None  # columns a delimiter would part, with cells left empty: not one column
    joined = "\n".join(lines)
    decimal = "," if len(re.findall(r"\d,\d", joined)) > len(re.findall(r"\d\.\d", joined)) else "."
    spelled = cells.str.replace(",", ".", regex=False) if decimal == "," else cells
    values = pd.to_numeric(spelled, errors="coerce").replace([np.inf, -np.inf], np.nan)
    numeric = values.notna().to_numpy()
    filled = int((cells != "").sum())
    if not filled or numeric.sum() < NUMBER_SHARE * filled:
        return None
    found: list[Found] = []
    used = numeric.copy()
    runs = _runs(numeric)
    for start, stop in runs:
        if stop - start < MIN_ROWS or len(found) >= MAX_TABLES_PER_FILE:
            continue
        header, text_of = _header(cells, lines, start)
        used[header] = True
        if text_of.startswith(("[", "(")):  # a units line alone (`# [s]`) names no column
            text_of = f"column {len(found) + 1} {text_of}"
        name, unit = split_unit(text_of) if text_of else (f"column {len(found) + 1}", "")
        frame = pd.DataFrame({0: values.iloc[start:stop].to_numpy(dtype=float)})
        columns = describe(frame, [(text_of, name, unit)])
        frame.columns = [columns[0].key]
        found.append(Found(columns, frame, "", None))
    if not found:
        return None
    metadata = [
        row for i, line in enumerate(lines) if not used[i] and line
        for row in metadata_of_line(line)
    ]  # fmt: skip
    for table in found:  # a scope's one channel: its time axis from the sample interval
        apply_metadata(table, metadata)
    blocks = sum(1 for a, b in runs if b - a >= MIN_ROWS)
    return Read(found, metadata, encoding, "one column", decimal, "text", notes, blocks)


def _header(cells: pd.Series, lines: list[str], start: int) -> tuple[list[int], str]:
    """The lines of a run of numbers' header and its text: the line just above, if it reads
    like a column's name, or the comment lines just above (`# t` over `# [s]`, as
    numpy.savetxt writes a header) where they name it; ([], "") when none does."""
    above = start - 1
    if above < 0:
        return [], ""
    if cells.iloc[above]:
        text = cells.iloc[above]
        named = len(text) <= MAX_HEADER_CHARS and not re.search(r"[:=：]", text)
        return ([above], text) if named else ([], "")
    comments = []
    while above >= 0 and lines[above].startswith(COMMENT_PREFIXES) and len(comments) < 2:
        comments.insert(0, above)
        above -= 1
    text = one_column_heading([COMMENT_MARK.sub("", lines[row]) for row in comments])
    return (comments, text) if text else ([], "")
