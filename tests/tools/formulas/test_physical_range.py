import pytest

from labscribe.tools.formulas.formula_parse import parse_formula
from labscribe.tools.formulas.physical_range import Sign, outside, positive_parameters

TIME_CONSTANT = "a time constant (it divides t in an exponent)"


@pytest.mark.parametrize(
    ("formula", "expected"),
    [
        ("U(t) = U_0 e^{-t/\\tau}", {"tau": Sign(TIME_CONSTANT, "decay")}),
        ("I(t) = I_0 exp(t/tau)", {"tau": Sign(TIME_CONSTANT, "grow")}),
        # no minus and no time constant's name: either sign (KIT's heat leak, γ = −19470 s)
        ("T0(t) = alpha + beta e^(t/gamma)", {}),
        ("y(t) = A exp(t/c)", {}),
        ("A(t) = A_0 2^(-t/t_h)", {"t_h": Sign(TIME_CONSTANT, "decay")}),
        ("N(t) = N_0 exp(-lam t)", {"lam": Sign(
            "a decay rate (the minus sign in the exponent already makes it a decay)", "decay")}),
        ("N(t) = N_0 exp(lam t)", {}),  # λ < 0 is a decay: the formula allows either sign
        ("y(x) = a exp(-x^2/s)", {"s": Sign(
            "a variance (it divides the square of x in an exponent)")}),
        ("x(t) = A cos(2 pi t/T + phi)", {"T": Sign(
            "a period (it divides t in a sine or cosine)")}),
        ("y(t) = a sin(omega t + phi)", {"omega": Sign(
            "a frequency (it multiplies t in a sine or cosine)")}),
        ("y(x) = A/(1 + ((x - x0)/gamma)^2)", {"gamma": Sign("a width or a damping rate")}),
        ("y(x) = h exp(-(x - c)^2/(2 fwhm^2))", {"fwhm": Sign("a width")}),
        ("T = a L^b", {}),
    ],
)  # fmt: skip
def test_positive_parameters_by_position_and_name(formula: str, expected: dict) -> None:
    assert positive_parameters(parse_formula(formula)) == expected


def test_outside_names_the_parameters_at_or_below_zero() -> None:
    signs = {"tau": Sign(TIME_CONSTANT), "T": Sign("a period")}
    assert outside(signs, {"tau": -5.5, "T": 2.0, "U_0": -1.0}) == ["tau"]
    assert outside(signs, {"tau": 0.0, "T": 2.0}) == ["tau"]


PEAK = Sign("the height of a peak (the task asks for a peak)", "peak")


@pytest.mark.parametrize(
    ("formula", "task", "expected"),
    [
        ("y(x) = A exp(-(x - c)^2/(2 s^2)) + B", "Fit the peak.", {"A": PEAK}),
        ("y(x) = A/(1 + ((x - c)/g)^2) + B", "Fit the resonance peak.", {"A": PEAK}),
        ("y(x) = A exp(-(x - c)^2/(2 s^2)) + B", "Fit the absorption peak.", {}),
        ("y(x) = A exp(-(x - c)^2/(2 s^2)) + B", "Fit the line.", {}),
        ("y(x) = A exp(-x/s) + B", "Fit the peak.", {"s": Sign(
            "a time constant (it divides x in an exponent)", "decay")}),
    ],
)  # fmt: skip
def test_positive_parameters_holds_a_peak_up_where_the_task_asks_for_one(
    formula: str, task: str, expected: dict
) -> None:
    assert positive_parameters(parse_formula(formula), task) == expected
