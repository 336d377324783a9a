"""Whether a fit is of the axes a task names (tools.assignment.task_axes), on real handout
wording."""

from pathlib import Path

from labscribe.tools.assignment.task_axes import Axes, mismatch, task_axes
from labscribe.tools.fits.fit_result import Fit

REAL = Path(__file__).parents[2] / "data" / "real"
# tests/data/real/handouts/genphys_pendulum_cut.md, step 11, as the checklist holds it
GENPHYS = [
    "Using data from the four small amplitude cases (Cases 1--4), plot the square of the "
    "average period, T^2, as a function of the length L. Do not use the large angle Case 5.",
    "Plot all data points from your lab group and draw the best fit straight line through your "
    "data points (force the fit to pass through the origin).",
    "Determine the slope of your graph.",
    "Calculate the difference between g_avg and the accepted g",
]


def fit(y: str, x: str, model: str = "linear", formula: str = "slope·x + intercept") -> Fit:
    return Fit(table="t.csv", x=x, y=y, model=model, formula=formula, good=True)


def test_axes_are_read_and_inherited_by_the_tasks_that_fit_or_refer_back() -> None:
    axes = task_axes(GENPHYS)
    assert [axes[task].text() for task in GENPHYS[:3]] == ["T^2 against L"] * 3
    assert GENPHYS[3] not in axes  # no fit, no reference back
    # a task that writes its own formula names its own axes (issue 26's boyle_1662 handout)
    boyle = ["Plot p against 1/L and fit a line through the origin, p = k/L.",
             "Fit a power law p = C·L^m (straight line in log–log) and check m."]  # fmt: skip
    assert boyle[1] not in task_axes(boyle)
    # handouts of issue 26's evaluation: forbes_boiling_point, planck_led
    forbes = ["(b) Plot ln p against 1/T and fit a straight line.",
              "(c) From the slope, determine the molar enthalpy of vaporisation."]  # fmt: skip
    assert [a.text() for a in task_axes(forbes).values()] == ["ln p against 1/T"] * 2
    planck = ["Task 1: Plot the threshold voltage U_th against 1/λ.",
              "Task 2: Fit a straight line to the plot and determine h."]  # fmt: skip
    assert [a.text() for a in task_axes(planck).values()] == ["U_th against 1/λ"] * 2
    assert (
        task_axes(["Tragen Sie P gegen T⁴ auf und bestimmen Sie σ."])[
            "Tragen Sie P gegen T⁴ auf und bestimmen Sie σ."
        ].text()
        == "P against T⁴"
    )


def test_a_raw_column_is_not_a_fit_of_transformed_axes() -> None:
    squared = Axes(response="T^2", predictor="L")
    assert mismatch(fit("T", "l"), squared)
    assert mismatch(fit("T", "l", "power law", "amplitude·x^exponent"), squared)
    assert not mismatch(fit("T²", "l"), squared)  # a derived column of the square
    assert mismatch(fit("U_th", "lambda_peak"), Axes(response="U_th", predictor="1/λ"))
    assert not mismatch(fit("U_th", "1/lambda_peak"), Axes(response="U_th", predictor="1/λ"))
    # a model that is the transform written out
    logs = Axes(response="ln P", predictor="ln T")
    assert not mismatch(fit("P", "T", "power law", "amplitude·x^exponent"), logs)
    assert mismatch(fit("P", "T"), logs)
    shockley = fit("I", "U", "I = I_S·(exp(U/(n·U_T)) − 1)", "I = I_S·(exp(U/(n·U_T)) − 1)")
    assert not mismatch(shockley, Axes(response="ln I", predictor="U"))
    # no transform: only different one-letter symbols are judged
    assert mismatch(fit("U", "T"), Axes(response="P", predictor="T"))
    assert not mismatch(fit("v", "T_air"), Axes(response="v", predictor="θ"))
    assert not mismatch(
        fit("depression", "weight"), Axes(response="depression", predictor="weight")
    )
