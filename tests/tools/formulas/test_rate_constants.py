"""A task's symbol that spells a constant is fitted in SI only when it is that constant
(tools.formulas.constants.asks_a_constant), and days are a unit (tools.columns.units,
tools.columns.si_units).

The wordings are outside ones: "the rate constant k (per day)" of a first-order BOD model
(the CIVL-style BOD handout; R's BOD dataset, Bates & Watts A1.4), "determine the
gravitational acceleration g" of T = 2π√(l/g) (HuntFeng/experimental-physics's pendulum).
"""

from __future__ import annotations

import pytest

from labscribe.tools.columns.si_units import si_of
from labscribe.tools.columns.units import split_unit
from labscribe.tools.formulas.constants import asks_a_constant
from labscribe.tools.formulas.formula_parse import parse_formula


def test_a_rate_constant_k_in_per_day_is_no_boltzmann_constant() -> None:
    formula = parse_formula("y = L0*(1 - exp(-k*t))", ("t",))
    assert not asks_a_constant(formula, {"L0", "k"}, ("d", "mg/L"))


def test_g_of_a_pendulum_is_standard_gravitys_symbol_and_fitted_in_si() -> None:
    formula = parse_formula("T = 2*pi*sqrt(l/g)", ("l",))
    assert asks_a_constant(formula, {"g"}, ("cm", "s"))
    assert asks_a_constant(formula, {"g"}, ("", ""))  # no units: taken in SI, as before


def test_a_unit_si_cannot_read_keeps_the_fit_in_the_datas_units() -> None:
    """Rescaling the response to SI beside a variable in scale divisions would leave the
    parameters with no unit at all."""
    formula = parse_formula("y = L0*(1 - exp(-k*t))", ("t",))
    assert not asks_a_constant(formula, {"k"}, ("Skt", "mg/L"))


@pytest.mark.parametrize(
    ("header", "unit"),
    [("Time (d)", "d"), ("t [d]", "d"), ("incubation time [days]", "d"), ("t (day)", "d")],
)
def test_days_are_a_unit_of_time(header: str, unit: str) -> None:
    assert split_unit(header)[1] == unit
    assert si_of(unit) is not None and si_of(unit).scale == 86400.0


def test_a_d_beside_a_name_that_is_no_time_is_no_day() -> None:
    assert split_unit("Thickness (d)")[1] == ""
