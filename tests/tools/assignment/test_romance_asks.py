"""What tasks in the languages of lab sheets ask for, read as the English ones are: a value
in a unit, a value at a point, the residuals' spread; and what they do not ask for (an
interpolation between points is no fit, a level U = U_max/√2 is no value to work out)."""

from __future__ import annotations

import pytest

from labscribe.tools.analysis.folder import Analysis
from labscribe.tools.assignment.checklist import checklist
from labscribe.tools.assignment.fit_asks import asks
from labscribe.tools.assignment.requested import requested_model, requested_models
from labscribe.tools.assignment.stated import from_nominal
from labscribe.tools.assignment.task_fit import read_the_other_way
from labscribe.tools.assignment.task_needs import ESTIMATE_AT, target_units, unmet
from labscribe.tools.assignment.task_symbols import defined_names
from labscribe.tools.fits.fit_quantities import RESIDUAL_SD
from labscribe.tools.fits.fit_result import Fit, Parameter
from labscribe.tools.formulas.constants import asked_symbols
from labscribe.tools.formulas.formula_notation import formula_in


def test_a_value_asked_in_a_unit_needs_a_value_in_it() -> None:
    task = "Calcular L con su incertidumbre, y la energía por molécula en eV."
    assert target_units(task) == ["eV"]
    assert target_units("Representar ln p frente a 1/T (T en K).") == []
    assert unmet(task, ["L = 32085 ± 192 J/mol"]) != []
    assert unmet(task, ["L = 32085 ± 192 J/mol", "E = 0.3325 eV"]) == []


@pytest.mark.parametrize("task", [
    "Con la recta, calcular la presión de vapor predicha a 100 °C.",
    "Calcolare la deflessione attesa per un carico x = 1 500 000 con la sua incertezza.",
    "Calculer la pression prédite à 100 °C.",
])  # fmt: skip
def test_a_value_at_a_point(task: str) -> None:
    assert ESTIMATE_AT.search(task)


def test_predictors_are_no_point() -> None:
    assert not ESTIMATE_AT.search("Which of the predictors are significant at the 1 % level?")


@pytest.mark.parametrize(
    "words",
    [
        "la deviazione standard dei residui",
        "l'écart-type des résidus",
        "la desviación típica residual",
    ],
)
def test_the_residual_spread(words: str) -> None:
    assert RESIDUAL_SD.search(words)


def test_interpolation_between_points_fits_nothing() -> None:
    task = ("Déterminer les fréquences de coupure (U = U_max/√2) par interpolation linéaire "
            "entre les points mesurés.")  # fmt: skip
    assert requested_model(task) is None
    assert requested_model("Interpolare i dati con una retta y = a + b·x.") is not None


@pytest.mark.parametrize("task", [
    "For each curve, determine the stopping potential as the voltage at which the current "
    "changes sign (linear interpolation between the two neighbouring points).",
    "Bestimmen Sie die Frequenz, bei der U auf U_max/√2 fällt, linear zwischen den Messpunkten.",
    "Read off the voltage at zero current, interpolating linearly between the points.",
])  # fmt: skip
def test_linear_interpolation_between_points_is_no_straight_line_fit(task: str) -> None:
    """The eval's photoelectric handout: "linear" belongs to the interpolation, so no line
    is fitted to I against V as the task's model."""
    assert requested_model(task) is None
    assert requested_model("Fit a linear function to I against V.") is not None


def test_a_level_is_no_value_to_work_out() -> None:
    assert defined_names("Déterminer les fréquences où U = U_max/√2.") == []


@pytest.mark.parametrize("task", [
    "Fit a straight line to y against x and check whether the last points stay on it.",
    "Eseguire un fit lineare di y in funzione di x e valutare se gli ultimi punti seguono.",
    "Passen Sie eine Gerade an y gegen x an und prüfen Sie, ob die letzten Punkte passen.",
])  # fmt: skip
def test_a_check_is_left_beside_the_fit_it_asks_about(task: str) -> None:
    fit = Fit(table="t", x="x", y="y", model="linear", requested=task, good=True,
              parameters=[Parameter(name="slope", value=1.0, stderr=0.1),
                          Parameter(name="intercept", value=2.0, stderr=0.1)])  # fmt: skip
    [row] = checklist(Analysis(tasks=[task], fits=[fit]))
    assert row.left.startswith("the check"), row.left


