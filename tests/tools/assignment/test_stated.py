"""What a value listed under a task states (tools.assignment.stated), and what a task asks for by
name (tools.assignment.task_symbols, tools.assignment.task_needs), on handout wording from
outside this repository."""

from labscribe.tools.assignment.fit_asks import asks
from labscribe.tools.assignment.stated import extreme_unanswered, model_not_line, unit_unknown
from labscribe.tools.assignment.task_fit import differs
from labscribe.tools.assignment.task_needs import unmet
from labscribe.tools.assignment.task_symbols import asked_symbols
from labscribe.tools.fits.fit_result import Fit, Parameter


def test_the_largest_reading_answers_only_the_largest_measured_value() -> None:
    assert not extreme_unanswered("Find the largest current you recorded.")
    assert extreme_unanswered("Locate every maximum of the collector current.") == "every maximum"
    assert extreme_unanswered("Bestimmen Sie jedes Maximum der Kurve.") == "jedes Maximum"
    assert extreme_unanswered("Repérez tous les maxima du courant.") == "tous les maxima"
    assert extreme_unanswered("找出每个极大值对应的电压。") == "每个极大值"
    # a maximum a formula of fitted parameters defines; a model's limit
    peak = "At which wavelength does the filter transmit most, and what is T_max = A/w?"
    assert extreme_unanswered(peak) == "T_max"
    # Metcalf & Eddy's wording of the first-order BOD model: the ultimate BOD L
    assert "ultimate BOD" in extreme_unanswered("Estimate the ultimate BOD L and the rate k.")


def test_parameters_without_units_where_the_columns_have_them_are_not_stated() -> None:
    bod = Fit(table="b.txt", x="t", y="BOD", x_unit="d", y_unit="mg/L",
              model="y = L0·(1 − e^(−k·t))", variable="t",
              parameters=[Parameter(name="L0", value=0.0191, stderr=0.0025),
                          Parameter(name="k", value=0.53, stderr=0.2)])  # fmt: skip
    assert unit_unknown(bod) == ["L0", "k"]
    stated = bod.model_copy(update={"parameters": [
        Parameter(name="L0", value=19.1, stderr=2.5, unit="mg/L"),
        Parameter(name="k", value=0.53, stderr=0.2, unit="1/d")]})  # fmt: skip
    assert unit_unknown(stated) == []


def test_a_column_named_r2_is_no_r_squared_and_a_part_is_no_quantity() -> None:
    assert unmet("再由 75 ℃ 降温，在相同温度点记录阻值 R2", []) == []
    assert unmet("Fit B(z) = Bmax·R3/[R2 + (z - z0)2]3/2 to the scan.", []) == []
    assert unmet("Give the R2 of the fit.", []) == ["R²"]
    assert asked_symbols("Calculate the power dissipated in X at the largest current.") == [
        "the power dissipated in X"
    ]
    assert asked_symbols("Determine the spring constant k from the slope.") == ["k"]


def test_spacings_of_the_maxima_against_their_order_are_not_the_current_curve() -> None:
    # authorea.com/users/66111/articles/85655 (a Franck-Hertz report): "the measured spacings
    # between the maxima ... were plotted against the minimum order (n) ... using a linear fit"
    task = "Plot the spacings between the maxima against their order n and use a linear fit."
    line = Fit(table="fh.txt", x="U2", y="IA", model="linear", formula="slope·x + intercept",
               good=True)  # fmt: skip
    assert differs(line, asks([task])[task])


def test_the_model_a_task_refers_to_is_not_a_straight_line() -> None:
    # R's cars data (Ezekiel 1930): stopping distance as a·v + b·v², not a line
    fit_task = "Fit the model dist = a·speed + b·speed² to the distances by least squares."
    task = "Use the model to predict the stopping distance at 21 mph."
    assert model_not_line(task, [fit_task]) == "dist = a·speed + b·speed²"
    assert model_not_line(task, ["Fit a straight line to dist against speed."]) == ""
    assert model_not_line("Predict the distance at 21 mph.", [fit_task]) == ""
    assert model_not_line("Berechnen Sie mit Ihrem Modell den Weg bei 21 mph.", [fit_task])


def test_a_fitted_limit_named_by_its_symbol_is_stated() -> None:
    """The ultimate BOD L0 (eval2's BOD handout) and the ultimate carbonaceous oxygen demand L
    (Metcalf & Eddy's wording) are the fitted L0 and L where those are listed; every maximum
    is never one value, and a peak defined by a formula is stated only under its name."""
    from labscribe.tools.assignment.stated import extreme_stated

    task = "Fit y(t) = L0·(1 − e^(−k·t)). Give the ultimate BOD L0 and the rate constant k."
    unanswered = extreme_unanswered(task)
    assert extreme_stated(unanswered, ["L0 = 19.1 ± 2.5 mg/L, k = 0.53 ± 0.20 1/d"], task)
    assert not extreme_stated(unanswered, ["k = 0.53 ± 0.20 1/d"], task)
    carbonaceous = "Report the ultimate carbonaceous oxygen demand L and the rate constant k."
    unanswered = extreme_unanswered(carbonaceous)
    assert extreme_stated(unanswered, ["L = 19.1 ± 2.5, k = 0.53 ± 0.20"], carbonaceous)
    every = "Find every maximum x and the spacing between them."
    assert not extreme_stated(extreme_unanswered(every), ["x = 7.5 V"], every)
    peak = "What is the peak transmittance T_max = A/w?"
    assert not extreme_stated(extreme_unanswered(peak), ["w = 4.089 ± 0.047 nm"], peak)


def test_a_value_from_the_nominal_data_is_not_a_fitted_one() -> None:
    from labscribe.tools.assignment.stated import fitted_named, from_nominal

    coil = ("Calculate the field at the centre predicted by B(0) = µ0·N·I/(2R) from the nominal "
            "coil data in coil.yaml. Does your fitted Bmax agree with it?")  # fmt: skip
    assert from_nominal(coil) and fitted_named(coil) == {"Bmax"}
    assert from_nominal("Berechnen Sie f0 aus den Nennwerten von L und C.")
    assert from_nominal("Calculer f0 à partir des valeurs nominales de L et C.")
    assert from_nominal("根据标称值计算谐振频率。")
    # a comparison with the nominal value is served by the fitted value
    assert not from_nominal("Compare your R with the nominal value of the resistor.")
    assert not from_nominal("Bestimmen Sie R und vergleichen Sie mit den Nennwerten 1 kΩ.")
    assert from_nominal("Berechnen Sie f0 mit den Nennwerten. Vergleichen Sie.")
    assert fitted_named("Vergleichen Sie mit dem angepassten R.") == {"R"}
