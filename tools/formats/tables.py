"""The data tables of a file and its instrument's settings, whatever format the lab wrote,
read by the one reader its suffix names in READERS: delimited text (CSV, TSV, instrument
exports such as Gamry .DTA and EC-Lab .mpt, through tools.formats.text_files), spreadsheets,
LabVIEW .lvm and .tdms, NumPy, MATLAB and HDF5 files (tools.formats.containers). Every reader is
bounded in time and memory, reads through the path guard and `Folder.open`, and raises
nothing but ToolError (NoTable when the file holds no table)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from pydantic import BaseModel, Field

from labscribe.tools.base import ToolError
from labscribe.tools.columns.column import Column
from labscribe.tools.formats.cassy_labx import read_labx
from labscribe.tools.formats.containers import (
    Reader,
    read_hdf5,
    read_matlab_file,
    read_numpy,
    read_tdms_file,
    read_workbook,
    through_handle,
)
from labscribe.tools.formats.grid import MAX_TABLES_PER_FILE, MIN_ROWS, finish
from labscribe.tools.formats.labview import read_lvm
from labscribe.tools.formats.parameters import ParameterRow
from labscribe.tools.formats.readers import NoTable
from labscribe.tools.formats.text_files import read_text
from labscribe.tools.formats.text_tables import MAX_COLUMNS, MAX_LINES
from labscribe.tools.tool import Folder

# Delimited text, and instrument exports that are delimited text under a header.
TEXT_SUFFIXES = frozenset(
    {".csv", ".tsv", ".dat", ".data", ".txt", ".dta", ".mpt", ".asc", ".prn", ".xy", ".mca"}
)
READERS: dict[str, Reader] = {
    **dict.fromkeys(TEXT_SUFFIXES, read_text),
    **dict.fromkeys((".xlsx", ".xlsm", ".xls", ".ods"), read_workbook),
    ".lvm": read_lvm,
    ".tdms": through_handle(read_tdms_file),
    ".labx": through_handle(read_labx),
    **dict.fromkeys((".npy", ".npz"), through_handle(read_numpy)),
    ".mat": through_handle(read_matlab_file),  # v7.3 files are HDF5: matlab_files tells
    **dict.fromkeys((".h5", ".hdf5", ".hdf", ".nxs"), through_handle(read_hdf5)),
}
"""The one reader of each format a file's suffix names. A file whose suffix is not here (a
logger's `resonanz`, a run's `scan.003`) is read as text, and only text."""
TABLE_SUFFIXES = frozenset(READERS)
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
    unless a request names its own (tools.columns.roles decides it from the assignment's words, else
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
    the roles set any aside (tools.columns.excerpt_columns)."""
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


def file_suffix(rel: str) -> str:
    """The suffix that says a file's format, lower-cased: "" for none, and for a run's
    number after a dot ("nGE exp 1.1", "scan.003"), which says nothing of its format."""
    suffix = os.path.splitext(rel)[1].lower()
    return "" if suffix[1:].isdigit() else suffix


def read_data(folder: Folder, rel: str) -> DataFile:
    """Every table in the file `rel` names and its instrument's settings, read through the
    path guard and `Folder.open` by the reader its suffix (or signature) calls for. Raises
    ToolError when the file cannot be read, NoTable when it holds no numeric table."""
    reader = READERS.get(file_suffix(rel), read_text)
    try:
        read = reader(folder, rel)
    except (ToolError, MemoryError):
        raise
    except Exception as exc:  # a library's refusal of a damaged or unexpected file
        raise NoTable(f"{rel} could not be read: {type(exc).__name__}: {exc}"[:300]) from exc
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
