"""Data that form a loop: the variable swept out and back (a magnet's current up and down,
a furnace heated and cooled, a diode's voltage forward and back) while the response takes
another path on the way back, as a hysteresis loop does. No single curve y(x) describes two
branches: a line through a loop is no model of it, however small its residuals look against
their neighbours' scatter.

The rows are read in the order they were recorded. They split into runs in which the
variable only rises or only falls; where a rising and a falling run of enough points cover a
common stretch of the variable, their responses are compared on it (each interpolated at the
same values), and the two branches differ when the median gap is a tenth of the response's
range and five times its noise (the scatter of second differences, as tools.fits.all_maxima
reads it).
"""

from __future__ import annotations

import numpy as np

from labscribe.tools.fits.all_maxima import noise_sigma

MIN_RUN = 8  # points of a sweep: fewer are jitter of a variable set in any order
MIN_SPAN = 0.3  # of the variable's range that a sweep, and both sweeps together, cover
MIN_GAP = 0.1  # of the response's range between the branches at the same x
NOISE_GAPS = 5.0  # the gap in units of the response's noise
_STILL = 1e-3  # a step of the variable below this share of its range continues a sweep
_COMPARED = 25  # values of the variable at which the branches are compared


def loop_note(x: np.ndarray, y: np.ndarray, x_name: str, y_name: str) -> str | None:
    """Why no curve y(x) is fitted to rows (in recorded order) that form a loop, or None."""
    keep = np.isfinite(x) & np.isfinite(y)
    x, y = x[keep], y[keep]
    span, height = float(np.ptp(x)) if len(x) else 0.0, float(np.ptp(y)) if len(y) else 0.0
    if len(x) < 2 * MIN_RUN or span == 0 or height == 0:
        return None
    runs = [run for run in _sweeps(x, span) if len(run) >= MIN_RUN
            and np.ptp(x[run]) >= MIN_SPAN * span]  # fmt: skip
    rising = [run for run in runs if x[run[-1]] > x[run[0]]]
    falling = [run for run in runs if x[run[-1]] < x[run[0]]]
    if not rising or not falling:
        return None
    up, down = max(rising, key=len), max(falling, key=len)
    low = max(x[up].min(), x[down].min())
    high = min(x[up].max(), x[down].max())
    if high - low < MIN_SPAN * span:
        return None
    grid = np.linspace(low, high, _COMPARED)
    gaps = np.abs(_branch(x, y, up, grid) - _branch(x, y, down, grid))
    gap = float(np.median(gaps))
    if gap < MIN_GAP * height or gap < NOISE_GAPS * noise_sigma(y):
        return None
    return (
        f"the rows form a loop: {x_name} is swept up and back down, and {y_name} takes "
        f"another path on the way back (the two sweeps differ by {gap:.3g}, the median at the "
        f"same {x_name}), so no single curve of {y_name} against {x_name} describes both, and "
        "none is fitted"
    )


def _sweeps(x: np.ndarray, span: float) -> list[np.ndarray]:
    """The row indices of each run in which x only rises or only falls (steps below _STILL
    of the range continue the run they are in)."""
    steps = np.diff(x)
    direction = np.where(np.abs(steps) < _STILL * span, 0, np.sign(steps))
    runs, start, heading = [], 0, 0
    for index, step in enumerate(direction):
        if step and heading and step != heading:
            runs.append(np.arange(start, index + 1))
            start = index
        if step:
            heading = step
    runs.append(np.arange(start, len(x)))
    return runs


def _branch(x: np.ndarray, y: np.ndarray, run: np.ndarray, grid: np.ndarray) -> np.ndarray:
    order = np.argsort(x[run], kind="stable")
    return np.interp(grid, x[run][order], y[run][order])
