"""Values printed with the digits that tell them apart: an excerpt of a column whose values
differ only in the seventh significant digit (an atomic weight, 107.8681538 and 107.8681560)
shows those digits, where six (`107.868` twenty times) would hide the data's scatter.
"""

from __future__ import annotations

import math

MIN_DIGITS = 6  # as `%g` prints: what a column of ordinary readings needs
MAX_DIGITS = 15  # a double's digits; more only print its binary noise
MAX_WRITTEN = 10  # digits a file writes beyond these are a computed value's, not a reading's


def column_texts(rows: list[list[float | None]], missing: str = "–") -> list[list[str]]:
    """`rows` as text, each column with the digits its values are written with (MIN_DIGITS
    at least, as `%g`), more where values that differ would print alike; `missing` for a
    None."""
    if not rows:
        return []
    digits = [_digits([row[i] for row in rows]) for i in range(len(rows[0]))]
    return [
        [missing if value is None else f"{value:.{d}g}" for value, d in zip(row, digits,
                                                                              strict=True)]
        for row in rows
    ]  # fmt: skip


def _digits(values: list[float | None]) -> int:
    """The digits the column's values are written with (`196.3052`: 7; at most
    MAX_WRITTEN), or more where values that differ would print alike."""
    distinct = {v for v in values if v is not None and math.isfinite(v)}
    written = max((_significant(v) for v in distinct), default=MIN_DIGITS)
    for digits in range(max(MIN_DIGITS, min(written, MAX_WRITTEN)), MAX_DIGITS + 1):
        if len({f"{v:.{digits}g}" for v in distinct}) == len(distinct):
            return digits
    return MAX_DIGITS


def _significant(value: float) -> int:
    """The significant digits of the shortest text that reads back as `value` (`196.3052`:
    7; `0.1`: 1)."""
    mantissa = repr(abs(value)).lower().split("e")[0].replace(".", "").lstrip("0")
    return max(1, len(mantissa.rstrip("0")) if "." in repr(value) else len(mantissa))
