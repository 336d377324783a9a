import pytest

from labscribe.tools.assignment.fit_asks import asks
from labscribe.tools.assignment.requested import requested_model, requested_models


@pytest.mark.parametrize(
    ("task", "shape"),
    [
        ("Determine k from a straight-line fit of F against x.", "linear"),
        ("Plot U against I and determine R from the slope.", "linear"),
        ("Show that the extension is proportional to the load.", "proportional"),
        ("Fit a line through the origin to the calibration data.", "proportional"),
        ("Fit an exponential decay to the discharge curve and find τ.", "exponential"),
        ("Fit the warming curve as an approach to saturation.", "exponential approach"),
        ("Fit a power law to the period against the length.", "power law"),
        ("Fit a Gaussian to the spectral line and give its FWHM.", "gaussian"),
        ("Fit a Lorentzian to the absorption dip.", "lorentzian"),
        # a doublet: two lines, however the count is written
        ("Bepaal de posities (bijv. met een fit van twee Gaussische pieken).", "two gaussians"),
        ("Fit a double Gaussian to the spectrum and give the splitting.", "two gaussians"),
        ("Passen Sie zwei Gauß-Peaks an das Dublett an.", "two gaussians"),
        ("Ajuster deux gaussiennes au doublet du sodium.", "two gaussians"),
        ("用两个高斯峰拟合钠双线。", "two gaussians"),
        ("Fit two Lorentzians to the ODMR dips.", "two lorentzians"),
        ("Fit the resonance curve and determine f0 and Q.", "resonance"),
        ("Describe the ringdown as a damped oscillation.", "damped oscillation"),
        ("Fit a quadratic to the trajectory.", "quadratic"),
        ("用直线拟合电压与电流的关系，求电阻。", "linear"),
        ("对放电曲线作指数衰减拟合，求时间常数。", "exponential"),
        ("Bestimmen Sie die Federkonstante aus der Steigung der Geraden.", "linear"),
        ("Passen Sie eine gedämpfte Schwingung an die Messwerte an.", "damped oscillation"),
        ("Beschreiben Sie den Verlauf durch ein Potenzgesetz.", "power law"),
        # Italian, Spanish, French and Portuguese sheets (the eval folders' wording)
        (
            "Riportare in grafico la densità ottica in funzione della quantità di carboidrato e "
            "interpolare i dati con una retta (metodo dei minimi quadrati).",
            "linear",
        ),
        ("Represente la distancia d frente a v² y ajuste una recta.", "linear"),
        ("Tracer U en fonction de t et ajuster une droite.", "linear"),
        ("Faça o gráfico de V em função de I e ajuste uma reta.", "linear"),
        # Russian, Polish and Czech: a slope by least squares, a straight line fitted
        ("Методом наименьших квадратов определите наклон зависимости f_n(n).", "linear"),
        ("Dopasuj prostą metodą najmniejszych kwadratów i podaj jej nachylenie.", "linear"),
        ("Proložte body přímkou metodou nejmenších čtverců.", "linear"),
    ],
)
def test_requested_model_reads_the_model_a_task_names(task: str, shape: str) -> None:
    request = requested_model(task)
    assert request is not None and (request.shape, request.formula) == (shape, None)


@pytest.mark.parametrize(
    ("task", "formula"),
    [
        ("Fit a power law T = a L^b to the period against the length.", "T = a L^b"),
        ("Fit y = b1*(1-exp(-b2*x)) to the data.", "y = b1*(1-exp(-b2*x))"),
        (r"Fit $U(t) = U_0 e^{-t/\tau}$ to the discharge.", r"U(t) = U_0 e^{-t/\tau}"),
    ],
)
def test_requested_model_reads_a_formula_it_writes(task: str, formula: str) -> None:
    request = requested_model(task)
    assert request is not None and request.formula == formula


