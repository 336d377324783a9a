"""What a later task asks of an earlier regression: significance at the level it names, a
prediction at the point it sets, the largest residual (tools.fits.regression_answers)."""

from __future__ import annotations

from labscribe.tools.fits.regression import Coefficient, Regression
from labscribe.tools.fits.regression_answers import regression_answers


def _regression() -> Regression:
    # y = 1 + 2·a + 0.1·b with a diagonal covariance, 10 residual degrees of freedom
    coefficients = [
        Coefficient(name="intercept", term="1", value=1.0, stderr=0.5, p_value=0.07),
        Coefficient(name="a", term="a", value=2.0, stderr=0.2, p_value=1e-6),
        Coefficient(name="b", term="b", value=0.1, stderr=0.08, p_value=0.024),
    ]
    names = [c.name for c in coefficients]
    covariance = {x: {y: (c.stderr**2 if x == y else 0.0) for y in names}
                  for x, c in zip(names, coefficients, strict=True)}  # fmt: skip
    return Regression(task="Fit y on a and b.", number=1, table="t", response="y",
                      predictors=["a", "b"], predictor_keys=["a", "b"],
                      coefficients=coefficients, covariance=covariance, dof=10,
                      r_squared=0.9, adjusted_r_squared=0.88, residual_sd=0.3,
                      largest_residual=(4, -0.7), done=True)  # fmt: skip


def test_significance_follows_the_level_the_task_names() -> None:
    five = regression_answers("Which predictors are significant (5 % level)?", 2, [_regression()])
    assert "b (p = 0.024)" in five[0] and "not contribute" not in five[0]
    one = regression_answers("Is each term significant at α = 0.01?", 2, [_regression()])
    assert "b (p = 0.024) does not contribute significantly" in one[0]


def test_a_prediction_needs_every_predictor_set() -> None:
    partial = regression_answers("Predict y for a = 3.", 2, [_regression()])
    assert partial == []
    [line] = regression_answers("Predict y for a = 3, b = 10, with a 95 % interval.", 2,
                                [_regression()])  # fmt: skip
    assert line.startswith("predicted y at a = 3, b = 10 (regression of task 1): 8")
    assert "95 % prediction interval of a new observation" in line


def test_answers_come_only_from_an_earlier_regression_that_was_done() -> None:
    assert regression_answers("Which day has the largest residual?", 1, [_regression()]) == []
    [line] = regression_answers("Which day has the largest residual?", 3, [_regression()])
    assert "data row 4: -0.7" in line
    undone = _regression().model_copy(update={"done": False})
    assert regression_answers("State R² and adjusted R².", 2, [undone]) == []


def test_predictors_are_no_prediction() -> None:
    assert regression_answers("Name the predictors with a = 3 and b = 1.", 2, [_regression()]) == []
