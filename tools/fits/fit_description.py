"""An lmfit result described as the report states it (tools.fits.fit_result.Fit): every
parameter with its standard error and unit, R², the reduced χ², the residuals' verdict
(tools.fits.residuals), and notes on what the data do not support.

A fit claims no more than it supports, by the same rules whether the model is a standard one
or a formula the assignment writes: hence one place that describes both.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
from lmfit.model import ModelResult
from scipy import stats

from labscribe.tools.fits.fit_result import (
    GOOD_R_SQUARED,
    Fit,
    Parameter,
    Peak,
    format_value,
    unit_of,
    within_error_of_zero,
)
from labscribe.tools.fits.model_choice import EXACT, NESTED_SIGMAS
from labscribe.tools.fits.shapes import POWER_OF_FIT, UNIT_RULES, Shape
from labscribe.tools.fits.verdict import Verdict, jacobian_of, judge

# Laws' exponents are halves, thirds and quarters (T ∝ L^½, P ∝ T⁴, r ∝ t^⅓); a fitted 4/9
# is a number, not a law.
MAX_LAW_DENOMINATOR = 4
# A peak's width is measured by the points on its flanks: with fewer on either side within
# it, the width follows from the shape the model assumes (a Gaussian line sampled at one point
# of its top fits a Lorentzian as well, with a third less width).
MIN_FLANK_POINTS = 2
# A trend whose F-test against the data's mean gives a larger p-value is not shown by them.
TREND_P = 0.05
UNSAMPLED = (
    "the peak is not resolved: {left} and {right} points lie on its flanks within its {kind}, "
    "so the width follows from the {model} shape assumed, not from the data"
)
# An oscillation whose fitted period is longer than the record: the data never swing
# through a cycle, so an over- or critically damped run is forced into a slow swing.
UNDER_A_CYCLE = (
    "the data span {cycles:.2g} of the fitted cycle: they are not seen to oscillate, so the "
    "frequency and phase follow from the {model} shape assumed, not from the data; a curve "
    "that does not oscillate (critically or over-damped) may describe them as well"
)


def plain_value(value: float, stderr: float | None) -> float:
    """The simplest fraction of the kinds laws have (denominator up to MAX_LAW_DENOMINATOR)
    within NESTED_SIGMAS standard errors of `value`, else `value`: an exponent of 0.4988 ±
    0.003 is ½, for its parameters' units; 0.4563 ± 0.0072 is no 4/9, it stays itself."""
    if stderr is None or not math.isfinite(stderr):
        return float(value)
    for denominator in range(1, MAX_LAW_DENOMINATOR + 1):
        simple = Fraction(value).limit_denominator(denominator)
        if abs(float(simple) - value) <= NESTED_SIGMAS * stderr:
            return float(simple)
    return float(value)


def describe_shape(
    fit: Fit,
    shape: Shape,
    result: ModelResult,
    x: np.ndarray,
    y: np.ndarray,
    sigma: np.ndarray | None,
    sigma_name: str | None,
    left_out: tuple[str, float, float] | None = None,
) -> Fit:
    """`fit` described with the standard model `shape`'s result (and the offset it left out,
    as it was fitted before: name, value, standard error)."""
    units = {
        name: UNIT_RULES[kind](fit.y_unit, fit.x_unit) for name, kind in shape.units.items()
        if kind != POWER_OF_FIT
    }  # fmt: skip
    if POWER_OF_FIT in shape.units.values():  # amplitude·x^exponent: y per x to the exponent
        exponent = result.params["exponent"]
        power = Fraction(plain_value(exponent.value, exponent.stderr)).limit_denominator(1000)
        units["amplitude"] = unit_of((Fraction(1), -power), fit.y_unit, fit.x_unit)
    described = describe(fit, result, x, y, sigma, sigma_name, units, shape.key)
    parameters = [_one_turn(p) if p.name in shape.angles else p for p in described.parameters]
    dropped = []
    notes = list(described.notes)
    if left_out is not None:
        name, value, error = left_out
        dropped = [_parameter(name, value, error, units.get(name, ""), False)]
        notes.append(
            f"{name} = {format_value(dropped[0])} is 0 within {NESTED_SIGMAS:g} standard "
            "errors, so the model is fitted without it"
        )
    peak = _peak(shape, parameters, x)
    if (resolution := _resolution(parameters)) is not None:
        notes.append(resolution)
    if (cycles := _cycles(shape, parameters, x)) is not None and cycles < 1:
        notes.append(UNDER_A_CYCLE.format(cycles=cycles, model=shape.name))
    good = described.good
    verdict = described.verdict
    if peak is not None and (unmeasured := _unsampled(peak, x, shape.name)):
        notes.append(unmeasured)
        good = False
        verdict = "; ".join(filter(None, (verdict, unmeasured)))
    return described.model_copy(
        update={"model": shape.name, "formula": shape.formula, "parameters": parameters,
                "peak": peak, "left_out": dropped, "notes": notes, "good": good,
                "verdict": verdict}
    )  # fmt: skip


