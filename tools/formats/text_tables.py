"""A text file's cells, read with pandas from a bounded prefix of it: the grid the tables are
found in (tools.formats.grid).

Lab files are rarely clean CSV: instrument exports open with a preamble, write European
decimal commas, come in GBK, UTF-16 or a Windows code page, separate runs side by side with
`;` (so a line may start with `;` and still be data), write engineering notation (`12.5m`)
or elapsed times (`0h 1m59s`). This module finds the layout (delimiter, decimal mark) from
the longest stretch of lines that agree on it, lets pandas split and convert the cells, and
keeps each line's text for the metadata reader. Whatever a file holds, reading it costs
bounded time and memory and raises nothing but ToolError.
"""

from __future__ import annotations

import csv
import io
import re
import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd

from labscribe.tools.formats.cell_grid import COMMENT_MARK
from labscribe.tools.formats.grid import Grid
from labscribe.tools.formats.headings import HEADER_LOOKBACK
from labscribe.tools.formats.number_marks import decimal_hint, numbers_of
from labscribe.tools.formats.time_columns import Clock, clock_times

# Lines and cells looked at: pandas holds each cell as a Python string before conversion
# (about 60 bytes), so a million cells keep the peak near 100 MB whatever the file's shape.
MAX_LINES = 200_000
MAX_CELLS = 1_000_000
MAX_COLUMNS = 32  # a wider table is not one a lab report discusses column by column
# Layout is judged from this many lines, each cut to this many characters.
SAMPLE_LINES = 400
SAMPLE_CHARS = 4096
# Comment lines; `;` only where it does not separate the columns.
COMMENT_PREFIXES = ("#", "%", "//", "!")
# Delimiters in the order they win a tie: a tab or a semicolon is never a decimal mark, so
# "1,23;4,56" is split at the semicolons and read with decimal commas.
DELIMITERS: tuple[tuple[str | None, str], ...] = (
    ("\t", "tab"),
    (";", "semicolon"),
    ("|", "bar"),
    (",", "comma"),
    (None, "whitespace"),
)
_SI_SUFFIX = {"p": 1e-12, "n": 1e-9, "u": 1e-6, "µ": 1e-6, "μ": 1e-6, "m": 1e-3, "k": 1e3,
              "K": 1e3, "M": 1e6, "G": 1e9}  # fmt: skip
# `\d+(?:\.\d*)?`, not `\d+\.?\d*`: a run of digits has one way to match, so a cell of
# 200,000 digits is refused in linear time, not quadratic.
_ENGINEERING = re.compile(
    r"^\s*([-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?)\s?([pnuµμmkKMG])\s*$"
)
_DURATION = re.compile(r"^\s*(?:\d+\s*[hH]\s*)?\d+\s*m(?:in)?\s*\d+(?:\.\d+)?\s*s\s*$")
# Elapsed times as battery cyclers write them, days then a clock: Maccor's `0d 00:03:0.88`.
_DAY_CLOCK = re.compile(r"^\s*\d+d\s+\d+:\d{1,2}:\d{1,2}(?:\.\d+)?\s*$")
# Blank-separated tokens holding a comma: in this share of them at least, the comma is a
# decimal mark ("4,56"), so the blanks separate the columns (a header's words may not read).
DECIMAL_COMMA_SHARE = 0.5
# A column converted from text (engineering notation, times) when most of its cells parse.
CONVERTED_SHARE = 0.8


@dataclass(frozen=True)
class Layout:
    delimiter: str | None
    label: str
    decimal: str


def text_grid(text: str, notes: list[str]) -> tuple[Grid, Layout] | None:
    """The grid of `text` (a decoded prefix of a file) and its layout; None when no
    delimiter splits its lines into columns. Notes on what was cut go to `notes`."""
    if "\n" not in text and "\r" in text:
        text = text.replace("\r", "\n")  # classic Mac line ends
    lines = text.split("\n", MAX_LINES)
    if len(lines) > MAX_LINES:
        lines.pop()
        notes.append(f"only the first {MAX_LINES} lines read")
    lines = [line.rstrip("\r") for line in lines]
    layout = _layout([_uncommented(line, None) for line in lines])
    if layout is None:
        return None
    # comment lines become blank: they part blocks, as a blank line does
    blanked = [_uncommented(line, layout.delimiter) for line in lines]
    widths: list[int] = []
    cells = _cells(blanked, layout, notes, widths)
    values, seconds, clocks = _numbers(cells, layout.decimal)
    units = dict.fromkeys([*seconds, *clocks], "s")
    comments = _comment_cells(lines[: len(cells)], blanked, layout)
    grid = Grid(cells, values, lines[: len(cells)], units, clocks, comments,
                widths[: len(cells)], layout.delimiter is None)  # fmt: skip
    return grid, layout


