"""The data tables of a file and its instrument's settings, whatever format the lab wrote:
delimited text (CSV, TSV, instrument exports such as Gamry .DTA and EC-Lab .mpt, through
tools.text_tables), spreadsheets, LabVIEW .lvm and .tdms, NumPy, MATLAB and HDF5 files
(tools.containers). Every reader is bounded in time and memory, reads through the path guard
and `Folder.open`, and raises nothing but ToolError (NoTable when the file holds no table).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from pydantic import BaseModel, Field

from labscribe.tools.base import Folder, human_size
from labscribe.tools.columns import Column
from labscribe.tools.containers import (
    CONTAINER_SUFFIXES,
    SPREADSHEET_SUFFIXES,
    read_container,
    text_named_as_workbook,
)
from labscribe.tools.encoding import SNIFF_BYTES, text_encoding
from labscribe.tools.grid import MAX_TABLES_PER_FILE, MIN_ROWS, finish, tables_in
from labscribe.tools.parameters import ParameterRow
from labscribe.tools.readers import NoTable, Read, file_prefix
from labscribe.tools.single_column import one_column
from labscribe.tools.text_tables import MAX_COLUMNS, MAX_LINES, text_grid
from labscribe.tools.vendor_readers import read_vendor

# Delimited text, and instrument exports that are delimited text under a header.
TEXT_SUFFIXES = frozenset(
    {".csv", ".tsv", ".dat", ".data", ".txt", ".dta", ".mpt", ".asc", ".prn", ".xy", ".mca"}
)
# What of a text file is read, whatever its shape: a 40 MB single line or 300,000 columns
# cost no more than this. 8 MB is about half a million rows of a few columns.
MAX_TABLE_BYTES = 8 * 1024 * 1024
EXCERPT_ROWS = 10  # of each table, kept in state for a report's data excerpt

__all__ = ["MAX_COLUMNS", "MAX_LINES", "MIN_ROWS", "NoTable"]


class TableSummary(BaseModel):
    id: str
    """`source`, or `source#block` when the file holds several tables."""
    source: str
    block: int
    title: str = ""
    """A block's own heading (`[Block 2]`, `CURVE2`, `run 2`, a sheet's name)."""
    encoding: str
    """The text's codec; "" for a binary format."""
    delimiter: str
    decimal: str
    rows: int
    columns: list[Column]
    x: str | None
    """The key of the independent variable: the predictor every fit of the table is against
    unless a request names its own (tools.roles decides it from the assignment's words, else
    from the data)."""
    response: str | None = None
    """The key of the column the assignment names as the response ("plot T against L");
    None where it names none."""
    predictors: list[str] = Field(default_factory=list)
    """The keys of the columns the assignment names as predictors where it names two or more
    (a multiple regression); empty otherwise."""
    roles: str = ""
    """Which column was taken as the variable and why, in a sentence for the report."""
    reader: str = "text"
    """How the file was read: "text", or the format ("Excel workbook", "LabVIEW TDMS")."""
    notes: list[str] = Field(default_factory=list)
    """What was not read (a prefix only, columns cut), and what was computed (a time axis)."""
    excerpt: list[list[float | None]] = Field(default_factory=list)
    """A few rows, evenly spaced from the first to the last, of the measured columns."""
    excerpt_keys: list[str] = Field(default_factory=list)
    """The keys of the columns `excerpt` holds, in its order: the columns as read, before
    the roles set any aside (tools.excerpt_columns)."""
    row_numbers: list[Column] = Field(default_factory=list)
    """Columns that only number the rows (`rownames`, `trial`): no variable, not fitted, not
    in `columns`; their values stay in the table's frame."""

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


@dataclass
class DataFile:
    """What a file holds for the analysis: its tables and its instrument's settings."""

    tables: list[Table] = field(default_factory=list)
    metadata: list[ParameterRow] = field(default_factory=list)
    unread: list[str] = field(default_factory=list)
    """What the file holds that was not read (the sheets past the bound), named."""


