"""tools.formulas.log_lines: a task asking for the straight line of ln y gets its formula's
logarithm fitted; wordings as handouts write them in English, German and French."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from labscribe.tools.fits.fit_result import Fit
from labscribe.tools.fits.requested_fits import fit_log_of_response
from labscribe.tools.formulas.formula_parse import parse_formula
from labscribe.tools.formulas.log_lines import (
    asks_log_line,
    dimensions_through_logs,
    log_line,
    logged_response,
)

DECAY = parse_formula("A(t) = A0·e^(−γt)")


@pytest.mark.parametrize(
    "task",
    [
        "Plot ln A against t and fit a straight line to find the damping constant γ.",
        "Tragen Sie ln A gegen t auf und bestimmen Sie γ aus der Steigung der Geraden.",
        "Tracer ln(A) en fonction de t et ajuster une droite.",
        "Make a semi-log plot, log A against t, and find γ.",
    ],
)
def test_a_task_asking_for_the_line_of_ln_y_is_read(task: str) -> None:
    assert asks_log_line(task, DECAY)


@pytest.mark.parametrize(
    "task",
    ["Fit the model A(t) = A0·e^(−γt) to the amplitudes.", "Plot ln B against t as a line."],
)
def test_a_task_that_does_not_ask_for_the_line_of_ln_y_is_not(task: str) -> None:
    assert not asks_log_line(task, DECAY)


def test_the_logarithm_of_an_exponential_is_a_line_in_its_parameters() -> None:
    line = log_line(DECAY)
    assert line is not None and line.expression == "-gamma*t + log(A0)"
    assert line.parameters == ("A0", "gamma")


@pytest.mark.parametrize("written", ["N(t) = N0·exp(−λt) + B", "T = a·L^b"])
def test_a_formula_whose_logarithm_is_no_line_in_x_is_left(written: str) -> None:
    assert log_line(parse_formula(written)) is None


B_MODEL = parse_formula("R = R25·exp[B(1/T − 1/298.15 K)]")


@pytest.mark.parametrize(
    "task",
    [
        "Convert to kelvin and fit ln(R/Ω) against (1/T − 1/298.15 K) to obtain B.",
        "Plot ln R vs 1/T and find B from the slope.",
    ],
)
def test_fitting_ln_y_against_an_axis_asks_for_its_line(task: str) -> None:
    assert asks_log_line(task, B_MODEL)


def test_the_logarithm_of_the_b_equation_is_a_line_in_1_over_t() -> None:
    line = log_line(B_MODEL)
    assert line is not None and "exp" not in line.expression


def test_a_logarithm_of_the_variable_is_of_its_value_in_its_unit() -> None:
    # Steinhart–Hart: A, B and C all in the unit of 1/T
    formula = parse_formula("1/T = A + B·ln R + C·(ln R)³", variable="R", response="T")
    found = dimensions_through_logs(formula, {"A": 1e-3, "B": 2e-4, "C": 1e-7})
    assert set(found.values()) == {(Fraction(-1), Fraction(0))}


@pytest.mark.parametrize(
    ("task", "response", "others", "sole"),
    [
        # a Chinese kinetics sheet: A is the absorbance column 吸光度
        ("以 ln A 对时间 t 作图并线性拟合，由斜率求准一级速率常数 k。", "吸光度", ["时间"], True),
        ("Plot ln N against t and fit a straight line.", "Counts", ["t (s)"], True),
        ("Plot ln U_C against t and fit a straight line.", "U_C (V)", ["t (s)", "U_R (V)"], False),
    ],
)
def test_the_line_of_ln_y_in_the_tasks_own_symbol(
    task: str, response: str, others: list[str], sole: bool
) -> None:
    assert logged_response(task, response, others, sole=sole)


@pytest.mark.parametrize(
    ("task", "response", "others", "sole"),
    [
        ("以 ln A 对时间 t 作图并线性拟合。", "吸光度", ["时间", "浓度"], False),  # A: which?
        ("Plot ln U_R against t and fit a straight line.", "U_C (V)", ["t (s)", "U_R (V)"], False),
        ("Plot U against t and fit a straight line.", "U (V)", ["t (s)"], True),
        ("Plot ln t against U and fit a line.", "U (V)", ["t (s)"], True),
        ("Plot ln A against t and fit a straight line.", "ln A", ["t (s)"], True),
    ],
)
def test_no_logarithm_where_the_task_takes_another_or_none(
    task: str, response: str, others: list[str], sole: bool
) -> None:
    assert not logged_response(task, response, others, sole=sole)


def test_the_line_of_ln_y_is_fitted_by_least_squares_on_ln_y() -> None:
    t = np.arange(0.0, 200.0, 10.0)
    y = 5.55 * np.exp(-t / 103.0) * (1 + 0.01 * np.sin(t))
    fit = Fit(table="t", x="t", y="V", x_unit="s", y_unit="V", requested="ln V against t")
    done = fit_log_of_response(fit, t, y)
    slope, intercept = np.polyfit(t, np.log(y), 1)
    assert done.parameter("b1").value == pytest.approx(slope, rel=1e-6)
    assert done.parameter("b1").unit == "1/s"
    assert done.parameter("b0").value == pytest.approx(intercept, rel=1e-6)
    assert done.straightened == "ln V"
