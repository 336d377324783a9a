"""tools.formulas.point_values: a value a handout gives a variable ("t = 100 dias") is a point to
evaluate at, never a definition that scales a column."""

from __future__ import annotations

import pytest

from labscribe.tools.formulas.axis_expressions import defined
from labscribe.tools.formulas.point_values import is_point_value


@pytest.mark.parametrize(
    "right",
    ["100 dias", "100 días", "5 cm", "300 K", "5 V", "20 Tage", "100 s 时", "9.81 m/s2",
     "9.81m/s2", "100d", "5cm", "1,5 kg", "1.5e3 Pa", "16 semanas"],
)  # fmt: skip
def test_a_number_and_its_unit_is_a_point(right: str) -> None:
    assert is_point_value(right)


@pytest.mark.parametrize(
    "right",
    ["2r", "2 r", "0.5 m v^2", "3 m r2", "2 π sqrt(l/g)", "2 pi sqrt(L/g)", "t20/20", "U*I",
     "dh + 29.125 in Hg", "4 x", "0"],
)  # fmt: skip
def test_a_number_times_a_symbol_stays_math(right: str) -> None:
    assert not is_point_value(right)


@pytest.mark.parametrize(
    "sentence",
    ["IV. Que produção prevê o modelo para t = 100 dias? Comente a extrapolação.",
     "2. Welchen BSB sagt das Modell bei t = 20 Tage voraus?",
     "Compute the resistance at T = 300 K.",
     "Berechnen Sie den Strom bei U = 5 V.",
     "求当 t = 100 s 时的温度。"],
)  # fmt: skip
def test_a_value_given_for_a_variable_defines_nothing(sentence: str) -> None:
    assert defined([sentence]) == []


def test_a_definition_is_still_read() -> None:
    found = defined(["Bilden Sie T = t20/20 und tragen Sie T² gegen l auf."])
    assert ("T", "t20/20") in [(w.name, str(w.expression)) for w in found]


def test_a_formula_cut_before_its_brackets_defines_nothing() -> None:
    stokes = "In the Stokes regime the terminal velocity is v = 2 r² (ρ_s − ρ_l) g / (9 η)."
    assert defined([stokes]) == []
    assert ("T", "t20/20") in [
        (w.name, str(w.expression)) for w in defined(["Form T = t20/20 (the period)."])
    ]
