"""Tables from spreadsheets (xlsx, xlsm, xls, ods) through python-calamine, formulas by
the values last computed.

A sheet is a grid of cells like a CSV's, so `tools.formats.grid` finds its tables, headers and
units rows as it does in text exports; only the cells come from the workbook, numbers as
numbers. A zip-based workbook is checked for what it unpacks to before it is opened.
"""

from __future__ import annotations

import datetime as dt
import io
import re
import zipfile
from typing import Any
from xml.etree import ElementTree

import numpy as np
import pandas as pd

from labscribe.tools.base import human_size
from labscribe.tools.formats.cell_grid import Found
from labscribe.tools.formats.container_limits import MAX_CONTAINER_BYTES, MAX_METADATA, MAX_POINTS
from labscribe.tools.formats.grid import Grid, tables_in
from labscribe.tools.formats.number_marks import decimal_hint, numbers_of
from labscribe.tools.formats.parameters import ParameterRow
from labscribe.tools.formats.readers import NoTable, Read, file_prefix
from labscribe.tools.formats.sheet_blocks import side_by_side
from labscribe.tools.formats.signatures import ZIP_SIGNATURE
from labscribe.tools.formats.text_tables import MAX_COLUMNS
from labscribe.tools.formats.time_columns import Clock
from labscribe.tools.tool import Folder

MAX_UNPACKED_BYTES = 256 * 1024 * 1024
# Cells a sheet's range may span (calamine holds it dense: tens of bytes a cell).
MAX_SPAN_CELLS = 20_000_000
_SHEET_PART = re.compile(r"xl/worksheets/sheet\d+\.xml")
ODS_CONTENT = "content.xml"
_TABLE = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
_ROWS_REPEATED = f"{{{_TABLE}}}number-rows-repeated"
_COLUMNS_REPEATED = f"{{{_TABLE}}}number-columns-repeated"
_VALUE_TYPE = "{urn:oasis:names:tc:opendocument:xmlns:office:1.0}value-type"
# The first and last row, and the first and last column, of the cells a sheet places.
Span = tuple[tuple[int, int], tuple[int, int]]
_CELL_REFERENCE = re.compile(rb'<c\b[^>]{0,64}?\br="([A-Z]{1,3})([0-9]{1,7})"')
MAX_SHEETS = 16  # a course's workbook holds a sheet per run: 13 hysteresis loops


def _whole(folder: Folder, rel: str) -> bytes:
    data, size = file_prefix(folder, rel, MAX_CONTAINER_BYTES)
    if size > MAX_CONTAINER_BYTES:
        raise NoTable(f"{rel} is {human_size(size)}; files up to "
                      f"{human_size(MAX_CONTAINER_BYTES)} of this kind are analysed")  # fmt: skip
    return data


def read_spreadsheet(folder: Folder, rel: str) -> Read:
    """Every sheet (MAX_SHEETS at most) as a grid; formulas by the values last computed."""
    from python_calamine import CalamineWorkbook

    data = _whole(folder, rel)
    if data.startswith(ZIP_SIGNATURE):
        _check_zip(data, rel)
    workbook = CalamineWorkbook.from_filelike(io.BytesIO(data))
    found: list[Found] = []
    metadata: list[ParameterRow] = []
    names = workbook.sheet_names
    unread = [f"{len(names)} sheets; the first {MAX_SHEETS} read, not "
              f"{', '.join(names[MAX_SHEETS:])}"] if len(names) > MAX_SHEETS else []  # fmt: skip
    blocks = 0
    for name in names[:MAX_SHEETS]:
        rows = workbook.get_sheet_by_name(name).to_python(skip_empty_area=False, nrows=MAX_POINTS)
        for part in side_by_side(rows):
            grid = _sheet_grid(part)
            if grid is None:
                continue
            tables, settings, count = tables_in(grid)
            blocks += count
            for table in tables:
                table.title = f"sheet {name}" + (f", {table.title}" if table.title else "")
            found += tables
            metadata += [row.model_copy(update={"section": name}) for row in settings]
    return Read(found, metadata[:MAX_METADATA], reader="spreadsheet", blocks=blocks, unread=unread)


