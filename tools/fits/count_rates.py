"""Counts over a counting time, as a radiation lab writes them: `d / mm, N, t / s` holds the
counts N of a Geiger counter behind an absorber of thickness d, each counted for t seconds,
t longer behind thicker absorbers. Neither N nor t against d is a result: the count rate
N/t is, with its Poisson uncertainty √N/t. The rate is formed as a quantity of the table
(tools.formulas.formed_lineage: N and t are then not fitted on their own), its uncertainty beside
it, so its fits are weighted as counting statistics say.

Only a column named as counts (N, counts, Impulse, coups, …) of whole numbers beside a time
named as one (t, Δt, Messzeit, …) that is not the table's variable: in `t / s, N` of a decay
the time is the variable, and N/t would be no rate. A time read as the variable that repeats
its values is a counting time (a decay's elapsed time never comes back): the one other
column is then the variable.
"""

from __future__ import annotations

import re

import numpy as np

from labscribe.tools.columns.column import Column
from labscribe.tools.columns.symbol_dimensions import dimension_is
from labscribe.tools.formats.tables import Table
from labscribe.tools.formulas.appended_columns import append_formed, append_uncertainty
from labscribe.tools.formulas.formed_lineage import COUNTED

# How labs name counts and a counting time, in the languages of their handouts.
COUNTS_NAME = re.compile(
    r"(?:n|counts?|cts|events?|impulse?|impulsen?|imp|z[äa]hlungen|ereignisse|anzahl|coups"
    r"|cuentas|conteggi|zliczenia|pulser|pulsar|отсч[её]ты|импульсы|계수|计数)",
    re.IGNORECASE,
)
TIME_NAME = re.compile(
    r"(?:t|Δt|dt|t_?(?:mess|m|count|c|gate)|time|counting time|zeit|messzeit|z[äa]hlzeit|torzeit"
    r"|dauer|temps|tiempo|tempo|czas|tid|время|시간|时间)",
    re.IGNORECASE,
)


def add_count_rates(tables: list[Table]) -> None:
    """In each table that counts over a counting time, the rate N/t and its √N/t (once its
    variable is decided, tools.columns.roles)."""
    for table in tables:
        summary = table.summary
        measured = [c for c in summary.columns if c.uncertainty_of is None and not c.formed]
        counts = [c for c in measured if _counts(c, table)]
        times = [c for c in measured if _counting_time(c, table)]
        if len(counts) != 1 or len(times) != 1 or summary.x in (None, counts[0].key):
            continue
        (count,), (time,) = counts, times
        if time.key == summary.x:  # a counting time that rises with the absorber reads first
            others = [c for c in measured if c not in (count, time)]
            if not _repeats(table, time) or len(others) != 1:
                continue  # a decay's elapsed time: the variable, and N/t no rate
            summary.x = others[0].key
        n = table.frame[count.key].to_numpy(dtype=float)
        seconds = table.frame[time.key].to_numpy(dtype=float)
        rate_unit = f"1/{time.unit}"
        how = f"{COUNTED} {time.name}: the count rate"
        key = append_formed(table, f"{count.name}/{time.name}", n / seconds, rate_unit, how,
                            [count.key, time.key])  # fmt: skip
        if summary.response == count.key:  # "N against d": the rate is what was counted
            summary.response = key
        sigma = np.sqrt(np.maximum(n, 1.0)) / seconds  # no count has the error of one
        append_uncertainty(table, key, sigma, f"{COUNTED} {time.name}: √{count.name}/"
                           f"{time.name}, its Poisson uncertainty")  # fmt: skip


def _counts(column: Column, table: Table) -> bool:
    values = table.frame[column.key].to_numpy(dtype=float)
    values = values[np.isfinite(values)]
    return (
        COUNTS_NAME.fullmatch(column.name.strip()) is not None
        and column.unit in ("", "counts", "cts", "Imp", "imp")
        and len(values) >= 3
        and bool(np.all(values >= 0) and np.all(values == np.round(values)))
    )


def _repeats(table: Table, column: Column) -> bool:
    """Whether a time repeats its values: a counting time is set again for the next reading
    (200 s, 200 s, …, 400 s); an elapsed time never comes back."""
    values = table.frame[column.key].dropna().to_numpy(dtype=float)
    return len(np.unique(values)) < len(values)


def _counting_time(column: Column, table: Table) -> bool:
    values = table.frame[column.key].to_numpy(dtype=float)
    return (
        TIME_NAME.fullmatch(column.name.strip()) is not None
        and dimension_is(column.unit, ("second",))
        and bool(np.all(values[np.isfinite(values)] > 0))
    )
