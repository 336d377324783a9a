"""Whether a fit's residuals are noise or structure the model missed.

R² says how much of the variation a model reproduces, not whether what is left is noise: a
single exponential through a sum of three leaves R² = 0.99 and residuals that swing in long
arcs. Two tests read the residuals in the order of x:

- the Wald-Wolfowitz runs test: noise changes sign often; a missed shape keeps one sign for
  long stretches, so far fewer runs than chance allows;
- smoothing: a moving average over a tenth of the points keeps a missed shape and averages
  noise away, so the smoothed residuals keep most of their spread only when they are
  structure. This spares noise that is merely correlated from point to point (an
  oscilloscope's filter), which fails the runs test alone.

Residuals are structure when both say so.
"""

from __future__ import annotations

import math

import numpy as np

MIN_POINTS = 12  # fewer residuals cannot show a pattern a test could trust
# z below this: fewer runs than noise gives once in about 2,000 fits (one-sided).
RUNS_Z = -3.3
# Smoothed residuals keeping half their RMS: at least a quarter of the residual variance
# varies slowly along x. White noise keeps 1/√window of it (0.1 for 100 points).
SMOOTH_SHARE = 0.5
SMOOTH_FRACTION = 10  # the moving average spans 1/SMOOTH_FRACTION of the points
# Below this many points the smoothing window is too short to average noise away.
MIN_SMOOTHED = 40
STRUCTURE = "the residuals show structure (runs test z = {z:.1f}{smooth})"


def runs_z(residuals: np.ndarray) -> float:
    """The runs test's z: how many fewer sign changes than noise the residuals have, in
    standard deviations (0 for noise, strongly negative for a missed shape)."""
    signs = residuals[residuals != 0] > 0
    positive, negative = int(signs.sum()), int((~signs).sum())
    n = positive + negative
    if positive == 0 or negative == 0:
        return -math.inf if n >= MIN_POINTS else 0.0
    runs = 1 + int(np.count_nonzero(signs[1:] != signs[:-1]))
    expected = 2 * positive * negative / n + 1
    variance = (expected - 1) * (expected - 2) / (n - 1)
    return (runs - expected) / math.sqrt(variance) if variance > 0 else 0.0


def smooth_share(residuals: np.ndarray) -> float:
    """RMS of the residuals' moving average over a tenth of the points, over their RMS."""
    window = max(3, len(residuals) // SMOOTH_FRACTION)
    kernel = np.ones(window) / window
    smoothed = np.convolve(residuals - residuals.mean(), kernel, mode="valid")
    spread = float(np.sqrt(np.mean((residuals - residuals.mean()) ** 2)))
    return float(np.sqrt(np.mean(smoothed**2))) / spread if spread > 0 else 0.0


def structure(residuals: np.ndarray) -> str | None:
    """What shows the residuals (in the order of x) are not noise; None when they may be."""
    finite = residuals[np.isfinite(residuals)]
    if len(finite) < MIN_POINTS:
        return None
    z = runs_z(finite)
    if z >= RUNS_Z:
        return None
    if len(finite) >= MIN_SMOOTHED:
        share = smooth_share(finite)
        if share < SMOOTH_SHARE:
            return None
        return STRUCTURE.format(z=z, smooth=f"; a moving average keeps {share:.0%} of their RMS")
    return STRUCTURE.format(z=z, smooth="")
