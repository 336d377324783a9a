"""Where each standard model's fit starts from (tools.fits.shapes): a peak, a resonance or an
oscillation converges only from near its answer, so each model's parameters are first guessed
from the data, by lmfit's `guess` where it has one and from an FFT for an oscillation. Each
gives a list of starts, none where the model cannot apply; the fit runs from each
(tools.fits.fit_runs.best_start).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from lmfit import Model, Parameters
from lmfit.models import ConstantModel, ExponentialModel, PowerLawModel

# Points per period below which an oscillation is not fitted: fewer cannot tell the true
# frequency from an alias of the (sub)sampling.
MIN_POINTS_PER_PERIOD = 4


Starts = Callable[[Model, np.ndarray, np.ndarray], list[Parameters]]


def bounded(starts: Starts, positive: tuple[str, ...]) -> Starts:
    """`starts` with the parameters `positive` started at their absolute values and bounded
    at 0."""
    if not positive:
        return starts

    def in_range(model: Model, x: np.ndarray, y: np.ndarray) -> list[Parameters]:
        found = starts(model, x, y)
        for params in found:
            for name in set(positive) & set(params):
                value = abs(params[name].value) or 1e-12 * (float(np.ptp(x)) or 1.0)
                params[name].set(value=value, min=0)
        return found

    return in_range


def guessed(model: Model, x: np.ndarray, y: np.ndarray) -> list[Parameters]:
    return [model.guess(y, x=x)]


def _edges(y: np.ndarray) -> tuple[float, float]:
    """Medians of the first and last tenth of y: where a curve levels off."""
    k = max(1, len(y) // 10)
    return float(np.median(y[:k])), float(np.median(y[-k:]))


def exponential_starts(model: Model, x: np.ndarray, y: np.ndarray) -> list[Parameters]:
    first, last = _edges(y)
    starts = []
    # the curve levels off at the end (a decay) or at the start (a growth); try both
    for level, other in ((last, first), (first, last)):
        offset = level - 0.05 * (other - level)  # keep y − c off zero, where log fails
        guess = ExponentialModel().guess(y - offset, x=x)
        params = model.make_params(
            amplitude=guess["amplitude"].value, decay=guess["decay"].value, c=offset
        )
        starts.append(params)
    return starts


def approach_starts(model: Model, x: np.ndarray, y: np.ndarray) -> list[Parameters]:
    """c + a(1 − e^(−x/τ)) is the exponential's c' + a'·e^(−x/τ) with a = −a', c = c' + a'."""
    starts = []
    for params in exponential_starts(ExponentialModel() + ConstantModel(), x, y):
        amplitude, decay, c = (params[name].value for name in ("amplitude", "decay", "c"))
        starts.append(model.make_params(a=-amplitude, tau=decay, c=c + amplitude))
    return starts


def growth_starts(model: Model, x: np.ndarray, y: np.ndarray) -> list[Parameters]:
    """The exponential's guesses that grow (a negative decay), as growth = −decay."""
    starts = []
    for params in exponential_starts(ExponentialModel() + ConstantModel(), x, y):
        amplitude, decay, c = (params[name].value for name in ("amplitude", "decay", "c"))
        if decay < 0:
            starts.append(model.make_params(amplitude=amplitude, growth=-decay, c=c))
    return starts


def proportional_starts(model: Model, x: np.ndarray, y: np.ndarray) -> list[Parameters]:
    denominator = float(np.dot(x, x))
    return [model.make_params(slope=float(np.dot(x, y)) / denominator)] if denominator else []


def power_law_starts(model: Model, x: np.ndarray, y: np.ndarray) -> list[Parameters]:
    sign = 1.0 if np.median(y) >= 0 else -1.0
    guess = PowerLawModel().guess(np.abs(y) + 1e-300, x=x)
    return [
        model.make_params(
            amplitude=sign * guess["amplitude"].value, exponent=guess["exponent"].value
        )
    ]


def peak_starts(peak_type: type[Model], sloped: bool = False) -> Starts:
    """The peak guessed by lmfit above a background through the medians of the first and
    last tenth of the points: level, or (`sloped`) the line through them."""

    def starts(model: Model, x: np.ndarray, y: np.ndarray) -> list[Parameters]:
        k = len(y) // 10 + 1
        (x0, y0), (x1, y1) = ((float(np.median(x[e])), float(np.median(y[e])))
                              for e in (slice(None, k), slice(-k, None)))  # fmt: skip
        slope = (y1 - y0) / (x1 - x0) if sloped and x1 != x0 else 0.0
        level = (y0 + y1) / 2 if not sloped else y0
        background = level + slope * (x - (x0 if sloped else 0.0))
        rest = y - background
        dip = -rest.min() > rest.max()
        guess = peak_type().guess(rest, x=x, negative=dip)
        values = {name: guess[name].value for name in ("amplitude", "center", "sigma")}
        under = level + slope * (values["center"] - x0) if sloped else level
        extra = {"slope": slope} if sloped else {}
        return [model.make_params(**values, c=under, **extra)]

    return starts


