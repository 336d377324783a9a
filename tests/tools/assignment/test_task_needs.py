"""What a task asks the values listed under it to hold (tools.assignment.task_needs, its symbols
read by tools.assignment.task_symbols), on handout wording from outside labscribe; each source
is named beside its case."""

import pytest

from labscribe.tools.assignment.task_needs import (
    left_undone,
    part_of_data,
    plot_only,
    target_units,
    unmet,
)
from labscribe.tools.assignment.task_symbols import asked_symbols

# The test notebook of Troels Petersen's Applied Statistics course (github simonguld/AppStat2022)
APPSTAT = "Calculating Weighted Mean, Standard Deviation, χ² and χ²-probability."
# What tools.fits.repeat_evidence writes for a series with an uncertainty column.
WEIGHTED = (
    "distance (hook.csv): mean 17.82 ± 0.09 (standard error; n = 4); standard deviation "
    "0.19; weighted mean (weights 1/σ²) 17.81 ± 0.15 from 4 values; χ² = 1.29 for 3 degrees "
    "of freedom, Birge ratio 0.65 (p = 0.73): the values agree with their uncertainties"
)


def test_a_named_statistic_must_be_among_the_values() -> None:
    assert unmet(APPSTAT, []) == ["the weighted mean", "χ²", "the standard deviation"]
    assert unmet(APPSTAT, [WEIGHTED]) == []
    pooled = "g (gravity.csv): mean 78.9 ± 1.3 (standard error; n = 81); standard deviation 11.8"
    assert unmet(APPSTAT, [pooled]) == ["the weighted mean", "χ²"]


def test_chinese_and_german_statistics() -> None:
    # a metrology exam question (222.198.130.40 .../showsubject.aspx?id=4496124630854f3d...)
    assert unmet("试计算加权算术平均值及其实验标准偏差。", []) == [
        "the weighted mean", "the standard deviation"
    ]  # fmt: skip
    assert unmet("Berechnen Sie den gewichteten Mittelwert und die Standardabweichung.", []) == [
        "the weighted mean", "the standard deviation"
    ]  # fmt: skip


def test_the_symbol_a_verb_asks_for_must_have_a_value() -> None:
    # tests/data/real/handouts/danbai_shiyan_zh.txt and danbai_wenti_zh.txt
    assert asked_symbols("4. 根据公式 g = 4π²l/T² 计算重力加速度 g。") == ["g"]
    assert asked_symbols("并利用此图线可求出重力加速度g=______.") == ["g"]
    assert asked_symbols("由斜率 b = nR/V 求容器内气体的物质的量 n。") == ["n"]
    # the verb's object, not a word before it or a unit after a number
    power = "a) Berechnen Sie für jede Messung die elektrische Leistung P = U · I."
    assert asked_symbols(power) == ["P"]
    assert asked_symbols("Estimate the mean depression for a roller of 8 t.") == []
    assert asked_symbols("Bestimmen Sie daraus die Viskosität von Wasser bei 20 °C.") == []
    # a word of one letter between words is no symbol: Polish "i" (and), Czech "a" (and)
    assert unmet("Oblicz sprawność każdego ogniwa i porównaj wyniki.", []) == []
    assert unmet("Vypočtěte účinnost a porovnejte hodnoty.", []) == []
    assert asked_symbols("Determine the current i from the slope.") == ["i"]
    # the "and" of two symbols listed (a Unicamp Wheatstone handout's task 5), not the charge e
    thermistor = "obtenha os coeficientes linear e angular; determine A e B do termistor."
    assert asked_symbols(thermistor) == ["B"]  # `A` is never asked: it is the article
    assert asked_symbols("Determine T0 y T1 del sistema.") == ["T0"]
    assert asked_symbols("Calcule h e c.") == ["h"]
    assert asked_symbols("Determine e and m from the curvature.") == ["e"]
    # "e/m como pendiente": the value asked is the line's slope, which a listed slope gives
    slope = "graficar 2V en función de B²R² y obtener e/m como pendiente de un ajuste lineal."
    assert unmet(slope, ["slope = (171.2 ± 6.5)e9, intercept = 15 ± 16"]) == []
    assert unmet(slope, ["intercept = 15 ± 16"]) == ["e"]
    assert unmet("Determine k as the slope of F against x.", ["slope = 3.1 ± 0.2 N/m"]) == []
    assert asked_symbols("Determine Young’s modulus E from the linear elastic part.") == ["E"]
    assert unmet("Determine the spring constant k from the slope.", ["slope = 3.1 ± 0.2 N/m"]) == [
        "k"
    ]  # fmt: skip
    assert unmet("Measure R and the DC resistance.", ["R_measured = 47.1 Ω (params.ini)"]) == []


