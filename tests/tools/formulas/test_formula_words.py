"""A formula as a handout writes it in prose: a remark in parentheses after it ("(no constant
term)", "(weighted fit of ln N)") is no part of it, a function applied to its left side ("ln V
= ...") stays with it, a product of long names ("Bmax·R3") is math, and a PDF's flattened
superscripts ("R3/[R2 + (z − z0)2]3/2") are powers again.

The wordings are those of the eval folders' handouts: the flattened form is how the text of a
PDF handout gives the field on a coil's axis, R^3/[R^2 + (z - z_0)^2]^{3/2}; "(no constant
term)" and "ln V = b0 + b1 ln D + b2 ln H" are the published forms of the cars
stopping-distance model (Ezekiel 1930, R's `cars`) and the Schumacher-Hall tree-volume model
(R's `trees`, Ryan, Joiner & Ryan 1976)."""

from __future__ import annotations

import pytest

from labscribe.tools.formulas.formula_notation import formula_in, plain_arithmetic, unflattened
from labscribe.tools.formulas.formula_parse import FormulaError, parse_formula


@pytest.mark.parametrize(
    ("sentence", "formula"),
    [
        ("Fit the model d = a·v + b·v² (no constant term) to the stopping distances.",
         "d = a·v + b·v²"),
        ("Fit the corrected counts with N(t) = N0·e^(−λt) (weighted fit of ln N) and give",
         "N(t) = N0·e^(−λt)"),
        ("Fit B(z) = Bmax·R3/[R2 + (z - z0)2]3/2 to the axial scan with Bmax, R and z0 free.",
         "B(z) = Bmax·R3/[R2 + (z - z0)2]3/2"),
        ("(a) Fit the multiple regression ln V = b0 + b1·ln D + b2·ln H using both predictors.",
         "ln V = b0 + b1·ln D + b2·ln H"),
        ("Fit y = A exp(-t/tau) + C where C is the background.", "y = A exp(-t/tau) + C"),
        # a word of one letter after the formula is prose: Polish "w" (in), Czech "v" (in)
        ("Narysuj moc P = U·I w funkcji napięcia.", "P = U·I"),
        ("Sestrojte graf U = R I v závislosti na proudu.", "U = R I"),
        # ... but not after an operator, nor before a symbol
        ("Fit y = x + a to the points.", "y = x + a"),
        ("Fit y = a x + b to the data.", "y = a x + b"),
    ],
)  # fmt: skip
def test_the_formula_is_cut_from_its_remarks(sentence: str, formula: str) -> None:
    assert formula_in(sentence) == formula


def test_the_remark_words_are_no_parameters() -> None:
    fitted = parse_formula(formula_in("Fit d = a·v + b·v² (no constant term) by least squares."))
    assert (fitted.y, fitted.x, fitted.parameters) == ("d", "v", ("a", "b"))


def test_a_left_side_in_time_names_the_response() -> None:
    fitted = parse_formula(formula_in("Fit N(t) = N0·e^(−λt) (weighted fit of ln N) to it."))
    assert (fitted.y, fitted.x, fitted.parameters) == ("N", "t", ("N0", "lam"))


def test_flattened_superscripts_are_powers_and_a_subscript_stays() -> None:
    fitted = parse_formula("B(z) = Bmax·R3/[R2 + (z - z0)2]3/2")
    assert (fitted.y, fitted.x, fitted.parameters) == ("B", "z", ("Bmax", "R", "z0"))
    assert fitted.expression == "Bmax*R**3/(R**2 + (z - z0)**2)**(3/2)"
    assert unflattened("U = R1·I + R2·I") == "U = R1·I + R2·I"  # no sign of flattening


def test_a_function_of_the_response_names_the_response() -> None:
    assert plain_arithmetic("b0 + b1·ln D") == "b0 + b1*ln(D)"
    fitted = parse_formula("ln(R) = a + B/T")
    assert (fitted.y, fitted.x) == ("R", "T")
    with pytest.raises(FormulaError):
        parse_formula("y = a [x]")  # a bracket after a name indexes: refused