def test_a_bare_fit_refers_to_the_plot_just_before_it() -> None:
    plot = "Representar p frente a T y, a continuación, ln p frente a 1/T (T en K)."
    [fit] = requested_models([plot, "Ajustar una recta por mínimos cuadrados."])
    assert fit.plotted_before == plot
    # a question about the law two tasks after the plot refers to no plot
    later = requested_models(
        [
            "Plot U vs. I.",
            "Fit U = R·I + U0 to each set.",
            "Is the linear (ohmic) law confirmed? Quote R² of each fit.",
        ]
    )
    assert [r.plotted_before for r in later] == ["", ""]


def test_a_formed_axis_is_its_own_symbols_line_not_another_tasks() -> None:
    """√I against U is no swapped line of |U0| against ν; I against U is U against I's."""
    line = [Parameter(name="slope", value=1.0, stderr=0.1)]
    formed = Fit(table="t", x="U", y="√I", model="linear", good=True, parameters=line)
    task = "Plot |U0| against the light frequency ν and fit a straight line."
    assert not read_the_other_way(formed, asks([task])[task], None)
    plain = Fit(table="t", x="I", y="U", model="linear", good=True, parameters=line)
    task = "Plot I against U and fit a straight line."
    assert read_the_other_way(plain, asks([task])[task], None)


@pytest.mark.parametrize(
    ("task", "asked"),
    [
        ("En déduire k = 1/τ et τ avec leurs incertitudes-types.", {"k", "τ"}),
        ("Ricavare k dalla pendenza della retta.", {"k"}),
        ("Bepaal g uit de helling.", {"g"}),
        ("Wyznacz przyspieszenie ziemskie g.", {"g"}),
        ("Report the slope and the coefficient of determination R².", set()),
    ],
)  # fmt: skip
def test_the_verbs_that_ask_for_a_value_in_the_languages_of_handouts(
    task: str, asked: set[str]
) -> None:
    """ "en déduire τ" asks for τ as "determine τ" does; "the coefficient of determination"
    is a noun and asks for no R."""
    assert asked_symbols((task,), "", {}) == asked


def test_the_value_a_setups_geometry_predicts_is_worked_out_from_it() -> None:
    """The eval's capacitor handout: "il valore atteso di k a partire dai parametri
    geometrici" is no fitted k."""
    assert from_nominal("Calcolare il valore atteso di k a partire dai parametri geometrici.")
    assert from_nominal("Compute the expected value of k from the geometry of the plates.")
    assert not from_nominal("Fit F against U² and give k.")


def test_a_task_without_its_fit_names_no_other_fit_as_the_nearest() -> None:
    """The eval's RLC report answered a resonance task with "this report has only a damped
    oscillation fit of column 2 against column 1": a fit of another file's data."""
    task = "Plot U_C/U_0 against f and fit a straight line."
    frequency = Parameter(name="frequency", value=1.0, stderr=0.1)
    other = Fit(table="scope.csv", x="column 1", y="column 2", model="damped oscillation",
                good=True, parameters=[frequency])  # fmt: skip
    [row] = checklist(Analysis(tasks=[task], fits=[other]))
    assert "column 2 against column 1" not in row.left, row.left


def test_a_ratio_on_a_formulas_left_side_is_kept() -> None:
    """`U_C/U_0 = …` was cut to `U_0 = …`, a formula of another response."""
    written = formula_in("Fit U_C/U_0 = 1/√((1 − f²/f₀²)² + (f/(Q f₀))²) to obtain f₀.")
    assert written == "U_C/U_0 = 1/√((1 − f²/f₀²)² + (f/(Q f₀))²)"
    assert formula_in("Fit I/I_0 = exp(-mu*d) to the data.") == "I/I_0 = exp(-mu*d)"
    assert formula_in("Fit 1/f = 1/b + 1/g to the data.") == "1/f = 1/b + 1/g"
