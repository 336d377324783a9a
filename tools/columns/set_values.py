"""Whether a column's values were set by the experimenter or measured, from the values alone:
a set variable is usually stepped evenly (on a linear or a log scale) or written as round
numbers, a measured one is neither. (A column that only numbers the rows is set aside
before, by tools.columns.counting.)

The data's own evidence, for where the assignment's words do not say which column is the
variable (tools.columns.roles).
"""

from __future__ import annotations

import math
import re

import numpy as np

from labscribe.tools.formulas.absolute_temperature import offset_scale, to_kelvin

MIN_VALUES = 4  # fewer steps say nothing about how they were chosen
MIN_REPEATED = 8  # readings enough to tell a few hand-timed repeats from a few settings
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


# Repeats of one measurement (a caliper's D read ten times) spread over a sliver of their
# value and repeat readings; a variable the experimenter set spans far more.
REPEAT_SPREAD = 0.02


def scatters_about_one_value(values: np.ndarray) -> bool:
    """Whether the values are repeat readings of one quantity rather than settings: some
    reading recurs, and all lie within REPEAT_SPREAD of their median."""
    finite = values[np.isfinite(values)]
    if len(finite) < MIN_VALUES or len(np.unique(finite)) == len(finite):
        return False
    middle = abs(float(np.median(finite)))
    return middle > 0 and float(np.ptp(finite)) <= REPEAT_SPREAD * middle


# A temperature that stays within this share of itself in kelvin (1.5 K at room
# temperature) was recorded, not set: a sweep of temperature spans several kelvin.
CONDITION_SPREAD = 0.005
# One quantity timed again and again by hand: ten stopwatch timings of five swings scatter
# by a few per cent about their value, where a setting varied in random order spans a good
# part of its size.
HAND_SPREAD = 0.1


def read_again_and_again(values: np.ndarray) -> bool:
    """Whether the values are readings of one quantity taken again and again, as by hand:
    at least MIN_REPEATED, not in order, the middle half within HAND_SPREAD of the median."""
    finite = values[np.isfinite(values)]
    if len(finite) < MIN_REPEATED:
        return False
    steps = np.diff(finite)
    if (steps >= 0).all() or (steps <= 0).all():
        return False
    low, middle, high = np.percentile(finite, [25, 50, 75])
    return middle != 0 and float(high - low) <= HAND_SPREAD * abs(float(middle))


def barely_varies(low: float | None, high: float | None, unit: str) -> bool:
    """Whether a temperature from `low` to `high` (°C or °F) stays within CONDITION_SPREAD
    of its size in kelvin: a condition recorded beside the readings (a titration's
    20.1–21.2 °C), not a variable the experimenter set. Other quantities are left alone: a
    year (1947–1962) or a narrow sweep of a wavelength spans little of its size too."""
    if low is None or high is None or not offset_scale(unit):
        return False
    low, high = (float(v) for v in to_kelvin(np.array([low, high]), unit))
    return high - low <= CONDITION_SPREAD * max(abs(low), abs(high))


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


# Names of columns that label the rows rather than measure anything: a group's, a sample's
# or a catalogue's number (`组号`, `Gruppe`, `NGC`, `sample ID`).
_LABEL_NAME = re.compile(
    r"^(?:group|groups|group\s*(?:no\.?|nr\.?|number|id)|gruppe|gruppen(?:nummer|nr\.?)|grp|team|"
    r"lab\s*group|sample|sample\s*(?:no\.?|number|id|name)|probe|proben(?:nummer|nr\.?)|"
    r"specimen|specimen\s*(?:no\.?|id)|id|object|objekt|ngc|n\.g\.c\.?|catalog(?:ue)?\s*"
    r"(?:no\.?|number)|station|组号|组别|小组|组|编号|样品编号|样品号|试样编号)$",
    re.IGNORECASE,
)


def labels_rows(name: str, values: np.ndarray) -> bool:
    """Whether a column labels the rows (a group, sample or catalogue number): its name says
    so and its values are whole numbers. It is no variable and nothing is fitted to it."""
    finite = values[np.isfinite(values)]
    bare = name.strip().strip(":#").strip()
    return bool(
        _LABEL_NAME.match(bare) and len(finite) and np.all(np.abs(finite - np.round(finite)) < 1e-9)
    )
