"""tools.formulas.axis_expressions and the column names a handout's words point at: the quantities a
handout asks to plot (T², 1/λ, ln p, P = U·I), read from its sentences and definitions, and
the columns its symbols and headers name. Forming them from the columns:
test_formed_columns.py."""

from __future__ import annotations

import numpy as np
import pytest

from labscribe.tools.assignment.role_phrases import sentences
from labscribe.tools.columns.column import Column
from labscribe.tools.formulas.axis_expressions import (
    defined,
    expression_of,
    plotted,
    swings_timed,
    trailing_expression,
    writes,
)
from labscribe.tools.formulas.formed_units import unit_text


@pytest.mark.parametrize(
    ("sentence", "names"),
    [
        ("2) Tragen Sie T² gegen l auf.", ["T²"]),
        ("(b) Plot ln p against 1/T and fit a straight line.", ["ln p", "1/T"]),
        ("Task 1: Plot the threshold voltage U_th against 1/λ.", ["1/λ"]),
        ("c) Tragen Sie P gegen T⁴ auf, legen Sie eine Ausgleichsgerade durch den Ursprung",
         ["T⁴"]),
        ("3. From a straight-line fit of T² against m determine k again", ["T²"]),
        ("plot the square of the average period, $T^2$, as a function of the length $L$.",
         ["T²"]),
        ("we see that the slope s of a graph of V on the vertical axis vs. 1/λ on the "
         "horizontal axis is,", ["1/λ"]),
        ("Plot the period T against the length L.", []),
        # transforms written in words, and a root before a bare symbol
        ("Plot the square root of E against Z and fit a straight line.", ["√E"]),
        ("1. Plot √E against Z.", ["√E"]),
        ("Plot sqrt(E) against Z.", ["sqrt(E)"]),
        ("Plot the logarithm of p against the reciprocal of the temperature T.",
         ["ln p", "1/T"]),
        ("Plot the square of the period T against the length L.", ["T²"]),
        ("Plot T squared against L.", ["T²"]),
        ("Tragen Sie die Wurzel aus E gegen Z auf.", ["√E"]),
        ("Plot the square root of the energy against Z.", []),  # no symbol: not formed
    ],
)  # fmt: skip
def test_the_axes_a_handout_plots_as_expressions(sentence: str, names: list[str]) -> None:
    assert [w.name for w in plotted([sentence])] == names


def test_an_abbreviation_does_not_end_a_sentence() -> None:
    assert sentences("Plot V vs. 1/λ here. Then the voltage V. Fit.") == [
        "Plot V vs. 1/λ here.",
        "Then the voltage V.",
        "Fit.",
    ]


def test_definitions_are_read_up_to_where_prose_or_a_unit_begins() -> None:
    found = defined([
        "so the pressure on the trapped air is p = dh + 29.125 in Hg. The cross",
        "2. For each mass compute the period T = t20/20 and compare it",
        "Im stationären Zustand ist die elektrische Leistung P = U · I gleich der Leistung.",
    ])  # fmt: skip
    readings = {(w.name, str(w.expression)) for w in found}
    assert ("p", "dh + 29.125") in readings
    assert ("T", "t20/20") in readings
    assert ("P", "I*U") in readings
    assert ("P", "U") not in readings  # a reading never stops inside the formula
    assert ("p", "dh") not in readings


@pytest.mark.parametrize(
    ("name", "number"),
    [("t10", 10), ("t10_2", 10), ("t_20", 20), ("10 T", 10), ("t(10T)", 10), ("t1", None),
     ("T", None), ("time", None), ("t", None)],
)  # fmt: skip
def test_a_column_of_n_swings_timed_together(name: str, number: int | None) -> None:
    assert swings_timed(name) == number


def test_trailing_expression_skips_the_words_before_it() -> None:
    text, expression = trailing_expression("the threshold voltage U_th")  # type: ignore[misc]
    assert (text, str(expression)) == ("U_th", "U_th")
    assert trailing_expression("a straight-line fit of T²")[0] == "T²"  # type: ignore[index]
    assert trailing_expression("the extension") is None


def test_unit_text() -> None:
    from fractions import Fraction

    assert unit_text({"V": Fraction(1), "A": Fraction(1)}) == "W"
    assert unit_text({"nm": Fraction(-1)}) == "nm^-1"
    assert unit_text({"s": Fraction(2)}) == "s^2"


def test_a_law_written_as_a_function_names_only_its_variables() -> None:
    from labscribe.tools.columns.column_names import named_by_formula

    columns = [
        Column(key="time", header="", name="time", unit="min", count=3),
        Column(key="temperature", header="", name="temperature", unit="°C", count=3),
    ]
    words = {"T_env": {"room", "temperature"}}  # "the fitted room temperature T_env"
    named = named_by_formula("T(t) = T_env + (T_init - T_env)*exp(-k*t)", columns, words)
    assert [c.key for c in named.responses] == ["temperature"]  # T: the temperature's unit
    assert [c.key for c in named.predictors] == ["time"]


def test_a_symbol_names_a_column_by_the_ends_of_its_name() -> None:
    from labscribe.tools.columns.column_names import name_ends

    assert name_ends("L_air") == {"L", "air"}
    assert "lam" in name_ends("lambda_peak") and name_ends("lambda") == {"lam"}
    assert name_ends("pressure") == set()


def test_a_column_that_labels_the_rows() -> None:
    from labscribe.tools.columns.set_values import labels_rows

    numbers = np.array([1.0, 2, 3, 4])
    for name in ("组号", "Gruppe", "group no.", "NGC", "Sample ID", "Probennummer"):
        assert labels_rows(name, numbers), name
    assert not labels_rows("Gruppe", np.array([1.5, 2.5]))  # a label is a whole number
    assert not labels_rows("length", numbers)


@pytest.mark.parametrize(
    ("header", "axis", "held"),
    [
        ("2V/R^2", "2V/R²", True),  # an e/m lab's sheet (tests/data/real/workbooks)
        ("(BR)^2", "B²R²", True),  # its letters run together, squared as one
        ("B^2", "B²", True),
        ("1/T", "1/T", True),
        ("R^2", "2V/R²", False),
        ("BR", "B²R²", False),
        ("Voltage", "2V", False),  # a plain name is matched by name, not as an expression
    ],
)
def test_a_header_that_writes_the_axis_holds_it(header: str, axis: str, held: bool) -> None:
    assert writes(header, expression_of(axis)) is held
