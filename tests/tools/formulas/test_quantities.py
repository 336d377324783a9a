import numpy as np
import pytest

from labscribe.tools.fits.column_fits import fit_column
from labscribe.tools.fits.fit_result import Fit, Parameter
from labscribe.tools.formats.parameters import ParameterRow
from labscribe.tools.formulas.formula_parse import FormulaError
from labscribe.tools.formulas.quantities import derive, known_values


def line_fit() -> Fit:
    rng = np.random.default_rng(4)
    x = np.linspace(1, 10, 40)
    base = Fit(table="t.csv", x="I", y="U", x_unit="A", y_unit="V")
    return fit_column(base, x, 2.0 * x + 5.0 + 0.1 * rng.standard_normal(40))


def test_derive_propagates_the_covariance_of_parameters_fitted_together() -> None:
    fit = line_fit()
    assert fit.model == "linear" and fit.covariance is not None
    known = known_values([fit], [])
    ratio = derive("r", "intercept/slope", "A", known)
    slope, intercept = fit.parameter("slope"), fit.parameter("intercept")
    assert ratio.value == pytest.approx(intercept.value / slope.value)
    # slope and intercept of a line are anticorrelated: ignoring it overstates the error
    independent = abs(ratio.value) * np.hypot(slope.stderr / slope.value,
                                              intercept.stderr / intercept.value)  # fmt: skip
    assert ratio.stderr is not None and ratio.stderr != pytest.approx(independent, rel=0.05)


def test_known_values_name_shared_parameters_by_their_column_and_add_the_settings() -> None:
    first = Fit(table="a.csv", x="t", y="U", model="linear", parameters=[
        Parameter(name="slope", value=2.0, stderr=0.1)])  # fmt: skip
    second = first.model_copy(update={"y": "I", "table": "b.csv"})
    rows = [ParameterRow(source="params.ini", key="R_nominal_ohm", name="R_nominal", value="47",
                         number=47.0, unit="Ω")]  # fmt: skip
    assert set(known_values([first, second], rows)) == {"slope_U", "slope_I", "R_nominal"}


def test_derive_refuses_code_and_unknown_names() -> None:
    known = known_values([line_fit()], [])
    with pytest.raises(FormulaError, match="not among the values the analysis computed"):
        derive("g", "4*pi^2/a^2", "", known)
    with pytest.raises(FormulaError):
        derive("x", "slope.__class__", "", known)
