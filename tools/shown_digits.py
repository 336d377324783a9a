"""Values printed with the digits that tell them apart: an excerpt of a column whose values
differ only in the seventh significant digit (an atomic weight, 107.8681538 and 107.8681560)
shows those digits, where six (`107.868` twenty times) would hide the data's scatter.
"""

from __future__ import annotations

import math

MIN_DIGITS = 6  # as `%g` prints: what a column of ordinary readings needs
MAX_DIGITS = 15  # a double's digits; more only print its binary noise


def column_texts(rows: list[list[float | None]], missing: str = "–") -> list[list[str]]:
    """`rows` as text, each column with the fewest significant digits (MIN_DIGITS or more)
    at which its values that differ also differ in print; `missing` for a None."""
    if not rows:
        return []
    digits = [_digits([row[i] for row in rows]) for i in range(len(rows[0]))]
    return [
        [missing if value is None else f"{value:.{d}g}" for value, d in zip(row, digits,
                                                                              strict=True)]
        for row in rows
    ]  # fmt: skip


def _digits(values: list[float | None]) -> int:
    distinct = {v for v in values if v is not None and math.isfinite(v)}
    for digits in range(MIN_DIGITS, MAX_DIGITS + 1):
        if len({f"{v:.{digits}g}" for v in distinct}) == len(distinct):
            return digits
    return MAX_DIGITS
