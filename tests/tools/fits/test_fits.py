import math
import time
from pathlib import Path

import numpy as np
import pytest
import statsmodels.api as sm

from labscribe.tools.analysis.folder import analyse
from labscribe.tools.assignment.requested import requested_model
from labscribe.tools.fits.column_fits import evaluate, fit_column
from labscribe.tools.fits.fit_result import Fit, Parameter, format_value
from labscribe.tools.fits.fit_runs import MAX_FIT_POINTS
from labscribe.tools.fits.requested_fits import fit_request
from labscribe.tools.tool import Folder

REAL = Path(__file__).parents[2] / "data" / "real"


def fitted(x: np.ndarray, y: np.ndarray, sigma: np.ndarray | None = None, **names: str) -> Fit:
    base = Fit(table="t.csv", x="x", y="y", **names)
    return fit_column(base, x, y, sigma, sigma_name="dy" if sigma is not None else None)


def within(parameter: Parameter, true: float, sigmas: float = 3.0) -> bool:
    assert parameter.stderr is not None
    return abs(parameter.value - true) <= sigmas * parameter.stderr


def test_fit_column_recovers_a_straight_line_with_its_units() -> None:
    rng = np.random.default_rng(1)
    x = np.linspace(0, 50, 30)
    fit = fitted(x, 100 * x + 20 + 0.5 * rng.standard_normal(30), x_unit="mA", y_unit="mV")
    assert fit.model == "linear" and fit.good
    slope = fit.parameter("slope")
    assert within(slope, 100) and slope.unit == "mV/mA"
    assert fit.parameter("intercept").unit == "mV"


def test_fit_column_recovers_an_exponential_decay() -> None:
    rng = np.random.default_rng(2)
    x = np.linspace(0, 10, 200)
    y = 4.0 * np.exp(-x / 2.2) + 0.3 + 0.02 * rng.standard_normal(200)
    fit = fitted(x, y, x_unit="ms", y_unit="V")
    assert fit.model == "exponential"
    decay = fit.parameter("decay")
    assert within(decay, 2.2) and decay.unit == "ms"
    assert within(fit.parameter("c"), 0.3)


def test_fit_column_recovers_a_damped_oscillation_from_its_fft() -> None:
    rng = np.random.default_rng(3)
    x = np.linspace(0, 12, 600)
    y = 2.0 * np.exp(-x / 4.0) * np.cos(2 * np.pi * 1.3 * x + 0.7) + 0.05 * rng.standard_normal(600)
    fit = fitted(x, y, x_unit="s", y_unit="cm")
    assert fit.model == "damped oscillation"
    frequency = fit.parameter("frequency")
    assert within(frequency, 1.3) and frequency.unit == "Hz"
    assert within(fit.parameter("decay"), 4.0)
    assert within(fit.parameter("phase"), 0.7)


def test_fit_column_gives_a_gaussian_peak_its_position_and_fwhm() -> None:
    rng = np.random.default_rng(4)
    x = np.linspace(580, 600, 300)
    y = 1000 * np.exp(-((x - 589.0) ** 2) / (2 * 0.8**2)) + 50 + 10 * rng.standard_normal(300)
    fit = fitted(x, y, x_unit="nm")
    assert fit.model == "gaussian" and fit.peak is not None and not fit.peak.dip
    assert within(fit.peak.position, 589.0)
    assert within(fit.peak.width, 2 * math.sqrt(2 * math.log(2)) * 0.8)
    assert (fit.peak.width_kind, fit.peak.width.unit) == ("FWHM", "nm")


def test_fit_column_recovers_a_driven_resonance_and_its_bandwidth() -> None:
    rng = np.random.default_rng(5)
    f = np.geomspace(1000, 12000, 200)
    y = 2.0 / np.sqrt(1 + (5.0 * (f / 5033 - 5033 / f)) ** 2) + 0.01 * rng.standard_normal(200)
    fit = fitted(f, y, x_unit="Hz", y_unit="V")
    assert fit.model == "resonance" and fit.peak is not None
    assert within(fit.parameter("f0"), 5033) and within(fit.parameter("Q"), 5.0)
    assert fit.peak.width_kind == "half-power bandwidth f0/Q"
    assert within(fit.peak.width, 5033 / 5.0)


