from pathlib import Path

import pytest

from labscribe.tools.analysis.folder import Analysis, analyse
from labscribe.tools.assignment.checklist import checklist
from labscribe.tools.assignment.task_files import named_by_stem
from labscribe.tools.assignment.task_material import task_words
from labscribe.tools.columns.column import Column
from labscribe.tools.fits.fit_result import Fit, Parameter
from labscribe.tools.formats.tables import TableSummary
from labscribe.tools.tool import Folder


@pytest.fixture
def evidence(example: Path) -> dict[str, tuple[list[str], str]]:
    items = checklist(analyse(Folder(example)))
    return {item.task.split(":")[0].split(" with")[0]: (item.given, item.left) for item in items}


def test_checklist_gives_each_fitted_value_a_task_names(evidence) -> None:
    given, left = evidence["Determine the resonance frequency f0 from the maximum of the curve"
                           " and from the zero crossing of the phase."]  # fmt: skip
    assert given[:3] == [
        "f0 = 5032.46 ± 0.57 Hz (fit of V_R against frequency)",
        "f0 = 5032.9 ± 1.5 Hz (fit of phase against frequency)",
        "f0 = 5032.68 ± 0.54 Hz (fit of V_R/V_in against frequency)",
    ]
    assert left == "checking and stating the values given"


def test_checklist_gives_the_parameter_rows_a_task_names(example: Path) -> None:
    # the handout's own bench step, set here as a task (the handout lists it under its procedure)
    analysis = analyse(Folder(example))
    task = "Measure R and the DC resistance of the inductor with the multimeter."
    [item] = checklist(analysis.model_copy(update={"tasks": [task]}))
    given = item.given
    assert "R_measured = 47.1 Ω (params.ini)" in given
    assert "R_coil_measured = 12.0 Ω (params.ini)" in given


def test_checklist_leaves_judgement_to_the_student(evidence) -> None:
    """The prediction of f0 is computed (tools.formulas.prediction); comparing is left."""
    given, left = evidence["Compare f0, the bandwidth and Q"]
    assert given[0].startswith("f0 predicted 5033 ± 162 Hz from f0 = 1/(2 pi sqrt(LC))")
    assert left == "the comparison, from the values given"
    # a step of the procedure is no task beside the handout's Goals and report lists
    assert not any(task.startswith("Build the circuit") for task in evidence)


def test_checklist_reads_chinese_tasks() -> None:
    q = Parameter(name="Q", value=5.4, stderr=0.1)
    f0 = Parameter(name="f0", value=5033.0, stderr=1.0, unit="Hz")
    fit = Fit(table="a.csv", x="f", y="U", model="resonance", parameters=[f0, q], good=True,
              r_squared=0.99)  # fmt: skip
    analysis = Analysis(fits=[fit], tasks=["测量谐振频率和品质因数，并与理论值比较。"])
    [item] = checklist(analysis)
    assert item.given == ["f0 = 5033.0 ± 1.0 Hz, Q = 5.40 ± 0.10 (fit of U against f)"]
    assert item.left == "the comparison, from the values given"


def test_task_words_keep_names_whole_and_by_their_longer_parts() -> None:
    words = task_words("Plot V_R and V_in against freq_Hz.")
    assert {"v_r", "v_in", "freq_hz", "freq"} <= words
    assert "r" not in words and "in" not in words  # too short to name anything alone


def test_task_words_name_a_fits_topics_in_other_languages() -> None:
    # compounds and inflections hold the word whole
    assert "frequency" in task_words("Bestäm torsionspendelns egenfrekvensen.")
    assert {"resonance", "frequency"} <= task_words("Bestimmen Sie die Resonanzfrequenz.")
    assert "damping" in task_words("Определите коэффициент затухания.")
    assert "slope" in task_words("Calculez la pente de la droite.")
    assert "frequency" not in task_words("Bestäm l = λ/I för varje spänning.")


