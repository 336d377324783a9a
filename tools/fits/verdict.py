"""Whether a fitted model describes its data, judged by its residuals alone: are they
larger than the noise (a χ² test), or do they keep a shape the model missed (tools.fits.residuals)?

R² is no part of the verdict. It compares the residuals with the spread of the data, so a
straight line through noisy points has a low R² while it describes them as well as any
model can: its residuals are the noise. The report says that instead (the data are noisy
against their trend, and how well that determines the parameters).

The noise is σ from the data's uncertainty column, when there is one; else it is estimated
from the residuals themselves, by the scatter of each residual about the straight line
through its two neighbours (Gasser, Sroka & Jennen-Steinmetz 1986, Biometrika 73, 625: a
"pseudo-residual" for unevenly spaced x). Taken about the fitted curve rather than the raw
data, the estimate does not count the data's own curvature as noise, so a curve sampled at
40 points is not given three times its noise, as the scatter of successive differences gave
(reduced χ² 0.12 for a charging curve fitted to its noise). It is honest for white noise;
noise correlated from one point to the next makes it too small, which the threshold for an
estimated σ allows for (NEIGHBOUR_CORRELATION).
"""

from __future__ import annotations

import functools
import math

import numpy as np
from lmfit.model import ModelResult
from pydantic import BaseModel
from scipy import stats
from scipy.signal import lfilter

from labscribe.tools.fits.residuals import structure

# A χ² test's p-value below this says the residuals exceed the noise, "well above 1": a
# true model with honest σ fails it once in 1,000 fits. On the verdict bench
# (bench/analysis/verdicts.py, 30 draws a cell) p < 0.01 caught 2 % more wrong models, and
# an uncertainty column a student writes is often a rough guess: the stricter test is kept.
P_VALUE = 0.001
# With σ estimated from neighbouring points, the reduced χ² is the residuals' variance
# over the noise's at the shortest scale. Noise correlated from one point to the next (a
# filter, a slow drift, a reading habit) has less variance at that scale than overall: with a
# neighbour correlation of 0.3 the estimate gives 1.6 on a true model. The threshold is the
# reduced χ² that such noise, fitted by the same model at the same x, exceeds with
# probability P_VALUE (simulated, NULL_DRAWS draws): 17 for a line through 8 points, 6.1
# through 19, 2.7 through 100. Noise correlated more strongly than this is not told from a
# misfit by the χ² test (the structure tests still spare it).
NEIGHBOUR_CORRELATION = 0.3
NULL_DRAWS = 4000
# Up to this many points the simulation fits the model's own derivatives (its shape matters:
# 65 for a Gaussian on a level through 8 points, 3 for a cubic); beyond, the threshold
# depends on the number of points and parameters alone (within 5 % at 60 points), and is
# simulated once per process for a polynomial of as many terms, on at most SIMULATED_POINTS
# evenly spaced points: more points only narrow the distribution, so it errs high (2.7 at
# 100 points and above, against 2.2 at 300).
OWN_SHAPE_POINTS = 40
SIMULATED_POINTS = 100
BURN_IN = 30  # AR(1) steps discarded so that the simulated noise starts stationary
MIN_SCATTER_POINTS = 5  # fewer residuals leave too few neighbours to estimate noise from
# Residuals whose reduced χ² exceeds this, though not the threshold, are not called "like
# noise": the words must agree with the number beside them. Noise gives 1 on average; a
# reduced χ² of 5.5 through 16 points is more than noise usually gives, and less than the
# test needs to call the model wrong, so the report says that the data cannot tell. The
# verdict (`describes`, and the false-alarm rate bench/analysis/verdicts.py measures) is
# unchanged: only the words are.
LIKE_NOISE = 2.0
# A model whose residuals, in RMS, stay under this share of the data's range follows them
# closely, whatever the tests find: where σ is only estimated, a reduced χ² just past its
# threshold and a runs test on residuals far below the noise (a baseline of 0.0002 under a
# peak of 0.37) say the model misses a detail, not that it does not describe the data.
# NIST's certified Gaussian of Eckerle4 leaves 1.8 %; the wrong models of the verdict bench
# (bench/analysis/verdicts.py: a line through the origin, a quadratic for a decay, a line
# for a square root, a Lorentzian for a Gaussian, an undamped oscillation) leave 3.6 to
# 7.3 % with no noise at all, and more with it (its "close" counts).
CLOSE_SHARE = 0.025


