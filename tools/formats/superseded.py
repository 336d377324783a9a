"""Columns a lab kept in its file but no longer uses: a name that says it was discarded
(`dp_Alt_verworfen`, `sigma_old_discarded`), or a second estimate of an uncertainty that
another column already gives (`dp_alt_von_Conrad` beside `dp`). Neither is a variable, a
response or a weight: it is set aside before the variable is chosen, as a column that only
numbers the rows is (tools.columns.variable_column), and the table's notes say why.

This module knows names only; it imports nothing of the table's model.
"""

from __future__ import annotations

import re

from labscribe.tools.columns.column import Column
from labscribe.tools.columns.counting import unaccented

# Words of a header that says its column was discarded, in the languages sheets are written
# in, without their accents. Not `alt`/`old` alone: `h_old` may be the earlier reading a
# difference needs.
DISCARD_WORDS = frozenset(
    {"discarded", "rejected", "unused", "obsolete", "superseded", "invalid", "verworfen",
     "ungultig", "unbenutzt", "scartato", "scartata", "scartati", "descartado", "descartada",
     "descartados", "rejete", "rejetee", "ecarte", "ecartee", "rejeitado", "rejeitada",
     "vyrazeno", "vyrazene", "odrzucone", "odrzucony"}
)  # fmt: skip
_WORDS = re.compile(r"[^\W\d_]+")


def set_aside_superseded(columns: list[Column]) -> tuple[list[Column], list[str]]:
    """(the columns kept, a note for each one set aside): a column named as discarded, or
    named as a further estimate of an uncertainty column before it (`dp_…` after `dp`)."""
    kept: list[Column] = []
    notes: list[str] = []
    for column in columns:
        name = column.header.strip() or column.name
        discarded = [w for w in _WORDS.findall(unaccented(name.lower())) if w in DISCARD_WORDS]
        estimate = next((u for u in kept if _another_estimate(column, u)), None)
        if discarded:
            notes.append(f"{name} is set aside: its name says it was {discarded[0]}")
        elif estimate is not None:
            notes.append(f"{name} is set aside: another estimate of {estimate.name}, the "
                         "uncertainty the fits use")  # fmt: skip
        else:
            kept.append(column)
    return (kept, notes) if kept else (columns, [])


def _another_estimate(column: Column, uncertainty: Column) -> bool:
    """Whether `column` is named as a further estimate of the uncertainty column
    `uncertainty` (`dp_alt_von_Conrad`, `dp_2` after `dp`), in its unit or in none."""
    if uncertainty.uncertainty_of is None or column.uncertainty_of is not None:
        return False
    prefix = uncertainty.name.strip()
    return (
        len(column.name) > len(prefix) + 1
        and re.match(rf"{re.escape(prefix)}[ _.\-]", column.name) is not None
        and column.unit in ("", uncertainty.unit)
    )
