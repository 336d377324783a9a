"""Whether a fit is the fit a task asks for (tools.assignment.task_fit): its axes, formula, series
and variant, on handout wording from outside this repository."""

from pathlib import Path

from labscribe.tools.assignment.fit_asks import asks
from labscribe.tools.assignment.task_fit import differs
from labscribe.tools.columns.column import Column
from labscribe.tools.fits.fit_result import Fit, Parameter
from labscribe.tools.formats.tables import TableSummary

REAL = Path(__file__).parents[2] / "data" / "real"


def fit(y: str, x: str, model: str, formula: str, *names: str, variable: str = "") -> Fit:
    parameters = [Parameter(name=n, value=1.0, stderr=0.1) for n in names]
    return Fit(table="t.csv", x=x, y=y, model=model, formula=formula, parameters=parameters,
               variable=variable, good=True)  # fmt: skip


LINE = ("linear", "slope·x + intercept", "slope", "intercept")
ORIGIN = ("proportional", "slope·x", "slope")
EXPONENTIAL = ("exponential", "amplitude·exp(−x/decay) + c", "amplitude", "decay", "c")


def table(*names: str, unit: str = "mm") -> TableSummary:
    columns = [Column(key=n, header=n, name=n, unit=unit if n != "T" else "°C", count=8)
               for n in names]  # fmt: skip
    return TableSummary(id="t.csv", source="t.csv", block=0, encoding="utf-8", delimiter=",",
                        decimal=".", rows=8, columns=columns, x="T")  # fmt: skip


def test_a_straight_line_of_ln_a_is_not_a_nonlinear_exponential() -> None:
    # the wording of issue 26's damped pendulum handout; and a nonlinear exponential is the
    # fit where a handout asks for one (sites.google.com/site/mcculleyapphysics2, Half-Life
    # Lab: "plot a graph of Counts vs. Time (s) and curve fit it with an exponential function")
    task = "Plot ln A against t and fit a straight line to find the damping constant γ."
    assert "nonlinear" in differs(fit("A", "t", *EXPONENTIAL), asks([task])[task])
    assert not differs(fit("ln A", "t", *LINE), asks([task])[task])
    lab = ("Use this program to plot a graph of Counts vs. Time (s) and curve fit it with an "
           "exponential function.")  # fmt: skip
    assert not differs(fit("Counts", "Time", *EXPONENTIAL), asks([lab])[lab])


def test_the_variant_a_task_asks_for_intercept_or_origin() -> None:
    # tests/data/real/handouts/genphys_pendulum_cut.md: "force the fit to pass through the origin"
    text = (REAL / "handouts" / "genphys_pendulum_cut.md").read_text()
    task = next(line for line in text.splitlines() if "through the origin" in line)
    assert "with an intercept" in differs(fit("T^2", "L", *LINE), asks([task])[task])
    assert not differs(fit("T^2", "L", *ORIGIN), asks([task])[task])
    german = (
        "Bestimmen Sie zusätzlich eine Ausgleichsgerade mit Achsenabschnitt und geben Sie R_x an."
    )
    through = fit("I", "U", "I = U/R_x", "I = U/R_x", "R_x", variable="U")
    assert "through the origin" in differs(through, asks([german])[german])
    assert not differs(fit("I", "U", *LINE), asks([german])[german])


def test_one_series_is_not_the_mean_of_heating_and_cooling() -> None:
    tasks = ["Rechnen Sie die Anzeigen in Längenänderungen ΔL um und bilden Sie den Mittelwert "
             "aus Aufheiz- und Abkühlmessung.",
             "Tragen Sie ΔL über ΔT auf und bestimmen Sie die Steigung einer "
             "Ausgleichsgeraden."]  # fmt: skip
    ask = asks(tasks)[tasks[1]]
    assert ask.both
    assert "alone" in differs(fit("auf", "T", *LINE), ask, table("T", "auf", "ab"))
    assert not differs(fit("mean", "T", *LINE), ask, table("T", "mean"))


