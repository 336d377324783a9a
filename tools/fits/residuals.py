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

Residuals are structure when both say so, or when the runs test finds it in the means of
blocks of points, each block longer than noise stays correlated: block means average such
noise away as the moving average does, and let a misfit smaller than the noise of one point
(a Lorentzian through a Gaussian line, measured at many points) show, where the moving
average's share would call it noise.

A model has its shape where its curve departs from its level at the ends: a narrow peak on a
wide scan is a few points of many. Residuals are also judged there alone, since the wings'
noise would dilute a misfit of the peak (and a moving average over a tenth of all the points
would span the peak's whole width).
"""

from __future__ import annotations

import math

import numpy as np

MIN_POINTS = 12  # fewer residuals cannot show a pattern a test could trust
# z below this: fewer runs than white noise gives once in about 100 fits (one-sided). Chosen
# on fits whose truth is known (bench/analysis/verdicts.py): with the χ² test beside it, it
# calls 1.3 % of true models wrong (2 % at 30 points, where noise correlated from point to
# point weighs most) and catches 50 % of wrong ones, against 0.5 % and 46 % at -3.3.
RUNS_Z = -2.3
# Smoothed residuals keeping half their RMS: at least a quarter of the residual variance
# varies slowly along x. White noise keeps 1/√window of it (0.1 for 100 points).
SMOOTH_SHARE = 0.5
SMOOTH_FRACTION = 10  # the moving average spans 1/SMOOTH_FRACTION of the points
# Below this many points the smoothing window is too short to average noise away.
MIN_SMOOTHED = 40
# Blocks the residuals are averaged in for the second runs test; each holds at least
# MIN_BLOCK points, so noise correlated over fewer points averages out within a block.
BLOCKS = 40
MIN_BLOCK = 5
# Where the fitted curve lies this share of its range or more from its level at the ends,
# the model has its shape (a Lorentzian falls to 1% at 5 widths from its centre).
SHAPED_SHARE = 0.01
EDGE_FRACTION = 10  # the curve's level at the ends: the median of its first and last tenth
STRUCTURE = "the residuals show structure (runs test z = {z:.1f}{smooth})"
WHERE_SHAPED = "{found}, where the model has its shape ({points} points)"


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


def block_z(residuals: np.ndarray) -> float | None:
    """The runs test's z on the means of BLOCKS blocks of the residuals (None when a block
    would hold fewer than MIN_BLOCK points)."""
    size = len(residuals) // BLOCKS
    if size < MIN_BLOCK:
        return None
    return runs_z(residuals[: size * BLOCKS].reshape(BLOCKS, size).mean(axis=1))


def structure(residuals: np.ndarray, curve: np.ndarray | None = None) -> str | None:
    """What shows the residuals (in the order of x) are not noise, over all the points or
    where the fitted `curve` has its shape; None when they may be noise."""
    keep = np.isfinite(residuals)
    found = _structure(residuals[keep])
    if found is not None or curve is None:
        return found
    shaped = _shaped(np.asarray(curve, dtype=float)[keep])
    if shaped.all() or not shaped.any():
        return None
    inside = _structure(residuals[keep][shaped])
    if inside is None:
        return None
    return WHERE_SHAPED.format(found=inside, points=f"{int(shaped.sum())} of {len(shaped)}")


def _shaped(curve: np.ndarray) -> np.ndarray:
    """Where `curve` lies SHAPED_SHARE of its range or more from its level at the ends."""
    edge = max(1, len(curve) // EDGE_FRACTION)
    level = float(np.median(np.concatenate([curve[:edge], curve[-edge:]])))
    return np.abs(curve - level) >= SHAPED_SHARE * float(np.ptp(curve))


def _structure(finite: np.ndarray) -> str | None:
    if len(finite) < MIN_POINTS:
        return None
    z = runs_z(finite)
    blocks = block_z(finite)
    if blocks is not None and blocks < RUNS_Z:
        return STRUCTURE.format(z=z, smooth=f"; in means of {BLOCKS} blocks, z = {blocks:.1f}")
    if z >= RUNS_Z:
        return None
    if len(finite) < MIN_SMOOTHED:
        return STRUCTURE.format(z=z, smooth="")
    share = smooth_share(finite)
    if share < SMOOTH_SHARE:
        return None
    return STRUCTURE.format(z=z, smooth=f"; a moving average keeps {share:.0%} of their RMS")