def test_a_file_named_after_a_tasks_word_chooses_between_its_fits() -> None:
    sources = ["egenfrekvens.txt", "1_v.txt", "data.csv", "run_12.txt"]
    assert named_by_stem("Bestäm torsionspendelns egenfrekvens.", sources) == {"egenfrekvens.txt"}
    assert named_by_stem("Bestäm egenfrekvensen.", sources) == {"egenfrekvens.txt"}
    # a short stem begins too many words to tie a task to its file
    assert named_by_stem("Use the data of every run to find the period.", sources) == set()


def test_checklist_answers_a_mean_and_leaves_an_undefined_threshold(tmp_path: Path) -> None:
    real = Path(__file__).parents[2] / "data" / "real"
    for name in ("repeats/newcomb.csv", "extremes/curvaIVinvdark.txt"):
        (tmp_path / Path(name).name).write_bytes((real / name).read_bytes())
    (tmp_path / "handout.md").write_text(
        "# Lab\n\n1. Calculate the mean passage time and its standard error.\n"
        "2. Determine the breakdown voltage of the SiPM.\n"
    )
    mean, breakdown = checklist(analyse(Folder(tmp_path)))
    assert mean.given[0].startswith("dat (newcomb.csv): mean 26.2 ± 1.3 (standard error; n = 66)")
    assert breakdown.given == []
    assert breakdown.left.startswith("the threshold itself: the task does not say what defines it")


def test_checklist_leaves_a_compatibility_judgement_to_the_student() -> None:
    """ "Is the intercept compatible with zero?" and GenPhys's "does the slope-derived value of
    g_slope agree with the accepted value of g" (tests/data/real/handouts) ask for a judgement,
    not only for the values to be stated."""
    intercept = Parameter(name="intercept", value=-2.1, stderr=4.8, unit="mm")
    slope = Parameter(name="slope", value=2.67, stderr=0.70, unit="mm/t")
    fit = Fit(table="roller.csv", x="weight", y="depression", model="linear",
              parameters=[slope, intercept], good=True, r_squared=0.64)  # fmt: skip
    tasks = ["Is the intercept compatible with zero?",
             "Does the slope agree with the accepted value?"]  # fmt: skip
    first, second = checklist(Analysis(fits=[fit], tasks=tasks))
    assert first.left == "the judgement of compatibility, from the values given"
    assert second.left == "the comparison, from the values given"


def test_a_value_from_the_nominal_data_is_not_offered_a_fitted_one(example: Path) -> None:
    """A value worked out "from the nominal component values" starts from params.ini: the
    fitted Q of the resonance is no way to it, and the row says the value is not there; only
    the fitted value the task compares with ("your fitted f0") is listed."""
    analysis = analyse(Folder(example))
    task = ("Calculate the quality factor from the nominal component values in params.ini. "
            "Does your fitted f0 agree with it?")  # fmt: skip
    [item] = checklist(analysis.model_copy(update={"tasks": [task]}))
    assert not any("Q =" in given for given in item.given)
    assert any(given.startswith("f0 = ") for given in item.given)
    assert item.left.startswith("not done: the value from the nominal data is not in this report")
    assert "nominal values in the table of parameters" in item.left


def test_a_defined_quantity_is_stated_under_the_noun_the_task_calls_it(example: Path) -> None:
    analysis = analyse(Folder(example))
    tasks = ["Compute the bandwidth, Δf = f0/Q.", "Compute the ratio ρ = f0/Δf of the curve."]
    bandwidth, ratio = checklist(analysis.model_copy(update={"tasks": tasks}))
    assert bandwidth.left == "checking and stating the values given"
    assert ratio.left.startswith("not done: ρ is not in this report")


