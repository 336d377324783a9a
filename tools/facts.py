"""Facts the data files determine, computed deterministically for the number checks.

For each table (CSV, TSV) with a header and numeric columns: its row count, each column's
minimum and maximum, where the first column stands when another column peaks, and the slope
of a straight-line fit of each column against the first (the fitted constant of a linear
law: Ohm's, Hooke's, a calibration). Files
are read in bounded amounts; a file that is not a clean numeric table gives no facts.
"""

from __future__ import annotations

import csv
import math
import os
import re
from functools import lru_cache
from pathlib import Path

from labscribe.guards.numbers import Fact
from labscribe.tools.base import Folder, ToolError, version_in
from labscribe.tools.scanning import files_with_suffix

TABLE_SUFFIXES = frozenset({".csv", ".tsv", ".dat"})
# What of a table is read, whatever its shape: a 40 MB single line or 300,000 columns cost
# no more than this. 8 MB is about half a million rows of a few columns; the facts describe
# what was read.
MAX_TABLE_BYTES = 8 * 1024 * 1024
MAX_LINE_CHARS = 64 * 1024
MAX_COLUMNS = 64  # a wider table is not a lab table the report's prose names columns of

ROWS = frozenset({"rows", "points", "samples", "measurements", "readings", "entries"})
PEAK = frozenset({"peak", "peaks", "peaked", "resonance", "resonant", "maximum", "maximal"})
HIGHEST = frozenset({"maximum", "max", "maximal", "highest", "largest", "peak"})
LOWEST = frozenset({"minimum", "min", "minimal", "lowest", "smallest"})
SLOPE = frozenset({"slope", "gradient"})
# Trailing parts of column names that are units, not names: "frequency_Hz", "V_R_Vpp".
UNITS = frozenset(
    {"hz", "khz", "mhz", "v", "mv", "vpp", "vrms", "a", "ma", "s", "ms", "us", "deg", "rad",
     "ohm", "ohms", "f", "nf", "uf", "h", "mh", "k", "c", "pct", "db", "w", "mw"}
)  # fmt: skip
_PREFIXED = {"hz": {"hz", "khz", "mhz", "ghz"}, "v": {"v", "mv", "kv"}, "s": {"s", "ms", "us"}}


def data_facts(root: Path) -> list[Fact]:
    """Every fact the folder's tables determine. A table that cannot be read (unreadable,
    binary, of no table shape) gives none; nothing here raises for what a file holds."""
    folder = Folder(root)
    tables = files_with_suffix(root, TABLE_SUFFIXES)
    facts: list[Fact] = []
    for rel in tables:
        facts += _table_facts(str(root), rel, len(tables) > 1, version_in(folder, rel))
    return facts


@lru_cache(maxsize=64)
def _table_facts(root: str, rel: str, several: bool, version: str | None) -> list[Fact]:
    if version is None:
        return []
    header, columns = _read_table(Folder(Path(root)), rel)
    if not header or not columns or not columns[0]:
        return []
    file_words = (frozenset(_name_words(Path(rel).stem)),) if several else ()
    rows = len(columns[0])
    facts = [Fact(f"rows of {rel}", float(rows), rel, ROWS, file_words, exact=True)]
    x_name, xs = header[0], columns[0]
    x_words = frozenset(_name_words(x_name) | _unit_words(x_name))
    for name, ys in zip(header[1:], columns[1:], strict=True):
        y_words = frozenset(_name_words(name))
        if not y_words:
            continue
        top = max(range(rows), key=ys.__getitem__)
        facts += [
            Fact(f"maximum of {name} in {rel}", ys[top], rel, HIGHEST, (*file_words, y_words)),
            Fact(f"minimum of {name} in {rel}", min(ys), rel, LOWEST, (*file_words, y_words)),
            Fact(
                f"{x_name} where {name} peaks in {rel}",
                xs[top],
                rel,
                PEAK,
                (*file_words, x_words, y_words),
            ),
        ]
        if (slope := _least_squares_slope(xs, ys)) is not None:
            label = f"slope of a straight-line fit of {name} against {x_name} in {rel}"
            facts.append(Fact(label, slope, rel, SLOPE, (*file_words, y_words)))
    return facts


def _least_squares_slope(xs: list[float], ys: list[float]) -> float | None:
    """The fitted constant a straight-line fit gives, or None when x does not vary."""
    n = len(xs)
    mean_x, mean_y = sum(xs) / n, sum(ys) / n
    spread = sum((x - mean_x) ** 2 for x in xs)
    if n < 2 or spread == 0:
        return None
    return sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys, strict=True)) / spread


def _read_table(folder: Folder, rel: str) -> tuple[list[str], list[list[float]]]:
    """The header and the numeric columns of a delimited file, from its first
    MAX_TABLE_BYTES; ([], []) if it is not such a table or cannot be read."""
    try:
        target = folder.resolve(rel)
        with os.fdopen(folder.open(target), "rb") as raw:
            text = raw.read(MAX_TABLE_BYTES).decode("utf-8", errors="replace")
    except (ToolError, OSError):
        return [], []
    lines = text.splitlines()
    if len(text) == MAX_TABLE_BYTES and lines:
        lines.pop()  # cut mid-line by the bound
    if not lines or max(len(line) for line in lines[:2]) > MAX_LINE_CHARS:
        return [], []
    try:
        dialect = csv.Sniffer().sniff("\n".join(lines[:64])[:8192], delimiters=",;\t ")
        rows = csv.reader(lines, dialect)
        header = [cell.strip() for cell in next(rows, [])]
        if not header or len(header) > MAX_COLUMNS:
            return [], []
        columns: list[list[float]] = [[] for _ in header]
        for row in rows:
            if len(row) != len(header):
                break
            values = [float(cell) for cell in row]
            if not all(math.isfinite(v) for v in values):
                return [], []
            for column, value in zip(columns, values, strict=True):
                column.append(value)
    except (csv.Error, ValueError):
        return [], []
    if any(_is_number(name) for name in header):
        return [], []  # no header row: the columns have no names to speak of
    return header, columns


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _name_words(name: str) -> set[str]:
    """How prose names a column: "V_R_Vpp" is "v_r" or "vr"; "frequency_Hz" is "frequency"."""
    parts = [p for p in re.split(r"[^a-z0-9]+", name.lower()) if p]
    while len(parts) > 1 and parts[-1] in UNITS:
        parts.pop()
    if not parts:
        return set()
    words = {"_".join(parts), "".join(parts)} | {p for p in parts if len(p) >= 3}
    return {w for w in words if len(w) >= 2}


def _unit_words(name: str) -> set[str]:
    parts = [p for p in re.split(r"[^a-z0-9]+", name.lower()) if p]
    unit = parts[-1] if len(parts) > 1 and parts[-1] in UNITS else None
    return _PREFIXED.get(unit, {unit}) if unit else set()