class Verdict(BaseModel):
    """What the residuals say about a fit."""

    reduced_chi_square: float | None
    sigma: str
    """Where σ comes from, in words, with its value where it was estimated."""
    estimated: bool
    """σ estimated from the residuals' scatter (no uncertainty column)."""
    noise: float | None = None
    """The estimated σ, in y's unit; None with an uncertainty column."""
    threshold: float | None
    """The reduced χ² above which the residuals exceed the noise."""
    p_value: float | None
    """The χ² test's p-value (σ from a column; None for an estimated σ)."""
    structure: str = ""
    """What shows the residuals keep a shape (tools.fits.residuals); "" when they may be noise."""
    spread: float | None = None
    """The residuals' RMS as a share of the data's range; None where the range is 0."""

    @property
    def exceeds_noise(self) -> bool:
        return (
            self.reduced_chi_square is not None
            and self.threshold is not None
            and self.reduced_chi_square > self.threshold
        )

    @property
    def describes(self) -> bool:
        """The residuals are like noise: no larger than it and with no shape."""
        return not self.exceeds_noise and not self.structure

    @property
    def misses_detail(self) -> bool:
        """The residuals are not like noise, yet no evidence against the model: σ is only
        estimated and they stay within CLOSE_SHARE of the data's range, or their shape lies
        within the stated uncertainties (a reduced χ² of at most 1). The model follows the
        data and misses a detail."""
        if self.describes:
            return False
        if self.estimated:
            return self.spread is not None and self.spread < CLOSE_SHARE
        chi = self.reduced_chi_square
        return chi is not None and not self.exceeds_noise and chi <= 1.0

    def detail(self) -> str:
        """What a model that misses a detail (misses_detail) does, in words."""
        if not self.estimated:
            return (
                f"describes the data within their stated uncertainties (reduced χ² = "
                f"{self.reduced_chi_square:.2g} with σ from {self.sigma}), though {self.reason()}"
                ": a shape smaller than the uncertainties, too small to count against its values"
            )
        return (
            f"follows the data closely (the residuals' RMS is {100 * (self.spread or 0):.1f} % "
            "of their range) but not to within the noise estimated from neighbouring points: "
            f"{self.reason()}; it misses a detail of these data, too small to count against "
            "its values"
        )

    @property
    def doubt(self) -> str:
        """Why residuals that the test does not call too large are not "like noise" either
        (a reduced χ² above LIKE_NOISE), in words; "" when they are like noise or exceed it."""
        chi = self.reduced_chi_square
        if chi is None or chi <= LIKE_NOISE or self.exceeds_noise or self.threshold is None:
            return ""
        if self.estimated:
            return (
                f"the residuals are larger than the noise estimated from neighbouring points "
                f"(reduced χ² = {chi:.2g}, where noise gives 1 on average), but not beyond what "
                f"noise correlated from point to point gives through these points "
                f"(up to {self.threshold:.2g}): the data cannot tell whether the model misses "
                "something"
            )
        p = f", p = {self.p_value:.1g}" if self.p_value else ""
        return (
            f"the residuals are larger than the stated uncertainties on average (reduced χ² = "
            f"{chi:.2g}{p}), though not beyond p = {P_VALUE:g}: the model may miss something, "
            "or the uncertainties may be too small"
        )

    def reason(self) -> str:
        """Why the model does not describe the data, in words; "" when it does."""
        found = []
        if self.exceeds_noise:
            found.append(self._excess())
        if self.structure:
            found.append(self.structure)
        return "; ".join(found)

    def _excess(self) -> str:
        chi = f"reduced χ² = {self.reduced_chi_square:.3g} with σ from {self.sigma}"
        if self.estimated:
            return (
                f"the residuals are larger than the noise ({chi}, above {self.threshold:.3g}, "
                "which noise exceeds in fewer than 1 fit in 1,000 even where it is correlated "
                "from point to point)"
            )
        p = f"p = {self.p_value:.1g}" if self.p_value else "p < 1e-300"
        return (
            f"the residuals are larger than the stated uncertainties ({chi}; a χ² test gives "
            f"{p}, below {P_VALUE:g}): the model misses something, or the uncertainties are "
            "too small"
        )


