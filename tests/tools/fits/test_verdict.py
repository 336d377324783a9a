from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy.signal import lfilter

from labscribe.tools.assignment.requested import Request
from labscribe.tools.fits.column_fits import fit_column
from labscribe.tools.fits.fit_result import Fit
from labscribe.tools.fits.fit_runs import best_start
from labscribe.tools.fits.requested_fits import fit_request
from labscribe.tools.fits.shapes import BY_NAME, build
from labscribe.tools.fits.verdict import (
    NEIGHBOUR_CORRELATION,
    Verdict,
    estimated_threshold,
    jacobian_of,
    judge,
    scatter,
)


def line_jacobian(x: np.ndarray) -> np.ndarray:
    return np.column_stack([x, np.ones_like(x)])


def ar1(rng: np.random.Generator, n: int, rho: float) -> np.ndarray:
    fresh = rng.standard_normal(n + 50)
    return lfilter([np.sqrt(1 - rho**2)], [1.0, -rho], fresh)[50:]


def test_scatter_estimates_the_noise_about_a_curve_sampled_at_few_points() -> None:
    rng = np.random.default_rng(1)
    t = np.linspace(0, 5, 40)
    noise = 0.02 * rng.standard_normal(40)
    found = scatter(t, noise)  # the residuals of the true curve are its noise
    assert found == pytest.approx(0.02, rel=0.25)


def test_fit_column_gives_a_charging_curve_a_reduced_chi_square_near_one() -> None:
    """The scatter of successive differences counted the curve's own steps as noise: 0.12."""
    rng = np.random.default_rng(2)
    t = np.linspace(0, 5, 40)
    u = 5 * (1 - np.exp(-t / 1.2)) + 0.02 * rng.standard_normal(40)
    fit = fit_column(Fit(table="rc.csv", x="t", y="U", y_unit="V"), t, u)
    assert fit.model == "exponential approach" and fit.good
    assert fit.reduced_chi_square == pytest.approx(1.0, abs=0.5)
    assert fit.sigma_estimate == pytest.approx(0.02, rel=0.3)
    assert fit.chi_text() == f"{fit.reduced_chi_square:.3g} (σ ≈ {fit.sigma_estimate:.2g} V)"


def test_judge_tests_residuals_against_an_uncertainty_column_by_chi_square() -> None:
    rng = np.random.default_rng(3)
    x = np.linspace(0, 1, 50)
    sigma = np.full(50, 0.1)
    honest = judge(x, 0.1 * rng.standard_normal(50), x, sigma, "dy", line_jacobian(x))
    assert honest.describes and honest.p_value is not None and honest.p_value > 0.001
    understated = judge(x, 0.3 * rng.standard_normal(50), x, sigma, "dy", line_jacobian(x))
    assert not understated.describes and not understated.structure
    assert understated.reason().startswith(
        "the residuals are larger than the stated uncertainties (reduced χ² = "
    )
    assert "with σ from the uncertainty column dy; a χ² test gives p = " in understated.reason()
    assert understated.reason().endswith(
        ", below 0.001): the model misses something, or the uncertainties are too small"
    )


def test_judge_spares_noise_correlated_from_point_to_point() -> None:
    rng = np.random.default_rng(4)
    x = np.linspace(0, 1, 300)
    noise = ar1(rng, 300, NEIGHBOUR_CORRELATION)
    found = judge(x, noise, x, None, None, line_jacobian(x))
    assert found.reduced_chi_square is not None and found.reduced_chi_square > 1.3
    assert found.describes


def test_judge_says_when_residuals_exceed_the_scattered_noise() -> None:
    rng = np.random.default_rng(5)
    x = np.linspace(0, 1, 10)  # too few points for a runs test
    misfit = (x - 0.5) ** 2 - 1 / 12  # a line through a parabola leaves an arc
    found = judge(x, misfit + 0.01 * rng.standard_normal(10), x, None, None, line_jacobian(x))
    assert not found.describes and not found.structure
    assert found.reason().startswith("the residuals are larger than the noise (reduced χ² = ")
    assert found.reason().endswith(
        "which noise exceeds in fewer than 1 fit in 1,000 even where it is correlated from "
        "point to point)"
    )


def test_estimated_threshold_is_wider_for_few_points_and_the_same_every_run() -> None:
    thresholds = [
        estimated_threshold(x, line_jacobian(x))
        for x in (np.linspace(0, 1, n) for n in (8, 19, 100, 2000))
    ]
    assert thresholds[0] > thresholds[1] > thresholds[2] == thresholds[3] > 2
    assert (
        estimated_threshold(np.linspace(0, 1, 19), line_jacobian(np.linspace(0, 1, 19)))
        == (thresholds[1])
    )


def test_judge_calls_an_exact_fit_described() -> None:
    x = np.linspace(0, 1, 30)
    found = judge(x, np.zeros(30), 2 * x, None, None, line_jacobian(x), exact=True)
    assert found.describes and found.reduced_chi_square is None