@pytest.mark.parametrize(
    ("x_unit", "x_name", "offered"),
    [("Hz", "", True), ("V", "", False), ("", "f", True), ("", "1/P", False)],
)
def test_a_resonance_is_a_standard_model_only_of_a_frequency(
    x_unit: str, x_name: str, offered: bool
) -> None:
    """A driven resonance against a frequency (in Hz, or named f without a unit) is found;
    the same curve against a voltage, or a quantity named otherwise, is never called one
    (a solar cell's I(U) got "f0 = 8.684 V")."""
    rng = np.random.default_rng(5)
    x = np.geomspace(1000, 12000, 200)
    y = 2.0 / np.sqrt(1 + (5.0 * (x / 5033 - 5033 / x)) ** 2) + 0.01 * rng.standard_normal(200)
    fit = fitted(x, y, x_unit=x_unit, y_unit="V", x_name=x_name)
    tried = {candidate.model for candidate in fit.candidates}
    assert ("resonance" in tried) is offered and ("resonance phase" in tried) is offered
    assert (fit.model == "resonance") is offered


def test_a_parameter_zero_within_its_error_is_said_so_not_undetermined() -> None:
    """A straight line through the origin fitted with an intercept (MIPT 1.4.8: f_n against
    n, intercept −0.0025 ± 0.0094 kHz): the intercept is pinned to ±9 Hz, and zero lies
    within its error; the note says that, never that the data do not determine it."""
    n = np.arange(1.0, 8.0)
    f = np.array([3.15821, 6.30915, 9.48621, 12.6609, 15.807, 18.9754, 22.118])
    line = requested_model("Determine the slope of f against n by a straight-line fit.")
    assert line is not None
    fit = fit_request(Fit(table="data.csv", x="n", y="f", y_unit="kHz"), line, n, f)
    assert "zero within one standard error: intercept" in fit.notes
    assert not any("not determined" in note for note in fit.notes)


def test_fit_column_prefers_fewer_parameters_when_the_bic_is_close() -> None:
    rng = np.random.default_rng(6)
    x = np.linspace(0, 10, 40)
    fit = fitted(x, 3 * x + 1 + 0.3 * rng.standard_normal(40))
    assert fit.model == "linear"
    quadratic = next(c for c in fit.candidates if c.model == "quadratic")
    assert quadratic.r_squared >= fit.r_squared  # better on R², yet not worth a parameter


def test_fit_column_takes_the_simplest_model_that_is_exact() -> None:
    x = np.arange(200.0)
    fit = fitted(x, 1.5 * x)  # a computed column: every polynomial fits it to rounding
    assert (fit.model, fit.parameter("slope").value) == ("proportional", pytest.approx(1.5))


def test_fit_column_says_when_no_model_describes_the_data() -> None:
    rng = np.random.default_rng(7)
    x = np.linspace(0, 6, 60)
    fit = fitted(x, np.floor(x) + 0.02 * rng.standard_normal(60))  # a staircase
    assert not fit.good
    assert fit.notes[-1].startswith("no model tried describes these data: the residuals ")


def test_fit_column_calls_a_noisy_trend_described_whatever_its_r_squared() -> None:
    rng = np.random.default_rng(7)
    x = np.linspace(0, 10, 30)
    fit = fitted(x, 1 + 0.2 * x + rng.standard_normal(30))
    assert fit.model == "linear" and fit.good and fit.r_squared is not None
    assert fit.r_squared < 0.3
    assert fit.notes[0].startswith(
        f"R² = {fit.r_squared:.2f} is low because the data scatter widely about their trend, "
        "not because the model misses it: its residuals are like noise (reduced χ² = "
    )
    slope = fit.parameter("slope")
    intercept = fit.parameter("intercept")
    assert fit.notes[0].endswith(f"the data determine slope to {100 * slope.relative:.0f} % and "
                                 f"intercept to {100 * intercept.relative:.0f} %")  # fmt: skip