def _uncommented(line: str, delimiter: str | None) -> str:
    """`line`, or "" for a comment: a line that starts with a comment mark (after blanks,
    not after a tab, which makes `<TAB>#` a cell: Gamry's units row)."""
    stripped = line.lstrip(" ")
    comment = stripped.startswith(COMMENT_PREFIXES) or (
        delimiter != ";" and stripped.startswith(";")
    )
    return "" if comment else line


def _comment_cells(lines: list[str], blanked: list[str], layout: Layout) -> dict[int, list[str]]:
    """The cells of the comment lines (at most HEADER_LOOKBACK of them) that stand just
    above a line of cells, blank lines aside, split as the data are, the mark taken off."""
    rows: list[int] = []
    for i in range(1, len(lines)):
        if not blanked[i].strip() or blanked[i - 1].strip():
            continue
        row, taken = i - 1, 0
        while row >= 0 and taken < HEADER_LOOKBACK and not blanked[row].strip():
            if lines[row].strip():
                rows.append(row)
                taken += 1
            row -= 1
    cells: dict[int, list[str]] = {}
    for row in sorted(set(rows)):
        text = COMMENT_MARK.sub("", lines[row])[:SAMPLE_CHARS]
        try:
            fields = text.split() if layout.delimiter is None else next(
                csv.reader([text], delimiter=layout.delimiter, skipinitialspace=True)
            )  # fmt: skip
        except csv.Error:  # a NUL byte: no header
            continue
        if layout.delimiter == "\t":  # a header typed with blanks where the data have tabs
            fields = [part for field in fields for part in re.split(r"\s{2,}", field.strip())]
        cells[row] = [field.strip() for field in fields[:MAX_COLUMNS]]
    return cells


def _fields(line: str, delimiter: str | None) -> int:
    """How many fields `line` writes; a delimiter inside quotes (`0,"10,91"`) parts none."""
    if delimiter is None:
        return len(line.split())
    if '"' in line:
        try:
            return len(next(csv.reader([line], delimiter=delimiter)))
        except csv.Error:  # an unbalanced quote, a field past csv's size limit
            pass
    return line.count(delimiter) + 1


def _layout(lines: list[str]) -> Layout | None:
    """The delimiter that splits the longest stretch of consecutive lines into one number
    of fields (two or more), and the decimal mark; None if none splits any stretch. A long
    preamble (an EC-Lab file's 90 lines of settings) does not outvote the data under it."""
    sample = [line[:SAMPLE_CHARS] for line in lines if line.strip()][:SAMPLE_LINES]
    if not sample:
        return None
    stretch: dict[str | None, int] = {}
    for delimiter, _ in DELIMITERS:
        counts = [_fields(line, delimiter) for line in sample]
        longest = run = 0
        for i, n in enumerate(counts):
            run = run + 1 if n >= 2 and i and n == counts[i - 1] else (1 if n >= 2 else 0)
            longest = max(longest, run)
        if longest >= 2 or (longest == 1 and len(sample) == 1):
            stretch[delimiter] = longest
    if not stretch:
        return None
    best = max(stretch.values())
    delimiter = next(d for d, _ in DELIMITERS if stretch.get(d, -1) >= 0.8 * best)
    if delimiter != "," and "," in stretch and _comma_beside(sample, delimiter):
        delimiter = ","  # `30<TAB>,189`, `1020,<TAB>25`: the comma splits, the blanks pad it
    if delimiter == "," and None in stretch:
        # "1,23 4,56" splits on blanks, its commas inside the numbers; "1.0, 2.0" does not,
        # nor "2024-03-01 10:15:00,21.5", whose blank is inside a date
        tokens = [token for line in sample for token in line.split() if "," in token]
        if not any(token.startswith(",") or token.endswith(",") for token in tokens):
            numbers = pd.to_numeric(pd.Series(tokens).str.replace(",", "."), errors="coerce")
            if numbers.notna().mean() >= DECIMAL_COMMA_SHARE:
                delimiter = None
    decimal = decimal_hint("\n".join(sample), delimiter) if delimiter != "," else "."
    label = dict(DELIMITERS)[delimiter]
    return Layout(delimiter, label, decimal)


def _comma_beside(sample: list[str], delimiter: str | None) -> bool:
    """Whether the cells `delimiter` makes start or end with a comma in most lines: a comma
    written beside the blanks that pad it."""
    edged = sum(
        any(cell.startswith(",") or cell.endswith(",") for cell in line.split(delimiter))
        for line in sample
    )
    return edged > len(sample) / 2