def test_a_formulas_inputs_are_the_symbols_it_names(example: Path) -> None:
    """ "Δω = 2π·Δf" asks for Δω in rad/s: the bandwidth in Hz is not it, and a fitted value
    the formula does not name by its symbol is no input (xrf_moseley_law: "Ry = 4a²/3,
    σ = −b/a" was offered a cubic's c0)."""
    analysis = analyse(Folder(example))
    tasks = ["Calculate the width in angular frequency, Δω = 2π·Δf.",
             "Calculate the angular frequency of the resonance, ω0 = 2π·f0."]  # fmt: skip
    width, angular = checklist(analysis.model_copy(update={"tasks": tasks}))
    assert not any("bandwidth" in given for given in width.given)
    assert width.left != "checking and stating the values given"
    assert any(given.startswith("f0 = ") for given in angular.given)
    assert angular.left.startswith("not done: ω0 is not in this report")


def test_a_task_fitting_a_named_function_takes_no_value_from_another_columns_fit() -> None:
    """ "Passen Sie die Funktion A(f) an … und geben Sie RC an": the phase's fit gives an RC
    too, but not the amplitude's; the task is left undone, not answered with it."""
    rc = Parameter(name="RC", value=0.001482, stderr=0.000011, unit="s")
    phase = Fit(table="messung.txt", x="f", y="φ", model="φ = arctan(2π f RC)",
                parameters=[rc], good=True, r_squared=0.99)  # fmt: skip
    amplitude = Column(key="A", header="A/V", name="A", unit="V", count=20)
    table = TableSummary(
        id="messung.txt", source="messung.txt", block=0, encoding="utf-8", delimiter=" ",
        decimal=".", rows=20, columns=[Column(key="f", header="f/Hz", name="f", unit="Hz",
        count=20), amplitude], x="f",
    )  # fmt: skip
    task = "Passen Sie die Funktion A(f) an die Amplitudenmessung an und geben Sie RC an."
    [row] = checklist(Analysis(fits=[phase], tables=[table], tasks=[task]))
    assert not any("RC = " in given for given in row.given), row.given


def test_checklist_lists_only_the_results_of_the_file_a_task_names() -> None:
    """Two files' fits give f0: "aus b.csv" takes b.csv's alone, and a task that names no
    file takes both."""
    tables = [
        TableSummary(id=name, source=name, block=0, encoding="utf-8", delimiter=",",
                     decimal=".", rows=20, columns=[], x="f")
        for name in ("a.csv", "b.csv")
    ]  # fmt: skip
    fits = [
        Fit(table=name, x="f", y="U", model="resonance", good=True, r_squared=0.99,
            parameters=[Parameter(name="f0", value=value, stderr=1.0, unit="Hz")])
        for name, value in (("a.csv", 5033.0), ("b.csv", 4100.0))
    ]  # fmt: skip
    tasks = ["Bestimmen Sie aus b.csv die Resonanzfrequenz f0.", "Give the resonance frequency f0."]
    named, every = checklist(Analysis(tables=tables, fits=fits, tasks=tasks))
    assert named.given == ["f0 = 4100.0 ± 1.0 Hz (fit of U against f)"]
    assert [line.split(" (")[0] for line in every.given] == [
        "f0 = 5033.0 ± 1.0 Hz",
        "f0 = 4100.0 ± 1.0 Hz",
    ]


def test_checklist_never_offers_another_models_placeholder_or_a_setting_for_an_asked_symbol() -> (
    None
):
    """An exponential approach's offset `c` is not the c of the task's own line T = k·f + c;
    a generator's U_0 from the settings is not the fitted U_0 a task asks to determine."""
    from labscribe.tools.formats.parameters import ParameterRow

    approach = Fit(table="a.csv", x="f", y="T", model="exponential approach", good=True,
                   r_squared=0.99, parameters=[Parameter(name="c", value=-3.02, stderr=0.72,
                                                         unit="s")])  # fmt: skip
    setting = ParameterRow(source="bauteile.txt", key="U_0", name="Angelegte Spannung U_0",
                           value="0.5 V", number=0.5, unit="V")  # fmt: skip
    tasks = ["Passen Sie T = k · f + c an und prüfen Sie, ob c mit 0 verträglich ist.",
             "Bestimmen Sie zusätzlich U_0 (Spannung bei t = 0 laut Anpassung)."]  # fmt: skip
    first, second = checklist(Analysis(fits=[approach], parameters=[setting], tasks=tasks))
    assert not any("-3.02" in line for line in first.given), first.given
    assert not any("0.5 V" in line for line in second.given), second.given


