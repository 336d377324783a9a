"""A column the file itself gives as the mean of the repeats before it (`QA` after `Q1_A`,
`Q2_A`, `Q3_A`): it stands for them as a formed quantity does for its inputs
(tools.formulas.formed_lineage.consumed), so the mean is fitted and the repeats are not, each on its
own, in its place."""

from __future__ import annotations

from decimal import Decimal

import numpy as np
import pandas as pd

from labscribe.tools.columns.column import Column

MAX_REPEATS = 10  # columns of repeats a stated mean is looked for over


def mark_stated_means(columns: list[Column], frame: pd.DataFrame) -> None:
    """Mark each column that is, row for row and to the digits it is written with, the mean
    of the two or more columns just before it (`QA` after `Q1_A`, `Q2_A`, `Q3_A`) as formed
    from them, with no words of how (Column.formed): it is fitted, they are not."""
    for index, mean in enumerate(columns):
        if mean.uncertainty_of or mean.ratio_of or mean.formed_from:
            continue
        for count in range(min(index, MAX_REPEATS), 1, -1):
            repeats = columns[index - count : index]
            if any(c.uncertainty_of or c.ratio_of or c.formed_from for c in repeats):
                continue
            if _is_row_mean(frame[mean.key], frame[[c.key for c in repeats]]):
                mean.formed_from = [c.key for c in repeats]
                break


def _is_row_mean(stated: pd.Series, repeats: pd.DataFrame) -> bool:
    values, each = stated.to_numpy(dtype=float), repeats.to_numpy(dtype=float)
    rows = np.isfinite(values) & np.isfinite(each).all(axis=1)
    if rows.sum() < 3 or repeats[rows].nunique(axis=1).max() < 2:
        return False
    means = each[rows].mean(axis=1)
    return bool(np.all(np.abs(values[rows] - means) <= _rounding(values[rows])))


def _rounding(values: np.ndarray) -> np.ndarray:
    """Half a unit of the last digit each value is written to (`0.628667`: 5e-7; `4e-07`:
    5e-8), as its shortest repr gives it; a billionth of it for a mean kept to all digits."""
    exponents = np.array([Decimal(repr(float(v))).as_tuple().exponent for v in values])
    return np.maximum(0.5 * 10.0**exponents, 1e-9 * np.abs(values))
