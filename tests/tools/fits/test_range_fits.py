from pathlib import Path

import numpy as np
import pytest

from labscribe.tools.analysis.folder import analyse
from labscribe.tools.assignment.checklist import checklist
from labscribe.tools.assignment.requested import requested_model
from labscribe.tools.fits.column_fits import fit_column
from labscribe.tools.fits.fit_result import Fit
from labscribe.tools.fits.range_fits import answers_task, trend, trendless
from labscribe.tools.fits.requested_fits import fit_request
from labscribe.tools.tool import Folder

DECAY_TASK = "1. Fit U(t) = U_0 e^{-t/\\tau} to the voltage and determine the time constant tau."


def asked(task: str, x: np.ndarray, y: np.ndarray, **units: str) -> Fit:
    request = requested_model(task)
    assert request is not None
    fit = Fit(table="t.csv", x="t", y="U", requested=task, **units)
    return fit_request(fit, request, x, y, x_names=("t", "U"))


def charging(points: int = 40, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    t = np.linspace(0, 5, points)
    noise = 0.01 * np.random.default_rng(seed).standard_normal(points)
    return t, 5 * (1 - np.exp(-t / 1.2)) + noise


@pytest.mark.parametrize(
    ("curve", "words"),
    [
        (lambda t: 5 * (1 - np.exp(-t / 1.2)), "rise towards a limit"),
        (lambda t: 5 * np.exp(-t / 1.2), "fall towards a limit"),
        (lambda t: 5 * np.exp(-t / 8), "fall ever more slowly"),
        (lambda t: 2 + 3 * t, "rise steadily"),
        (lambda t: np.exp(t / 1.5), "rise ever faster"),
        (lambda t: np.exp(-((t - 2.5) ** 2)), "rise and fall again"),
    ],
)
def test_trend_says_what_the_data_do(curve, words: str) -> None:
    t = np.linspace(0, 5, 30)
    assert trend(t, curve(t)) == words


def test_fit_request_flags_a_decay_formula_fitted_to_a_charging_curve() -> None:
    t, u = charging()
    fit = asked(DECAY_TASK, t, u, x_unit="s", y_unit="V")
    assert (fit.unphysical, fit.good) == (["tau"], False)
    assert fit.parameter("tau").value < 0  # kept for the record, never shown as an answer
    assert fit.verdict.startswith(
        "these data rise towards a limit, while U(t) = U_0 e^{-t/\\tau} can only decay (tau "
        "would have to be negative, −"
    )
    assert fit.verdict.endswith(
        " s, which has no physical meaning for a time constant), so the fit gives no value to "
        "report"
    )
    assert fit.notes[-1] == fit.verdict
    assert fit.values_text() == "no value: tau would lie outside its physical range (see the notes)"


def test_fit_request_keeps_a_decay_that_decays() -> None:
    t, u = charging()
    fit = asked(DECAY_TASK, t, 5 - u, x_unit="s", y_unit="V")
    assert fit.good and not fit.unphysical
    assert fit.parameter("tau").value == pytest.approx(1.2, rel=0.02)


def test_fit_request_says_when_the_data_have_too_few_points_for_the_formula() -> None:
    t = np.arange(4.0)
    fit = asked("Fit U = A exp(-t/tau) + c to the data.", t, 3 * np.exp(-t / 2) + 1)
    assert fit.model is None
    assert fit.notes == [
        "U = A exp(-t/tau) + c could not be fitted: the data have 4 points, too few for its 3 "
        "parameters (a fit that can be judged takes at least 5)"
    ]


def test_fit_request_says_when_x_reaches_zero_where_the_formula_needs_it_positive() -> None:
    length = np.linspace(-1, 5, 20)
    period = 2 * np.sqrt(np.abs(length)) + 0.01
    request = requested_model("Fit the power law T = a L^b to the periods.")
    assert request is not None
    fit = fit_request(Fit(table="p.csv", x="L", y="T", requested=request.task), request,
                      length, period, x_names=("L", "T"))  # fmt: skip
    assert fit.notes == [
        "T = a L^b could not be fitted: it is defined only for L > 0 (it takes a power or a "
        "logarithm of L), and L reaches -1"
    ]


def test_fit_column_never_gives_a_negative_decay_time() -> None:
    x = np.linspace(0, 3, 40)
    y = 0.5 * np.exp(x / 0.8) + 0.02 * np.random.default_rng(3).standard_normal(40)
    fit = fit_column(Fit(table="d.csv", x="V", y="I"), x, y)
    assert fit.model == "exponential growth" and fit.good
    assert fit.parameter("growth").value == pytest.approx(0.8, rel=0.01)


def test_fit_request_takes_an_exponential_either_way_unless_the_task_says_it_decays() -> None:
    x = np.linspace(0, 3, 40)
    y = 0.5 * np.exp(x / 0.8) + 0.02 * np.random.default_rng(3).standard_normal(40)
    either = asked("Fit an exponential to the current.", x, y)
    assert either.model == "exponential growth" and either.good
    decay = asked("Fit an exponential decay to the current.", x, y)
    assert decay.model == "exponential" and not decay.good
    assert decay.parameter("decay").value > 0


def test_checklist_does_not_count_a_task_done_with_a_value_outside_its_range(
    tmp_path: Path,
) -> None:
    t, u = charging()
    rows = "\n".join(f"{a:.4f},{b:.5f}" for a, b in zip(t, u, strict=True))
    (tmp_path / "rc.csv").write_text(f"t/s,U/V\n{rows}\n")
    (tmp_path / "assignment.md").write_text(f"# Charging\n\nTasks:\n\n{DECAY_TASK}\n")
    analysis = analyse(Folder(tmp_path))
    (item,) = checklist(analysis)
    assert item.left == (
        "all of it: the model this task asks for fits these data only with a value of tau "
        "that has no physical meaning (see the fits)"
    )
    (given,) = item.given
    assert given.startswith("tau = 1.2")
    assert given.endswith(
        "(the exponential approach, which describes the data; not the model this task asks for)"
    )
    flagged = next(f for f in analysis.fits if f.requested)
    assert flagged.notes[-1].startswith(
        "the exponential approach c + a·(1 − exp(−x/tau)) describes them, with tau = 1.2"
    )


def test_fit_request_gives_no_height_for_a_peak_the_data_dip_to() -> None:
    x = np.linspace(0, 10, 60)
    rng = np.random.default_rng(1)
    y = 5 - 2 * np.exp(-((x - 5) ** 2) / (2 * 0.8**2)) + 0.02 * rng.standard_normal(60)
    task = "Fit the peak with y(x) = A exp(-(x - c)^2/(2 s^2)) + B and give its height A."
    request = requested_model(task)
    assert request is not None
    fit = fit_request(Fit(table="t.csv", x="x", y="y", y_unit="V", requested=task), request,
                      x, y, x_names=("x", "y"))  # fmt: skip
    assert fit.unphysical == ["A"] and not fit.good
    assert fit.verdict == (
        "these data fall and rise again, while y(x) = A exp(-(x - c)^2/(2 s^2)) + B can only "
        "rise to a peak (A would have to be negative, −2 V, which has no physical meaning for "
        "the height of a peak), so the fit gives no value to report"
    )


def test_a_polynomial_that_follows_the_data_is_no_value_offered_instead() -> None:
    """The asked line fails; a cubic describes the data: its coefficients answer nothing a
    task asks, so none is offered in the task's place. An exponential that describes them
    is named, as not the model asked for."""
    from labscribe.tools.fits.fit_result import Parameter
    from labscribe.tools.fits.range_fits import instead

    asked = Fit(table="a.csv", x="m", y="h", model="linear", requested="Fit a line.", good=False)
    cubic = Fit(table="a.csv", x="m", y="h", model="cubic", good=True,
                parameters=[Parameter(name=n, value=1.0, stderr=0.1) for n in
                            ("c0", "c1", "c2", "c3")])  # fmt: skip
    assert instead([asked], [asked, cubic]) == []
    decay = cubic.model_copy(update={"model": "exponential", "parameters": [
        Parameter(name="decay", value=2.0, stderr=0.1), Parameter(name="amplitude", value=1.0,
                                                                   stderr=0.1)]})  # fmt: skip
    [line] = instead([asked], [asked, decay])
    assert "not the model this task asks for" in line


def test_a_task_model_the_data_cannot_tell_from_no_trend_gives_no_value() -> None:
    # a proportionality fitted to a flat background: its residuals are noise, its slope 0
    # within its error; a line through the rise of a charging curve has a trend
    rng = np.random.default_rng(3)
    channel = np.arange(400.0)
    task = "4. Determine the proportionality constant k."
    flat = asked(task, channel, rng.normal(0, 1, 400))
    assert flat.good and trendless(flat) and not answers_task(flat)
    t, u = charging()
    rising = asked("1. Fit a straight line to U against t.", t[:8], u[:8])
    assert not trendless(rising)