def read_tables(folder: Folder, rel: str) -> list[Table]:
    """The tables of the file `rel` names (`read_data`'s)."""
    return read_data(folder, rel).tables


def file_suffix(rel: str) -> str:
    """The suffix that says a file's format, lower-cased: "" for none, and for a run's
    number after a dot ("nGE exp 1.1", "scan.003"), which says nothing of its format."""
    suffix = os.path.splitext(rel)[1].lower()
    return "" if suffix[1:].isdigit() else suffix


def read_data(folder: Folder, rel: str) -> DataFile:
    """Every table in the file `rel` names and its instrument's settings, read through the
    path guard and `Folder.open` by the reader its suffix (or signature) calls for. Raises
    ToolError when the file cannot be read, NoTable when it holds no numeric table."""
    suffix = file_suffix(rel)
    if suffix in SPREADSHEET_SUFFIXES and text_named_as_workbook(folder, rel):
        read = _read_text(folder, rel)
        read.notes.insert(0, f"read as text: the file is text, not the {suffix} workbook "
                             "its name says")  # fmt: skip
    elif suffix in CONTAINER_SUFFIXES:
        read = read_container(folder, rel, suffix)
    else:
        read = _read_text(folder, rel)
    data = DataFile(
        metadata=[row.model_copy(update={"source": rel}) for row in read.metadata],
        unread=read.unread + [what for found in read.found for what in found.left_out],
    )
    several = len(read.found) > 1
    for block, found in enumerate(read.found, start=1):
        columns, frame, x = finish(found)
        data.tables.append(
            Table(
                TableSummary(
                    id=f"{rel}#{block}" if several else rel, source=rel, block=block,
                    title=found.title, encoding=read.encoding, delimiter=read.delimiter,
                    decimal=read.decimal, rows=len(frame), columns=columns, x=x,
                    reader=read.reader, notes=read.notes + found.notes,
                    excerpt=excerpt(frame, [c.key for c in columns if c.ratio_of is None]),
                    excerpt_keys=[c.key for c in columns if c.ratio_of is None],
                    row_numbers=found.row_numbers,
                ),
                frame,
            )
        )  # fmt: skip
    if read.blocks > MAX_TABLES_PER_FILE and data.tables:
        data.tables[-1].summary.notes.append(
            f"{read.blocks} blocks; the first {MAX_TABLES_PER_FILE} read"
        )
    if not data.tables:
        what = f"no run of {MIN_ROWS} or more numeric rows" if read.reader == "text" else (
            f"no {MIN_ROWS} or more values in two columns or more"
        )  # fmt: skip
        raise NoTable(f"{rel} has {what}", data.metadata)
    return data


def excerpt(frame: pd.DataFrame, keys: list[str]) -> list[list[float | None]]:
    """EXCERPT_ROWS rows of `frame`'s columns `keys`, evenly spaced, first and last included."""
    picked = np.unique(np.linspace(0, len(frame) - 1, min(len(frame), EXCERPT_ROWS)).round())
    rows = frame[keys].iloc[picked.astype(int)].to_numpy(dtype=float)
    return [[float(v) if np.isfinite(v) else None for v in row] for row in rows]


def _read_text(folder: Folder, rel: str) -> Read:
    raw, size = file_prefix(folder, rel, MAX_TABLE_BYTES)
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
    if vendor := read_vendor(text):  # a layout of the vendor's own, not a table under a header
        return Read(vendor.found, vendor.metadata, codec, vendor.delimiter, ".", "text",
                    notes + vendor.notes, len(vendor.found))  # fmt: skip
    read = text_grid(text, notes)
    found, metadata, blocks = tables_in(read[0]) if read is not None else ([], [], 0)
    if not found and (single := one_column(text, notes, codec)) is not None:
        return single  # a stopwatch's timings, one to a line
    if read is None:
        raise NoTable(f"{rel} has no lines of delimited columns")
    layout = read[1]
    return Read(found, metadata, codec, layout.label, layout.decimal, "text", notes, blocks)


TABLE_SUFFIXES = TEXT_SUFFIXES | CONTAINER_SUFFIXES
