"""A row-numbering column the assignment's formula names is a variable after all; and the
report's sentence on the others.

Tables are read before the assignment, and a column that only numbers the rows (`run`,
`trial`, `No.`; tools.columns.counting) is set aside then. Should a task's formula name it as its
variable (`t = T·run`), the column is put back and the table's variable chosen again.
"""

from __future__ import annotations

import re

import numpy as np

from labscribe.tools.assignment.requested import Request
from labscribe.tools.columns.clocks import clock_name, clock_note
from labscribe.tools.columns.column import Column, mark_maxima
from labscribe.tools.columns.counting import counting_name, numbers_rows
from labscribe.tools.columns.variable_column import independent_variable
from labscribe.tools.formats.tables import Table, TableSummary
from labscribe.tools.formulas.formula_parse import FormulaError, parse_formula


def restore_named(tables: list[Table], requests: list[Request]) -> list[Table]:
    """`tables`, each with the row-numbering columns a request's formula names as its
    variable back among its columns, and its variable chosen again."""
    return [_restored(table, requests) for table in tables]


def _restored(table: Table, requests: list[Request]) -> Table:
    summary = table.summary
    if not summary.row_numbers:
        return table
    names = tuple(c.name for c in [*summary.row_numbers, *summary.columns])
    named = {_variable(request.formula, names) for request in requests if request.formula}
    back = [c for c in summary.row_numbers if c.name.lower() in named]
    if not back:
        return table
    columns = [*back, *summary.columns]
    x = independent_variable(columns, table.frame)
    columns = [c.model_copy(update={"x_at_maximum": None}) for c in columns]
    mark_maxima(columns, table.frame, x)
    update = {
        "columns": columns,
        "x": x,
        "row_numbers": [c for c in summary.row_numbers if c not in back],
        "notes": [n for n in summary.notes if not any(n.startswith(c.header) for c in back)],
    }
    return Table(summary.model_copy(update=update), table.frame)


# Letters a sheet heads its running number with (`n`, `N`, `i`), as often as a physical
# count (a fringe order n, N turns): the handout tells which.
INDEX_LETTERS = frozenset({"n", "N", "i"})
MIN_INDEXED = 3


def set_aside_letter_counts(table: Table, handout_text: str) -> None:
    """Set aside a column headed by a bare letter (`n`, `N`, `i`) whose values number every
    row (1..rows or 0..rows-1) when the handout never writes that letter as a symbol: it is
    the sheet's running number, not the fringe order `n` of `2d·sinθ = n·λ`; and one of a
    file without a header that the handout names so (`Lp.`, `No.`). The table's variable
    is chosen again without them."""
    summary = table.summary
    aside = [
        c for c in summary.columns
        if c.uncertainty_of is None and not c.formed
        and _numbers_every_row(table.frame[c.key].to_numpy(dtype=float))
        and _named_as_counter(c, handout_text)
    ]  # fmt: skip
    set_aside(table, aside)


def _named_as_counter(column: Column, handout_text: str) -> bool:
    """A bare index letter the handout never writes as a symbol, or a column of a file
    without a header that the handout calls by a counter's name (`Lp.`, `No.`)."""
    name = column.name.strip()
    if name in INDEX_LETTERS:
        return not _writes_symbol(handout_text, name)
    return not column.header.strip() and counting_name(name)


def set_aside(table: Table, labels: list[Column]) -> None:
    """Record `labels` as row numbers of `table`: no variable, never fitted; the table's
    variable chosen again without them. A table would keep nothing else: then nothing."""
    summary = table.summary
    if not labels or len(labels) == len(summary.columns):
        return
    summary.columns = [c for c in summary.columns if c not in labels]
    summary.row_numbers = [*summary.row_numbers, *labels]
    if summary.x in {c.key for c in labels}:
        summary.x = independent_variable(summary.columns, table.frame)


def _numbers_every_row(values: np.ndarray) -> bool:
    if len(values) < MIN_INDEXED or not np.all(np.isfinite(values)):
        return False
    return numbers_rows(values)


def _writes_symbol(text: str, letter: str) -> bool:
    """Whether `text` writes `letter` standing alone, as a symbol (`n·λ`, `nλ`, `(n)`), not
    inside a word or as an elision (French `n'est`)."""
    return bool(re.search(rf"(?<![A-Za-z0-9_'’]){letter}(?![A-Za-z0-9_'’])", text))


def _variable(formula: str, names: tuple[str, ...]) -> str:
    """The formula's variable, lower case; "" when it does not parse."""
    try:
        return parse_formula(formula, names).x.lower()
    except FormulaError:
        return ""


def row_number_notes(tables: list[TableSummary]) -> list[str]:
    """A sentence for the report on each column that only numbers the rows, or runs in step
    with the variable as a clock does (tools.columns.clocks)."""
    return [_note(summary, column) for summary in tables for column in summary.row_numbers]


def _note(summary: TableSummary, column: Column) -> str:
    x = next((c for c in summary.columns if c.key == summary.x), None)
    if x is not None and clock_name(column.name):
        return clock_note(column, summary.id, x.name)
    return (
        f"{column.header.strip() or 'The unnamed first column'} ({summary.id}) only numbers "
        "the rows: it is not a variable, and is left out of the analysis"
    )