def test_fit_column_notes_a_constant_column() -> None:
    fit = fitted(np.arange(10.0), np.full(10, 1.5))
    assert (fit.model, fit.notes) == (None, ["constant at 1.5: nothing to fit"])


def test_fit_column_notes_too_few_points() -> None:
    fit = fitted(np.array([1.0, 2.0]), np.array([3.0, 5.0]))
    assert (fit.model, fit.notes) == (None, ["too few points (2) to fit a model"])


def test_fit_column_drops_rows_that_are_not_numbers() -> None:
    x = np.array([0, 1, 2, np.nan, 4, 5, 6, 7, 8, 9], dtype=float)
    y = 2 * x + 1
    y[5] = np.inf
    fit = fitted(x, y + np.array([0.01, -0.01] * 5))
    assert fit.points == 8 and fit.model == "linear"


def test_fit_column_subsamples_a_long_series_in_bounded_time() -> None:
    rng = np.random.default_rng(8)
    x = np.linspace(0, 10, 200_000)
    started = time.perf_counter()
    fit = fitted(x, 5 * np.exp(-x / 3) + 0.05 * rng.standard_normal(len(x)))
    assert time.perf_counter() - started < 20
    assert (fit.points, fit.fitted_points) == (200_000, MAX_FIT_POINTS)
    assert fit.notes[0] == f"fitted on {MAX_FIT_POINTS} evenly spaced of 200000 points"


def test_fit_column_weights_by_an_uncertainty_column() -> None:
    rng = np.random.default_rng(9)
    x = np.linspace(0, 10, 50)
    sigma = np.full(50, 0.2)
    fit = fitted(x, 2 * x + 1 + 0.2 * rng.standard_normal(50), sigma)
    assert fit.sigma == "the uncertainty column dy"
    assert fit.reduced_chi_square == pytest.approx(1.0, abs=0.5)


def test_fit_column_estimates_sigma_from_the_scatter_without_an_uncertainty_column() -> None:
    rng = np.random.default_rng(10)
    x = np.linspace(0, 10, 400)
    fit = fitted(x, 2 * x + 0.1 * rng.standard_normal(400))
    assert fit.sigma.startswith(
        "the scatter of neighbouring points about the fitted curve (no uncertainty column), σ ≈ "
    )
    assert float(fit.sigma.rpartition("≈ ")[2]) == pytest.approx(0.1, rel=0.1)
    assert fit.reduced_chi_square == pytest.approx(1.0, abs=0.15)


def test_format_value_rounds_the_value_to_its_error() -> None:
    assert format_value(Parameter(name="f0", value=5032.489, stderr=0.571, unit="Hz")) == (
        "5032.49 ± 0.57 Hz"
    )
    assert format_value(Parameter(name="c", value=5.82e-4, stderr=5.65e-4, unit="V")) == (
        "(582 ± 565)e-6 V"
    )
    assert format_value(Parameter(name="Q", value=2.908971, stderr=None)) == "2.90897"
    assert format_value(Parameter(name="k", value=1.5000000000000002, stderr=6e-18)) == "1.5"


def test_evaluate_reproduces_the_fitted_curve() -> None:
    x = np.linspace(1, 10, 20)
    fit = fitted(x, 3 * x**1.5 * (1 + 0.001 * np.cos(7 * x)))
    assert fit.model == "power law"
    assert np.allclose(evaluate(fit, x), 3 * x**1.5, rtol=0.01)


def requested(task: str, xs: np.ndarray, ys: np.ndarray, **names: str) -> Fit:
    request = requested_model(task)
    assert request is not None
    base = Fit(table="t.csv", x=names.pop("x", "x"), y=names.pop("y", "y"), requested=task,
               **names)  # fmt: skip
    return fit_request(base, request, xs, ys)


def test_fit_request_fits_the_formula_as_written_with_named_parameters_and_units() -> None:
    rng = np.random.default_rng(11)
    length = np.linspace(0.2, 1.6, 25)
    period = 2.007 * length**0.5 + 0.003 * rng.standard_normal(25)
    fit = requested("Fit a power law T = a L^b to the data.", length, period, x="L", y="T",
                    x_unit="m", y_unit="s")  # fmt: skip
    assert (fit.model, fit.good) == ("T = a L^b", True)
    a, b = fit.parameter("a"), fit.parameter("b")
    assert within(a, 2.007) and within(b, 0.5)
    assert (a.unit, b.unit) == ("s/m^0.5", "")
    assert fit.key_parameters() == [a, b]


