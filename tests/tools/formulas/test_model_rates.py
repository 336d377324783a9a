"""A quantity a task defines from the symbols of the handout's model, worked out of a fitted
time constant (tools.formulas.model_rates): the model's exponent is the fit's −t/decay."""

import pytest
import sympy

from labscribe.tools.fits.fit_result import Fit, Parameter
from labscribe.tools.formulas.formula_parse import parse_expression
from labscribe.tools.formulas.model_rates import parsed_models, through_the_model

DECAY = sympy.Symbol("decay")


def damped(constant: str = "decay") -> Fit:
    fitted = [Parameter(name=constant, value=0.89, stderr=0.01)]
    return Fit(table="7_v.txt", x="column 1", y="column 2", x_label="t", y_label="deflection",
               variable="t", parameters=fitted)  # fmt: skip


@pytest.mark.parametrize(
    ("name", "definition", "model", "expected"),
    [
        ("l", "λ/I", "θ(t) = A e^(−λt/(2I)) sin(t·√(k/I − λ²/(4I²)) + φ)", 2 / DECAY),
        ("τ", "R C", "U(t) = U_0 e^(−t/(R C))", DECAY),
        ("γ", "b/(2m)", "x(t) = A e^(−b t/(2m)) cos(ω t)", 1 / DECAY),
        ("λ", "λ", "N(t) = N_0 exp(−λ t)", 1 / DECAY),
    ],
)
def test_a_defined_quantity_follows_from_the_fitted_decay(
    name: str, definition: str, model: str, expected: sympy.Expr
) -> None:
    found = through_the_model(name, parse_expression(definition), parsed_models([model]), damped())
    assert found is not None and sympy.simplify(found[0] - expected) == 0, found
    assert found[1] == model


@pytest.mark.parametrize(
    ("name", "definition", "model"),
    [
        ("k", "b", "x(t) = A e^(−b t/(2m)) cos(ω t)"),  # the rate holds m as well
        ("l", "λ/I", "θ(t) = A sin(ω₀t + φ)"),  # no exponential
        ("l", "λ/I", "p(h) = p_0 e^(−λ h/I)"),  # an exponential in another variable
    ],
)
def test_no_value_where_the_model_does_not_fix_it(name: str, definition: str, model: str) -> None:
    models = parsed_models([model])
    assert through_the_model(name, parse_expression(definition), models, damped()) is None


def test_a_fit_without_a_time_constant_gives_none() -> None:
    model = "U(t) = U_0 e^(−t/(R C))"
    models = parsed_models([model])
    assert through_the_model("τ", parse_expression("R C"), models, damped("slope")) is None
