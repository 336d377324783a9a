"""Repeated readings a handout lists in its prose, not in a file: "N_U = {129, 143, 144, 136,
139, 126, 158} Impulse (je 300 s)", "T = 2.01; 2.03; 1.99; 2.02 s". Each list of three or
more is a table of one column under its symbol and unit, so its mean, spread and outliers
are worked out as a file's repeats are (tools.fits.repeats), and a task that asks for their mean
is answered with it.

Values are parted by semicolons, or by a comma and a blank inside braces or in a run of three
or more: `1,25` alone is a decimal comma.

A file of one column that the handout says holds blocks of repeats ("45 Fallzeiten – je 5
Wiederholungen für 9 Kugeldurchmesser in der Reihenfolge d = 9; 8; …", "5 readings for each
of the 9 masses") is labelled block by block, with the setting's listed values where the
handout lists them, so each block is a series of its own (tools.fits.repeats).
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

import numpy as np
import pandas as pd

from labscribe.tools.columns.column import Column
from labscribe.tools.columns.column_positions import paragraphs_about
from labscribe.tools.columns.units import known_unit
from labscribe.tools.columns.written_numbers import NUMBER, number_of
from labscribe.tools.formats.tables import Table, TableSummary

_SYMBOL = r"(?<![\w.])(?P<symbol>[A-Za-zΔδ][A-Za-z0-9_]{0,7})"
_PARTED = rf"{NUMBER}(?:\s*(?:;|,\s)\s*{NUMBER}){{2,}}"
_SERIES = re.compile(
    rf"{_SYMBOL}\s*=\s*(?:\{{\s*(?P<braced>{_PARTED})\s*\}}|(?P<run>{_PARTED}))"
    r"(?:\s*(?P<unit>[^\W\d_][^\s,;.()]{0,11}))?"
)
MAX_SERIES = 8
_WORD_NUMBERS = {word: n for n, words in enumerate(
    (("two", "zwei"), ("three", "drei"), ("four", "vier"), ("five", "fünf"), ("six", "sechs"),
     ("seven", "sieben"), ("eight", "acht"), ("nine", "neun"), ("ten", "zehn")), start=2)
    for word in words}  # fmt: skip
_COUNT = r"\d{1,3}|" + "|".join(_WORD_NUMBERS)
# "je 5 Wiederholungen für 9 Kugeldurchmesser", "5 readings for each of the 9 masses"
_BLOCKS = re.compile(
    rf"\b(?:je|jeweils)\s+(?P<n>{_COUNT})\s+(?:Wiederholungen|Messungen|Werte|Zeiten)\s+"
    rf"(?:für|pro|bei)\s+(?:jede[nrs]?\s+(?:der\s+)?)?(?P<m>{_COUNT})\b"
    rf"|\b(?P<n2>{_COUNT})\s+(?:repeats|repetitions|readings|measurements|times|trials)\s+"
    rf"(?:for|at|of|with)\s+each\s+of\s+(?:the\s+)?(?P<m2>{_COUNT})\b",
    re.IGNORECASE,
)


def stated_series(text: str, source: str) -> list[Table]:
    """A one-column table for each list of readings `text` (the handout `source`) states: a
    list that rises or falls throughout sets values one by one (`d = 9; 8; 7,144; …`)."""
    return [
        table for table in stated_lists(text, source)
        if not _monotonic(table.frame.iloc[:, 0].to_numpy())
    ]  # fmt: skip


def _monotonic(values: np.ndarray) -> bool:
    steps = np.diff(values)
    return bool(np.all(steps > 0) or np.all(steps < 0))


def stated_lists(text: str, source: str) -> list[Table]:
    """A one-column table for each list of three or more values `text` (the handout
    `source`) states."""
    tables: list[Table] = []
    for found in _SERIES.finditer(text):
        written = found["braced"] or found["run"]
        parts = re.split(r"\s*;\s*", written) if ";" in written else re.split(r",\s+", written)
        values = np.array([number_of(part) for part in parts], dtype=float)
        if not np.isfinite(values).all() or len(tables) >= MAX_SERIES:
            continue
        unit = known_unit(found["unit"]) if found["unit"] else None
        tables.append(_table(found["symbol"], values, unit or "", source, len(tables)))
    return tables


def _table(symbol: str, values: np.ndarray, unit: str, source: str, block: int) -> Table:
    column = Column.of_values(values, key=symbol, header=symbol, name=symbol, unit=unit)
    summary = TableSummary(
        id=PurePosixPath(source).name, source=source, block=block,
        encoding="utf-8", delimiter=",", decimal=".", rows=len(values), columns=[column],
        x=None, title=f"{symbol} as the assignment lists it",
    )  # fmt: skip
    return Table(summary=summary, frame=pd.DataFrame({symbol: values}))


def label_blocks(tables: list[Table], text: str) -> None:
    """Label the rows of each one-column table of repeats in the blocks the handout says it
    holds (N repeats for each of M settings, N·M rows), by the settings' listed values."""
    for table in tables:
        summary = table.summary
        if summary.x is not None or len(summary.columns) != 1:
            continue
        for chunk in paragraphs_about(text, summary.source):
            found = _BLOCKS.search(chunk)
            if found is None:
                continue
            each = _count(found["n"] or found["n2"])
            settings = _count(found["m"] or found["m2"])
            if each * settings != len(table.frame) or settings < 2:
                continue
            listed = [t for t in stated_lists(chunk, summary.source) if t.summary.rows == settings]
            label = listed[0].summary.columns[0] if listed else None
            values = listed[0].frame.iloc[:, 0].to_numpy() if listed else np.arange(1, settings + 1)
            _label(table, np.repeat(values, each), label, found[0])
            break


def _count(word: str) -> int:
    return int(word) if word.isdigit() else _WORD_NUMBERS[word.lower()]


def _label(table: Table, values: np.ndarray, setting: Column | None, said: str) -> None:
    name = setting.name if setting is not None else "block"
    key = f"{name} (block)"
    if key in table.frame:
        return
    table.frame.insert(0, key, values.astype(float))
    table.summary.columns.insert(0, Column(
        key=key, header="series", name=name, unit=setting.unit if setting else "",
        count=len(values), formed=f"the block of repeats, as the assignment states (“{said}”)",
    ))  # fmt: skip