def describe(
    fit: Fit,
    result: ModelResult,
    x: np.ndarray,
    y: np.ndarray,
    sigma: np.ndarray | None,
    sigma_name: str | None,
    units: dict[str, str],
    key: tuple[str, ...] = (),
) -> Fit:
    """`fit` with what `result` found: every parameter with its unit, R², the reduced χ²,
    the residuals' verdict (tools.fits.verdict), and notes on what the data do not support; the
    `key` parameters (all the fitted ones when empty) are those a low R² note names."""
    parameters = [
        _parameter(name, p.value, p.stderr, units.get(name, ""), p.expr is not None)
        for name, p in result.params.items()
        if p.vary or p.expr is not None  # an offset fixed at 0 is no fitted parameter
    ]
    curve = np.asarray(result.best_fit, dtype=float)
    residual = y - curve
    r_squared = r_squared_of(y, curve)
    verdict = judge(x, residual, curve, sigma, sigma_name, jacobian_of(result),
                    y_unit=fit.y_unit, exact=r_squared > 1 - EXACT)  # fmt: skip
    notes = list(fit.notes)
    good = verdict.describes
    name = "the assignment's model" if fit.requested else "no model tried"
    if not good and fit.requested and verdict.misses_detail:
        good = True  # its values answer the task; the note says what it misses
        notes.append(f"{name} {verdict.detail()}")
    elif not good:
        verb = "does not describe these data" if fit.requested else "describes these data"
        notes.append(f"{name} {verb}: {verdict.reason()}")
    elif r_squared < GOOD_R_SQUARED:
        named = [p for p in parameters if (p.name in key if key else not p.derived)]
        free = sum(p.vary and p.expr is None for p in result.params.values())
        notes.append(noisy_note(r_squared, verdict, named, len(y), free))
    elif verdict.doubt:
        notes.append(verdict.doubt)
    loose = [p.name for p in parameters if not p.derived and not p.determined]
    if good and loose:
        notes.append(within_error_of_zero(loose))
    free = [name for name, p in result.params.items() if p.vary and p.expr is None]
    spare = len(residual) - len(free)
    residual_sd = float(np.sqrt(np.sum(residual**2) / spare)) if spare > 0 else None
    covariance = None
    if result.covar is not None and np.shape(result.covar) == (len(free), len(free)):
        matrix = np.asarray(result.covar, dtype=float)
        covariance = {a: {b: float(matrix[i, j]) for j, b in enumerate(free)}
                      for i, a in enumerate(free)}  # fmt: skip
    return fit.model_copy(
        update={"parameters": parameters, "r_squared": r_squared,
                "reduced_chi_square": verdict.reduced_chi_square, "sigma": verdict.sigma,
                "sigma_estimate": verdict.noise, "residual_sd": residual_sd,
                "structure": verdict.structure, "good": good, "notes": notes,
                "verdict": "" if good else verdict.reason(), "covariance": covariance}
    )  # fmt: skip


def r_squared_of(y: np.ndarray, curve: np.ndarray) -> float:
    total = float(np.sum((y - y.mean()) ** 2))
    return 1.0 - float(np.sum((y - curve) ** 2)) / total if total > 0 else 0.0