def _cells(lines: list[str], layout: Layout, notes: list[str], widths: list[int]) -> pd.DataFrame:
    """The lines split into cells by pandas, as text: at most MAX_COLUMNS fields a line and
    MAX_CELLS cells in all. Blank lines stay, as rows of empty cells, so blocks stay apart.
    How many fields each line wrote goes to `widths`."""
    delimiter = layout.delimiter
    widest = 0
    for i, line in enumerate(lines):
        n = _fields(line, delimiter) if line.strip() else 0
        widths.append(n)
        widest = max(widest, n)
        if n > MAX_COLUMNS:
            kept = line.split(delimiter, MAX_COLUMNS)[:MAX_COLUMNS]
            lines[i] = (delimiter or " ").join(kept)
    if widest > MAX_COLUMNS:
        notes.append(f"{widest} columns; the first {MAX_COLUMNS} read")
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
    return frame.fillna("")


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


def _numbers(cells: pd.DataFrame, decimal: str) -> tuple[pd.DataFrame, list[int], dict[int, Clock]]:
    """The cells as floats (NaN where a cell is not a finite number), the columns read as
    elapsed times, in seconds, and those read as dates and times (seconds since 1970). A
    column written in engineering notation (`12.5m`), as elapsed times (`0h 1m59s`) or as
    dates and times (`2024-03-01T10:15:00`, tools.formats.time_columns) is read as such."""
    seconds: list[int] = []
    clocks: dict[int, Clock] = {}

    def convert(column: pd.Series) -> pd.Series:
        numbers = numbers_of(column, decimal)  # tools.formats.number_marks: marks per column
        text = column.str.replace(",", ".", regex=False)
        missing = numbers.isna() & (column != "")
        if missing.any() and missing.sum() >= CONVERTED_SHARE * (column != "").sum():
            # `76.35<TAB>#25`: a last column commented out of numpy.loadtxt, its header kept
            numbers = numbers.fillna(pd.to_numeric(text[missing].str.extract(
                _COMMENTED_NUMBER)[0], errors="coerce"))  # fmt: skip
            missing &= numbers.isna()
            numbers = numbers.fillna(_engineering(text[missing]))
            numbers = numbers.fillna(_coded(column[missing & numbers.isna()]))
            durations = _durations(text[missing & numbers.isna()])
            if durations.notna().any():
                seconds.append(int(column.name))
            numbers = numbers.fillna(durations)
            rest = missing & numbers.isna()
            # a column of durations is no clock, whatever a preamble line above it holds
            timed = durations.notna().any()
            if rest.any() and not timed and (read := clock_times(column[rest])) is not None:
                clocks[int(column.name)] = read[1]
                numbers = numbers.fillna(read[0])
        return numbers

    values = cells.apply(convert).astype(float).replace([np.inf, -np.inf], np.nan)
    return values, seconds, clocks


# A row's label of a letter or three and its running number (`f1`, `f2`, … for harmonics,
# `S_12` for samples): the number, where a column writes them all under one prefix.
_CODED = re.compile(r"^\s*([A-Za-z]{1,3})_?(\d{1,4})\s*$")
MIN_CODED = 3


def _coded(text: pd.Series) -> pd.Series:
    """The numbers of `text`'s cells that label rows as `f1`, `f2`, … under one prefix, where
    they count (each one more than the last, or a new count from its start)."""
    parts = text.str.extract(_CODED)
    coded = parts[0].notna()
    if coded.sum() < max(MIN_CODED, CONVERTED_SHARE * len(text)) or parts[0].nunique() != 1:
        return pd.Series(np.nan, index=text.index)
    if parts[1].nunique() < MIN_CODED:
        return pd.Series(np.nan, index=text.index)  # one code throughout (`C26`) runs nowhere
    codes = parts[1][coded]
    runs = int((codes != codes.shift()).sum())
    if runs == codes.nunique() and runs < len(codes):  # `m1` on forty rows, then `m2`: groups
        return pd.Series(np.nan, index=text.index)
    numbers = pd.to_numeric(parts[1], errors="coerce")
    steps = numbers[coded].astype(float).diff().dropna()
    if not ((steps == 1) | (steps <= 0)).all():  # `m1, m2, m3, m5`: bodies named, not counted
        return pd.Series(np.nan, index=text.index)
    return numbers


_COMMENTED_NUMBER = re.compile(r"^#\s*([-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)\s*$")


def _engineering(text: pd.Series) -> pd.Series:
    parts = text.str.extract(_ENGINEERING)
    scale = parts[1].map(_SI_SUFFIX)
    return pd.to_numeric(parts[0], errors="coerce") * scale


def _durations(text: pd.Series) -> pd.Series:
    """`0h 1m59s`, `1m 5.2s`, `0d 00:03:0.88` as seconds."""
    if text.empty:
        return pd.Series(dtype=float)
    durations = text.where(text.str.match(_DURATION))
    spaced = durations.str.replace(r"(?i)\s*(h|min|m|s)\s*", r"\1 ", regex=True)
    days = text.where(text.str.match(_DAY_CLOCK)).str.strip().str.replace("d ", " days ", n=1)
    seconds = pd.to_timedelta(spaced, errors="coerce").dt.total_seconds()
    return seconds.fillna(pd.to_timedelta(days, errors="coerce").dt.total_seconds())
