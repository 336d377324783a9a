"""tools.log_lines: a task asking for the straight line of ln y gets its formula's logarithm
fitted; wordings as handouts write them in English, German and French."""

from __future__ import annotations

import pytest

from labscribe.tools.formula_parse import parse_formula
from labscribe.tools.log_lines import asks_log_line, log_line

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
