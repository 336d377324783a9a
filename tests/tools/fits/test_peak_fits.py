"""Peak windows on spectra whose peaks are known: Poisson counts of three lines on a falling
background, a camera's two lines in Gaussian noise, and background alone, which has none."""

from __future__ import annotations

import numpy as np

from labscribe.tools.assignment.requested import requested_model
from labscribe.tools.fits.fit_result import Fit
from labscribe.tools.fits.peak_fits import MAX_PEAKS, fit_peaks, peak_windows

RNG = np.random.default_rng(11)
CHANNELS = np.arange(2048.0)


def line(centre: float, fwhm: float, height: float) -> np.ndarray:
    return height * np.exp(-4 * np.log(2) * (CHANNELS - centre) ** 2 / fwhm**2)


def test_each_line_of_a_counted_spectrum_gets_a_window_about_it() -> None:
    expected = line(300, 12, 900) + line(520, 14, 400) + line(1750, 20, 60)
    counts = RNG.poisson(expected + 40 * np.exp(-CHANNELS / 600)).astype(float)
    windows = peak_windows(CHANNELS, counts)
    assert len(windows) == 3
    for (top, low, high), centre in zip(windows, (300, 520, 1750), strict=True):
        assert abs(top - centre) <= 3 and low < centre < high
        assert high - low < 120  # a window about the line, not the spectrum


def test_two_lines_in_gaussian_noise_and_no_more_than_max_peaks() -> None:
    signal = line(600, 8, 5.0) + line(640, 8, 3.0) + RNG.normal(0, 0.05, CHANNELS.size)
    assert [round(top) for top, _, _ in peak_windows(CHANNELS, signal)] == [600, 640]
    comb = sum(line(c, 6, 100) for c in range(100, 2000, 100))
    assert len(peak_windows(CHANNELS, RNG.poisson(comb + 5).astype(float))) == MAX_PEAKS


def test_a_background_alone_has_no_peak() -> None:
    assert peak_windows(CHANNELS, RNG.poisson(np.full(CHANNELS.size, 3.0)).astype(float)) == []
    assert peak_windows(CHANNELS, RNG.normal(0, 1, CHANNELS.size)) == []


def test_a_peak_model_asked_of_data_without_a_peak_gives_no_window_fits() -> None:
    # "fit a Gaussian" to a background of a few hundred points: no window, and no failure
    request = requested_model("1. Fit a Gaussian to the counts.")
    assert request is not None
    x = np.arange(300.0)
    fit = Fit(table="bg.csv", x="channel", y="counts", requested=request.task)
    flat = RNG.poisson(np.full(x.size, 3.0)).astype(float)
    assert fit_peaks(fit, request, x, flat, None, sigma_name=None, x_names=("channel",)) == []