def test_fit_request_converges_on_a_certified_model_from_automatic_starts() -> None:
    # NIST StRD Misra1a's model and certified optimum, on its own x values
    x = np.array([77.6, 114.9, 141.1, 190.8, 239.9, 289.0, 332.8, 378.4, 434.8, 477.3, 536.8,
                  593.1, 689.1, 760.0])  # fmt: skip
    y = np.array([10.07, 14.73, 17.94, 23.93, 29.61, 35.18, 40.02, 44.82, 50.76, 55.05, 61.01,
                  66.40, 75.47, 81.78])  # fmt: skip
    fit = requested("Fit y = b1*(1-exp(-b2*x)) to the data.", x, y)
    assert fit.parameter("b1").value == pytest.approx(2.3894212918e02, rel=1e-6)
    assert fit.parameter("b2").value == pytest.approx(5.5015643181e-04, rel=1e-6)


def test_fit_request_separates_two_peaks_on_a_background() -> None:
    rng = np.random.default_rng(3)
    x = np.arange(1.0, 251.0)
    y = (100 * np.exp(-0.01 * x) + 90 * np.exp(-((x - 100) ** 2) / 20**2)
         + 73 * np.exp(-((x - 150) ** 2) / 12**2) + rng.normal(0, 2.5, x.size))  # fmt: skip
    task = "Fit y = b1*exp(-b2*x) + b3*exp(-(x-b4)**2/b5**2) + b6*exp(-(x-b7)**2/b8**2)."
    fit = requested(task, x, y)
    # the peaks in their canonical order, from left to right, widths positive
    assert [fit.parameter(name).value for name in ("b4", "b7")] == [
        pytest.approx(100, abs=1.5), pytest.approx(150, abs=1.5),
    ]  # fmt: skip
    assert fit.parameter("b5").value == pytest.approx(20, abs=1.5)
    assert fit.parameter("b8").value == pytest.approx(12, abs=1.5)
    assert fit.good


def test_fit_request_fits_a_named_standard_model_and_says_when_it_leaves_structure() -> None:
    x = np.linspace(0, 10, 200)
    rng = np.random.default_rng(5)
    y = 3 * np.exp(-x / 0.5) + 2 * np.exp(-x / 4) + 0.01 * rng.standard_normal(200)
    fit = requested("Fit an exponential decay to the data.", x, y)
    assert fit.model == "exponential" and fit.r_squared is not None and fit.r_squared > 0.9
    assert not fit.good and fit.structure.startswith("the residuals show structure")
    assert fit.notes[-1].startswith("the assignment's model does not describe these data: ")


def test_fit_column_prefers_a_line_through_the_origin_when_the_exponent_is_one() -> None:
    rng = np.random.default_rng(2)
    x = np.linspace(1, 10, 30)
    fit = fitted(x, 2.0 * x + 0.05 * rng.standard_normal(30))
    assert fit.model == "proportional"
    assert {c.model for c in fit.candidates} >= {"power law", "linear", "proportional"}


def test_fit_column_prefers_a_line_when_the_quadratic_term_is_zero() -> None:
    rng = np.random.default_rng(4)
    x = np.linspace(0, 10, 40)
    fit = fitted(x, 3.0 * x + 5.0 + 0.2 * rng.standard_normal(40))
    assert fit.model == "linear"


def test_fit_column_names_a_rising_saturation_an_approach() -> None:
    rng = np.random.default_rng(6)
    x = np.linspace(0, 20, 120)
    fit = fitted(x, 20 + 15 * (1 - np.exp(-x / 3)) + 0.05 * rng.standard_normal(120))
    assert fit.model == "exponential approach"
    assert within(fit.parameter("tau"), 3) and within(fit.parameter("a"), 15)


