"""tools.formulas.absolute_temperature: a formula that takes absolute temperature is fitted in
kelvin, its response on the side it puts alone, its symbols in the units the task states. The laws
are the textbook ones (B-equation and Steinhart–Hart of thermistor datasheets, Arrhenius,
Stefan–Boltzmann, Callendar's linear platinum law); the data a real 10 kΩ NTC's table
(tests/data/real/thermistor, SOURCES.md)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from labscribe.tools.fits.fit_result import Fit
from labscribe.tools.fits.requested_fits import fit_formula
from labscribe.tools.formulas.absolute_temperature import (
    as_the_formula_takes,
    as_written,
    needs_absolute,
    stated_units,
    to_kelvin,
    turned,
)
from labscribe.tools.formulas.formula_parse import parse_formula

TABLE = Path(__file__).parents[2] / "data" / "real" / "thermistor" / "ntc_10k_rt_table.csv"
B_MODEL = "R = R25·exp[B(1/T − 1/298.15 K)]"


@pytest.mark.parametrize(
    ("written", "symbol"),
    [
        (B_MODEL, "T"),
        ("k = A·exp(−Ea/(R·T))", "T"),
        ("P = s·T^4", "T"),
        ("1/T = A + B·ln R + C·(ln R)³", "T"),
    ],
)
def test_a_law_not_affine_in_t_takes_absolute_temperature(written: str, symbol: str) -> None:
    assert needs_absolute(parse_formula(written, variable="T" if "1/T" not in written else None),
                          symbol)  # fmt: skip


def test_an_affine_law_is_the_same_on_either_scale() -> None:
    assert not needs_absolute(parse_formula("R = R0·(1 + a·T)", variable="T"), "T")


def test_celsius_becomes_kelvin_by_pint() -> None:
    assert to_kelvin(np.array([25.0, -273.15]), "°C") == pytest.approx([298.15, 0.0])
    assert to_kelvin(np.array([32.0]), "°F") == pytest.approx([273.15])


def test_a_fit_the_other_way_round_is_turned_by_the_units() -> None:
    formula = parse_formula(B_MODEL)
    assert turned(formula, Fit(table="t", x="R", y="T", x_unit="kΩ", y_unit="°C"))
    assert not turned(formula, Fit(table="t", x="T", y="R", x_unit="°C", y_unit="kΩ"))


def test_the_units_a_task_states_for_its_symbols() -> None:
    assert stated_units("1/T = A + B·ln R + C·(ln R)³ (R in Ω, T in K) by least squares") == {
        "R": "Ω", "T": "K"}  # fmt: skip


def test_the_reciprocal_the_task_writes_is_kept() -> None:
    task = "Fit the Steinhart–Hart equation 1/T = A + B·ln R + C·(ln R)³ (R in Ω)."
    assert as_written("T = A + B·ln R + C·(ln R)³", task).startswith("1/T = ")
    assert as_written("T = a·L^b", "Fit T = a·L^b.") == "T = a·L^b"


def _table() -> tuple[np.ndarray, np.ndarray]:
    frame = pd.read_csv(TABLE)
    return frame["T (°C)"].to_numpy(), frame["R_nom (kΩ)"].to_numpy()


def test_the_b_equation_on_a_real_table_gives_the_line_of_ln_r_in_1_over_t() -> None:
    celsius, kilo_ohm = _table()
    task = f"Fit ln(R/Ω) against (1/T − 1/298.15 K) to obtain B of the model {B_MODEL}."
    fit = Fit(table="t", x="R_nom", y="T", x_unit="kΩ", y_unit="°C", requested=task)
    fit, x, y, sigma = as_the_formula_takes(fit, B_MODEL, task, {}, kilo_ohm, celsius, None,
                                            ("T", "R_nom"))  # fmt: skip
    assert (fit.x, fit.y, fit.x_unit, fit.kelvin_from) == ("T", "R_nom", "K", {"T": "°C"})
    done = fit_formula(fit, parse_formula(B_MODEL), x, y, sigma)
    slope, intercept = np.polyfit(1 / (celsius + 273.15) - 1 / 298.15, np.log(kilo_ohm), 1)
    assert done.parameter("B").value == pytest.approx(slope, rel=1e-6)
    assert done.parameter("B").unit == "K"
    assert done.parameter("R25").value == pytest.approx(np.exp(intercept), rel=1e-6)
    assert done.parameter("R25").unit == "kΩ"
    assert [p.name for p in done.parameters] == ["R25", "B"]  # the K of 298.15 K is a unit


def test_steinhart_hart_on_a_real_table_in_kelvin_and_ohm() -> None:
    celsius, kilo_ohm = _table()
    task = "Fit the Steinhart–Hart equation 1/T = A + B·ln R + C·(ln R)³ (R in Ω, T in K)."
    written = as_written("T = A + B·ln R + C·(ln R)³", task)
    fit = Fit(table="t", x="R_nom", y="T", x_unit="kΩ", y_unit="°C", requested=task)
    fit, x, y, sigma = as_the_formula_takes(fit, written, task, {"T": "T", "R_nom": "R"},
                                            kilo_ohm, celsius, None, ("T", "R_nom"))  # fmt: skip
    assert (fit.x_unit, fit.y_unit) == ("Ω", "K")
    done = fit_formula(fit, parse_formula(written, variable="R", response="T"), x, y, sigma)
    ln_r = np.log(kilo_ohm * 1000)
    design = np.vstack([np.ones_like(ln_r), ln_r, ln_r**3]).T
    a, b, c = np.linalg.lstsq(design, 1 / (celsius + 273.15), rcond=None)[0]
    # T fitted, not 1/T: the weights differ a little, the coefficients agree to 1 %
    assert done.parameter("A").value == pytest.approx(a, rel=0.01)
    assert done.parameter("B").value == pytest.approx(b, rel=0.01)
    assert done.parameter("C").value == pytest.approx(c, rel=0.05)


@pytest.mark.parametrize(
    "written",
    [
        "ln V = b1 − b2·t·exp(−b3·T)",  # Nelson's insulation ageing, T in °C as NIST states it
        "y = c0 + c1·T + c2·T^2",
    ],
)
def test_a_law_that_takes_a_shift_of_zero_into_its_parameters_keeps_the_scale(
    written: str,
) -> None:
    assert not needs_absolute(parse_formula(written, variable="T"), "T")
