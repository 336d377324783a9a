"""What a formed quantity (tools.formulas.formed_columns) stands for: the columns it was made from,
which are not fitted on their own, and which columns hold the same values in two forms."""

from __future__ import annotations

from labscribe.tools.columns.column import Column
from labscribe.tools.formulas.formed_columns import MAX_FORMED


def consumed(columns: list[Column]) -> set[str]:
    """The keys of the columns of the file a formed quantity was made from: it stands for
    them (the mean of repeated series, U and I in P = U·I, λ in 1/λ), so they are not fitted
    as responses of their own. A formed one (P, made into ln P) stays."""
    formed = {c.key for c in columns if c.formed}
    return {key for c in columns for key in c.formed_from if key not in formed}


def related(first: Column, second: Column, columns: list[Column]) -> bool:
    """Whether two columns hold the same measured values in two forms (λ and 1/λ, T⁴ and
    ln T): a fit of one against the other says nothing about the data. A quantity formed of
    several (η = P_mech/P_el, with P_mech = 2π·n·M/60) against one of them (n) is a curve."""
    return _ancestors(first, columns) == _ancestors(second, columns)


def _ancestors(column: Column, columns: list[Column], depth: int = 0) -> set[str]:
    if not column.formed_from or depth > MAX_FORMED:
        return {column.key}
    by_key = {c.key: c for c in columns}
    found: set[str] = set()
    for key in column.formed_from:
        found |= _ancestors(by_key[key], columns, depth + 1) if key in by_key else {key}
    return found


# How a count rate is formed (tools.fits.count_rates): by the convention of counting, not because
# the assignment asks for it.
COUNTED = "counted over"


def formed_notes(tables: list) -> list[str]:  # TableSummary, kept loose for the fallback
    """One sentence a table for the quantities formed in it, for the report's notes."""
    notes = []
    for summary in tables:
        formed = [c for c in summary.columns if getattr(c, "formed", "")]
        for why, group in (
            ("as the assignment asks", [c for c in formed if not c.formed.startswith(COUNTED)]),
            ("as counts over a counting time are read",
             [c for c in formed if c.formed.startswith(COUNTED)]),
        ):  # fmt: skip
            if group:
                said = "; ".join(
                    f"{c.name}{f' [{c.unit}]' if c.unit else ''} as {c.formed}" for c in group
                )
                notes.append(f"{summary.id}: formed from the data {why}: {said}.")
        names = {c.key: c.name for c in summary.columns}
        for mean in (c for c in summary.columns if c.formed_from and not c.formed):
            repeats = ", ".join(names.get(key, key) for key in mean.formed_from)
            notes.append(
                f"{summary.id}: {mean.name} is the mean of {repeats} in every row, as the file "
                "gives it: it is fitted for them."
            )
    return notes
