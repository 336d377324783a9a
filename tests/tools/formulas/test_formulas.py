from fractions import Fraction

import pytest

from labscribe.tools.fits.fit_result import unit_of
from labscribe.tools.formulas.canonical_form import canonical, symmetry
from labscribe.tools.formulas.dimensions import dimensions
from labscribe.tools.formulas.formula_notation import formula_in
from labscribe.tools.formulas.formula_parse import FormulaError, parse_formula
from labscribe.tools.formulas.parameter_roles import positions


def test_parse_formula_reads_a_power_law_with_implicit_products() -> None:
    formula = parse_formula("T = a L^b")
    assert (formula.y, formula.x, formula.parameters) == ("T", "L", ("a", "b"))
    assert formula.expression == "L**b*a"
    assert formula.linear == frozenset({"a"})


def test_parse_formula_reads_latex_and_greek() -> None:
    formula = parse_formula(r"U(t) = U_0 e^{-t/\tau}")
    assert (formula.y, formula.x, formula.parameters) == ("U", "t", ("U_0", "tau"))
    assert formula.expression == "U_0*exp(-t/tau)"
    assert parse_formula("c + a(1 − e^{−x/τ})").parameters == ("c", "a", "tau")


def test_parse_formula_takes_the_variable_from_the_data_s_columns() -> None:
    assert parse_formula("y = k m + c", x_names=("m", "y")).x == "m"


def test_parse_formula_finds_the_parameters_it_is_linear_in_jointly() -> None:
    formula = parse_formula("y = b1*(x**2+x*b2) / (x**2+x*b3+b4)")
    assert formula.linear == frozenset({"b1"})  # b1*b2 is a product: not both


@pytest.mark.parametrize(
    "text",
    [
        "y = __import__('os').system('id')",
        "y = ().__class__",
        "y = x.real + a",
        "y = lambda x: x",
        "y = a [x]",
        "y = exp(x) if a else b",
        "y = " + "a*" * 200 + "x",
    ],
)
def test_parse_formula_refuses_anything_but_arithmetic(text: str) -> None:
    with pytest.raises(FormulaError):
        parse_formula(text)


def test_parse_formula_says_when_it_cannot_tell_the_variable() -> None:
    with pytest.raises(FormulaError, match="cannot tell the variable"):
        parse_formula("Q = f0/(f2 - f1)")


def test_formula_in_cuts_the_formula_from_prose() -> None:
    assert formula_in("Fit a power law T = a L^b to the period.") == "T = a L^b"
    assert formula_in("Fit y = b1(1 − exp(−b2 x)), then compare.") == "y = b1(1 − exp(−b2 x))"
    assert formula_in(r"Fit $U(t) = U_0 e^{-t/\tau}$ to the data.") == r"U(t) = U_0 e^{-t/\tau}"
    assert formula_in("From a, determine the gravitational acceleration g.") is None


def test_dimensions_give_each_parameter_its_unit() -> None:
    spring = parse_formula("F = k x")
    assert unit_of(dimensions(spring)["k"], "N", "m") == "N/m"
    decay = parse_formula("y = b1*(1-exp(-b2*x))")
    assert dimensions(decay) == {"b1": (1, 0), "b2": (0, -1)}
    assert unit_of(dimensions(decay)["b2"], "V", "s") == "1/s"


def test_dimensions_of_a_power_law_follow_its_fitted_exponent() -> None:
    pendulum = parse_formula("T = a L^b")
    assert dimensions(pendulum)["a"] is None  # the exponent decides it
    fitted = dimensions(pendulum, {"a": 2.0, "b": 0.5})
    assert fitted["a"] == (Fraction(1), Fraction(-1, 2))
    assert unit_of(fitted["a"], "s", "m") == "s/m^0.5"


def test_positions_are_the_parameters_that_shift_x() -> None:
    peak = parse_formula("y = (b1/b2) * exp(-0.5*((x-b3)/b2)**2)")
    assert positions(peak) == frozenset({"b3"})


def test_symmetry_finds_terms_that_trade_places_and_signs_that_cancel() -> None:
    lanczos = symmetry(parse_formula("y = b1*exp(-b2*x) + b3*exp(-b4*x) + b5*exp(-b6*x)"))
    assert lanczos.swaps == ((("b1", "b2"), ("b3", "b4"), ("b5", "b6")),)
    eckerle = symmetry(parse_formula("y = (b1/b2) * exp(-0.5*((x-b3)/b2)**2)"))
    assert eckerle.signs == (frozenset({"b1", "b2"}),)
    enso = symmetry(parse_formula(
        "y = b1 + b5*cos(2*pi*x/b4) + b6*sin(2*pi*x/b4) + b8*cos(2*pi*x/b7) + b9*sin(2*pi*x/b7)"
    ))  # fmt: skip
    assert enso.swaps == ((("b5", "b4", "b6"), ("b8", "b7", "b9")),)


def test_canonical_orders_peaks_from_the_left_with_positive_widths() -> None:
    gauss = parse_formula("y = b1*exp(-b2*x) + b3*exp(-(x-b4)**2/b5**2) + b6*exp(-(x-b7)**2/b8**2)")
    fitted = {"b1": 98, "b2": 0.01, "b3": 72, "b4": 153, "b5": -19.5, "b6": 101, "b7": 107,
              "b8": -23.5}  # fmt: skip
    assert canonical(gauss, fitted) == {
        "b1": "b1", "b2": "b2", "b3": "b6", "b4": "b7", "b5": "-b8", "b6": "b3", "b7": "b4",
        "b8": "-b5",
    }  # fmt: skip
