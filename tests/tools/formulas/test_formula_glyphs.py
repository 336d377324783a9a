"""tools.formulas.formula_glyphs: typeset notation handouts write (square brackets, ½, cos²θ, a
Greek symbol with a run-in subscript) read as plain arithmetic, so the formula is fitted with the
handout's own parameters. Wordings: NIST StRD Eckerle4's model line (`exp[...]`), Malus's
law as lab pages write it (`I = I₀ cos²θ`), a line centre run into its Greek letter."""

from __future__ import annotations

import pytest

from labscribe.tools.formulas.formula_glyphs import typeset_as_plain
from labscribe.tools.formulas.formula_parse import parse_formula


def test_nists_square_brackets_group_an_exponent() -> None:
    formula = parse_formula("y = (b1/b2) * exp[-0.5*((x-b3)/b2)**2]")
    assert formula.parameters == ("b1", "b2", "b3")
    assert formula.x == "x"


def test_a_line_centre_run_into_its_greek_letter_is_one_parameter() -> None:
    formula = parse_formula("T(λ) = (A/w)·exp[−½((λ − λc)/w)²]")
    assert formula.x == "lam"
    assert formula.parameters == ("A", "w", "lamc")
    assert formula.expression == "A*exp(-(lam - lamc)**2/(2*w**2))/w"


@pytest.mark.parametrize(
    ("written", "expression"),
    [
        ("I = I0·cos²θ + Ib", "I0*cos(theta)**2 + Ib"),
        ("I(θ) = I0·cos²(θ − θ0) + Ib", "I0*cos(theta - theta0)**2 + Ib"),
        ("I = I_max·sin²(2θ)", "I_max*sin(2*theta)**2"),
    ],
)
def test_a_power_on_a_functions_name_squares_the_function(written: str, expression: str) -> None:
    assert parse_formula(written).expression == expression


@pytest.mark.parametrize(
    "written",
    ["N(t) = N0·exp(−λt) + B", "U = U0·cos(ωt + φ)", "Z = sqrt(R^2 + (ωL − 1/(ωC))^2)"],
)
def test_a_greek_letter_times_a_latin_one_stays_a_product(written: str) -> None:
    assert typeset_as_plain(written) == written


def test_a_subscript_word_run_into_a_greek_letter_is_one_name() -> None:
    assert typeset_as_plain("f = A·exp(−(ω − ωres)²)") == "f = A·exp(−(ω − omegares)²)"
    assert typeset_as_plain("y = A/(1 + ((x − ω)/λmax)^2)") == "y = A/(1 + ((x − ω)/lammax)^2)"


@pytest.mark.parametrize(
    ("written", "expression"),
    [
        ("T = k · f_m (+ c)", "c + f_m*k"),  # eval10's gyroscope handout: "(+ c)" may be added
        ("y = a x [+ b]", "a*x + b"),
    ],
)
def test_a_term_in_brackets_after_the_rest_is_added(written: str, expression: str) -> None:
    assert parse_formula(written).expression == expression
