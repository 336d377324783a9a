"""A second clock beside a table's variable: an instrument's sweep clock (the `Time (s)` of a
source-measure unit's I-V sweep, which advances by one step per voltage step) or a count of
cycles beside the time (`cycle number` every fifth swing beside `t [s]`). It runs in step with
the variable, so fitting it against the variable says nothing about the experiment (a straight
line with R² = 1, or an "exponential growth" of a counter): it is set aside with the columns
that number the rows, and the report says why.

A column is a clock when its name says so (a time's or a count of cycles' name, with words
such as `number` or `elapsed` beside) and its values follow the variable's on a straight line
to within CLOCK_CORRELATION, or advance from row to row in steps equal to their rounding (a
logger's sampling clock beside a light sensor swept across a diffraction pattern and back),
beside another measured column (a table of a variable and a time
alone is a time measured, as a cart's against the distance). A column the assignment names as
the response stays. Of a count of cycles and a clock in seconds, the clock is the variable.
"""

from __future__ import annotations

import re

import numpy as np

from labscribe.tools.columns.column import Column
from labscribe.tools.formats.tables import Table

# Words of a clock's or a cycle counter's name; a one-letter `t` keeps its case (`T` is a
# period or a temperature).
CLOCK_WORDS = frozenset(
    {"time", "elapsed", "timestamp", "clock", "zeit", "temps", "tiempo", "时间", "cycle",
     "cycles", "swing", "swings", "oscillation", "oscillations", "schwingung", "schwingungen",
     "zyklus", "ciclo", "ciclos", "周期数"}
)  # fmt: skip
# Words that may stand beside them in such a name (`cycle number`, `elapsed time`, `No. of
# swings`).
BESIDE_WORDS = frozenset(
    {"number", "no", "nr", "n", "of", "count", "index", "total", "rel", "s", "sec", "ms"}
)
CLOCK_CORRELATION = 0.9999  # |r| with the variable: a clock, not a measurement
# Steps of a logger's clock differ by their rounding (0.05 s written as such); a time
# measured at set distances scatters by far more than this share of its step.
SAMPLING_STEP_SPREAD = 1e-3
MIN_ROWS = 5


def set_aside_clocks(table: Table) -> list[Column]:
    """Move the columns of `table` that are a second clock beside its variable (`clock_name`
    and on a straight line with it) to its `row_numbers`, except the response the assignment
    names; the columns moved."""
    summary = table.summary
    if summary.x is None or summary.predictors:
        return []
    x = table.frame[summary.x].to_numpy(dtype=float)
    clocks = [
        c for c in summary.columns
        if c.key != summary.x and c.key != summary.response
        and c.uncertainty_of is None and c.ratio_of is None and not c.formed
        and clock_name(c.name) and _is_clock(x, table.frame[c.key].to_numpy(dtype=float))
    ]  # fmt: skip
    if not clocks or len(clocks) >= len(summary.columns) - 1:
        return []  # a table keeps its variable and one column at least
    variable = summary.column(summary.x)
    timed = [c for c in clocks if c.unit]
    if timed and not variable.unit and clock_name(variable.name):
        # a count of cycles was taken as the variable beside a clock in seconds: the clock,
        # a quantity with its unit, is the variable and the count is set aside
        clocks = [variable if c is timed[0] else c for c in clocks]
        summary.x = timed[0].key
        if not summary.roles.startswith(timed[0].name):
            summary.roles = (
                f"{timed[0].name} was taken as the variable: {variable.name} counts in step "
                f"with it, and {timed[0].name} is the one measured in {timed[0].unit}."
            )
    summary.columns = [c for c in summary.columns if c not in clocks]
    summary.row_numbers = [*summary.row_numbers, *clocks]
    return clocks


def clock_name(name: str) -> bool:
    """Whether a column's name is a clock's or a cycle counter's (`Time`, `t`, `cycle
    number`, `Zeit`, `No. of swings`)."""
    text = name.strip()
    if text == "t":
        return True
    words = re.findall(r"[^\W\d_]+", text.lower())
    return (
        bool(words)
        and any(w in CLOCK_WORDS for w in words)
        and all(w in CLOCK_WORDS | BESIDE_WORDS for w in words)
    )


def clock_note(column: Column, table_id: str, x_name: str) -> str:
    """The report's sentence on a clock set aside."""
    return (
        f"{column.name} ({table_id}) keeps the record's time or count of cycles beside "
        f"{x_name}, as an instrument's clock does: it is not a measured response, and is not "
        "fitted"
    )


def _is_clock(x: np.ndarray, values: np.ndarray) -> bool:
    return _in_step(x, values) or _sampling(values)


def _sampling(values: np.ndarray) -> bool:
    """Whether `values` rise from row to row in equal steps (SAMPLING_STEP_SPREAD)."""
    if len(values) < MIN_ROWS or not np.isfinite(values).all():
        return False
    steps = np.diff(values)
    step = float(np.median(steps))
    return step > 0 and float(np.ptp(steps)) <= SAMPLING_STEP_SPREAD * step


def _in_step(x: np.ndarray, values: np.ndarray) -> bool:
    both = np.isfinite(x) & np.isfinite(values)
    if both.sum() < MIN_ROWS or np.ptp(x[both]) == 0 or np.ptp(values[both]) == 0:
        return False
    return abs(float(np.corrcoef(x[both], values[both])[0, 1])) >= CLOCK_CORRELATION