def test_words_agree_with_a_reduced_chi_square_the_test_does_not_reject() -> None:
    """NIST's Longley data, the armed forces against the year (16 points): the quadratic's
    residuals give a reduced χ² of 5.5 against the neighbours' scatter, below the threshold
    for correlated noise. The model is not called wrong, nor its residuals "like noise".
    (The best standard model is now a damped oscillation through the Korean War's peak, so
    the quadratic is asked for.)"""
    longley = pd.read_csv(Path(__file__).resolve().parents[3] / "bench/analysis/strd/Longley.csv")
    year, forces = longley["x6"].to_numpy(float), longley["x4"].to_numpy(float)
    quadratic = Request(task="Fit a quadratic.", number=1, shape="quadratic")
    fit = fit_request(Fit(table="l.csv", x="Year", y="Armed Forces"), quadratic, year, forces)
    assert fit.good and fit.reduced_chi_square is not None and fit.reduced_chi_square > 2
    said = " ".join(fit.notes)
    assert "like noise" not in said and "so it describes them" not in said
    assert "the data cannot tell whether the model misses something" in said
    # noise-sized residuals keep their words, and a rejected fit has its reason instead
    calm = Verdict(reduced_chi_square=1.3, sigma="s", estimated=True, threshold=7.0, p_value=None)
    loud = Verdict(reduced_chi_square=9.0, sigma="s", estimated=True, threshold=7.0, p_value=None)
    assert calm.doubt == "" and loud.doubt == "" and not loud.describes
    column = Verdict(reduced_chi_square=2.6, sigma="s", estimated=False, threshold=3.0,
                     p_value=0.01)  # fmt: skip
    assert "the uncertainties may be too small" in column.doubt and column.describes


def _eckerle4_verdict(model: str) -> Verdict:
    """The verdict on NIST StRD Eckerle4 (bench/analysis/strd/strd.json: where it is from)
    fitted with the standard model `model`, σ estimated."""
    path = Path(__file__).resolve().parents[3] / "bench" / "analysis" / "strd" / "Eckerle4.csv"
    data = pd.read_csv(path)
    x, y = data["x"].to_numpy(), data["y"].to_numpy()
    shape = BY_NAME[model]
    result = best_start(build(shape), shape.fit_starts, x, y, None)
    curve = np.asarray(result.best_fit, dtype=float)
    return judge(x, y - curve, curve, None, None, jacobian_of(result))


def test_nists_certified_gaussian_misses_a_detail_and_is_not_called_wrong() -> None:
    """Eckerle4's certified Gaussian leaves structure (a baseline of 0.0002 under a peak of
    0.37) within 2 % of the range: a detail missed, no evidence against the model."""
    verdict = _eckerle4_verdict("gaussian")
    assert not verdict.describes
    assert verdict.misses_detail
    assert "misses a detail" in verdict.detail()


def test_a_lorentzian_through_nists_gaussian_line_is_still_called_wrong() -> None:
    verdict = _eckerle4_verdict("lorentzian")
    assert not verdict.describes
    assert not verdict.misses_detail


def test_a_misfit_against_a_stated_uncertainty_is_never_a_detail_missed() -> None:
    x = np.linspace(0.0, 5.0, 30)
    curve = 1.0 + 2.0 * x
    residual = 0.01 * np.sin(x)  # small, but far beyond the σ stated
    verdict = judge(x, residual, curve, np.full(30, 1e-4), "dy", np.column_stack([x, x**0]))
    assert not verdict.describes and not verdict.misses_detail


def test_a_shape_within_the_stated_uncertainties_is_a_detail_not_a_wrong_model() -> None:
    """A gain with a generous σ column: the residuals keep one sign in long stretches, but
    every one lies well within its uncertainty (reduced χ² ≈ 0.3). The model describes the
    data within their uncertainties; the shape is said, not held against it."""
    x = np.linspace(0.0, 5.0, 30)
    curve = 1.0 + 2.0 * x
    residual = 0.05 * np.sin(1.5 * x)
    verdict = judge(x, residual, curve, np.full(30, 0.06), "dy", np.column_stack([x, x**0]))
    assert verdict.structure and not verdict.describes
    assert verdict.reduced_chi_square is not None and verdict.reduced_chi_square < 1
    assert verdict.misses_detail
    assert "within their stated uncertainties" in verdict.detail()
    assert "runs test" in verdict.detail()


def test_a_shape_beyond_the_stated_uncertainties_on_average_is_no_detail() -> None:
    x = np.linspace(0.0, 5.0, 30)
    residual = 0.05 * np.sin(1.5 * x)
    verdict = judge(x, residual, 1.0 + 2.0 * x, np.full(30, 0.03), "dy", np.column_stack([x, x**0]))
    assert verdict.structure and verdict.reduced_chi_square > 1
    assert not verdict.misses_detail
