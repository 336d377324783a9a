"""The noise of a response whose predictor is uncertain as well: the effective variance
σ² = σ_y² + (dy/dx · σ_x)² (Orear, "Least squares when both variables have errors", Am. J.
Phys. 50, 912 (1982)), the way a fine-beam tube's coil current, read to ±0.05 A, spreads
the voltage it is plotted against far more than the voltmeter's ±0.3 V. The slope is that
of a quadratic least-squares fit of the data, evaluated at each point: one pass, as Orear's
first iteration, enough for the χ² that judges a model not to blame it for the x errors."""

from __future__ import annotations

import numpy as np

MIN_POINTS = 4  # a quadratic's slope needs more points than its three coefficients


def effective_sigma(
    x: np.ndarray, y: np.ndarray, sigma_y: np.ndarray | None, sigma_x: np.ndarray
) -> np.ndarray | None:
    """σ of each point with the predictor's σ carried through the data's slope; None where
    too few points are finite to estimate the slope."""
    x, y, sigma_x = (np.asarray(a, dtype=float) for a in (x, y, sigma_x))
    ok = np.isfinite(x) & np.isfinite(y) & np.isfinite(sigma_x)
    if ok.sum() < MIN_POINTS or np.ptp(x[ok]) == 0:
        return None
    slope = np.polyval(np.polyder(np.polyfit(x[ok], y[ok], 2)), x)
    from_x = (slope * sigma_x) ** 2
    from_y = np.zeros_like(from_x) if sigma_y is None else np.asarray(sigma_y, dtype=float) ** 2
    return np.sqrt(from_y + from_x)
