"""A symbol that is a column is a variable of the model, never a parameter: the handout's
"with t the ageing time in weeks" (tools.formulas.symbol_meanings), a PDF's flattened power `Q2` of
the column Q (tools.formulas.formula_notation), a response worked out from other quantities."""

from __future__ import annotations

import pytest

from labscribe.tools.formulas.formula_parse import parse_formula
from labscribe.tools.formulas.symbol_meanings import column_meant, symbol_meanings

NELSON = (
    "Fit ln V = b1 − b2·t·exp(−b3·T) to all specimens, with V the breakdown voltage in kV, "
    "t the ageing time in weeks and T the ageing temperature in °C."
)


def test_symbols_named_first_are_read_with_their_words() -> None:
    meanings = symbol_meanings(NELSON)
    assert meanings["t"] == "ageing time in weeks"
    assert meanings["T"] == "ageing temperature in °c"
    names = ("ageing_time_wk", "ageing_temp", "breakdown_kV")
    assert column_meant(meanings["t"], names) == "ageing_time_wk"
    assert column_meant(meanings["T"], names) == "ageing_temp"


@pytest.mark.parametrize(
    ("text", "symbol", "words"),
    [("where t is the time in s and x the position.", "t", "time in s"),
     ("wobei U die Spannung ist und I der Strom.", "U", "spannung"),
     ("où V est la tension aux bornes, I le courant", "I", "courant"),
     ("donde t es el tiempo en días", "t", "tiempo en días"),
     ("com t o tempo em dias e y a produção", "y", "produção")],
)  # fmt: skip
def test_the_languages_handouts_name_symbols_in(text: str, symbol: str, words: str) -> None:
    assert symbol_meanings(text)[symbol] == words


def test_words_that_name_two_columns_alike_name_none() -> None:
    assert column_meant("the time", ("time_1", "time_2")) is None


@pytest.mark.parametrize("text", ["H(Q) = H0 + a1·Q + a2·Q2", "η(Q) = c0 + c1·Q + c2·Q2"])
def test_a_flattened_power_of_the_variable_is_no_parameter(text: str) -> None:
    formula = parse_formula(text)
    assert formula.x == "Q"
    assert "Q2" not in formula.parameters and len(formula.parameters) == 3
    assert "Q**2" in formula.expression


def test_a_subscript_without_its_lone_letter_stays_a_name() -> None:
    assert parse_formula("R = R1 + R2·x").parameters == ("R1", "R2")