@pytest.mark.parametrize(
    "task",
    [
        "Determine the quality factor Q = f0/(f2 - f1).",  # a definition, not a model
        "From a, determine the gravitational acceleration g.",
        "Measure the period ten times.",
        "Discuss the decay of the signal quality over the day.",
        "Tragen Sie T² gegen l auf.",  # a linearising plot asks for no value
        "Plot T against l and determine the period at l = 1 m.",  # no linearising axis
        # a statistic's name, not a parabola (Trento's Fisica 1 handout)
        "k₀ ± δk con (a) media pesata e (b) media campionaria e scarto quadratico medio.",
        "Geben Sie die mittlere quadratische Abweichung der Messwerte an.",
        # a line of data made logarithms, which no column holds (Göttingen's 1E1 sheet;
        # Cornell CEE 4530's gas transfer): no line of the raw columns
        "Transformieren Sie die Rohdaten geeignet in logarithmische Größen und bestimmen Sie "
        "mittels linearer Regression die Zeitkonstante.",
        "Estimate k using linear regression of equation 1.5: ln(C*-C)/(C*-C_0) = -k(t-t_0).",
        # "linear" of no line (KIT's Franck-Hertz handout)
        "From the Afg3 curve, identify as many structures in I_A(U_B) as possible; they are "
        "essentially determined by linear combinations of the two lowest excitation energies.",
        "The voltage U2 was swept by a linear ramp.",
        # a model made a line, no axes named (Unicamp F 329): the line of ln R against 1/T
        "Parte II: linearize o modelo do termistor.",
        "Linearisieren Sie das Modell.",
        # a histogram's distributions are no curve of one column against another (UofT PHY224)
        "Overlay the Poisson probability mass function with μ equal to the mean count and a "
        "Gaussian with the same mean and standard deviation √μ.",
        "Fit a Gaussian to the histogram of the counts.",
        # an uncertainty's propagation is how the error bars are formed
        "Compute the uncertainty of each point, u(z) = u(y)/y.",
    ],
)
def test_requested_model_finds_none_where_no_fit_is_asked(task: str) -> None:
    assert requested_model(task) is None


@pytest.mark.parametrize(
    "task",
    [
        # TU Dortmund V353, as its handouts word it
        "Tragen Sie ln(U_C) gegen t auf und bestimmen Sie die Zeitkonstante RC mit Unsicherheit.",
        "Plot T² against l and determine g.",
        "Graficar ln(V) en función de t y calcular la constante de tiempo τ.",
        "Fit a straight line to ln(U_C) against t and determine RC.",  # a column's logarithm
    ],
)
def test_a_value_from_a_linearising_plot_is_its_straight_line(task: str) -> None:
    """A linearising axis (ln U, T²) plotted and a value asked: the plot's straight line,
    whose slope and intercept the handout's law turns into the value (tools.formulas.line_law)."""
    request = requested_model(task)
    assert request is not None and request.shape == "linear" and request.formula is None


# "linear" naming a plot's scale, in real text: a docstring of a German plotting script
# ("Shockley-Kennlinie linear und logarithmisch", find_string id 70087760863), a student's
# methods section on GitHub (id 15734195472), and the two handouts of issue 26's evaluation
# (kondensator_entladung, diode_iv_1n4148) that were read as asking for a straight line.
@pytest.mark.parametrize(
    "task",
    [
        "Shockley-Kennlinie linear und logarithmisch, Temperaturabhaengigkeit.",
        "N and t were plotted against each other with both linear and logarithmic scales of N "
        "to visualise the data.",
        "1. Stellen Sie U(t) linear und halblogarithmisch dar.",
        "1. Plot the current against the voltage (linear and with a logarithmic current axis).",
        "Plot N against t on a linear scale and on a semi-log scale.",
        "分别用线性坐标和半对数坐标作 U-t 图。",
    ],
)
def test_requested_model_reads_a_plot_scale_as_no_model(task: str) -> None:
    assert requested_model(task) is None


