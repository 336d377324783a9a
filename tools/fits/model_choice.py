"""Which of the standard models fitted to a column is reported: the lowest Bayesian
information criterion, the one with fewest parameters among those about as good, a simpler
model when a parameter sits within its errors of the value that reduces to it, and an offset
that is zero within its error left out.

Only a model that means something is a candidate: one whose parameters the data determine,
and, for a model of a feature (a peak, a resonance, an oscillation), one whose feature lies
within the data and that fits clearly better than every trend (a line, a polynomial, a
power law, an exponential). A resonance bends through seven points of a ballistic curve
with f0 = 554 ± 545, and a damped oscillation through Hubble's nebulae with an amplitude
of 59543 ± 85501: a lower BIC, and nothing a student could report.

The criteria live apart from the loop that fits every model (tools.fits.column_fits) because the
offset rule applies to a standard model the assignment names as well (tools.fits.requested_fits),
and the tolerances set how a fitted value is read (tools.fits.fit_description.plain_value).
"""

from __future__ import annotations

import math
import warnings

import numpy as np
from lmfit.model import ModelResult

from labscribe.tools.fits.fit_result import Candidate
from labscribe.tools.fits.fit_runs import MAX_NFEV, best_start
from labscribe.tools.fits.residuals import structure
from labscribe.tools.fits.shapes import BY_NAME, SHAPES, SLOPED, Shape, build

# Models within this much of the lowest BIC are "about as good"; among them the one with
# the fewest parameters is chosen (Kass & Raftery: a difference below 2 is barely worth
# mentioning).
BIC_TOLERANCE = 2.0
# A parameter within this many standard errors of the value that turns its model into a
# simpler one (a power law's exponent of 1, a quadratic's c2 of 0) makes the simpler one
# as good.
NESTED_SIGMAS = 2.0
# 1 − R² below this is floating-point rounding, not noise: the model is exact.
EXACT = 1e-12
# A parameter whose standard error exceeds this share of its value is not determined by the
# data ("554 ± 545"): its model is not reported as the best. A polynomial's coefficients and
# an offset are exempt: one near zero says the term is not needed (the nested rule above).
UNDETERMINED = 0.5
# A feature model must beat every trend by this much BIC: "very strong" evidence (Kass &
# Raftery 1995, ΔBIC > 10), since its extra freedom fits a bend as readily as a peak.
FEATURE_MARGIN = 10.0
# A peak on a sloped background below this share of the slope's rise across the data is a
# wiggle on a trend, not the data's feature: a Hall voltage's line through ±300 mT with a
# 2.6 mV step near −200 mT is not a Gaussian of height 2.6 mV on a 180 mV slope.
PEAK_OVER_SLOPE = 0.1
POLYNOMIALS = frozenset({"proportional", "linear", "quadratic", "cubic"})


def choose(
    candidates: list[Candidate],
    results: dict[str, ModelResult],
    x: np.ndarray | None = None,
) -> tuple[str, list[str]]:
    """The model to report, and those that fit about as well: among the meaningful ones
    (meaningful: parameters determined, a feature within `x` and clearly better than every
    trend), the lowest BIC, or among models within BIC_TOLERANCE of it (or reproducing the
    data to rounding) the one with the fewest parameters; then, while a parameter of the
    chosen model sits within NESTED_SIGMAS of the value that makes it a simpler model, that
    simpler model. Where no model is meaningful, the trends compete as before."""
    candidates = meaningful(candidates, results, x)
    lowest = candidates[0].bic
    close = [c for c in candidates if c.bic - lowest < BIC_TOLERANCE]
    # data a model reproduces to rounding (a computed column) leave the BIC to noise
    exact = [c for c in candidates if c.r_squared > 1 - EXACT]
    chosen = min(exact or close, key=lambda c: (results[c.model].nvarys, c.bic)).model
    chosen = _named_twin(chosen, {c.model for c in close}, results)
    seen = {chosen}
    while True:
        simpler = _simpler(BY_NAME[chosen], results[chosen], results)
        if simpler is None or simpler in seen:
            break
        seen.add(simpler)
        chosen = simpler
    return chosen, [c.model for c in close if c.model != chosen]


def meaningful(
    candidates: list[Candidate], results: dict[str, ModelResult], x: np.ndarray | None
) -> list[Candidate]:
    """`candidates` (lowest BIC first) that may be reported as the best: parameters
    determined (UNDETERMINED; a position to within that share of the x span), and a
    feature model only where its feature lies within `x` and it beats every such trend by
    FEATURE_MARGIN. None meaningful: the trends, else all."""
    kept = [c for c in candidates if _determined(BY_NAME[c.model], results[c.model], x)]
    trends = [c for c in kept if BY_NAME[c.model].feature is None]
    best_trend = min((c.bic for c in trends), default=math.inf)
    kept = [
        c for c in kept
        if BY_NAME[c.model].feature is None
        or (_within(BY_NAME[c.model], results[c.model], x) and _stands_out(results[c.model], x)
            and c.bic < best_trend - FEATURE_MARGIN)
    ]  # fmt: skip
    return kept or [c for c in candidates if BY_NAME[c.model].feature is None] or candidates


