"""Whether a column's values were set by the experimenter or measured, from the values alone:
a set variable is usually stepped evenly (on a linear or a log scale) or written as round
numbers, a measured one is neither. (A column that only numbers the rows is set aside
before, by tools.counting.)

The data's own evidence, for where the assignment's words do not say which column is the
variable (tools.roles).
"""

from __future__ import annotations

import math

import numpy as np

MIN_VALUES = 4  # fewer steps say nothing about how they were chosen
EVEN_STEP_SPREAD = 0.02  # steps within 2 % of their median are even
# A set variable has few significant digits: its values are multiples of a step that
# spans its range in at most this many steps per value (0.2 ... 1.2 m in 0.1 m steps: 10
# steps for 11 values); a measured one's last digit is far finer than that.
ROUND_STEPS_PER_VALUE = 3.0


def set_evidence(values: np.ndarray) -> str:
    """How the values show they were set, as a phrase ("its values are set in even steps"),
    or "" when nothing in them does."""
    finite = np.unique(values[np.isfinite(values)])
    if len(finite) < MIN_VALUES:
        return ""
    if _even(np.diff(finite)):
        return "its values are set in even steps"
    if finite[0] > 0 and _even(np.diff(np.log(finite))):
        return "its values are set in even steps on a log scale"
    if _round(finite):
        return "its values are round numbers, as set values are"
    return ""


def _even(steps: np.ndarray) -> bool:
    middle = float(np.median(steps))
    return middle > 0 and bool(np.all(np.abs(steps - middle) <= EVEN_STEP_SPREAD * middle))


def _round(values: np.ndarray) -> bool:
    """Whether all values are multiples of a step coarse against their range."""
    span = float(values[-1] - values[0])
    if span <= 0:
        return False
    step = _resolution(values)
    return step is not None and span / step <= ROUND_STEPS_PER_VALUE * len(values)


def _resolution(values: np.ndarray) -> float | None:
    """The largest power of ten (or half of one) all values are multiples of, None when even
    1e-12 of their scale is not."""
    scale = float(np.max(np.abs(values)))
    if scale == 0:
        return None
    top = math.floor(math.log10(scale))
    for power in range(top, top - 13, -1):
        for step in (10.0**power, 5 * 10.0 ** (power - 1)):
            ratios = values / step
            if np.all(np.abs(ratios - np.round(ratios)) < 1e-6):
                return step
    return None
