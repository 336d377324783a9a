"""Which column each value of a table's excerpt belongs to. The excerpt is taken when the
file is read; the roles may set columns aside after (a clock, a cycle number, a running
number `n`), so the columns a table lists later are not the excerpt's: a header taken from
them would sit over the wrong values ("t [s]" over cycle numbers)."""

from __future__ import annotations

from labscribe.tools.columns.column import Column
from labscribe.tools.formats.tables import TableSummary


def excerpt_columns(summary: TableSummary) -> tuple[list[Column], list[list[float | None]]]:
    """(the columns, the rows) of the excerpt, each header over its own values: the columns
    it was taken of, wherever they stand now (measured or set aside); a table read before
    the excerpt recorded its keys gives its measured columns, as many as the rows hold."""
    known = {c.key: c for c in [*summary.columns, *summary.row_numbers]}
    if not summary.excerpt_keys:
        columns = summary.measured()
        width = min(len(columns), *(len(row) for row in summary.excerpt)) if summary.excerpt else 0
        return columns[:width], [row[:width] for row in summary.excerpt]
    columns = [
        known.get(key) or Column(key=key, header=key, name=key, count=0)
        for key in summary.excerpt_keys
    ]
    return columns, summary.excerpt
