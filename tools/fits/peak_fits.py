"""Each peak of a spectrum fitted on its own, where a task asks for a peak's model (a
Gaussian, a Lorentzian) and one curve over the whole data does not describe them: a
calibration source's several lines, a photopeak beside its Compton edge, X-ray lines side by
side. Labs fit each peak in a window about it, and so does this.

The peaks are found on the values smoothed by a Gaussian of SMOOTHING points (scipy.ndimage):
a peak stands out where its prominence is PEAK_SIGMAS times the noise of the smoothed values
at its top, and it is resolved where its full width at half maximum spans more than two
smoothing widths. The noise of counts (values that are all whole numbers, none negative: a
multichannel analyser's) is Poisson's, √N at each channel; of other values, one σ read from
the whole curve (tools.fits.all_maxima). The MAX_PEAKS that stand out most are fitted, each to
the points within WINDOW_WIDTHS of its full widths at half maximum of its top, the window
the fit's range as a task's range is.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.ndimage import gaussian_filter1d
from scipy.signal import find_peaks, peak_widths

from labscribe.tools.assignment.requested import Request
from labscribe.tools.fits.all_maxima import noise_sigma
from labscribe.tools.fits.fit_result import Fit
from labscribe.tools.fits.fit_runs import MAX_FIT_POINTS, MIN_POINTS
from labscribe.tools.fits.requested_fits import fit_request

MAX_PEAKS = 8  # an Am-241 source's lines, its 59.5 keV γ among them
# Smoothed white noise over 2048 points has a bump of 5.9 σ in half the spectra and of 7.1 σ
# in 1 of 100 (measured, 200 spectra): a peak of 8 σ is no noise.
PEAK_SIGMAS = 8.0
SMOOTHING = 2.0  # points: the σ of the Gaussian the values are smoothed by
WINDOW_WIDTHS = 1.5  # full widths at half maximum either side of a peak's top
# Outside a lone peak's window, a spread about a straight line this many times the noise is
# a shape of its own (a Compton continuum), not background.
BACKGROUND_SPREAD = 3.0
# How much a Gaussian filter of σ = s points narrows independent noise: 1/√(2√π s).
_NARROWED = 1 / math.sqrt(2 * math.sqrt(math.pi) * SMOOTHING)


def fit_peaks(
    fit: Fit,
    request: Request,
    x: np.ndarray,
    y: np.ndarray,
    sigma: np.ndarray | None,
    *,
    sigma_name: str | None,
    x_names: tuple[str, ...],
) -> list[Fit]:
    """The model `request` asks for fitted to each peak of y(x) in its own window (none
    where the data hold no peak that stands out of the noise)."""
    windows = peak_windows(x, y)
    # one line on a plain background: the whole scan judges its shape best, unless it has
    # more points than a fit takes, whose even subsample would thin a narrow line out
    if len(windows) == 1 and len(x) <= MAX_FIT_POINTS and not _beyond_background(x, y, windows[0]):
        return []
    unit = f" {fit.x_unit}" if fit.x_unit else ""
    fits = []
    for top, low, high in windows:
        inside = (x >= low) & (x <= high)
        note = (
            f"fitted to the peak at {fit.x_label} ≈ {top:g}{unit}: the {int(inside.sum())} "
            f"points from {low:g} to {high:g}{unit}, one of the {len(windows)} peaks that stand "
            "out of the noise, each fitted on its own"
        )
        part = fit.model_copy(update={"task_range": (low, high), "notes": [*fit.notes, note]})
        fits.append(fit_request(part, request, x[inside], y[inside],
                                None if sigma is None else sigma[inside],
                                sigma_name=sigma_name, x_names=x_names))  # fmt: skip
    return fits


def peak_windows(x: np.ndarray, y: np.ndarray) -> list[tuple[float, float, float]]:
    """(top, low, high) in x of each of the most prominent resolved peaks of y(x), in order
    of x."""
    finite = np.isfinite(x) & np.isfinite(y)
    order = np.flatnonzero(finite)[np.argsort(x[finite], kind="stable")]
    values, along = y[order].astype(float), x[order]
    if len(values) < 3 * MIN_POINTS:
        return []
    smooth = gaussian_filter1d(values, SMOOTHING)
    counted = bool(np.all(values >= 0) and np.all(values == np.round(values)))
    noise = (np.sqrt(np.maximum(smooth, 1.0)) if counted else noise_sigma(values)) * _NARROWED
    peaks, found = find_peaks(smooth, prominence=0)
    widths = peak_widths(smooth, peaks, rel_height=0.5)[0]
    standing = found["prominences"] / np.broadcast_to(noise, smooth.shape)[peaks]
    standing[widths <= 2 * SMOOTHING] = 0.0  # narrower than the smoothing: a spike
    kept: list[int] = []
    for rank in np.argsort(standing)[::-1]:
        if standing[rank] < PEAK_SIGMAS or len(kept) == MAX_PEAKS:
            break
        if all(abs(peaks[rank] - peaks[other]) > widths[other] for other in kept):
            kept.append(rank)  # not a shoulder of a peak that stands out more
    windows = []
    for rank in sorted(kept, key=lambda r: peaks[r]):
        reach = max(int(np.ceil(WINDOW_WIDTHS * widths[rank])), MIN_POINTS)
        peak = peaks[rank]
        low, high = max(0, peak - reach), min(len(values) - 1, peak + reach)
        windows.append((float(along[peak]), float(along[low]), float(along[high])))
    return windows


def _beyond_background(x: np.ndarray, y: np.ndarray, window: tuple[float, float, float]) -> bool:
    """Whether the data outside a peak's window hold more than a straight background and
    noise (a photopeak's Compton continuum, a backscatter bump): then one curve over all of
    the data cannot be the peak's model, and the window's fit is."""
    _, low, high = window
    outside = np.isfinite(x) & np.isfinite(y) & ((x < low) | (x > high))
    if outside.sum() < 3 * MIN_POINTS:
        return False
    line = np.polyval(np.polyfit(x[outside], y[outside], 1), x[outside])
    order = np.argsort(x[outside], kind="stable")
    noise = noise_sigma(y[outside][order])
    return float(np.mean((y[outside] - line) ** 2)) > BACKGROUND_SPREAD**2 * noise**2
