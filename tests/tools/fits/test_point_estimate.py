"""tools.fits.point_estimate: a fitted line's value at the point a task names, on the real DAAG
`roller` data; the expected values by the textbook formula (statsmodels is what is tested)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from labscribe.tools.fits.fit_result import Fit
from labscribe.tools.fits.point_estimate import point_estimates
from labscribe.tools.formats.tables import read_data
from labscribe.tools.tool import Folder

REAL = Path(__file__).parents[2] / "data" / "real" / "estimates"


@pytest.fixture(name="roller")
def _roller() -> tuple[list, list[Fit]]:
    tables = read_data(Folder(REAL), "roller.csv").tables
    fit = Fit(table=tables[0].summary.id, x="weight", y="depression", x_unit="t",
              y_unit="mm", model="linear", good=True, points=10, fitted_points=10)  # fmt: skip
    return tables, [fit]


@pytest.mark.parametrize(
    "task",
    [
        "Estimate the mean depression for a roller of 8 t, with a 95 % confidence interval.",
        "Estimate the mean depression at 8 tonnes with its 95 % confidence interval.",
        "What depression do you expect for a weight of 8? Give a 95 % confidence interval.",
    ],
)
def test_a_point_is_read_by_its_unit_or_its_variables_name(roller: tuple, task: str) -> None:
    tables, fits = roller
    [found] = point_estimates([task], tables, fits)
    x = np.array([1.9, 3.1, 3.3, 4.8, 5.3, 6.1, 6.4, 7.6, 9.8, 12.4])
    y = np.array([2, 1, 5, 5, 20, 20, 23, 10, 30, 25])
    slope, intercept = np.polyfit(x, y, 1)
    assert found.value == pytest.approx(slope * 8 + intercept)
    assert "confidence interval for the mean 13.43 to 25.06 mm" in found.given


def test_no_estimate_without_a_line_of_that_variable(roller: tuple) -> None:
    tables, fits = roller
    assert point_estimates(["Estimate the depression at 8 K."], tables, fits) == []
    assert point_estimates(["Predict y for x1 = 60 and x2 = 20 °C."], tables, fits) == []
    bent = [fits[0].model_copy(update={"model": "exponential"})]
    assert point_estimates(["Estimate the depression at 8 t."], tables, bent) == []


def test_a_quadratic_gives_its_own_value(roller: tuple) -> None:
    tables, fits = roller
    bent = [fits[0].model_copy(update={"model": "quadratic"})]
    [found] = point_estimates(["Estimate the depression at 8 t."], tables, bent)
    x = np.array([1.9, 3.1, 3.3, 4.8, 5.3, 6.1, 6.4, 7.6, 9.8, 12.4])
    y = np.array([2, 1, 5, 5, 20, 20, 23, 10, 30, 25])
    assert found.value == pytest.approx(np.polyval(np.polyfit(x, y, 2), 8.0))
    assert "the quadratic fitted to" in found.given