def test_background_subtracted_and_other_columns() -> None:
    tasks = ["Subtract the background from each count and plot ln(corrected counts) against time.",
             "Determine λ from a weighted straight-line fit."]  # fmt: skip
    ask = asks(tasks)[tasks[1]]
    assert ask.axes is not None and ask.axes.text() == "ln(corrected counts) against time"
    assert differs(fit("counts", "time", *EXPONENTIAL), ask)
    # the voltages of the maxima against n are not the current against the voltage
    task = "Plot the voltages of the maxima against their order number n and fit a straight line."
    assert differs(fit("IA", "U2", *LINE), asks([task])[task])
    # a formula written out is not a standard line of other columns
    steinhart = (
        "Fit the Steinhart–Hart equation 1/T = A + B·ln R + C·(ln R)³ by linear least squares."
    )
    assert differs(fit("Bath T", "Setpoint", *LINE), asks([steinhart])[steinhart])
    assert "“1/T = A + B·ln R" in asks([steinhart])[steinhart].text()  # quoted as written
    # the Chinese plot convention 作 y–x 图
    chinese = "作 ln R_T – 1/T 图，用最小二乘法拟合直线，求材料常数 B。"
    assert differs(fit("R1", "t", *LINE), asks([chinese])[chinese])


def test_a_later_task_about_a_pooled_fits_parameter_is_about_the_pooled_fit() -> None:
    """ "Usando tutti i 40 punti (serie 1 e serie 2 insieme), adattare il polinomio ..." then
    "Giustificare con il valore t di B2" (taratura_cella_di_carico); "series 1 and series 2
    together", as calibration handouts pool two runs: one series' quadratic is neither's."""
    tasks = ["Usando tutti i 40 punti (serie 1 e serie 2 insieme), adattare il polinomio di "
             "secondo grado u = B0 + B1·F + B2·F² e riportare i coefficienti.",
             "Il termine quadratico è significativo? Giustificare con il t di B2."]  # fmt: skip
    ask = asks(tasks)[tasks[1]]
    assert ask.both == "serie 1 e serie 2 insieme"
    quadratic = ("quadratic", "c0 + c1·x + c2·x²", "c0", "c1", "c2")
    assert "alone" in differs(fit("up", "T", *quadratic), ask, table("T", "up", "down"))
    english = ["Fit a quadratic to series 1 and series 2 together, u = b0 + b1·F + b2·F².",
               "Is the quadratic term b2 significant?"]  # fmt: skip
    assert asks(english)[english[1]].both


def test_a_symbol_of_another_dimension_than_the_fitted_column_is_another_axis() -> None:
    """ "the stopping voltage V_s against the frequency f" with only a wavelength column in nm
    (dusan-zdravkovic/Physics-Data-Analytics' photoelectric table): f names no column, and a
    fit against the wavelength is not the fit the task asks for; a generic x may be anything."""
    task = "2. Plot the stopping voltage V_s against the frequency f and fit a straight line."
    photo = table("Wavelength", "Stopping Voltage", unit="nm")
    assert differs(fit("Stopping Voltage", "Wavelength", *LINE), asks([task])[task], photo)
    generic = "Plot y against x and fit a straight line."
    assert not differs(fit("y", "Wavelength", *LINE), asks([generic])[generic], photo)


def _in_units(*columns: tuple[str, str]) -> TableSummary:
    return TableSummary(id="t.csv", source="t.csv", block=0, encoding="utf-8", delimiter=",",
                        decimal=".", rows=8, x=columns[0][0],
                        columns=[Column(key=n, header=n, name=n, unit=u, count=8)
                                 for n, u in columns])  # fmt: skip


def test_a_plotted_symbol_of_another_dimension_is_not_the_fits_axis() -> None:
    """The eval's photoelectric handout plots |V₀| against ν; a line through one raw I(V)
    sweep (`column 2` in A against `column 1` in V) is not that line, whatever its verdict."""
    task = "Plot |V₀| against ν and fit a straight line (ordinary least squares)."
    sweep = _in_units(("column 1", "V"), ("column 2", "A"))
    assert differs(fit("column 2", "column 1", *LINE), asks([task])[task], sweep)
    stopping = _in_units(("nu", "Hz"), ("V0", "V"))
    assert not differs(fit("V0", "nu", *LINE), asks([task])[task], stopping)