def _half_width(x: np.ndarray, height: np.ndarray, level: float) -> float:
    """The width of the region around the maximum of `height` where it stays above `level`."""
    top = int(np.argmax(height))
    above = height >= level
    left = top
    while left > 0 and above[left - 1]:
        left -= 1
    right = top
    while right < len(x) - 1 and above[right + 1]:
        right += 1
    return float(max(x[right] - x[left], (x[-1] - x[0]) / len(x)))


def resonance_starts(model: Model, x: np.ndarray, y: np.ndarray) -> list[Parameters]:
    starts = []
    for baseline in (0.0, float(y.min())):
        height = y - baseline
        top = int(np.argmax(height))
        f0 = float(x[top])
        width = _half_width(x, height, height[top] / np.sqrt(2))
        params = model.make_params(amplitude=height[top], f0=f0, Q=f0 / width, c=baseline)
        params["f0"].set(min=0)
        params["Q"].set(min=0)
        starts.append(params)
    return starts


def phase_starts(model: Model, x: np.ndarray, y: np.ndarray) -> list[Parameters]:
    first, last = _edges(y)
    middle = (first + last) / 2
    amplitude = (last - first) / np.pi
    if amplitude == 0:
        return []
    crossing = int(np.argmin(np.abs(y - middle)))
    f0 = float(x[crossing])
    # atan(Q(f/f0 − f0/f)) = ±π/4 where Q(f/f0 − f0/f) = ±1, that is f0/Q apart
    inside = np.abs(y - middle) <= abs(amplitude) * np.pi / 4
    width = float(np.ptp(x[inside])) if inside.sum() > 1 else float(np.ptp(x)) / 4
    params = model.make_params(amplitude=amplitude, f0=f0, Q=f0 / max(width, 1e-300), c=middle)
    params["f0"].set(min=0)
    params["Q"].set(min=0)
    return [params]


def _main_frequency(x: np.ndarray, y: np.ndarray) -> float | None:
    """The frequency of y's strongest oscillation, from its FFT on a uniform grid; None
    where the data are too few or too sparse to tell it from an alias."""
    n = len(x)
    span = float(x[-1] - x[0])
    if n < 8 or span <= 0:
        return None
    grid = np.linspace(x[0], x[-1], n)
    uniform = np.interp(grid, x, y) - float(np.mean(y))
    spectrum = np.abs(np.fft.rfft(uniform * np.hanning(n)))
    peak = int(np.argmax(spectrum[1:])) + 1
    if 0 < peak < len(spectrum) - 1:  # parabolic interpolation between bins
        a, b, c = spectrum[peak - 1 : peak + 2]
        peak = peak + 0.5 * (a - c) / (a - 2 * b + c) if a - 2 * b + c else peak
    frequency = peak / (grid[1] - grid[0]) / n
    return None if frequency * span * MIN_POINTS_PER_PERIOD > n else frequency


def _cosine_of(
    x: np.ndarray, y: np.ndarray, frequency: float, envelope: np.ndarray
) -> tuple[float, float]:
    """(amplitude, phase) of envelope·amplitude·cos(2π·frequency·x + phase) closest to y
    about its mean: y projected on the cosine and the sine at that frequency."""
    basis = np.column_stack([envelope * np.cos(2 * np.pi * frequency * x),
                             envelope * np.sin(2 * np.pi * frequency * x)])  # fmt: skip
    (a, b), *_ = np.linalg.lstsq(basis, y - np.mean(y), rcond=None)
    return float(np.hypot(a, b)), float(np.arctan2(-b, a))


def oscillation_starts(model: Model, x: np.ndarray, y: np.ndarray) -> list[Parameters]:
    """Frequency from the FFT; amplitude and phase from projecting y on the cosine and sine
    at that frequency; decay from how the spread shrinks."""
    frequency = _main_frequency(x, y)
    if frequency is None:
        return []
    span = float(x[-1] - x[0])
    quarter = max(2, len(x) // 4)
    early, late = np.std(y[:quarter]), np.std(y[-quarter:])
    shrink = np.log(early / late) if late > 0 and early > late else 0.0
    decay = 0.75 * span / shrink if shrink > 0 else 10 * span
    # amplitude and phase where the data start (t0): at x = 0, a swing recorded from 42 s on
    # with a decay of 0.4 s would need an amplitude of 10⁴⁴, and never converge
    elapsed = x - x[0]
    amplitude, phase = _cosine_of(elapsed, y, frequency, np.exp(-elapsed / decay))
    params = model.make_params(
        amplitude=amplitude, decay=decay, frequency=frequency, phase=phase,
        c=float(np.mean(y)), t0=float(x[0]),
    )  # fmt: skip
    params["t0"].set(expr=repr(float(x[0])))  # where the data start: fixed, not fitted
    params["amplitude"].set(min=0)
    params["frequency"].set(min=0)
    return [params]


def sine_starts(model: Model, x: np.ndarray, y: np.ndarray) -> list[Parameters]:
    """As an oscillation's, without decay; sin(θ + π/2) is cos θ."""
    frequency = _main_frequency(x, y)
    if frequency is None:
        return []
    amplitude, phase = _cosine_of(x, y, frequency, np.ones_like(x))
    params = model.make_params(
        amplitude=amplitude, frequency=frequency, phase=phase + np.pi / 2, c=float(np.mean(y))
    )
    params["amplitude"].set(min=0)
    params["frequency"].set(min=0)
    return [params]