def noisy_note(
    r_squared: float, verdict: Verdict, key: list[Parameter], points: int, free: int
) -> str:
    """Why a model with a low R² still describes its data: the noise is large against the
    trend, and how well that leaves the key parameters determined; or, where the trend
    itself is not significant, that the data cannot tell the model from none."""
    chi = verdict.reduced_chi_square
    like = f" (reduced χ² = {chi:.2g})" if chi is not None else ""
    shares = [f"{p.name} to {100 * p.relative:.0f} %" for p in key
              if p.relative is not None and p.determined]  # fmt: skip
    determined = f"; the data determine {' and '.join(shares[:2])}" if shares else ""
    if verdict.doubt:  # not "like noise" beside a reduced χ² of 5.5
        return f"R² = {r_squared:.2f} is low, and {verdict.doubt}{determined}"
    if (p := trend_p_value(r_squared, points, free)) > TREND_P:
        return (
            f"R² = {r_squared:.2f}: the model explains no more of the data's variation than "
            f"noise would (an F-test of the trend gives p = {p:.2g}) and its residuals are like "
            f"noise{like}: the data cannot tell it from no trend at all"
        )
    return (
        f"R² = {r_squared:.2f} is low because the data scatter widely about their trend, not "
        f"because the model misses it: its residuals are like noise{like}, so it describes "
        f"them{determined}"
    )


def trend_p_value(r_squared: float, points: int, free: int) -> float:
    """The p-value of the overall F-test of a fit's trend against none (the data's mean):
    1 where the model does no better than the mean (R² ≤ 0) or has no degree of freedom."""
    terms = max(1, free - 1)  # the parameters beside the level
    left = points - max(free, terms + 1)
    if r_squared <= 0 or left <= 0:
        return 1.0
    if r_squared >= 1:
        return 0.0
    return float(stats.f.sf(r_squared / terms / ((1 - r_squared) / left), terms, left))


def _parameter(
    name: str, value: float, stderr: float | None, unit: str, derived: bool
) -> Parameter:
    error = float(stderr) if stderr is not None and math.isfinite(stderr) else None
    return Parameter(name=name, value=float(value), stderr=error, unit=unit, derived=derived)


def _one_turn(parameter: Parameter) -> Parameter:
    """A phase within (−π, π]: one phase, not one per turn."""
    value = (parameter.value + math.pi) % (2 * math.pi) - math.pi
    return parameter.model_copy(update={"value": value})


def _unsampled(peak: Peak, x: np.ndarray, model: str) -> str | None:
    """Why the data do not measure the peak's width: too few points on a flank within it
    (the width then follows from the shape the model assumes); None when they do."""
    centre, half = peak.position.value, abs(peak.width.value) / 2
    flanks = (
        int(np.count_nonzero((x >= centre - half) & (x < centre))),
        int(np.count_nonzero((x > centre) & (x <= centre + half))),
    )
    if min(flanks) >= MIN_FLANK_POINTS:
        return None
    return UNSAMPLED.format(left=flanks[0], right=flanks[1], kind=peak.width_kind, model=model)


def _cycles(shape: Shape, parameters: list[Parameter], x: np.ndarray) -> float | None:
    """How many of an oscillation's fitted cycles the data span; None for other shapes."""
    if shape.units.get("frequency") != "1/x" or not shape.angles:
        return None
    frequency = next(p.value for p in parameters if p.name == "frequency")
    return abs(frequency) * float(np.ptp(x))


def _resolution(parameters: list[Parameter]) -> str | None:
    """For two lines (a doublet): their separation against their mean FWHM, and whether that
    resolves them by the usual criterion (apart by more than a FWHM)."""
    named = {p.name: p for p in parameters}
    if not {"separation", "fwhm1", "fwhm2"} <= named.keys():
        return None
    separation = named["separation"].value
    ratio = separation / ((named["fwhm1"].value + named["fwhm2"].value) / 2)
    verdict = "resolved" if ratio > 1 else "not resolved"
    return (f"the two lines are {ratio:.2f} times their mean FWHM apart (separation "
            f"{format_value(named['separation'])}): {verdict} by the usual criterion, a "
            "separation larger than the FWHM")  # fmt: skip


def _peak(shape: Shape, parameters: list[Parameter], x: np.ndarray) -> Peak | None:
    """The peak a peak model found, if it lies within the data: a peak model that only
    bends through the points (its centre outside them) shows no peak."""
    if shape.peak is None:
        return None
    position, width, kind = shape.peak
    named = {p.name: p for p in parameters}
    if not x[0] <= named[position].value <= x[-1]:
        return None
    dip = named["amplitude"].value < 0
    return Peak(position=named[position], width=named[width], width_kind=kind, dip=dip)