# A straight line on semi-log paper is an exponential, on log-log paper a power law: the
# Phys 223 RC-circuit exercise (jcdaly.com/phys223Lab/Lab3RCcircuits/Exercise3.html) and a
# pharmacokinetics docstring on GitHub (curve stripping, find_string id 22075343218).
@pytest.mark.parametrize(
    ("task", "shape"),
    [
        ("Plot the voltage as a function of time on semi-log paper to achieve a straight line "
         "with a slope of -1/RC.", "exponential"),
        ("在半对数图上，浓度-时间曲线的末端通常会呈现一条直线。", "exponential"),
        ("Plot T against L on log-log paper and draw the best straight line.", "power law"),
        ("Plot ln(U) against t on linear axes and fit a straight line.", "linear"),
    ],
)  # fmt: skip
def test_requested_model_reads_a_straight_line_on_log_paper(task: str, shape: str) -> None:
    request = requested_model(task)
    assert request is not None and request.shape == shape


@pytest.mark.parametrize(
    "task",
    [
        "(c) Predict the volume in cubic feet of a tree with D = 14.0 in and H = 80 ft.",
        "Give the flow rate in cubic metres per hour.",
        "Report the displacement in cubic centimetres.",
    ],
)
def test_a_volume_in_cubic_units_asks_for_no_cubic(task: str) -> None:
    request = requested_model(task, 1)
    assert request is None or request.shape != "cubic"


def test_a_cubic_polynomial_is_still_asked_for() -> None:
    request = requested_model("Fit a cubic to V against D.", 1)
    assert request is not None and request.shape == "cubic"


def test_a_hypothesis_that_one_parameter_equals_another_asks_for_no_model() -> None:
    task = ("Prüfen Sie die Hypothese a = b (d. h. T hängt nur vom Mittelwert ab) und "
            "diskutieren Sie die Kollinearität der beiden Prädiktoren.")  # fmt: skip
    assert requested_model(task) is None


@pytest.mark.parametrize(
    "task",
    [
        # UNICAMP's compass in a Helmholtz coil (Portuguese handout)
        "Calcule a constante da bobina k_B = B/I (T/A) implicada pelos ajustes.",
        "Work out R = U/I from the fits of task 2.",
    ],
)
def test_a_task_that_works_from_fits_done_before_asks_for_none(task: str) -> None:
    assert requested_model(task) is None


@pytest.mark.parametrize(
    ("task", "shape"),
    [
        ("파형을 정현파 A·sin(2πft + φ) + c 로 피팅하고 진폭과 위상을 구하라.", "sine"),
        ("Fit a sinusoid to the input voltage.", "sine"),
        # a line through the amplitudes of a sinusoidal input is a line
        ("Fit a straight line to the amplitude of the sinusoidal signal against f.", "linear"),
        ("Anpassa en dämpad svängning till mätningen.", "damped oscillation"),
        (
            "Bestäm l genom regression med lämplig modell (svagt eller starkt dämpad).",
            "damped oscillation",
        ),
        # the damped signal's model is the exponential the task names
        ("Fit the damped signal with an exponential decay.", "exponential"),
    ],
)
def test_a_task_names_an_oscillation_in_its_words(task: str, shape: str) -> None:
    request = requested_model(task)
    assert request is not None and request.shape == shape, request


def test_a_ratio_beside_a_curved_model_defines_what_to_work_out() -> None:
    # l = λ/I beside a damped fit, τ = RC beside an exponential: what the fit's values give
    damped = requested_model(
        "Bestäm l = λ/I för varje spänning U genom regression med lämplig modell (svagt eller "
        "starkt dämpad) och redovisa i en tabell med förklaringsgrad R²."
    )
    assert damped is not None and damped.formula is None and damped.shape == "damped oscillation"
    exponential = requested_model("Determine τ = RC from an exponential fit.")
    assert exponential is not None and exponential.formula is None
    # beside a line, a ratio is the line's law: R is read off it
    line = requested_model("Bestimmen Sie R aus der Steigung einer Ursprungsgeraden I = U/R.")
    assert line is not None and line.formula == "I = U/R"


