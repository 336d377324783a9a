"""The data tables of a file, read with pandas from a bounded prefix of it.

Lab files are rarely clean CSV: instrument exports open with a preamble (`Instrument: ...`,
`# comments`), put a units row under the header, write European decimal commas, come in
GBK or UTF-16, and hold several blocks (`[Block 2]`, or a blank line and a new header).
This module finds the layout (delimiter, decimal mark), lets pandas split and convert the
cells, then finds each run of numeric rows, its header and units row, and its independent
variable. Whatever a file holds, reading it costs bounded time and memory and raises
nothing but ToolError.
"""

from __future__ import annotations

import csv
import io
import os
import re
import warnings
from collections import Counter
from dataclasses import dataclass

import numpy as np
import pandas as pd
from pydantic import BaseModel, Field

from labscribe.tools.base import Folder, ToolError, human_size, os_reason
from labscribe.tools.columns import (
    Column,
    add_ratios,
    describe,
    heading,
    independent_variable,
    mark_maxima,
    spell,
)
from labscribe.tools.reading import SNIFF_BYTES, text_encoding

TABLE_SUFFIXES = frozenset({".csv", ".tsv", ".dat", ".txt"})
# What of a file is read, whatever its shape: a 40 MB single line or 300,000 columns cost no
# more than this. 8 MB is about half a million rows of a few columns.
MAX_TABLE_BYTES = 8 * 1024 * 1024
# Lines and cells looked at: pandas holds each cell as a Python string before conversion
# (about 60 bytes), so a million cells keep the peak near 100 MB whatever the file's shape.
MAX_LINES = 200_000
MAX_CELLS = 1_000_000
EXCERPT_ROWS = 10  # of each table, kept in state for a report's data excerpt
MAX_COLUMNS = 32  # a wider table is not one a lab report discusses column by column
MAX_TABLES_PER_FILE = 8  # blocks beyond this are instrument dumps, not report material
MIN_ROWS = 3  # fewer numeric rows are a parameter line or a stray pair, not a table
# Layout is judged from this many lines, each cut to this many characters.
SAMPLE_LINES = 200
SAMPLE_CHARS = 4096
COMMENT_PREFIXES = ("#", "%", ";", "//", "!")
# Delimiters in the order they win a tie: a tab or a semicolon is never a decimal mark, so
# "1,23;4,56" is split at the semicolons and read with decimal commas.
DELIMITERS: tuple[tuple[str | None, str], ...] = (
    ("\t", "tab"),
    (";", "semicolon"),
    ("|", "bar"),
    (",", "comma"),
    (None, "whitespace"),
)


class NoTable(ToolError):
    """The file was read, but holds no numeric table."""


class TableSummary(BaseModel):
    id: str
    """`source`, or `source#block` when the file holds several tables."""
    source: str
    block: int
    title: str = ""
    """A block's own heading (`[Block 2]`), if it has one."""
    encoding: str
    delimiter: str
    decimal: str
    rows: int
    columns: list[Column]
    x: str | None
    """The key of the independent variable."""
    notes: list[str] = Field(default_factory=list)
    """What was not read (a prefix only, columns cut) and why."""
    excerpt: list[list[float | None]] = Field(default_factory=list)
    """A few rows, evenly spaced from the first to the last, of the measured columns."""

    def column(self, key: str) -> Column:
        return next(column for column in self.columns if column.key == key)

    def measured(self) -> list[Column]:
        """The columns the file holds, without those labscribe derived."""
        return [column for column in self.columns if column.ratio_of is None]


@dataclass(frozen=True)
class Table:
    """A table's summary and its numeric values (columns by key; NaN where a cell is not a
    number). The values stay out of state: they are re-read when needed."""

    summary: TableSummary
    frame: pd.DataFrame


@dataclass(frozen=True)
class _Layout:
    delimiter: str | None
    label: str
    decimal: str


