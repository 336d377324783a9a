import pytest

from labscribe.tools.requested import requested_model


@pytest.mark.parametrize(
    ("task", "shape"),
    [
        ("Determine k from a straight-line fit of F against x.", "linear"),
        ("Plot U against I and determine R from the slope.", "linear"),
        ("Show that the extension is proportional to the load.", "proportional"),
        ("Fit a line through the origin to the calibration data.", "proportional"),
        ("Fit an exponential decay to the discharge curve and find τ.", "exponential"),
        ("Fit the warming curve as an approach to saturation.", "exponential approach"),
        ("Fit a power law to the period against the length.", "power law"),
        ("Fit a Gaussian to the spectral line and give its FWHM.", "gaussian"),
        ("Fit a Lorentzian to the absorption dip.", "lorentzian"),
        ("Fit the resonance curve and determine f0 and Q.", "resonance"),
        ("Describe the ringdown as a damped oscillation.", "damped oscillation"),
        ("Fit a quadratic to the trajectory.", "quadratic"),
        ("用直线拟合电压与电流的关系，求电阻。", "linear"),
        ("对放电曲线作指数衰减拟合，求时间常数。", "exponential"),
        ("Bestimmen Sie die Federkonstante aus der Steigung der Geraden.", "linear"),
        ("Passen Sie eine gedämpfte Schwingung an die Messwerte an.", "damped oscillation"),
        ("Beschreiben Sie den Verlauf durch ein Potenzgesetz.", "power law"),
    ],
)
def test_requested_model_reads_the_model_a_task_names(task: str, shape: str) -> None:
    request = requested_model(task)
    assert request is not None and (request.shape, request.formula) == (shape, None)


@pytest.mark.parametrize(
    ("task", "formula"),
    [
        ("Fit a power law T = a L^b to the period against the length.", "T = a L^b"),
        ("Fit y = b1*(1-exp(-b2*x)) to the data.", "y = b1*(1-exp(-b2*x))"),
        (r"Fit $U(t) = U_0 e^{-t/\tau}$ to the discharge.", r"U(t) = U_0 e^{-t/\tau}"),
    ],
)
def test_requested_model_reads_a_formula_it_writes(task: str, formula: str) -> None:
    request = requested_model(task)
    assert request is not None and request.formula == formula


@pytest.mark.parametrize(
    "task",
    [
        "Determine the quality factor Q = f0/(f2 - f1).",  # a definition, not a model
        "From a, determine the gravitational acceleration g.",
        "Measure the period ten times.",
        "Discuss the decay of the signal quality over the day.",
    ],
)
def test_requested_model_finds_none_where_no_fit_is_asked(task: str) -> None:
    assert requested_model(task) is None
