"""A column that holds the square of a formula's variable (`U2 [V2]` beside F = k·U²) is
fitted as that square, not squared again (tools.formulas.held_powers)."""

from __future__ import annotations

import pytest

from labscribe.tools.formulas.formula_parse import parse_formula
from labscribe.tools.formulas.held_powers import held_square, in_squares


@pytest.mark.parametrize(("column", "unit"), [
    ("U2", "V2"), ("U^2", "V^2"), ("U²", "V²"), ("U_sq", ""), ("t2", "s2"),
    ("f_quadrado", "Hz²"), ("T_Quadrat", "s^2"),  # a Brazilian lab's `f_quadrado` in Hz²
])  # fmt: skip
def test_squared_names_with_squared_units_hold_the_square(column: str, unit: str) -> None:
    assert held_square(column, unit, column[0])


@pytest.mark.parametrize(("column", "unit", "variable"), [
    ("U2", "V", "U"),  # a second voltage, in volts: U2 is no square
    ("U", "V", "U"), ("R2", "Ω²", "U"), ("U12", "V2", "U"),
    ("f_quadrado", "Hz", "f"),  # named a square, in the unit of f: the name is wrong
])  # fmt: skip
def test_other_columns_do_not(column: str, unit: str, variable: str) -> None:
    assert not held_square(column, unit, variable)


def test_the_formula_is_read_in_the_square() -> None:
    assert in_squares(parse_formula("F = k·U²")).expression == "U*k"  # type: ignore[union-attr]
    assert in_squares(parse_formula("F = k·U² + c")).expression == "U*k + c"  # type: ignore[union-attr]
    assert in_squares(parse_formula("y = a·U² + b·U")) is None  # U appears unsquared too