def test_fit_column_shows_every_parameter_with_its_unit() -> None:
    x = np.linspace(0, 5, 40)
    rng = np.random.default_rng(8)
    fit = fitted(x, 0.5 * x**2 - x + 2 + 0.01 * rng.standard_normal(40), x_unit="s", y_unit="m")
    assert fit.model == "quadratic"
    assert [(p.name, p.unit) for p in fit.shown_parameters()] == [
        ("c2", "m/s^2"), ("c1", "m/s"), ("c0", "m"),
    ]  # fmt: skip


def test_a_model_no_better_than_the_mean_is_never_said_to_describe_the_data() -> None:
    """A line through the origin asked of readings that do not change with x (R² near 0):
    its residuals are like noise, but the data cannot tell it from no trend at all (the
    regression's F-test, as statsmodels computes it for the same line, gives p > 0.05)."""
    rng = np.random.default_rng(3)
    x = np.linspace(10, 11, 20)
    y = 5 + rng.standard_normal(20)
    fit = requested("Fit a straight line through the origin.", x, y)
    assert fit.r_squared is not None and fit.r_squared < 0.1
    assert sm.OLS(y, sm.add_constant(x)).fit().f_pvalue > 0.05
    note = next(note for note in fit.notes if note.startswith(f"R² = {fit.r_squared:.2f}"))
    assert "cannot tell it from no trend at all" in note
    assert "so it describes" not in " ".join(fit.notes)


def test_a_column_that_repeats_the_variable_is_not_fitted_against_it(tmp_path: Path) -> None:
    """A monochromator writes the wavelength twice: the copy against the wavelength is a
    line of slope 1 that says nothing of the data."""
    rows = [f"{w:.1e},{1e-9 * (w - 6e-7) ** 2:.4e},{w:.1e}" for w in np.arange(4e-7, 8e-7, 1e-8)]
    (tmp_path / "scan.csv").write_text("lam (m),I (A),lam2 (m)\n" + "\n".join(rows) + "\n")
    fits = analyse(Folder(tmp_path)).fits
    assert {fit.y for fit in fits} == {"I"}


@pytest.mark.parametrize(("dx", "carried"), [(0.001, False), (1.0, True)])
def test_a_predictor_s_uncertainty_weighs_a_response_without_one_only_where_it_is_the_noise(
    tmp_path: Path, dx: float, carried: bool
) -> None:
    """`d.m` beside `m` and a height with no uncertainty of its own: a mass known to 1 mg
    carried through the slope is not the height's noise (its χ² would blame the line for
    the ruler's), so the noise is estimated from the scatter; a predictor known to ±1 g,
    whose spread through the slope is the scatter, weighs the points."""
    rng = np.random.default_rng(4)
    m = np.linspace(0, 60, 12)
    h = 39.2 - 0.14 * m + rng.normal(0, 0.02, m.size) + 0.14 * rng.normal(0, dx, m.size)
    rows = "\n".join(f"{a:.3f};{dx};{b:.3f}" for a, b in zip(m, h, strict=True))
    (tmp_path / "spring.csv").write_text(f"m(g);d.m(g);h(cm)\n{rows}\n")
    fits = [f for f in analyse(Folder(tmp_path)).fits if f.y == "h" and f.x == "m"]
    assert fits
    assert all(("d.m (through the slope)" in f.sigma) is carried for f in fits), fits[0].sigma


def test_a_damped_swing_is_drawn_from_where_its_record_starts() -> None:
    # a real CASSY swing (tests/data/real/cassy), recorded from 2.8 s on: its curve is drawn
    # with the t0 it was fitted with, not a flat line through t = 0's amplitude
    swing = np.loadtxt(REAL / "cassy" / "pohl_torsion_7_v.txt", delimiter="\t", usecols=(0, 1),
                       converters={1: lambda cell: float(cell or "nan")})  # fmt: skip
    x, y = swing[:, 0], swing[:, 1]
    kept = np.isfinite(y)
    fit = fit_column(Fit(table="7_v.txt", x="t", y="s"), x, y)
    assert fit.model == "damped oscillation"
    residual = y[kept] - evaluate(fit, x[kept])
    assert np.sqrt(np.mean(residual**2)) < 0.1 * np.std(y[kept])
