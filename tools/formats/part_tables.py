"""Tables of parts and stated values, as labs write them: one row per part or quantity, a
column naming it, one holding its value, one its unit, often a tolerance or uncertainty and a
description (`ref,part,nominal,unit,tolerance_pct,notes`; `name,value,unit,uncertainty`;
`Bauteil;Nennwert;Einheit;Toleranz`).

Such a table is no data to fit: each row is a setting of the experiment, kept by the name
its row gives it, with its unit and tolerance, so a task that asks for "the nominal value
listed for X" finds X's value in kΩ, not a column of numbers without their names.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from labscribe.tools.columns.units import split_unit, split_value, unit_code
from labscribe.tools.formats.cell_grid import Grid
from labscribe.tools.formats.parameters import ParameterRow

# Header names (lower case, `_`, `-` and blanks as one blank), in the languages handouts use.
UNIT_NAMES = frozenset(
    {
        "unit",
        "units",
        "einheit",
        "unité",
        "unite",
        "unidad",
        "unidade",
        "unità",
        "单位",
        "dimension",
        "uom",
        "unit of measure",
        "unit of measurement",
    }
)
VALUE_NAMES = frozenset(
    {"value", "nominal", "nominal value", "nominal val", "val", "wert", "nennwert", "sollwert",
     "messwert", "valeur", "valeur nominale", "valor", "valor nominal", "valore", "数值", "值",
     "标称值", "rating", "setting", "typical", "typ"}
)  # fmt: skip
SPREAD_WORDS = re.compile(
    r"tol|uncert|unsicher|incert|accura|genauig|précision|precisi|error|fehler|erreur|±|误差|允差",
    re.IGNORECASE,
)
MAX_PART_ROWS = 200  # a parts list is a page; more rows are data under a `unit` column


def part_rows(grid: Grid) -> list[ParameterRow] | None:
    """The rows of a parts table (a header naming a value column and a unit column, every
    row below it named by a word), each as a setting: its name from the first column of
    words, its value and unit, its tolerance, the other words as its comment. None when the
    grid is not such a table."""
    filled = (grid.cells != "").to_numpy()
    rows = np.flatnonzero(filled.any(axis=1))
    if len(rows) < 2:
        return None
    top = int(rows[0])
    header = [cell.strip() for cell in grid.cells.iloc[top].tolist()]
    keys = [_plain(cell) for cell in header]
    body = [int(r) for r in rows[1 : MAX_PART_ROWS + 1]]
    unit_at = _unit_column(keys)
    value_at = next((i for i, k in enumerate(keys) if _value_name(k)), None)
    if unit_at is None or value_at is None or grid.values.iloc[top].notna().any():
        return None
    values = grid.values.iloc[body, value_at].to_numpy(dtype=float)
    words = [i for i in range(len(header)) if _words(grid, body, i)]
    if not np.isfinite(values).any() or not words:
        return None
    label_at = words[0]
    labels = [label for row in body if (label := grid.cells.iat[row, label_at].strip())]
    if len(set(labels)) < len(labels):
        return None  # a name that comes again is a long table of readings, not a parts list
    spreads = [i for i, k in enumerate(keys) if SPREAD_WORDS.search(k) and i != value_at]
    found = []
    for row in body:
        cells = [cell.strip() for cell in grid.cells.iloc[row].tolist()]
        if not cells[label_at] or not cells[value_at]:
            continue
        number = float(grid.values.iat[row, value_at])
        unit = cells[unit_at]
        comment = [cells[i] for i in words[1:] if i not in (unit_at, *spreads) and cells[i]]
        found.append(
            ParameterRow(
                source="", key=cells[label_at], name=cells[label_at], value=cells[value_at],
                number=number if np.isfinite(number) else None,
                unit=unit_code(unit) or unit, tolerance=_spread(header, cells, spreads, unit),
                comment="; ".join(comment),
            )
        )  # fmt: skip
    return found or None


def _unit_column(keys: list[str]) -> int | None:
    """The column of units among those a header calls so: where another is beside it
    (`dimension,value,uncertainty,uom`), `dimension` names the quantities."""
    placed = [i for i, k in enumerate(keys) if k in UNIT_NAMES]
    return min(placed, key=lambda i: keys[i] == "dimension", default=None)


def unit_of_rows(header: list[str] | None, cells: pd.DataFrame) -> str:
    """The unit a column of units gives every row of a data table alike (`uom` = `SEC` beside
    `t1,t2,uncertainty`): the unit of its columns that state none; "" where there is no such
    column, several (each its neighbour's), or its rows differ."""
    keys = [_plain(cell) for cell in header or []]
    placed = [i for i, k in enumerate(keys) if k in UNIT_NAMES]
    if len(placed) != 1 or placed[0] >= cells.shape[1]:
        return ""  # a Maccor export's `Units` after each `Aux #n` is that column's alone
    at = placed[0]
    written = {cell.strip() for cell in cells.iloc[:, at] if cell.strip()}
    return (unit_code(written.pop()) or "") if len(written) == 1 else ""


def names_a_value(cell: str) -> bool:
    """Whether a header cell can name the value below it: words, not a number (`3977`),
    a sign (`±`, `=`) or a blank."""
    return re.search(r"[^\W\d_]", cell) is not None and split_value(cell)[0] is None


def _plain(cell: str) -> str:
    return re.sub(r"[_\-\s]+", " ", cell.lower()).strip()


def _value_name(key: str) -> bool:
    """`nominal`, `value`, `Nennwert`, or one of them with a unit or a word beside it
    (`nominal_value`, `value (SI)`)."""
    name = _plain(split_unit(key)[0])
    return name in VALUE_NAMES or any(word in VALUE_NAMES for word in name.split()[:2])


def _words(grid: Grid, body: list[int], column: int) -> bool:
    """Whether the column holds words in most filled rows of the table: a name or a comment."""
    cells = grid.cells.iloc[body, column].str.strip()
    texts = (cells != "") & grid.values.iloc[body, column].isna()
    return bool(texts.sum() and texts.sum() >= 0.5 * (cells != "").sum())


def _spread(header: list[str], cells: list[str], spreads: list[int], unit: str) -> str:
    """The tolerance or uncertainty the row states, with its unit: `5 %` from a column
    `tolerance_pct`, `0.1 mm` from a column `uncertainty` beside a value in mm."""
    for i in spreads:
        if not cells[i]:
            continue
        spread_unit = split_unit(header[i])[1]
        if not spread_unit and not re.search(r"[^\d.,+\-±eE ]", cells[i]):
            spread_unit = unit if not SPREAD_PERCENT.search(header[i]) else "%"
        text = cells[i].lstrip("±+ ")
        return f"{text} {unit_code(spread_unit) or spread_unit}".strip()
    return ""


SPREAD_PERCENT = re.compile(r"%|pct|percent|prozent|pourcent|porcentaje", re.IGNORECASE)