def test_a_conversion_needs_a_value_in_its_unit() -> None:
    assert target_units("Convert the boiling points to kelvin and the pressures to kPa "
                        "(1 inHg = 3.38639 kPa).") == ["K", "kPa"]  # fmt: skip
    assert target_units("Remember to add back the 299 000 km/s.") == ["km/s"]
    assert target_units("Convert your final mean to the passage time t in microseconds.") == ["µs"]
    assert unmet("Give the means as g in cm/s².", ["mean 78.9 ± 1.3 (standard error)"]) == [
        "the conversion to cm/s²"
    ]  # fmt: skip
    assert unmet("Give the means as g in cm/s².", ["mean 980.0789 ± 0.0013 cm/s²"]) == []


def test_a_value_at_a_named_point_must_be_predicted() -> None:
    task = "Estimate the mean depression for a roller of 8 t, with a 95 % confidence interval."
    assert unmet(task, []) == ["the value at the point it names", "the confidence interval"]


@pytest.mark.parametrize(
    ("task", "values", "material", "left"),
    [
        ("Compute χ² of the series means.", ["mean 78.9 ± 1.3"], False,
         "not done: χ² is not in this report; work it out from the results given"),
        ("Plot the depression against the roller weight.", [], True,
         "the plot: this report lists only the data it needs"),
        ("Compare the weighted mean with the plain mean.", ["mean 78.9 ± 1.3"], False,
         "not done: the weighted mean is not in this report; work it out from the results "
         "given; then the comparison"),
        ("Give the slope.", ["slope = 2.67 ± 0.70 mm/t"], False, ""),
        ("Give the resistance of the coil.", [], True,
         "all of it: this report lists only the data and settings the task starts from"),
    ],
)  # fmt: skip
def test_left_undone_says_what_is_missing(
    task: str, values: list[str], material: bool, left: str
) -> None:
    judged = ["the comparison"] if "Compare" in task else []
    assert left_undone(task, values, judged, material=material) == left


def test_a_digit_comparison_needs_the_values_in_full() -> None:
    # NIST StRD's own wording for its certified values is "significant digits"
    task = "Compare your coefficients with the certified values; how many significant digits agree?"
    assert unmet(task, ["GNP = -0.036 ± 0.033"]) == [
        "the values in full precision (those listed are rounded to their errors)"
    ]


def test_a_symbol_is_given_by_the_words_its_fit_parameter_goes_by() -> None:
    """An exponential's `decay` is τ and its `amplitude` U0 (issue 26's kondensator handout):
    the row must not call them missing."""
    task = "Bestimmen Sie U0 und die Zeitkonstante τ durch Anpassung von U(t) = U0·e^(−t/τ)."
    fitted = ["decay = 0.4720 ± 0.0012 s, amplitude = 9.11 ± 0.02 V (fit of U against t)"]
    assert unmet(task, fitted) == ["U0"]
    assert unmet(task, fitted, frozenset({"decay", "tau", "amplitude", "constant"})) == []


