"""Whether the part of the data a task names by a condition ("für die Messreihe p ≤ 1 bar",
"for T > 300 K") is a whole table: a lab that measured the two ranges in two files has done
the cut already, and a fit of that file is of the part the task means."""

from __future__ import annotations

import operator
import re

from labscribe.tools.assignment.task_needs import CONDITION_ON_DATA
from labscribe.tools.columns.unit_library import unit_registry
from labscribe.tools.columns.units import known_unit
from labscribe.tools.formats.tables import TableSummary
from labscribe.tools.formulas.symbol_columns import columns_for

_CONDITION = re.compile(CONDITION_ON_DATA)
_OPERATORS = {
    "<": operator.lt, ">": operator.gt, "<=": operator.le, ">=": operator.ge,
    "≤": operator.le, "≥": operator.ge, "⩽": operator.le, "⩾": operator.ge,
}  # fmt: skip


def outside_its_range(task: str, table: TableSummary | None) -> bool:
    """Whether `task` writes a condition on the data (`p ≤ 1 bar`) that some row of
    `table` breaks: a fit of that table is not of the part the task means."""
    return _CONDITION.search(task) is not None and not (
        table is not None and holds_throughout(task, table)
    )


def holds_throughout(task: str, table: TableSummary) -> bool:
    """Whether every condition `task` writes (`p ≤ 1 bar`) holds in every row of `table`,
    in the column its symbol names (the bound in the column's unit where both are known);
    False where it writes none, or a symbol names no column."""
    conditions = list(_CONDITION.finditer(task))
    if not conditions:
        return False
    for condition in conditions:
        named = columns_for(condition["symbol"], table.columns)
        if len(named) != 1 or named[0].minimum is None or named[0].maximum is None:
            return False
        column = named[0]
        bound = _in_unit(float(condition["number"].replace(",", ".")), condition["unit"],
                         column.unit)  # fmt: skip
        holds = _OPERATORS[condition["op"]]
        if bound is None or not (holds(column.minimum, bound) and holds(column.maximum, bound)):
            return False
    return True


def _in_unit(number: float, written: str | None, unit: str) -> float | None:
    """The bound in the column's unit; as written where it states none or the column has
    none; None where the two do not convert."""
    stated = known_unit(written) if written else None
    if not stated or not unit or stated == unit:
        return number
    try:
        return float(unit_registry().Quantity(number, stated).to(unit).magnitude)
    except Exception:  # pint's dimensionality and undefined-unit errors
        return None
