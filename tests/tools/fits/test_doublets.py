"""Two lines asked for by name: fitted from the two peaks the data show, or from the single
peak split in two where the lines merge, the separation a parameter with its own error."""

import numpy as np
import pytest
from lmfit.lineshapes import gaussian, lorentzian

from labscribe.tools.assignment.requested import requested_model
from labscribe.tools.fits.fit_result import Fit
from labscribe.tools.fits.requested_fits import fit_request


def doublet(line, separation: float, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    x = np.arange(0.0, 200.0)
    y = line(x, 100, 90, 4) + line(x, 60, 90 + separation, 4) + 2.0
    return x, y + 0.05 * np.random.default_rng(seed).standard_normal(len(x))


def fitted(task: str, x: np.ndarray, y: np.ndarray) -> Fit:
    request = requested_model(task)
    assert request is not None
    fit = Fit(table="s.csv", x="pixel", y="signal", requested=task)
    return fit_request(fit, request, x, y, x_names=("pixel", "signal"))


@pytest.mark.parametrize(
    ("task", "line", "separation", "resolved"),
    [
        ("Fit two Gaussian peaks and give their separation.", gaussian, 25.0, True),
        # 7 px apart under a FWHM of 9.4: one peak with a shoulder, fitted from its split
        ("Fit two Gaussian peaks and give their separation.", gaussian, 7.0, False),
        ("Fit two Lorentzians to the doublet.", lorentzian, 20.0, True),
    ],
)
def test_a_doublet_gives_both_lines_and_their_separation(task, line, separation, resolved) -> None:
    fit = fitted(task, *doublet(line, separation))
    assert fit.parameter("separation").value == pytest.approx(separation, abs=0.1)
    assert fit.parameter("center1").value == pytest.approx(90, abs=0.1)
    assert fit.parameter("center2").value == pytest.approx(90 + separation, abs=0.1)
    assert fit.good, fit.verdict
    words = "not resolved" if not resolved else "resolved"
    note = next(n for n in fit.notes if "times their mean FWHM apart" in n)
    assert f": {words} by the usual criterion" in note


def test_a_single_gaussian_is_not_a_doublet() -> None:
    request = requested_model("Fit a Gaussian to the line and give its FWHM.")
    assert request is not None and request.shape == "gaussian"
