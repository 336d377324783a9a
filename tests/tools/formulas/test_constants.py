"""Physical constants in formulas (tools.formulas.constants), units in SI (tools.columns.si_units),
and the dimensions of parameters over any basis (tools.formulas.dimensions)."""

from __future__ import annotations

from fractions import Fraction

import pytest
import scipy.constants as sc

from labscribe.tools.columns.si_units import si_of, unit_text
from labscribe.tools.formulas.constants import (
    BY_SPELLING,
    asked_symbols,
    constants_in,
    in_si,
    parameter_dimensions,
)
from labscribe.tools.formulas.dimensions import dimensions, solve_dimensions
from labscribe.tools.formulas.formula_notation import plain_arithmetic
from labscribe.tools.formulas.formula_parse import FormulaError, parse_formula


@pytest.mark.parametrize(
    ("unit", "scale", "shown"),
    [("mH", 1e-3, "H"), ("nF", 1e-9, "F"), ("kHz", 1e3, "1/s"), ("cm", 1e-2, "m"),
     ("µs", 1e-6, "s"), ("g", 1e-3, "kg"), ("eV", sc.e, "J"), ("m/s^2", 1.0, "m/s²"),
     ("N/m", 1.0, "N/m"), ("kΩ", 1e3, "Ω"), ("mA·h", 3.6, "C")],
)  # fmt: skip
def test_si_of_reads_a_unit_as_a_scale_and_a_dimension(unit: str, scale: float, shown: str) -> None:
    found = si_of(unit)
    assert found is not None
    assert found.scale == pytest.approx(scale)
    assert unit_text(found.dimension) == shown


def test_si_of_shifts_celsius_and_refuses_what_it_cannot_read() -> None:
    celsius = si_of("°C")
    assert celsius is not None and celsius.offset == 273.15 and unit_text(celsius.dimension) == "K"
    assert si_of("V/div") is None and si_of("a.u.") is None and si_of("") is None


def test_plain_arithmetic_keeps_a_greek_letter_with_its_subscript() -> None:
    assert "".join(plain_arithmetic("ε_0 A/d").split()) == "epsilon_0A/d"
    assert "".join(plain_arithmetic(r"\varepsilon_0 E").split()) == "varepsilon_0E"
    assert "".join(plain_arithmetic("μ0 I").split()) == "mu0I"
    assert plain_arithmetic("y = a*e**(-x/b)") == "y = a*exp(-x/b)"


def test_parse_formula_solves_a_left_side_that_is_no_name_for_its_response() -> None:
    formula = parse_formula("e U = h c/λ − W", response="U", variable="lam")
    assert formula.y == "U" and formula.x == "lam"
    assert set(formula.parameters) == {"e", "h", "c", "W"}
    with pytest.raises(FormulaError, match="cannot tell the response"):
        parse_formula("e U = h c/λ − W", variable="lam")


def test_a_bare_e_is_a_symbol_and_e_to_a_power_is_eulers_number() -> None:
    assert "e" in parse_formula("e U = h c/lam", response="U", variable="lam").parameters
    decay = parse_formula(r"U(t) = U_0 e^{-t/\tau}")
    assert decay.parameters == ("U_0", "tau")


def test_solve_dimensions_gives_planck_constant_in_joule_seconds() -> None:
    formula = parse_formula("e U = h c/λ − W", response="U", variable="lam")
    constants = {name: BY_SPELLING[name] for name in ("e", "c")}
    assert constants_in(formula, asked={"h"}, text="", x_si=si_of("nm"), y_si=si_of("V")) == (
        constants
    )
    found = parameter_dimensions(formula, constants, si_of("nm"), si_of("V"))  # type: ignore[arg-type]
    assert found is not None
    assert unit_text(found["h"]) == "J·s" and unit_text(found["W"]) == "J"  # type: ignore[arg-type]


def test_dimensions_keeps_the_fit_units_basis() -> None:
    formula = parse_formula("T = a L^b", ("L",))
    assert dimensions(formula, {"a": 2.0, "b": 0.5})["a"] == (Fraction(1), Fraction(-1, 2))
    assert solve_dimensions(formula, {"L": (Fraction(0), Fraction(1))}, (Fraction(1), Fraction(0)))


@pytest.mark.parametrize(
    ("law", "x_unit", "y_unit", "asked", "text", "constants"),
    [
        # g named and not asked: standard gravity; k is no Boltzmann constant (J/K·m ≠ kg·m/s²)
        ("m g = k (x - x_0)", "cm", "g", set(), "where g is the gravitational acceleration",
         {"g"}),
        # g asked for: the parameter
        ("T = 2 pi sqrt(L/g)", "m", "s", {"g"}, "determine g", set()),
        # g not asked, but the only symbol left to fit
        ("T = 2 pi sqrt(L/g)", "m", "s", set(), "", set()),
        # c as an intercept: m/s is no volt
        ("U = m I + c", "A", "V", set(), "", set()),
        # R as a resistance: J/(mol·K)·A is no volt
        ("U = R I", "A", "V", set(), "", set()),
        # units unknown and nothing named: no constant is taken on trust
        ("y = a x + c", "", "", set(), "", set()),
        # named in words, units unknown: taken
        ("U = h c/(e lam) - W", "nm", "", {"h"}, "e is the elementary charge and c the speed "
         "of light", {"c", "e"}),
    ],
)  # fmt: skip
def test_constants_in_takes_a_constant_only_where_it_can_hold(
    law: str, x_unit: str, y_unit: str, asked: set[str], text: str, constants: set[str]
) -> None:
    variables = {"m g = k (x - x_0)": ("x", "m"), "U = h c/(e lam) - W": ("lam", "U")}
    x, y = variables.get(law, (None, None))
    formula = parse_formula(law, ("L", "I", "x"), variable=x, response=y)
    found = constants_in(formula, asked=asked, text=text, x_si=si_of(x_unit),
                         y_si=si_of(y_unit))  # fmt: skip
    assert set(found) == constants


def test_in_si_puts_the_constants_and_the_units_into_the_formula() -> None:
    formula = parse_formula("e U = h c/λ − W", response="U", variable="lam")
    constants = {name: BY_SPELLING[name] for name in ("e", "c")}
    fitted = in_si(formula, constants, si_of("nm"), si_of("mV"))
    assert fitted.parameters == ("h", "W")
    # at λ = 500 nm, h = 6.6e-34 J·s and W = 0: U = h c/(e λ) in mV
    symbols = {s.name: s for s in fitted.sympy.free_symbols}
    value = fitted.sympy.subs({symbols["lam"]: 500, symbols["h"]: 6.6e-34, symbols["W"]: 0})
    assert float(value) == pytest.approx(6.6e-34 * sc.c / (sc.e * 500e-9) * 1e3)


def test_asked_symbols_reads_a_symbol_or_a_constant_by_its_name() -> None:
    asked = asked_symbols(("From a, determine the gravitational acceleration g.",), "", {})
    assert "g" in asked
    assert "h" in asked_symbols(("Find Planck's constant from the slope.",), "", {})
    assert "g" not in asked_symbols(("Use the known value of g to determine L.",), "", {})
