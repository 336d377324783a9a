"""Values and ranges a task gives beside its formula (tools.formulas.given_values), in the wordings
handouts use."""

from __future__ import annotations

import numpy as np

from labscribe.tools.fits.fit_result import Fit
from labscribe.tools.formulas.formula_parse import parse_formula
from labscribe.tools.formulas.given_values import as_given, given_values, named_range

SHOCKLEY = (
    "The Shockley equation is I = I_S·(exp(U/(n·U_T)) − 1) with U_T = 25.85 mV at room "
    "temperature. From a straight-line fit of ln I against U in the exponential region "
    "(about 0.30 V to 0.65 V) determine the ideality factor n and the saturation current I_S."
)


def test_given_values_reads_a_symbol_set_equal_to_a_value_in_the_columns_unit() -> None:
    assert given_values(SHOCKLEY, ["U_T", "n"], ["V", "mA"]) == {"U_T": (0.02585, "V")}
    assert given_values("mit U_T = 25,85 mV", ["U_T"], ["mV"]) == {"U_T": (25.85, "mV")}
    assert given_values("where V_{T} ≈ 0.0259 V", ["V_T"], ["V"]) == {"V_T": (0.0259, "V")}
    assert given_values("with n = 2", ["n"], ["V"]) == {"n": (2.0, "")}
    # a unit of no column's dimension cannot enter the fit
    assert given_values("with U_T = 25.85 mV", ["U_T"], ["s", "m"]) == {}


def test_named_range_reads_the_range_of_the_variable_a_task_names() -> None:
    assert named_range(SHOCKLEY, "V") == (0.3, 0.65)
    assert named_range(SHOCKLEY, "mV") == (300.0, 650.0)
    assert named_range("zwischen 0,30 V und 0,65 V", "V") == (0.3, 0.65)
    assert named_range("lengths from 20 cm to 1.2 m", "m") == (0.2, 1.2)
    assert named_range("tasks 1 to 3", "V") is None
    assert named_range(SHOCKLEY, "s") is None


def test_as_given_fixes_the_value_and_keeps_the_points_in_the_range() -> None:
    formula = parse_formula("I = I_S·(exp(U/(n·U_T)) − 1)", ("I", "U"))
    u = np.linspace(0.0, 0.8, 41)
    fit = Fit(table="d.csv", x="U", y="I", x_unit="V", y_unit="mA")
    fixed, noted, (x, _, _), _ = as_given(formula, fit, SHOCKLEY, {"n", "I_S"}, u, u, None)
    assert set(fixed.parameters) == {"I_S", "n"}
    assert x.min() >= 0.3 and x.max() <= 0.65 and len(x) == 18
    assert "U_T fixed at 0.02585 V, the value the task gives, not fitted" in noted.notes
    assert "fitted to the 18 of 41 points with U from 0.3 to 0.65 V, the range the task names" in (
        noted.notes
    )