def test_a_quantity_a_task_defines_by_its_formula_must_be_listed_by_its_name() -> None:
    """ "Calculate the FWHM = 2√(2 ln 2)·w" asks for the FWHM, not the w it starts from (the
    Gaussian's FWHM = 2√(2 ln 2)·σ, as Mantid's fit-function docs write it); a noun the task
    calls it by names it too ("the bandwidth, Δf"); a formula to fit defines no value."""
    from labscribe.tools.assignment.task_symbols import defined_names

    fwhm = "Calculate the full width at half maximum, FWHM = 2√(2 ln 2)·w."
    assert unmet(fwhm, ["w = 4.089 ± 0.047 nm (fit of T against λ)"]) == ["FWHM"]
    assert unmet(fwhm, ["FWHM = 9.63 ± 0.11 nm (derived)"]) == []
    hall = ("Berechnen Sie daraus den Hall-Koeffizienten R_H = c·d (Probendicke d aus "
            "probe.ini) und die Ladungsträgerdichte n = 1/(e·|R_H|).")  # fmt: skip
    assert unmet(hall, ["c (I·B) = -0.0046243 ± 0.0000092 mV/(mA·mT)"]) == ["R_H", "n"]
    assert unmet("Compute the bandwidth, Δf = f0/Q.", ["bandwidth = 1731.4 ± 1.3 Hz"]) == []
    assert defined_names("Fit T(λ) = (A/w)·exp(−½((λ − λc)/w)²) and report A and w.") == []
    assert defined_names("Calculate B at z = 0 cm.") == []


def test_values_with_their_standard_deviations_state_their_own_spread() -> None:
    """ "a und c mit ihren Standardabweichungen" (Hall handout) and "with their standard
    errors" ask for each value's ±, not for a standard deviation of the data."""
    regression = ["a (I) = 0.2908 ± 0.0017 mV/mA; c (I·B) = -0.0046243 ± 0.0000092 mV/(mA·mT)"]
    task = "Geben Sie a und c mit ihren Standardabweichungen an."
    assert unmet(task, regression) == []
    assert unmet(task, ["a (I) = 0.2908 mV/mA"]) == ["the standard deviation"]
    spread = "Give the standard deviation of the ten readings."
    assert unmet(spread, regression) == ["the standard deviation"]


@pytest.mark.parametrize(
    "task",
    [
        "Estimar la longitud efectiva, L = g T² / (4π²), con g = 9,8 m/s², propagando el error.",
        "Estimate the effective length, L = g T^2/(4 pi^2), with g = 9.8 m/s^2.",
        "Schätzen Sie die Länge L = g T²/(4π²) ab, mit g = 9,81 m/s².",
    ],
)
def test_a_value_a_task_gives_is_not_one_it_asks_for(task: str) -> None:
    assert unmet(task, ["T: mean 2.0580 ± 0.0074 s"]) == ["L"]


@pytest.mark.parametrize(
    ("task", "part"),
    [
        ("Verwenden Sie nur die Messwerte ab t* = 180 s und bestimmen Sie λ.", "nur die Messwerte"),
        ("Ziehen Sie für die ersten 16 Messwerte den Anteil ab.", "die ersten 16 Messwerte"),
        ("Fit only the points after the peak.", "only the points"),
        ("Using the first 10 measured values, find the slope.", "the first 10 measured values"),
        ("Ajuster sur les 5 premiers points.", "les 5 premiers"),
        ("Determine la pendiente con solo los datos para t > 2 s.", "solo los datos"),
        ("Fit the line for T ≥ 300 K.", "T ≥ 300 K"),
        ("Fit a straight line to the linear part of the Gran plot.", "linear part"),
        ("Passen Sie im linearen Bereich eine Gerade an.", "linearen Bereich"),
        ("Ajuster une droite sur la partie linéaire.", "partie linéaire"),
    ],
)
def test_a_task_on_part_of_the_data_says_which(task: str, part: str) -> None:
    assert part_of_data(task) == part


@pytest.mark.parametrize(
    "task", ["Fit a line to all the data.", "Determine the first maximum.", "Plot U against t."]
)
def test_a_task_on_all_the_data_names_no_part(task: str) -> None:
    assert part_of_data(task) == ""


