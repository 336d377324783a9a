"""tools.formulas.known_values and tools.columns.repeat_names: a parameter named as a physical
constant far from it is no measurement of it; runs of timings and the swings each spans, as handouts
and sheets write them."""

from __future__ import annotations

import pytest

from labscribe.tools.columns.repeat_names import RUN_NAME, stated_swings
from labscribe.tools.fits.fit_result import Fit, Parameter
from labscribe.tools.formulas.known_values import far_from_constants


def fitted(name: str, value: float, unit: str) -> Fit:
    parameter = Parameter(name=name, value=value, stderr=value / 30, unit=unit)
    return Fit(table="t.csv", x="l", y="T", parameters=[parameter])


def test_g_a_hundred_times_too_small_is_no_measurement_of_g() -> None:
    (why,) = far_from_constants(fitted("g", 0.0877, "m/s²")).values()
    assert why.startswith("g = 0.0877 ± 0.0029 m/s² is 112 times smaller than standard gravity")


@pytest.mark.parametrize(
    ("name", "value", "unit"),
    [("g", 9.5, "m/s²"), ("g", 981.0, "cm/s^2"), ("k", 0.0877, "N/m"), ("h", 7.1e-34, "J·s")],
)
def test_a_value_near_the_constant_or_of_another_dimension_is_not_judged(
    name: str, value: float, unit: str
) -> None:
    assert far_from_constants(fitted(name, value, unit)) == {}


def test_runs_are_named_by_number_and_the_handout_states_the_swings() -> None:
    runs = ["1st run (second)", "3rd Run", "Run 2", "Messung 3", "trial #4", "prova 5"]
    assert all(RUN_NAME.search(name) for name in runs)
    assert not any(RUN_NAME.search(name) for name in ["t1", "time", "Length", "runtime"])
    assert stated_swings("the time for **10 complete oscillations** was taken") == 10
    assert stated_swings("Die Zeit für 20 Schwingungen wurde gemessen.") == 20
    assert stated_swings("the time for 10 swings, then the time for 20 swings") is None