def test_a_formula_fitted_against_x_that_is_the_line_of_the_tasks_axis() -> None:
    """V = m·i² + c fitted against the current is the straight line of V against i² the
    task plots; a quadratic against the current is not."""
    task = "Plot V against i² with error bars and fit a straight line V = m·i² + c."
    ask = asks([task])[task]
    line = fit("voltage", "current", "V = m·i² + c", "V = m·i² + c", "m", "c", variable="i")
    line = line.model_copy(update={"expression": "m*i**2 + c"})
    assert not differs(line, ask)
    curve = line.model_copy(update={"expression": "m*i**2 + b*i + c"})
    assert "nonlinear" in differs(curve, ask)


def test_an_axis_in_words_that_names_no_column_is_no_line_read_the_other_way() -> None:
    """Elastizität: "D gegen die Hilfsgröße (L·x² − x³/3)" names its predictor by a word no
    column bears; the line of D against x is not the task's line read the other way. The
    line of U against I is the task's I against U swapped."""
    from labscribe.tools.assignment.task_fit import read_the_other_way

    bending = "Tragen Sie D gegen die Hilfsgröße (L·x² − x³/3) auf und bestimmen Sie die Steigung."
    table = _in_units(("x", "cm"), ("D", "µm"))
    line = Fit(table="t.csv", x="D", y="x", model="linear", good=True, r_squared=0.97)
    assert not read_the_other_way(line, asks([bending])[bending], table)
    ohm = "Plot I against U and fit a straight line."
    table = _in_units(("I", "mA"), ("U", "V"))
    line = Fit(table="t.csv", x="I", y="U", model="linear", good=True, r_squared=0.999)
    assert read_the_other_way(line, asks([ohm])[ohm], table)


def test_a_formula_in_a_variable_the_task_works_out_is_not_fitted_against_a_raw_column() -> None:
    # eval10's gyroscope handout: f_m is the mean of two columns, none of which it is
    task = (
        "Berechnen Sie für jeden Umlauf die mittlere Drehfrequenz f_m = (f_start + f_end)/2 "
        "und passen Sie T = k · f_m (+ c) an. Geben Sie k (in s/Hz) mit Unsicherheit an."
    )
    ask = asks([task])[task]
    assert ask.formula == "T = k · f_m (+ c)" and ask.worked_out == "f_m = (f_start + f_end)/2"
    gyro = table("f3_start", "f3_end", "T", unit="Hz")
    raw = fit("T", "f3_start", "T = k · f_m (+ c)", "T = k · f_m (+ c)", "k", "c", variable="f_m")
    assert differs(raw, ask, gyro) == "a fit of T against f3_start"
    assert "against f_m = (f_start + f_end)/2" in ask.text()
    formed = fit("T", "f_m", "T = k · f_m (+ c)", "T = k · f_m (+ c)", "k", "c", variable="f_m")
    assert not differs(formed, ask, table("f_m", "T", unit="Hz"))


def test_an_uncertaintys_propagation_is_no_formula_to_fit_and_a_correction_says_when() -> None:
    """ "Fit a straight line to (t, ln y) … with propagated uncertainties u(z) = u(y)/y" asks
    for the line, not a fit of u(z) = u(y)/y; a task after "Subtract the mean background"
    asks for the line of the corrected counts, and says so."""
    tasks = [
        "Subtract the mean background from the sample counts.",
        "Fit a straight line to (t, ln y) (linear regression on the log-transformed data, "
        "with propagated uncertainties u(z) = u(y)/y).",
    ]
    ask = asks(tasks)[tasks[1]]
    assert ask.formula == ""
    assert ask.text() == "a straight-line fit (after “Subtract the mean background”)"