@pytest.mark.parametrize(
    ("task", "missing"),
    [
        ("Berechnen Sie Mittelwert und Standardfehler des Durchmessers der kleinen Kugel und "
         "daraus die Dichte ρ_kl (mit Unsicherheit). Berechnen Sie ebenso die Dichte ρ_gr.",
         ["ρ_kl", "ρ_gr"]),
        ("Compute the mean diameter and hence the density ρ_s of the ball.", ["ρ_s"]),
    ],
)  # fmt: skip
def test_a_value_worked_out_of_the_statistics_is_asked_for_too(
    task: str, missing: list[str]
) -> None:
    """The mean is listed; the density "daraus" (hence) is not, and is left to the student."""
    assert unmet(task, ["mean 15.202 ± 0.020 mm (standard error; n = 10)"]) == missing


@pytest.mark.parametrize(
    ("task", "given", "named", "missing"),
    [
        # each run's largest force is listed, not their mean (a tensiometer's runs, in Czech)
        ("Pro každou kapalinu spočítejte průměrnou F_max a její nejistotu.",
         ["The largest F in the data is 34.5 mN at t = 12.1 s (row 72)"], frozenset(),
         ["the mean"]),
        ("Give the mean period.", ["T: mean 2.0580 ± 0.0074 s"], frozenset(), []),
        # a column of the data holds the mean the task asks for
        ("Oblicz średni kąt wychylenia.", [], frozenset({"data: średni kąt against n"}), []),
        # a diameter is no mean: Polish "średnica", Czech "průměr" alone
        ("Zmierz średnicę cewki.", [], frozenset(), []),
        ("Změřte průměr kuličky.", [], frozenset(), []),
        ("Oblicz odchylenie standardowe.", [], frozenset(), ["the standard deviation"]),
        # a symbol keeps its subscript digit
        ("Oblicz wartość B₀ dla każdego pomiaru.", [], frozenset(), ["B_0"]),
    ],
)  # fmt: skip
def test_a_mean_a_spread_and_a_subscripted_symbol_asked_in_other_languages(
    task: str, given: list[str], named: frozenset[str], missing: list[str]
) -> None:
    assert unmet(task, given, named) == missing


def test_a_file_name_or_a_qualifying_word_is_no_symbol_a_task_asks_for() -> None:
    """ "aus c.csv" names no c; "k dinámico = 4π²·m/T²" asks for k, not for "dinámico"."""
    assert asked_symbols("Bestimmen Sie aus c.csv die Resonanzfrequenz.") == []
    task = "Calcular k dinámico = 4π²·m/T² con su incerteza."
    assert unmet(task, []) == ["k"]


def test_a_symbol_the_task_calls_the_slope_is_given_by_the_lines_slope() -> None:
    """KIT's reversible pendulum: "die Periodendauer T des Pendels (Steigung)" is answered by
    the slope listed; "q = U_C,max/U₀" defines q over a subscript that lists two parts."""
    task = ("Bestimmen Sie durch lineare Regression die Periodendauer T des Pendels (Steigung) "
            "und den Achsenabschnitt.")  # fmt: skip
    assert unmet(task, ["slope = 1.6039 ± 0.0010 s, intercept = -0.039 ± 0.010 s"]) == []
    assert unmet(task, ["intercept = -0.039 ± 0.010 s"]) == ["T"]
    quality = ("Bestimmen Sie aus c.csv die Resonanzfrequenz (Maximum der Kondensatorspannung), "
               "U_C,max und die Güte q = U_C,max/U₀.")  # fmt: skip
    assert unmet(quality, ["The largest U_c in the data is 640 mV"]) == ["q"]


def test_the_symbols_in_a_bracket_after_the_noun_a_task_asks_for() -> None:
    """KIT's reversible pendulum: "bestimmen Sie den Schnittpunkt (h*, T*)" is not done by
    the lines it is worked out from."""
    task = ("Passen Sie an T_f(h) und T_b(h) jeweils eine Gerade an und bestimmen Sie den "
            "Schnittpunkt (h*, T*) mit Unsicherheiten.")  # fmt: skip
    assert unmet(task, ["slope = 22.5 ± 2.5 ms/cm (fitted to M1f against h)"]) == ["h*"]