def read_tables(folder: Folder, rel: str) -> list[Table]:
    """Every table in the file `rel` names, read through the path guard and `Folder.open`
    from its first MAX_TABLE_BYTES. Raises ToolError when the file cannot be read or is
    binary, and NoTable when it holds no numeric table."""
    raw, size = _prefix(folder, rel)
    if not raw:
        raise NoTable(f"{rel} is empty")
    codec = text_encoding(raw[:SNIFF_BYTES], at_eof=len(raw) >= size, name=rel)
    text = raw.decode(codec, errors="replace")
    notes = []
    if len(raw) < size:
        text = text[: text.rfind("\n") + 1]  # the last line was cut by the bound
        notes.append(f"only the first {human_size(MAX_TABLE_BYTES)} of {human_size(size)} read")
    if not text.strip():
        raise NoTable(f"{rel} has no complete line of text in its first {human_size(len(raw))}")
    if "\n" not in text and "\r" in text:
        text = text.replace("\r", "\n")  # classic Mac line ends
    lines = text.split("\n", MAX_LINES)
    if len(lines) > MAX_LINES:
        lines.pop()
        notes.append(f"only the first {MAX_LINES} lines read")
    # comment lines become blank: they part blocks, as a blank line does
    lines = [
        "" if line.lstrip().startswith(COMMENT_PREFIXES) else line.rstrip("\r") for line in lines
    ]
    layout = _layout(lines)
    if layout is None:
        raise NoTable(f"{rel} has no lines of delimited columns")
    cells, cut = _cells(lines, layout, notes)
    values = _numbers(cells, layout.decimal)
    numeric = _numeric_rows(cells, values)
    tables: list[Table] = []
    runs = _runs(numeric)
    for block, (start, stop) in enumerate(runs[:MAX_TABLES_PER_FILE], start=1):
        table_id = rel if len(runs) == 1 else f"{rel}#{block}"
        previous = tables[-1].summary if tables else None
        found = _table(cells, values, numeric, (start, stop), previous)
        if found is None:
            continue
        columns, frame, title = found
        x = independent_variable(columns, frame)
        columns, frame = add_ratios(columns, frame, x)
        mark_maxima(columns, frame, x)
        summary = TableSummary(
            id=table_id,
            source=rel,
            block=block,
            title=title,
            encoding=codec,
            delimiter=layout.label,
            decimal=layout.decimal,
            rows=len(frame),
            columns=columns,
            x=x,
            notes=notes + cut,
            excerpt=excerpt(frame, [c.key for c in columns if c.ratio_of is None]),
        )
        tables.append(Table(summary, frame))
    if len(runs) > MAX_TABLES_PER_FILE and tables:
        tables[-1].summary.notes.append(f"{len(runs)} blocks; the first {MAX_TABLES_PER_FILE} read")
    if not tables:
        raise NoTable(f"{rel} has no run of {MIN_ROWS} or more numeric rows")
    return tables


def excerpt(frame: pd.DataFrame, keys: list[str]) -> list[list[float | None]]:
    """EXCERPT_ROWS rows of `frame`'s columns `keys`, evenly spaced, first and last included."""
    picked = np.unique(np.linspace(0, len(frame) - 1, min(len(frame), EXCERPT_ROWS)).round())
    rows = frame[keys].iloc[picked.astype(int)].to_numpy(dtype=float)
    return [[float(v) if np.isfinite(v) else None for v in row] for row in rows]


def _prefix(folder: Folder, rel: str) -> tuple[bytes, int]:
    """The first MAX_TABLE_BYTES of the file and its size."""
    target = folder.resolve(rel)
    try:
        with os.fdopen(folder.open(target), "rb") as raw:
            size = os.fstat(raw.fileno()).st_size
            # read() sizes its buffer by the request: ask for no more than the file holds
            return raw.read(min(size, MAX_TABLE_BYTES)), size
    except OSError as exc:
        raise ToolError(f"cannot read {rel}: {os_reason(exc)}") from exc


def _fields(line: str, delimiter: str | None) -> int:
    return len(line.split()) if delimiter is None else line.count(delimiter) + 1


def _layout(lines: list[str]) -> _Layout | None:
    """The delimiter most lines of the sample agree on, and the decimal mark; None if no
    delimiter splits most lines into two or more fields."""
    sample = [line[:SAMPLE_CHARS] for line in lines if line.strip()][:SAMPLE_LINES]
    if not sample:
        return None
    eligible: dict[str | None, str] = {}
    for delimiter, label in DELIMITERS:
        counts = Counter(n for n in (_fields(line, delimiter) for line in sample) if n >= 2)
        if counts and counts.most_common(1)[0][1] >= 0.5 * len(sample):
            eligible[delimiter] = label
    if not eligible:
        return None
    delimiter = next(iter(eligible))
    if delimiter == "," and None in eligible:
        # "1,23 4,56" splits on blanks, its commas inside the numbers; "1.0, 2.0" does not
        tokens = [token for line in sample for token in line.split()]
        if not any(token.startswith(",") or token.endswith(",") for token in tokens):
            delimiter = None
    decimal = "."
    if delimiter != ",":
        joined = "\n".join(sample)
        if len(re.findall(r"\d,\d", joined)) > len(re.findall(r"\d\.\d", joined)):
            decimal = ","
    return _Layout(delimiter, eligible[delimiter], decimal)