def _check_zip(data: bytes, rel: str) -> None:
    """Refuse a zip-based workbook whose members unpack to more than MAX_UNPACKED_BYTES, or
    whose sheet places its cells over more than MAX_SPAN_CELLS: calamine reads a sheet as
    one dense range from its first cell to its last, so one stray cell at XFD1048576 in a
    5 KB file asks for 17 billion. The cells' own references (`<c r="B7">`) are what it
    allocates by; the `<dimension>` a file declares is not (a false one costs nothing)."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        unpacked = sum(info.file_size for info in archive.infolist())
        if unpacked > MAX_UNPACKED_BYTES:
            raise NoTable(f"{rel} unpacks to {human_size(unpacked)}, more than "
                          f"{human_size(MAX_UNPACKED_BYTES)}")  # fmt: skip
        spans = [
            _span(archive, member) for member in filter(_SHEET_PART.fullmatch, archive.namelist())
        ]
        if ODS_CONTENT in archive.namelist():
            spans += _repeated_spans(archive)
    for (top, bottom), (left, right) in spans:
        cells = (bottom - top + 1) * (right - left + 1)
        if cells > MAX_SPAN_CELLS:
            raise NoTable(
                f"{rel} was not read: a sheet's cells span {_column_letters(left)}{top}:"
                f"{_column_letters(right)}{bottom}, {cells:,} cells, more than the "
                f"{MAX_SPAN_CELLS:,} read at most (cells far from the data, or repeated)"
            )


def _repeated_spans(archive: zipfile.ZipFile) -> list[Span]:
    """Each ODS sheet's rows and columns as calamine lays them out: a row or cell element
    stands for as many as its `number-rows-repeated` or `number-columns-repeated` says, so
    a 1 KB file may ask for billions; the repeated empty rows and cells LibreOffice writes
    after the data are trimmed, as calamine trims them."""
    spans: list[Span] = []
    row = width = last_row = 0
    row_repeat = position = filled_to = 0
    with archive.open(ODS_CONTENT) as content:
        for event, element in ElementTree.iterparse(content, events=("start", "end")):
            tag = element.tag.rpartition("}")[2]
            if event == "start" and tag == "table":
                row = width = last_row = 0
            elif event == "start" and tag == "table-row":
                row_repeat = _repeat(element, _ROWS_REPEATED)
                position = filled_to = 0
            elif event == "start" and tag in ("table-cell", "covered-table-cell"):
                position += _repeat(element, _COLUMNS_REPEATED)
                if element.get(_VALUE_TYPE) is not None:
                    filled_to = position
            elif event == "end" and tag == "table-row":
                row += row_repeat
                if filled_to:
                    last_row, width = row, max(width, filled_to)
                element.clear()
            elif event == "end" and tag == "table":
                spans.append(((1, max(last_row, 1)), (1, max(width, 1))))
                element.clear()
    return spans


def _repeat(element: ElementTree.Element, attribute: str) -> int:
    text = element.get(attribute, "1")
    return int(text) if text.isdigit() and len(text) < 12 else 1


def _span(archive: zipfile.ZipFile, member: str) -> Span:
    """The first and last row and column of the cells a sheet's XML places, read in chunks."""
    top = left = 1 << 30
    bottom = right = 0
    tail = b""
    with archive.open(member) as sheet:
        while chunk := sheet.read(1 << 20):
            text = tail + chunk
            for letters, number in _CELL_REFERENCE.findall(text):
                row, column = int(number), _column_number(letters)
                top, bottom = min(top, row), max(bottom, row)
                left, right = min(left, column), max(right, column)
            tail = text[-32:]  # a reference cut by the chunk's end
    if not bottom:
        return (1, 1), (1, 1)
    return (top, bottom), (left, right)


def _column_number(letters: bytes) -> int:
    number = 0
    for letter in letters:
        number = number * 26 + letter - ord("A") + 1
    return number


def _column_letters(number: int) -> str:
    letters = ""
    while number:
        number, rest = divmod(number - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def _sheet_grid(rows: list[list[Any]]) -> Grid | None:
    """A sheet's cells as a grid: numbers as numbers, text as text (a number typed as
    text, `1,5` or `1.000,5`, read as the number it writes, its marks decided per column as
    in a text file, tools.formats.number_marks)."""
    width = min(max((len(row) for row in rows), default=0), MAX_COLUMNS)
    if width < 2:
        return None
    texts = [[_text(cell) for cell in row[:width]] + [""] * (width - len(row[:width]))
             for row in rows]  # fmt: skip
    cells = pd.DataFrame(texts, dtype=str)
    numbers = [[_number(cell) for cell in row[:width]] + [np.nan] * (width - len(row[:width]))
               for row in rows]  # fmt: skip
    values = pd.DataFrame(numbers, dtype=float)
    # numbers typed as text (`1.000,5`) read by the same rules as a text file's cells
    typed = pd.DataFrame([[isinstance(cell, str) for cell in row[:width]]
                          + [False] * (width - len(row[:width])) for row in rows])  # fmt: skip
    hint = decimal_hint("\n".join(cells.where(typed, "").to_numpy().ravel()))
    for column in cells.columns[typed.any()]:
        text = cells[column].where(typed[column], "")
        values[column] = values[column].fillna(numbers_of(text, hint))
    clocks = {
        column: Clock(dated=not isinstance(cell, dt.time))
        for row in rows for column, cell in enumerate(row[:width])
        if isinstance(cell, dt.datetime | dt.time)
    }  # fmt: skip
    return Grid(cells, values, ["\t".join(row) for row in texts], dict.fromkeys(clocks, "s"),
                clocks)  # fmt: skip


def _text(cell: Any) -> str:
    if cell is None or cell == "":
        return ""
    if isinstance(cell, float) and cell.is_integer():
        return str(int(cell))
    return str(cell)


def _number(cell: Any) -> float:
    if isinstance(cell, bool) or cell is None:
        return np.nan
    if isinstance(cell, int | float):
        return float(cell) if np.isfinite(cell) else np.nan
    if isinstance(cell, dt.datetime):  # a moment: seconds since 1970 (tools.formats.time_columns)
        return (cell.replace(tzinfo=None) - dt.datetime(1970, 1, 1)).total_seconds()
    if isinstance(cell, dt.time):
        return float(cell.hour * 3600 + cell.minute * 60 + cell.second) + cell.microsecond / 1e6
    if isinstance(cell, dt.timedelta):  # a duration
        return cell.total_seconds()
    return np.nan  # a date alone: a day, not a time a fit reads