def test_a_ratio_asked_for_in_a_sentence_without_a_fit_is_not_the_model_fitted() -> None:
    # the fit is of the free swing; "Bestäm även l = λ/I" asks what to work out of it
    task = (
        "Bestäm egenfrekvensen ω₀ (och periodtiden) genom regression av den fria svängningen. "
        "Bestäm även den naturliga dämpningen l = λ/I utan broms."
    )
    request = requested_model(task)
    assert request is None or request.formula is None, request
    # a law stated on its own, beside a fit, is still the model fitted
    ohm = requested_model("Determine R from a fit. Ohm's law: U = R·I.")
    assert ohm is not None and ohm.formula == "U = R·I"
    # a quantity defined to be plotted is a column to form, and stays the task's formula
    formed = requested_model(
        "Berechnen Sie V_L = π r² L und tragen Sie 1/p gegen V_L auf. Bestimmen Sie durch "
        "lineare Regression Steigung und Achsenabschnitt."
    )
    assert formed is not None and formed.formula == "V_L = π r² L", formed


def test_a_ratio_beside_a_plot_is_still_the_formula_its_fit_must_be() -> None:
    # "Tracer I_γ en fonction de P_γ … déterminer … i = I_γ/P_γ": a straight line of other
    # columns is not that fit, so the task keeps its formula
    plotted = (
        "Tracer I_γ en fonction de P_γ (mêmes distances) et déterminer la grandeur "
        "caractéristique moyenne i = I_γ/P_γ (mA/W) de chaque cellule."
    )
    damped = "Bestäm l = λ/I genom regression med lämplig modell (svagt eller starkt dämpad)."
    found = asks([plotted, damped])
    assert found[plotted].formula == "i = I_γ/P_γ (mA/W)"
    assert found[damped].formula == ""


def test_a_linearising_task_that_names_its_axes_still_asks_for_their_line() -> None:
    task = "Linearisieren Sie: tragen Sie ln R gegen 1/T auf und bestimmen Sie die Steigung."
    request = requested_model(task)
    assert request is not None and request.shape == "linear"


def test_a_model_named_in_portuguese_or_spanish_is_read() -> None:
    """ "a função exponencial", "un ajuste exponencial": the exponential, not the line that
    "sem linearização" (without linearising) would have been read as."""
    task = "Ajuste a função exponencial aos dados de R versus T, sem linearização."
    request = requested_model(task)
    assert request is not None and request.shape == "exponential"


def test_a_task_that_names_a_symbol_of_an_earlier_formula_reports_that_fit() -> None:
    """Berkeley's rod cooling (tests/data/real/vernier/berkeley_rod_cooling_assignment.md):
    task 3 "Report the decay constant γ" is of task 2's formula, not an exponential of its
    own, whose decay time (6.4 min) the checklist gave as if it were γ (0.31 1/min)."""
    tasks = [
        "fit the model T(t) = (4·T0/π) · exp(−γ·(t + t0)/2) + c with free parameters γ, T0, "
        "t0 and c.",
        "Report the decay constant γ (and the other fit parameters) and plot the fitted curve.",
        "Fit an exponential decay to the pressure and report its decay constant.",
    ]
    assert [(r.number, r.shape) for r in requested_models(tasks)] == [(1, None), (3, "exponential")]


@pytest.mark.parametrize(
    ("task", "formula"),
    [
        # a quantity worked out and then plotted against another: the plot's line
        ("Berechnen Sie die molare Leitfähigkeit Λ = κ/c, tragen Sie Λ gegen √c auf "
         "(Kohlrausch’sches Quadratwurzelgesetz) und bestimmen Sie durch lineare Regression "
         "die Grenzleitfähigkeit Λ₀.", None),
        # a law the fit gives, plotted against its variable's reciprocal: the law
        ("Plot p against 1/V and fit a line through the origin, p = k/V.", "p = k/V"),
    ],
)  # fmt: skip
def test_a_definition_plotted_against_another_quantity_is_no_model(
    task: str, formula: str | None
) -> None:
    request = requested_model(task)
    assert request is not None and request.shape in ("linear", "proportional")
    assert request.formula == formula