def judge(
    x: np.ndarray,
    residual: np.ndarray,
    curve: np.ndarray,
    sigma: np.ndarray | None,
    sigma_name: str | None,
    jacobian: np.ndarray | None,
    *,
    y_unit: str = "",
    exact: bool = False,
) -> Verdict:
    """The verdict on residuals `residual` (x sorted) of a fit whose curve is `curve`, with
    the uncertainty column `sigma` (named `sigma_name`) or σ estimated from the residuals;
    `jacobian` (points × free parameters, the model's derivatives at the fit) sets the
    degrees of freedom and the simulated threshold. An `exact` fit (a computed column,
    reproduced to rounding) has no noise to judge by: it describes its data."""
    free = 0 if jacobian is None else jacobian.shape[1]
    dof = len(residual) - free
    spread = _spread(residual, curve)
    shape = None if exact else structure(residual, curve)
    if sigma is not None:
        chi2 = float(np.sum((residual / sigma) ** 2))
        reduced = chi2 / dof if dof > 0 else None
        p_value = float(stats.chi2.sf(chi2, dof)) if dof > 0 else None
        threshold = float(stats.chi2.isf(P_VALUE, dof)) / dof if dof > 0 else None
        return Verdict(reduced_chi_square=reduced, sigma=f"the uncertainty column {sigma_name}",
                       estimated=False, threshold=threshold, p_value=p_value,
                       structure=shape or "", spread=spread)  # fmt: skip
    noise = scatter(x, residual)
    described = "the scatter of neighbouring points about the fitted curve (no uncertainty column)"
    if noise is None or dof <= 0 or exact:
        return Verdict(reduced_chi_square=None, sigma=described, estimated=True, threshold=None,
                       p_value=None, structure=shape or "", spread=spread)  # fmt: skip
    unit = f" {y_unit}" if y_unit else ""
    reduced = float(np.sum(residual**2)) / dof / noise**2
    threshold = estimated_threshold(x, jacobian)
    return Verdict(reduced_chi_square=reduced, sigma=f"{described}, σ ≈ {noise:.3g}{unit}",
                   estimated=True, noise=noise, threshold=threshold, p_value=None,
                   structure=shape or "", spread=spread)  # fmt: skip


def _spread(residual: np.ndarray, curve: np.ndarray) -> float | None:
    """The RMS of `residual` over the range of the data (curve + residual)."""
    data = curve + residual
    span = float(np.ptp(data)) if len(data) else 0.0
    if not span or not math.isfinite(span):
        return None
    return float(np.sqrt(np.mean(residual**2))) / span


def scatter(x: np.ndarray, residual: np.ndarray) -> float | None:
    """σ of the noise from the residuals: the RMS of each one's distance from the straight
    line through its neighbours, scaled to one point's noise (Gasser et al. 1986); None
    with fewer than MIN_SCATTER_POINTS residuals or no scatter at all."""
    pseudo = _pseudo_residuals(x, residual)
    if pseudo is None:
        return None
    value = float(np.sqrt(np.mean(pseudo**2, axis=0)))
    return value if value > 0 and math.isfinite(value) else None


def estimated_threshold(x: np.ndarray, jacobian: np.ndarray | None) -> float:
    """The reduced χ² (against the scattered estimate of σ) above which residuals exceed
    the noise: what noise of neighbour correlation NEIGHBOUR_CORRELATION, fitted by a model
    of this `jacobian` (linearised at the fit), exceeds with probability P_VALUE."""
    if jacobian is None:
        return math.inf
    if len(x) <= OWN_SHAPE_POINTS:
        return _simulated(x, np.where(np.isfinite(jacobian), jacobian, 0.0))
    rank = _column_space(np.where(np.isfinite(jacobian), jacobian, 0.0)).shape[1]
    return _by_size(min(len(x), SIMULATED_POINTS), rank)


