"""A recording's flat lead-in before the change it records: an oscilloscope's pre-trigger
samples (a Rigol or Tektronix export starts at negative times, at the level before the
step), a logger started before the switch was closed. No model of the change (a charging
curve, a decay) describes those points, and with them in the fit none describes the data at
all. Where a fit over every point does not describe the data, and one from the step on
does, that one is reported, and the report says which points were left out and why.

Only ever a second try: a curve whose fit over every point describes the data keeps every
point, so a line that happens to start slowly is never cut.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from labscribe.tools.fits.fit_result import Fit

# The lead-in holds at least this many points, and this share of them: a record whose
# first two points agree is no lead-in. A shorter share is one where it lasts, in x, at
# least HELD_RATIO times as long as the change after it takes to cross half the data's
# range: a pendulum held for a second before its release, which a logger that records
# changes samples sparsely. A swing recorded from its release stays at its crest for a
# twentieth of a period and crosses half its range in a quarter.
MIN_LEAD = 3
MIN_SHARE = 0.05
HELD_RATIO = 1.0
# A point is on the lead-in's level when within this many times the noise of it (the noise
# estimated from second differences, robustly), or within this share of the data's range
# (a scope's 8-bit steps leave a flat trace with no noise to measure).
BAND_SIGMAS = 4.0
FLAT_SHARE = 0.03
# A step leaves the level: of the MIN_AFTER points after it, at most this share come back
# to it (a pulse's decay may return to the level later; a curve that wanders about it is no
# step).
RETURNING = 0.2
MIN_AFTER = 8  # points after the step, twice over: the change's start and how it goes on
# The lead-in is flat against the change: its own slope below this share of the slope over
# the MIN_AFTER points after the step (a straight line's first points are no lead-in).
FLAT_RATIO = 0.1


def step_start(x: np.ndarray, y: np.ndarray) -> int | None:
    """The index of the lead-in's last point, where the step starts (x sorted), when y holds
    a flat lead-in of at least MIN_LEAD points (and MIN_SHARE of them), its slope a small
    share of the change's (FLAT_RATIO), before a change that leaves its level (RETURNING);
    None when it does not."""
    n = len(y)
    span = float(np.ptp(y)) if n else 0.0
    if n < MIN_LEAD + 2 * MIN_AFTER or not span > 0:
        return None
    band = max(BAND_SIGMAS * _noise(y), FLAT_SHARE * span)
    level = float(np.median(y[:MIN_LEAD]))
    away = np.abs(y - level) > band
    if not away.any():
        return None
    lead = int(np.argmax(away))  # the first point off the level
    if lead < MIN_LEAD or n - lead < 2 * MIN_AFTER:
        return None
    if lead < MIN_SHARE * n and not _held(x, y, lead, level, span):
        return None
    if np.mean(~away[lead : lead + MIN_AFTER]) > RETURNING:
        return None
    before = np.polyfit(x[:lead], y[:lead], 1)[0]
    after = np.polyfit(x[lead - 1 : lead + MIN_AFTER], y[lead - 1 : lead + MIN_AFTER], 1)[0]
    if abs(before) > FLAT_RATIO * abs(after):
        return None
    # a step is steepest where it starts (a charging curve, a decay); a change that keeps
    # steepening (a diode's exponential foot) has no step, only a slow start
    later = slice(lead + MIN_AFTER - 1, lead + 2 * MIN_AFTER)
    if abs(np.polyfit(x[later], y[later], 1)[0]) > abs(after):
        return None
    return lead - 1


def _held(x: np.ndarray, y: np.ndarray, lead: int, level: float, span: float) -> bool:
    """Whether the `lead` points at `level` last HELD_RATIO times as long as the change
    after them takes to move half the `span` away from it."""
    far = np.flatnonzero(np.abs(y[lead:] - level) >= span / 2)
    if not far.size:
        return False
    change = float(x[lead + far[0]] - x[lead - 1])
    return change > 0 and float(x[lead - 1] - x[0]) >= HELD_RATIO * change


def _noise(y: np.ndarray) -> float:
    """σ of the noise from the median absolute second difference (a step and a curve's
    bend are a few of them; the median ignores them)."""
    second = np.diff(y, 2)
    if len(second) == 0:
        return 0.0
    mad = float(np.median(np.abs(second - np.median(second))))
    return 1.4826 * mad / math.sqrt(6.0)


def lead_in_text(x: np.ndarray, y: np.ndarray, start: int, unit_x: str, unit_y: str) -> str:
    """`the first 10 points (x from -0.0005 to 0 s), flat at 0.01 V before the step`."""
    ux = f" {unit_x}" if unit_x else ""
    uy = f" {unit_y}" if unit_y else ""
    level = float(np.median(y[: start + 1]))
    return (
        f"the first {start} points (x from {x[0]:.4g} to {x[start - 1]:.4g}{ux}), flat at "
        f"{level:.3g}{uy} before the step at x = {x[start]:.4g}{ux}"
    )


def from_the_step(
    fitted: Fit,
    refit: Callable[[np.ndarray, np.ndarray, np.ndarray | None], Fit],
    x: np.ndarray,
    y: np.ndarray,
    sigma: np.ndarray | None,
) -> Fit:
    """`fitted` (a fit of every point, x sorted) or, where it does not describe the data,
    y holds a flat lead-in (step_start) and `refit` of the points from the step on does (or
    follows the shape of a swing the fit of every point did not follow), that fit with a
    note saying which points were left out and why."""
    start = None if fitted.good else step_start(x, y)
    if start is None:
        return fitted
    kept = slice(start, None)
    trimmed = refit(x[kept], y[kept], None if sigma is None else sigma[kept])
    if trimmed.model is None or not (trimmed.good or (trimmed.follows and not fitted.follows)):
        return fitted
    left = lead_in_text(x, y, start, fitted.x_unit, fitted.y_unit)
    note = (
        f"fitted from the step on: {left} were left out, a recording's lead-in (samples "
        "before the trigger, the switch or the release) that no model of the change describes"
    )
    return trimmed.model_copy(
        update={
            "points": fitted.points,
            "fitted_points": len(y) - start,
            "lead_in": left,
            "notes": [note, *trimmed.notes],
        }
    )