def test_a_method_or_a_physical_constant_names_no_polynomials_term() -> None:
    """ "Estimate k using linear regression" and "the apparent rate constant k'": a cubic's
    linear coefficient c1 and constant term c0 answer neither (a gas-transfer run's cubic
    was offered for k)."""
    cubic = Fit(table="160.txt", x="t", y="DO", model="cubic", good=True, r_squared=0.9998,
                parameters=[Parameter(name=f"c{i}", value=float(i + 1), stderr=0.1)
                            for i in range(4)])  # fmt: skip
    tasks = [
        "# 5: Estimate K,vi using linear regression of equation 1.5: ln(C*-C)/(C*-C_0) = "
        "-k(t-t_0), for each air flow rate.",
        "Determine the apparent rate constant k' for each run.",
    ]
    table = TableSummary(id="160.txt", source="160.txt", block=0, encoding="ascii",
                         delimiter="\t", decimal=".", rows=56, columns=[], x="t")  # fmt: skip
    regression, constant = checklist(Analysis(tables=[table], fits=[cubic], tasks=tasks))
    assert not any("c1 = " in line for line in regression.given), regression.given
    assert not any("c0 = " in line for line in constant.given), constant.given


def test_the_model_a_task_asks_of_the_file_its_words_begin_is_that_files_fit() -> None:
    """ "Stellen Sie die Vanadium-Daten … dar und bestimmen Sie die Halbwertszeit": the decay
    asked for is fitted to Vanadium.dat and Rhodium.dat alike; the task's row lists
    Vanadium's."""
    tables = [
        TableSummary(id=name, source=name, block=0, encoding="ascii", delimiter=",",
                     decimal=".", rows=44, columns=[], x="t")
        for name in ("Vanadium.dat", "Rhodium.dat")
    ]  # fmt: skip
    task = ("Stellen Sie die Vanadium-Daten dar und bestimmen Sie die Halbwertszeit durch "
            "Anpassen des Zerfallsgesetzes (exponentiell).")  # fmt: skip
    fits = [
        Fit(table=name, x="t", y="N", model="exponential", good=True, r_squared=0.98,
            points=44, requested=task, parameters=[Parameter(name="decay", value=value, stderr=1.0,
                                                  unit="s")])
        for name, value in (("Vanadium.dat", 290.0), ("Rhodium.dat", 72.9))
    ]  # fmt: skip
    [row] = checklist(Analysis(tables=tables, fits=fits, tasks=[task]))
    assert any("290.0" in line for line in row.given), row.given
    assert not any("72.9" in line for line in row.given), row.given


def test_a_task_that_writes_a_settings_symbol_starts_from_that_setting() -> None:
    """ "L1, T1, L2, T2, L3, T3: valor, tipo de incerteza (A/B) e incerteza": the settings
    L1 … L3 of a Brazilian pendulum's CSV are what the task starts from; a key that is a
    word ("Sample") is no symbol the task writes."""
    from labscribe.tools.formats.parameters import ParameterRow

    rows = [
        ParameterRow(source="exp04.csv", key=key, name=key, value=value, number=float(value),
                     unit="m")
        for key, value in (("L1", "1.15"), ("L2", "1.45"), ("Sample", "3"))
    ]  # fmt: skip
    task = "L1, T1, L2, T2, L3, T3: valor, tipo de incerteza (A/B) e incerteza"
    [row] = checklist(Analysis(parameters=rows, tasks=[task]))
    assert row.given == ["L1 = 1.15 m (exp04.csv)", "L2 = 1.45 m (exp04.csv)"], row.given
