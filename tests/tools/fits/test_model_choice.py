"""Which standard model is reported (tools.fits.model_choice): only one that means something,
its parameters determined and, for a peak, a resonance or an oscillation, its feature in
the data and clearly better than every trend."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from labscribe.tools.fits.column_fits import fit_column
from labscribe.tools.fits.fit_result import Candidate, Fit
from labscribe.tools.fits.model_choice import FEATURE_MARGIN, meaningful
from labscribe.tools.fits.shapes import SHAPES, build

REAL = Path(__file__).resolve().parents[2] / "data" / "real" / "verdicts"


def test_galileos_ballistic_data_get_a_trend_not_a_resonance_phase() -> None:
    """Galileo's folio 116v (7 points): a resonance phase had the lowest BIC, with
    f0 = 554 ± 545 punti; it is no answer, a polynomial trend is. Against a height it is not
    even tried (a resonance is a response to a frequency); named as a frequency, it is
    fitted and still not chosen, its f0 undetermined (`meaningful`)."""
    data = pd.read_csv(REAL / "galileo1608.csv")
    x, y = data.iloc[:, 0].to_numpy(float), data.iloc[:, 1].to_numpy(float)
    fit = fit_column(Fit(table="g.csv", x="h", y="d"), x, y)
    assert fit.model in {"linear", "quadratic", "cubic", "power law"}
    assert "resonance phase" not in {c.model for c in fit.candidates}
    as_frequency = fit_column(Fit(table="g.csv", x="f", y="d"), x, y)
    assert as_frequency.model in {"linear", "quadratic", "cubic", "power law"}
    assert "resonance phase" in {c.model for c in as_frequency.candidates}  # fitted, not chosen


def test_a_peak_whose_centre_lies_outside_the_data_is_not_the_best() -> None:
    """The rising flank of a curve: a Gaussian fits it with its centre beyond the last x and
    the lowest BIC; a peak nobody measured is no answer."""
    x = np.linspace(0.0, 0.8, 41)
    rng = np.random.default_rng(3)
    y = 200 * np.exp(-((x - 1.05) ** 2) / (2 * 0.13**2)) + 0.05 * rng.standard_normal(41)
    fit = fit_column(Fit(table="d.csv", x="U", y="I"), x, y)
    gaussian = next(c for c in fit.candidates if c.model == "gaussian")
    assert gaussian.bic == min(c.bic for c in fit.candidates)  # the case the rule is for
    assert fit.model != "gaussian"


def test_meaningful_drops_an_undetermined_feature_and_keeps_a_clear_one() -> None:
    x = np.linspace(-3, 3, 61)
    rng = np.random.default_rng(5)
    y = 4 * np.exp(-(x**2) / 0.5) + 0.02 * rng.standard_normal(61)
    shape = next(s for s in SHAPES if s.name == "gaussian")
    model = build(shape)
    result = model.fit(y, model.make_params(amplitude=3, center=0.1, sigma=0.6, c=0), x=x)
    peak = Candidate(model="gaussian", bic=float(result.bic), r_squared=0.99)
    trend = Candidate(model="linear", bic=float(result.bic) + 2 * FEATURE_MARGIN, r_squared=0.1)
    results = {"gaussian": result, "linear": result}
    assert [c.model for c in meaningful([peak, trend], results, x)] == ["gaussian", "linear"]
    # the same peak, centred outside the data it is fitted to, is not reported
    assert [c.model for c in meaningful([peak, trend], results, x + 10)] == ["linear"]
    # nor one that beats the trend by less than FEATURE_MARGIN
    close = trend.model_copy(update={"bic": float(result.bic) + FEATURE_MARGIN / 2})
    assert [c.model for c in meaningful([peak, close], results, x)] == ["linear"]
    # nor one whose centre the data do not determine
    result.params["center"].stderr = 4.0  # two thirds of the span
    assert [c.model for c in meaningful([peak, trend], results, x)] == ["linear"]
