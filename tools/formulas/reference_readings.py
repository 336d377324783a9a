"""Readings a formula takes from one row of a column, as handouts define a stretch or a
rise from a reference: `x = h(m=0) − h(m)` (the height where the load m is 0, less each
height) or `ΔT = T − T_0` (each temperature less the first).

A definition's text is rewritten so that its parser sees symbols (`h(m=0)` becomes `h_at_m`,
`h(m)` becomes `h`); tools.formulas.formed_columns then asks `reference_row` which row holds the
reading, and says which in the formed column's description.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # the text work above needs no table; only reference_row reads one
    from labscribe.tools.columns.column import Column
    from labscribe.tools.formats.tables import Table

_SYMBOL = r"[A-Za-z\u0370-\u03ff]\w{0,8}"
# `h(m=0)`, `h(m = 0)`, `h(0)`: a quantity's reading where its variable is zero.
_AT_ZERO = re.compile(rf"(?<![\w\\])(?P<of>{_SYMBOL})\(\s*(?:(?P<where>{_SYMBOL})\s*=\s*)?0\s*\)")
_FUNCTIONS = frozenset({"ln", "log", "lg", "exp", "sqrt", "sin", "cos", "tan", "abs"})
_AT = "_at_"
# `T_0`, `h_0`: a quantity's reference reading, where no column or stated value has the name.
_SUBSCRIPT_ZERO = re.compile(rf"^(?P<of>{_SYMBOL}?)_\{{?0\}}?$")


@dataclass(frozen=True)
class Reading:
    """A symbol that stands for one reading of the quantity `of`: where `where` is zero,
    or (`where` None) at the reference row the table shows."""

    of: str
    where: str | None


def written_readings(sentence: str) -> str:
    """`sentence` with each reading at zero written as one symbol and the same quantity's
    reading as a function of its variable as the quantity itself: `x = h(m=0) − h(m)` gives
    `x = h_at_m − h`. Calls of other kinds (`m(g + a)`, `sin(0)`) are left as written."""
    changed = sentence
    for match in _AT_ZERO.finditer(sentence):
        of = match["of"]
        if of in _FUNCTIONS:
            continue
        variable = re.search(rf"(?<![\w\\]){re.escape(of)}\(\s*(?P<v>{_SYMBOL})\s*\)", sentence)
        where = match["where"] or (variable["v"] if variable else None)
        if where is None:
            continue
        changed = changed.replace(match[0], f"{of}{_AT}{where}")
        changed = re.sub(rf"(?<![\w\\]){re.escape(of)}\(\s*{re.escape(where)}\s*\)", of, changed)
    return changed


def reading(symbol: str) -> Reading | None:
    """The reading a formula's symbol stands for (`h_at_m`, `T_0`), None for any other."""
    if _AT in symbol:
        of, where = symbol.split(_AT, 1)
        return Reading(of, where) if of and where else None
    match = _SUBSCRIPT_ZERO.match(symbol)
    return Reading(match["of"], None) if match and match["of"] else None


def reference_row(table: Table, of: Column, where: list[Column] | None) -> tuple[int, str] | None:
    """The row that holds the reference reading of the column `of`, and how a description
    says it: the one row where the `where` column is zero; without one named, the one row
    where some other column is zero (the unloaded spring, the unheated sample), else the first
    row with a reading. None where the named column is zero in no row or in several."""
    frame = table.frame
    own = frame[of.key].to_numpy(dtype=float)
    if where is not None:
        rows = _zero_rows(frame[where[0].key].to_numpy(dtype=float), own)
        return (rows[0], f"where {where[0].name} = 0") if len(rows) == 1 else None
    others = [
        c for c in table.summary.columns
        if c.key != of.key and c.uncertainty_of is None and not c.formed
    ]  # fmt: skip
    found = {
        (rows[0], column.name)
        for column in others
        if len(rows := _zero_rows(frame[column.key].to_numpy(dtype=float), own)) == 1
    }
    if len({row for row, _ in found}) == 1:
        row, name = min(found)
        return row, f"where {name} = 0"
    readings = np.flatnonzero(np.isfinite(own))
    return (int(readings[0]), "at its first reading") if len(readings) else None


def _zero_rows(values: np.ndarray, own: np.ndarray) -> list[int]:
    return [int(i) for i in np.flatnonzero((values == 0) & np.isfinite(own))]