def _cells(lines: list[str], layout: _Layout, notes: list[str]) -> tuple[pd.DataFrame, list[str]]:
    """The lines split into cells by pandas, as text: at most MAX_COLUMNS fields a line and
    MAX_CELLS cells in all. Blank lines stay, as rows of empty cells, so blocks stay apart."""
    delimiter = layout.delimiter
    widest = 0
    cut: list[str] = []
    for i, line in enumerate(lines):
        n = _fields(line, delimiter)
        widest = max(widest, n)
        if n > MAX_COLUMNS:
            kept = line.split(delimiter, MAX_COLUMNS)[:MAX_COLUMNS]
            lines[i] = (delimiter or " ").join(kept)
    if widest > MAX_COLUMNS:
        cut.append(f"{widest} columns; the first {MAX_COLUMNS} read")
    width = min(widest, MAX_COLUMNS)
    if len(lines) * width > MAX_CELLS:
        lines = lines[: MAX_CELLS // width]
        notes.append(f"only the first {len(lines)} lines read")
    text = "\n".join(lines)
    sep = r"\s+" if delimiter is None else delimiter
    try:
        frame = _split(text, sep, width, csv.QUOTE_MINIMAL)
    except (pd.errors.ParserError, ValueError):
        # an unbalanced quote ('1,"2') swallows the rest of the file: read quotes as text
        frame = _split(text, sep, width, csv.QUOTE_NONE).apply(lambda c: c.str.strip('"'))
    # skipinitialspace strips the blanks after a delimiter; those before one stay (a header
    # is stripped where it is read, and to_numeric reads "1.5 "): stripping a million cells
    # here would double the cost of reading
    return frame.fillna(""), cut


def _split(text: str, sep: str, width: int, quoting: int) -> pd.DataFrame:
    with warnings.catch_warnings():
        # a quoted field across lines makes a row wider than `width`: it is cut, as said
        warnings.simplefilter("ignore", pd.errors.ParserWarning)
        return pd.read_csv(
            io.StringIO(text),
            sep=sep,
            header=None,
            names=range(width),
            index_col=False,
            dtype=str,
            keep_default_na=False,
            skip_blank_lines=False,
            skipinitialspace=True,
            on_bad_lines="skip",
            quoting=quoting,
            engine="c",
        )


def _numbers(cells: pd.DataFrame, decimal: str) -> pd.DataFrame:
    """The cells as floats: NaN where a cell is not a finite number."""

    def convert(column: pd.Series) -> pd.Series:
        text = column.str.replace(",", ".", regex=False) if decimal == "," else column
        return pd.to_numeric(text, errors="coerce")

    return cells.apply(convert).astype(float).replace([np.inf, -np.inf], np.nan)


def _numeric_rows(cells: pd.DataFrame, values: pd.DataFrame) -> np.ndarray:
    """Which rows are numbers: two or more of their cells are, and most of the filled ones."""
    filled = (cells != "").sum(axis=1).to_numpy()
    numbers = values.notna().sum(axis=1).to_numpy()
    return (numbers >= 2) & (numbers >= 0.6 * filled)


def _runs(numeric: np.ndarray) -> list[tuple[int, int]]:
    """[start, stop) of each run of numeric rows at least MIN_ROWS long."""
    padded = np.concatenate([[False], numeric, [False]])
    edges = np.flatnonzero(np.diff(padded.astype(np.int8)))
    starts, stops = edges[0::2], edges[1::2]
    return [(int(a), int(b)) for a, b in zip(starts, stops, strict=True) if b - a >= MIN_ROWS]


def _table(
    cells: pd.DataFrame,
    values: pd.DataFrame,
    numeric: np.ndarray,
    span: tuple[int, int],
    previous: TableSummary | None,
) -> tuple[list[Column], pd.DataFrame, str] | None:
    """The columns, values and title of the run of rows `span`; None if it has fewer than
    two numeric columns. A block without a header of its own takes the previous block's,
    when the columns agree in number."""
    run = values.iloc[span[0] : span[1]]
    positions = [p for p in run.columns if run[p].notna().sum() >= 0.5 * len(run)]
    if len(positions) < 2:
        return None
    found = heading(cells, numeric, span[0])
    if found.header is None and previous is not None and len(previous.columns) == len(positions):
        spelled = [(c.header, c.name, c.unit) for c in previous.columns]
    else:
        spelled = spell(found, positions)
    columns = describe(run[positions], spelled)
    frame = run[positions].set_axis([c.key for c in columns], axis=1).reset_index(drop=True)
    return columns, frame, found.title
