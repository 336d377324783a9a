"""The statistics of one set of repeated values, whatever table they come from: kept apart
from the finding of series (tools.fits.repeats) so that each number is its textbook
definition, checked on its own against published data.

n, the mean, the standard deviation (n − 1 in its denominator), the standard error of the
mean, and a 95 % interval from Student's t with n − 1 degrees of freedom (scipy.stats.t;
for large n it is the normal interval). Where each value has its own uncertainty, the
weighted mean (weights 1/σ²) with its σ, and the consistency of the values with their σ:
χ², the Birge ratio √(χ²/(n − 1)) and the probability of a χ² as large; where the ratio is
significantly above 1, the σ scaled by it as well. Outliers: Rosner's generalized ESD test
(Grubbs' test repeated, as the NIST/SEMATECH e-Handbook of Statistical Methods, section
1.3.5.17.3, gives it), two-sided at α = 5 %, for n ≥ 3.
"""

from __future__ import annotations

import math

import numpy as np
from pydantic import BaseModel
from scipy import stats

CONFIDENCE = 0.95
ALPHA = 0.05  # the outlier test's significance level, two-sided
MIN_TESTED = 3  # Grubbs' statistic is bounded by (n − 1)/√n: below 3 values it says nothing
OUTLIER_TEST = "Grubbs' test repeated (Rosner's generalized ESD), two-sided, α = 5 %"


class Summary(BaseModel):
    n: int
    mean: float
    std: float | None = None
    """Sample standard deviation (ddof 1); None for one value."""
    sem: float | None = None
    """Standard error of the mean, std/√n."""
    t: float | None = None
    """Student's t quantile for CONFIDENCE with n − 1 degrees of freedom."""

    @property
    def half_width(self) -> float | None:
        """Half the width of the CONFIDENCE interval, t·sem."""
        return None if self.t is None or self.sem is None else self.t * self.sem


class Weighted(BaseModel):
    n: int
    mean: float
    sigma: float
    """1/√Σ(1/σᵢ²): the σ of the weighted mean if the σᵢ are right."""
    chi_square: float
    birge: float | None = None
    """√(χ²/(n − 1)); None for one value."""
    p: float | None = None
    """The probability of a χ² as large if the σᵢ are right."""

    @property
    def consistent(self) -> bool:
        """The values agree with their σ (p ≥ 5 %), or cannot be judged."""
        return self.p is None or self.p >= ALPHA


def summarise(values: np.ndarray) -> Summary:
    """n, mean, standard deviation, standard error and Student's t quantile of `values`."""
    n = len(values)
    if n == 0:
        return Summary(n=0, mean=math.nan)
    mean = float(np.mean(values))
    if n == 1:
        return Summary(n=1, mean=mean)
    std = float(np.std(values, ddof=1))
    t = float(stats.t.ppf(0.5 + CONFIDENCE / 2, n - 1))
    return Summary(n=n, mean=mean, std=std, sem=std / math.sqrt(n), t=t)


def esd_outliers(values: np.ndarray, suspects: int) -> list[tuple[int, float, float]]:
    """(index, statistic, critical value) of each value Rosner's generalized ESD test flags
    among at most `suspects`, two-sided at ALPHA: the i-th most extreme value R_i =
    max|x − mean|/s of the values left, against λ_i = (n − i)·t_p,n−i−1 /
    √((n − i − 1 + t²)(n − i + 1)), p = 1 − α/(2(n − i + 1)); the outliers are the
    `k` most extreme, k the largest i with R_i > λ_i."""
    left = list(range(len(values)))
    tried: list[tuple[int, float, float]] = []
    n = len(values)
    for i in range(1, suspects + 1):
        if n - i + 1 < MIN_TESTED:
            break
        held = values[left]
        spread = float(np.std(held, ddof=1))
        if spread == 0:
            break
        deviations = np.abs(held - held.mean())
        worst = int(np.argmax(deviations))
        p = 1 - ALPHA / (2 * (n - i + 1))
        t = float(stats.t.ppf(p, n - i - 1))
        critical = (n - i) * t / math.sqrt((n - i - 1 + t**2) * (n - i + 1))
        tried.append((left[worst], float(deviations[worst] / spread), critical))
        left.pop(worst)
    flagged = [i for i, (_, statistic, critical) in enumerate(tried) if statistic > critical]
    return tried[: flagged[-1] + 1] if flagged else []


def weighted_mean(values: np.ndarray, sigma: np.ndarray) -> Weighted:
    """The 1/σ²-weighted mean of `values`, its σ, and χ², the Birge ratio and the χ²
    probability of their scatter about it."""
    weights = 1 / sigma**2
    mean = float(np.sum(weights * values) / np.sum(weights))
    chi_square = float(np.sum(((values - mean) / sigma) ** 2))
    dof = len(values) - 1
    return Weighted(
        n=len(values), mean=mean, sigma=float(1 / math.sqrt(np.sum(weights))),
        chi_square=chi_square, birge=math.sqrt(chi_square / dof) if dof else None,
        p=float(stats.chi2.sf(chi_square, dof)) if dof else None,
    )  # fmt: skip