def test_a_plateau_slope_is_of_part_of_the_data() -> None:
    task = "Zählrate gegen Spannung auftragen, Plateausteigung (in % pro 100 V) bestimmen."
    assert part_of_data(task) == "Plateausteigung"
    assert part_of_data("Determine the plateau value of the charging curve.") == ""


def test_a_line_over_all_the_rows_is_not_a_plateaus_slope() -> None:
    """A task on part of the data (its plateau) is not answered by the line through all the
    rows, onset included; a fit over the task's range is."""
    from labscribe.tools.assignment.fit_asks import asks
    from labscribe.tools.assignment.task_fit import differs
    from labscribe.tools.fits.fit_result import Fit

    task = "Zählrate gegen Spannung auftragen, Plateausteigung bestimmen."
    ask = asks([task])[task]
    whole = Fit(table="k.csv", x="U", y="R", model="linear", requested=task)
    assert "over all its rows" in differs(whole, ask)
    plateau = whole.model_copy(update={"task_range": (380.0, 540.0)})
    assert differs(plateau, ask) == ""


def test_a_line_through_the_origin_in_the_words_of_other_languages() -> None:
    """ "Regressione lineare x = bP (retta per l'origine)" (Trento's spring handout) is not
    answered by a line with an intercept."""
    from labscribe.tools.assignment.fit_asks import asks
    from labscribe.tools.assignment.task_fit import differs
    from labscribe.tools.fits.fit_result import Fit

    task = "Regressione lineare x = bP (retta per l'origine): k = 1/b₀."
    ask = asks([task])[task]
    assert ask.origin == "per l'origine"
    line = Fit(table="m.csv", x="m", y="t", model="linear", requested=task)
    assert "with an intercept" in differs(line, ask)


@pytest.mark.parametrize(
    ("task", "only"),
    [
        # eval14's Spanish hysteresis lab: a plot of each loop asks for no line through it
        ("Graficar Φ vs I para cada curva, indicando núcleo, frecuencia y voltaje.", True),
        ("2 回の測定それぞれについて I_P–V_ACC グラフを描け。", True),
        ("Graficar V vs I y ajustar una recta.", False),
        ("Graficar la distancia frente al tiempo y determinar la velocidad.", False),
        ("Représenter ln η en fonction de 1/T et déterminer E.", False),
    ],
)
def test_a_plot_asked_in_other_languages_asks_for_no_value(task: str, only: bool) -> None:
    assert plot_only(task) is only


def test_nordic_and_russian_verbs_ask_for_the_symbol_they_name() -> None:
    # the torsion-pendulum handout of a Swedish course (the fys3 repository of tests/data/real)
    assert asked_symbols("Bestäm l = λ/I för varje spänning U genom regression.") == ["l"]
    assert asked_symbols("Beregn middelverdien k̄ og standardavviket σ.") == ["k"]
    assert asked_symbols("Определите период колебаний T по графику.") == ["T"]
    assert unmet("Bestäm l = λ/I för varje spänning U.", ["decay = 4.681 ± 0.045"]) == ["l"]


def test_what_a_value_is_compared_with_is_not_asked_for() -> None:
    compared = "Determine the driving frequency of largest amplitude and compare it with ω_r."
    assert asked_symbols(compared) == []
    assert asked_symbols("Bestäm drivfrekvensen och jämför med ω_r från teorin.") == []
    assert asked_symbols("Determine f_max and compare it with ω_r.") == ["f_max"]


def test_a_barred_symbol_is_the_mean_listed() -> None:
    # the Norwegian counting-statistics handout: "Beregn middelverdien k̄ og standardavviket σ"
    listed = ["mean 4.35 ± 0.23 (standard error; n = 100); standard deviation 2.32"]
    assert unmet("Beregn middelverdien k̄ og standardavviket σ.", listed) == []
    assert unmet(r"Compute \bar{k} and its standard error.", listed) == []
    assert unmet("Calculate k and σ.", listed) == ["k"]  # no bar: a value of its own