def _determined(shape: Shape, result: ModelResult, x: np.ndarray | None) -> bool:
    """Whether the data determine each free parameter of `shape` to within UNDETERMINED of
    its value, or of the x span for a position (a centre at 0 is as good as one at 5); a
    polynomial's coefficients, an offset and a phase exempt."""
    if shape.name in POLYNOMIALS:
        return True
    span = float(np.ptp(x)) if x is not None and len(x) else math.nan
    for name, parameter in result.params.items():
        if not parameter.vary or parameter.expr is not None:
            continue
        if name == shape.offset or name in shape.angles:
            continue
        error = parameter.stderr
        if error is None or not math.isfinite(error):
            return False
        position = name == shape.feature and shape.units.get(name) == "x"
        scale = span if position and math.isfinite(span) else abs(parameter.value)
        if error > UNDETERMINED * scale:
            return False
    return True


def _within(shape: Shape, result: ModelResult, x: np.ndarray | None) -> bool:
    """Whether a feature model's feature is in the data: its position (a centre, f0) within
    the x measured, a peak's flanks down to its level (a FWHM from its centre) on both
    sides, or at least one whole cycle of its oscillation across them."""
    if x is None or shape.feature is None or len(x) == 0:
        return True
    value = float(result.params[shape.feature].value)
    low, high = float(np.min(x)), float(np.max(x))
    if shape.units.get(shape.feature) == "1/x":  # a frequency: cycles across the data
        return abs(value) * (high - low) >= 1.0
    if shape.peak is not None and shape.peak[2] == "FWHM" and shape.peak[1] in result.params:
        # a peak whose level the data never reach on both sides is a bend, not a peak: an
        # "inverted Gaussian" of FWHM 92° centred at 94° through a cos² law from 0 to 180°
        reach = abs(float(result.params[shape.peak[1]].value))
        return low <= value - reach and value + reach <= high
    return low <= value <= high


def _stands_out(result: ModelResult, x: np.ndarray | None) -> bool:
    """Whether a peak fitted on a sloped background rises above it by PEAK_OVER_SLOPE of
    the slope's rise across `x`; a model without a slope stands out by itself."""
    height, slope = result.params.get("height"), result.params.get("slope")
    if x is None or len(x) == 0 or height is None or slope is None:
        return True
    return abs(float(height.value)) >= PEAK_OVER_SLOPE * abs(float(slope.value)) * float(np.ptp(x))


def without_offset(
    shape: Shape, result: ModelResult, x: np.ndarray, y: np.ndarray, sigma: np.ndarray | None
) -> tuple[ModelResult, tuple[str, float, float] | None]:
    """`result` fitted again with the shape's offset fixed at 0 when the offset lies within
    NESTED_SIGMAS standard errors of it (the model without it is as good and simpler), and
    the offset as it was fitted: (name, value, standard error)."""
    offset = result.params.get(shape.offset or "")
    if offset is None or offset.stderr is None or not math.isfinite(offset.stderr):
        return result, None
    if abs(offset.value) > NESTED_SIGMAS * offset.stderr:
        return result, None
    params = result.params.copy()
    params[offset.name].set(value=0.0, vary=False)
    weights = None if sigma is None else 1.0 / sigma
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            simpler = result.model.fit(y, params, x=x, weights=weights, max_nfev=MAX_NFEV)
        except (ValueError, TypeError, ArithmeticError, np.linalg.LinAlgError):
            return result, None
    if not math.isfinite(simpler.chisqr):
        return result, None
    return simpler, (offset.name, float(offset.value), float(offset.stderr))


def leaves_structure(result: ModelResult, y: np.ndarray) -> bool:
    """Whether `result`'s residuals (x sorted) show structure (tools.fits.residuals)."""
    curve = np.asarray(result.best_fit, dtype=float)
    return structure(y - curve, curve) is not None


def on_a_slope(
    name: str, x: np.ndarray, y: np.ndarray, sigma: np.ndarray | None
) -> tuple[Shape, ModelResult] | None:
    """The peak `name` fitted on a sloped background (shapes.SLOPED); None when it has no
    such variant or the fit fails."""
    variant = SLOPED.get(name)
    if variant is None:
        return None
    result = best_start(build(variant), variant.fit_starts, x, y, sigma)
    return None if result is None else (variant, result)


def sloped(
    shape: Shape, result: ModelResult, x: np.ndarray, y: np.ndarray, sigma: np.ndarray | None
) -> tuple[Shape, ModelResult]:
    """`shape` and its `result`; or, when the result leaves structure and the peak on a
    sloped background earns its extra parameter (a BIC lower by BIC_TOLERANCE), that."""
    if not leaves_structure(result, y) or (tilted := on_a_slope(shape.name, x, y, sigma)) is None:
        return shape, result
    return tilted if tilted[1].bic < result.bic - BIC_TOLERANCE else (shape, result)


def _named_twin(chosen: str, close: set[str], results: dict[str, ModelResult]) -> str:
    """Of two models that draw the same curves, the one named for this curve's direction."""
    for shape in SHAPES:
        if shape.preferred_over is None:
            continue
        twin, parameter = shape.preferred_over
        if chosen in (shape.name, twin) and {shape.name, twin} <= close:
            return shape.name if results[shape.name].params[parameter].value > 0 else twin
    return chosen


def _simpler(shape: Shape, result: ModelResult, results: dict[str, ModelResult]) -> str | None:
    for name, value, simpler in shape.reduces_to:
        parameter = result.params.get(name)
        if parameter is None or simpler not in results or parameter.stderr is None:
            continue
        if abs(parameter.value - value) <= NESTED_SIGMAS * parameter.stderr:
            return simpler
    return None


def rival_note(rivals: list[str]) -> list[str]:
    if not rivals:
        return []
    return [f"{', '.join(rivals)} fit{'s' if len(rivals) == 1 else ''} about as well"]