@functools.lru_cache(maxsize=64)
def _by_size(points: int, parameters: int) -> float:
    """The threshold for `points` evenly spaced points and a model of `parameters` free
    parameters, a polynomial standing in for it."""
    x = np.linspace(0.0, 1.0, points)
    return _simulated(x, np.vander(x, parameters))


def _simulated(x: np.ndarray, jacobian: np.ndarray) -> float:
    rng = np.random.default_rng(len(x))  # the same threshold on every run of the same fit
    fresh = rng.standard_normal((len(x) + BURN_IN, NULL_DRAWS))
    rho = NEIGHBOUR_CORRELATION
    noise = lfilter([math.sqrt(1 - rho**2)], [1.0, -rho], fresh, axis=0)[BURN_IN:]  # AR(1)
    basis = _column_space(jacobian)
    residual = noise - basis @ (basis.T @ noise)  # what a least-squares fit leaves
    dof = len(x) - basis.shape[1]
    pseudo = _pseudo_residuals(x, residual)
    if pseudo is None or dof <= 0:
        return math.inf
    with np.errstate(all="ignore"):
        ratios = np.sum(residual**2, axis=0) / dof / np.mean(pseudo**2, axis=0)
    return float(np.quantile(ratios[np.isfinite(ratios)], 1 - P_VALUE))


def _column_space(matrix: np.ndarray) -> np.ndarray:
    """An orthonormal basis of the columns of `matrix` (those the data determine)."""
    if matrix.shape[1] == 0:
        return matrix
    u, singular, _ = np.linalg.svd(matrix, full_matrices=False)
    rank = int(np.sum(singular > singular[0] * 1e-10)) if singular[0] > 0 else 0
    return u[:, :rank]


def _pseudo_residuals(x: np.ndarray, residual: np.ndarray) -> np.ndarray | None:
    """Each interior residual's distance from the line through its neighbours, scaled so
    that white noise of σ gives σ (residual: points, or points × draws)."""
    if len(x) < MIN_SCATTER_POINTS:
        return None
    left, middle, right = x[:-2], x[1:-1], x[2:]
    span = right - left
    keep = span > 0  # repeated x values: no line through the neighbours
    if keep.sum() < MIN_SCATTER_POINTS - 2:
        return None
    a = (right - middle)[keep] / span[keep]
    b = (middle - left)[keep] / span[keep]
    shape = (-1,) + (1,) * (residual.ndim - 1)
    a, b = a.reshape(shape), b.reshape(shape)
    distance = a * residual[:-2][keep] + b * residual[2:][keep] - residual[1:-1][keep]
    return distance / np.sqrt(a**2 + b**2 + 1)


def jacobian_of(result: ModelResult) -> np.ndarray | None:
    """The fitted curve's derivatives by each free parameter at the fit (points × free
    parameters), by central differences; None when the curve cannot be evaluated."""
    free = [name for name, p in result.params.items() if p.vary and p.expr is None]
    columns = []
    params = result.params.copy()  # one copy: copying lmfit's Parameters costs milliseconds
    with np.errstate(all="ignore"):
        for name in free:
            value = params[name].value
            error = params[name].stderr
            step = 1e-6 * max(abs(value), abs(error) if error and math.isfinite(error) else 0.0)
            step = step or 1e-9
            curves = []
            for shifted in (value + step, value - step):
                params[name].value = shifted  # no bounds: a difference quotient, not a fit
                try:
                    curves.append(np.asarray(result.eval(params=params), dtype=float))
                except (ValueError, TypeError, ArithmeticError, NameError):
                    return None
            params[name].value = value
            columns.append((curves[0] - curves[1]) / (2 * step))
    if not columns:
        return np.zeros((len(result.best_fit), 0))
    return np.column_stack(columns)
