"""The response and the predictor of a table, from the assignment's words and symbols or from
the data (tools.columns.roles, tools.columns.set_values); the requests that concern each column
(tools.fits.request_targets). How the sentences name the axes:
tests/tools/assignment/test_role_phrases.py."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from labscribe.tools.assignment.requested import Request, requested_model, requested_models
from labscribe.tools.columns.column import Column
from labscribe.tools.columns.roles import Handout, decide_roles
from labscribe.tools.columns.set_values import set_evidence
from labscribe.tools.fits.request_targets import request_columns, requests_for
from labscribe.tools.formats.tables import Table, TableSummary, read_data
from labscribe.tools.tool import Folder

REAL = Path(__file__).parents[2] / "data" / "real"
PERIODS = ["0.8978", "1.1006", "1.2696", "1.4148", "1.5567", "1.6799", "1.7924", "1.9053",
           "2.0075", "2.1052", "2.1977"]  # fmt: skip


def asked(
    requests: list[Request],
    table: TableSummary,
    column: Column,
    tables: list[TableSummary],
    handout: Handout | None = None,
) -> list[Request]:
    """The requests whose response `column` of `table` is."""
    return requests_for(requests, table, [column], tables, handout)[column.key]


def test_set_evidence_tells_set_values_from_measured_ones() -> None:
    assert set_evidence(np.linspace(0.2, 1.2, 11)) == "its values are set in even steps"
    assert set_evidence(np.geomspace(1e3, 1.2e4, 30)).endswith("on a log scale")
    assert set_evidence(np.array([0.2, 0.3, 0.5, 0.6, 0.8, 1.1])).startswith("its values are round")
    assert set_evidence(np.array([float(p) for p in PERIODS])) == ""


def _table(tmp_path: Path, header: str, columns: list[list[str]]) -> Table:
    rows = [",".join(cells) for cells in zip(*columns, strict=True)]
    (tmp_path / "t.csv").write_text(header + "\n" + "\n".join(rows) + "\n")
    return read_data(Folder(tmp_path), "t.csv").tables[0]


LENGTHS = [f"{0.2 + 0.1 * i:.3f}" for i in range(11)]


def test_decide_roles_follows_the_task_whatever_the_column_order(tmp_path: Path) -> None:
    table = _table(tmp_path, "T (s),L (m)", [PERIODS, LENGTHS])
    assert table.summary.x == "T"  # the first monotonic column, by position alone
    decide_roles([table], Handout.of(["Plot the period T against the length L."]))
    assert (table.summary.x, table.summary.response) == ("L", "T")
    assert table.summary.roles.startswith("T is taken as the response to L, as the assignment says")


def test_decide_roles_matches_a_formula_by_the_handout_words(tmp_path: Path) -> None:
    table = _table(tmp_path, "period (s),length (m)", [PERIODS, LENGTHS])
    tasks = ["Fit T = 2π √(L/g) to the data and determine g."]
    handout = Handout.of(tasks, "The period T of a pendulum of length L.",
                         requested_models(tasks))  # fmt: skip
    decide_roles([table], handout)
    assert (table.summary.x, table.summary.response) == ("length", "period")


def test_decide_roles_reads_a_chinese_handout(tmp_path: Path) -> None:
    table = _table(tmp_path, "周期(s),摆长(m)", [PERIODS, LENGTHS])
    decide_roles([table], Handout.of(["以摆长 L 为横坐标，周期 T 为纵坐标作图。"]))
    assert (table.summary.x, table.summary.response) == ("摆长", "周期")


def test_decide_roles_without_words_takes_the_column_set_in_even_steps(tmp_path: Path) -> None:
    table = _table(tmp_path, "T (s),L (m)", [PERIODS, LENGTHS])
    decide_roles([table], Handout.of([]))
    assert table.summary.x == "L"
    assert table.summary.roles == (
        "L was taken as the variable: its values are set in even steps, T's are measured."
    )


def test_decide_roles_says_when_nothing_tells_the_variable(tmp_path: Path) -> None:
    measured = ["0.11", "0.35", "0.52", "0.80", "0.97", "1.31"]
    other = ["2.013", "2.957", "3.311", "4.102", "4.877", "5.523"]
    table = _table(tmp_path, "a,b", [measured, other])
    decide_roles([table], Handout.of([]))
    assert table.summary.x == "a"
    assert "neither the assignment nor the values say which column was set" in (table.summary.roles)


def test_decide_roles_never_takes_a_row_number_as_the_predictor(tmp_path: Path) -> None:
    trials = [str(i) for i in range(1, 12)]
    table = _table(tmp_path, "trial,T (s),L (m)", [trials, PERIODS, LENGTHS])
    decide_roles([table], Handout.of(["Plot the period T against the trial number."]))
    assert table.summary.x != "trial" or table.summary.roles == ""
    assert "trial" not in table.summary.roles


def test_decide_roles_records_several_predictors_for_the_regression(tmp_path: Path) -> None:
    values = [[f"{v:.2f}" for v in np.random.default_rng(i).uniform(0, 9, 8)] for i in range(3)]
    table = _table(tmp_path, "temperature (C),pressure (bar),yield (g)", values)
    task = "Fit the yield as a linear function of both the temperature and the pressure."
    decide_roles([table], Handout.of([task]))
    assert table.summary.predictors == ["temperature", "pressure"]
    assert table.summary.response == "yield"
    request = requested_model(task)
    assert request is not None
    handout = Handout.of([task], requests=[request])
    named = request_columns(request, table.summary.columns, handout).predictors
    assert [c.key for c in named] == ["temperature", "pressure"]
    yield_column = table.summary.column("yield")
    assert asked([request], table.summary, yield_column, [table.summary]) == []


def _summary(*names: str) -> TableSummary:
    columns = [Column(key=n, header=n, name=n, count=10) for n in names]
    return TableSummary(
        id="t.csv", source="t.csv", block=1, encoding="utf-8", delimiter="comma", decimal=".",
        rows=10, columns=columns, x=names[0],
    )  # fmt: skip


def test_requests_for_a_formula_concern_the_column_its_left_side_names() -> None:
    table = _summary("L", "T", "T_err2")
    request = requested_model("Fit a power law T = a L^b.")
    assert request is not None
    assert asked([request], table, table.column("T"), [table]) == [request]
    assert asked([request], table, table.column("T_err2"), [table]) == []


def test_requests_for_the_table_x_when_a_formula_makes_it_the_response() -> None:
    table = _summary("L", "T")
    request = requested_model("Fit L = c T^2 to the data.")
    assert request is not None
    assert asked([request], table, table.column("L"), [table]) == [request]
    assert asked([request], table, table.column("T"), [table]) == []


def test_requests_that_name_no_column_concern_every_column() -> None:
    table = _summary("t", "voltage", "current")
    request = requested_model("Fit an exponential decay to the discharge.")
    assert request is not None
    assert asked([request], table, table.column("current"), [table]) == [request]
    named = requested_model("Fit an exponential decay to the voltage.")
    assert named is not None
    assert asked([named], table, table.column("current"), [table]) == []
    assert asked([named], table, table.column("voltage"), [table]) == [named]


def test_decide_roles_keeps_a_clock_beside_a_round_setpoint(tmp_path: Path) -> None:
    """A controller's log: its time runs unevenly, its setpoint is round; time stays x."""
    time = ["0.0", "12.7", "31.2", "44.9", "61.3", "77.0", "95.8", "108.1"]
    setpoint = ["20", "20", "25", "25", "30", "30", "35", "35"]
    reading = ["20.3", "20.9", "23.8", "24.9", "28.7", "29.8", "33.1", "34.7"]
    table = _table(tmp_path, "time (s),setpoint (C),T (C)", [time, setpoint, reading])
    decide_roles([table], Handout.of([]))
    assert table.summary.x == "time"


CHWIRUT2 = Path(__file__).parents[2] / "data" / "real" / "conventions" / "nist_chwirut2.dat"


def _indexed_chwirut(tmp_path: Path) -> Table:
    """NIST's Chwirut2 as a bench exports it: a running number `n` before each row."""
    rows = CHWIRUT2.read_text().splitlines()[2:]
    lines = [f"{i}\t{x}\t{y}" for i, (y, x) in enumerate((r.split() for r in rows), start=1)]
    (tmp_path / "t.txt").write_text("n\tdistance (mm)\tresponse\n" + "\n".join(lines) + "\n")
    return read_data(Folder(tmp_path), "t.txt").tables[0]


def test_decide_roles_sets_aside_a_running_number_headed_n(tmp_path: Path) -> None:
    table = _indexed_chwirut(tmp_path)
    handout = "Fit y = exp(-b1*x)/(b2 + b3*x) to the response y against the distance x."
    decide_roles([table], Handout.of([handout], handout))
    assert "n" in [c.name for c in table.summary.row_numbers]
    assert "n" not in [c.name for c in table.summary.columns]
    assert table.summary.x == "distance"


def test_decide_roles_keeps_n_where_the_handout_writes_it(tmp_path: Path) -> None:
    orders = [str(i) for i in range(1, 6)]
    positions = ["2.11", "4.25", "6.30", "8.44", "10.52"]
    table = _table(tmp_path, "n,x (cm)", [orders, positions])
    text = "The grating equation d·sin θ = nλ gives the position x of the order n."
    decide_roles([table], Handout.of([], text))
    assert "n" in [c.name for c in table.summary.columns]
    assert not table.summary.row_numbers


def test_decide_roles_fits_no_repeat_reading_against_another(tmp_path: Path) -> None:
    counts = [str(i) for i in range(1, 11)]
    diameters = ["25.06", "25.08", "25.04", "25.08", "25.08", "25.08", "25.04", "25.06",
                 "25.06", "25.02"]  # fmt: skip
    heights = ["39.96", "39.98", "39.94", "40.02", "39.96", "39.92", "39.98", "39.94",
               "39.92", "40.00"]  # fmt: skip
    rows = [";".join(r).replace(".", ",") for r in zip(counts, diameters, heights, strict=True)]
    (tmp_path / "t.csv").write_text("medição;D (mm);H (mm)\n" + "\n".join(rows))
    table = read_data(Folder(tmp_path), "t.csv").tables[0]
    decide_roles([table], Handout.of([]))
    assert [c.name for c in table.summary.row_numbers] == ["medição"]
    assert table.summary.x is None
    assert "none is fitted against another" in table.summary.roles


def test_formula_radius_names_no_diameter_column() -> None:
    """`e/m = 2U/(r²B²)` (a Fadenstrahlrohr handout) where the sheet holds the orbit's
    diameter `d`: r is no column, so nothing is fitted against d as the formula's."""
    from labscribe.tools.columns.column_names import named_by_formula

    columns = [Column(key=k, header=k, name=k, unit=u, count=7)
               for k, u in [("U", "V"), ("I", "A"), ("d", "cm")]]  # fmt: skip
    named = named_by_formula("U = (e/m)·B²·r²/2", columns, {})
    assert [c.key for c in named.responses] == ["U"]
    assert named.predictors == ()
    radius = [Column(key="radius", header="radius", name="radius", unit="cm", count=7)]
    assert [c.key for c in named_by_formula("U = k·r²", radius, {}).predictors] == ["radius"]


@pytest.mark.parametrize("formula", ["T = const", "p · V = const", "p·V = konst"])
def test_what_a_law_holds_constant_names_no_axes(formula: str) -> None:
    """`T = const` beside Boyle's law says the temperature was held, not that it is a
    response: with two columns, the other is no predictor of it."""
    from labscribe.tools.columns.column_names import named_by_formula

    columns = [Column(key=k, header=k, name=k, unit=u, count=7)
               for k, u in [("Temperatur", "°C"), ("Druck", "hPa")]]  # fmt: skip
    named = named_by_formula(formula, columns, {})
    assert named.responses == () and named.predictors == ()


def test_a_formula_in_symbols_of_its_own_naming_no_column_is_fitted_to_none() -> None:
    """The eval's diode handout: ln i = ln I_s + v/(n V_T) names no column of a LabVIEW file
    whose channels are `Untitled`: it is fitted to none of them; a formula in y is one for
    any data (y = b1·(1 − exp(−b2·t)) on BOD readings)."""
    table = _summary("time", "Untitled", "Untitled 1")
    own = requested_model("Ajuster ln i = ln I_s + v/(n V_T) par moindres carrés.")
    generic = requested_model("Fit the model y = b1·(1 − exp(−b2·t)) to the data.")
    assert own is not None and generic is not None
    assert asked([own], table, table.column("Untitled 1"), [table]) == []
    assert asked([generic], table, table.column("Untitled 1"), [table]) == [generic]


def test_a_request_that_names_only_its_predictor_concerns_the_columns_its_words_name(
    tmp_path: Path,
) -> None:
    """ "With `height` work out the stretch x and fit x = (g/k)·m": the count of balls, which
    grows with m too, is not fitted as the stretch; the height alone takes the request."""
    from labscribe.tools.analysis.folder import analyse

    m = np.arange(8) * 5.2
    rows = "\n".join(f"{i},{mass:.1f},{39.2 - 0.11 * mass:.2f}" for i, mass in enumerate(m))
    (tmp_path / "spring.csv").write_text(f"balls,m,height\n{rows}\n")
    (tmp_path / "assignment.md").write_text(
        "# Spring\n\n## Tasks\n1. With height work out the stretch x for each mass and fit "
        "x = (g/k)·m.\n"
    )
    analysis = analyse(Folder(tmp_path))
    asked = {fit.y for fit in analysis.fits if fit.requested}
    assert asked == {"height"}


def test_a_request_whose_axes_no_column_holds_concerns_no_column() -> None:
    """ "e0·|U_m| against ν": both are worked out of several files; the current is not fitted
    against the voltage as that line."""
    task = "Nariši e0·|U_m| v odvisnosti od frekvence ν in preveri linearno zvezo."
    [request] = requested_models([task])
    columns = [Column(key=k, header=k, name=k, unit=u, count=12)
               for k, u in (("Voltage", "V"), ("Current", "nA"))]  # fmt: skip
    summary = TableSummary(id="365.txt", source="365.txt", block=0, encoding="utf-8",
                           delimiter=" ", decimal=".", rows=12, columns=columns,
                           x="Voltage")  # fmt: skip
    handout = Handout.of([task], requests=[request])
    assert asked([request], summary, columns[1], [summary], handout) == []


def test_axes_named_in_words_no_column_answers_take_no_pair_of_columns(tmp_path: Path) -> None:
    """A Czech beam lab: "graf průhybu y na celkové hmotnosti závaží" over headerless files
    of readings (the load to be summed, two dial readings a beam): the task's line is of
    quantities still to form, so no pair of the files' columns is fitted as the task's
    model; a file of two columns leaves no choice and takes it."""
    from labscribe.tools.analysis.folder import analyse

    (tmp_path / "nosnik.txt").write_text(
        "99.1 0.658 0.709 0.366\n99.6 1.353 1.412 0.758\n99.6 2.020 2.077 1.140\n"
        "99.0 2.685 2.735 1.524\n99.3 3.350 3.401 1.905\n"
    )
    (tmp_path / "rozmery.txt").write_text("3.030 5.04\n3.028 5.04\n3.022 5.04\n3.020 5.03\n")
    (tmp_path / "zadani.md").write_text(
        "# Modul pružnosti\n\n## Úkoly\n1. Pro každý nosník sestrojte graf průhybu y na celkové "
        "hmotnosti závaží a určete lineárním fitem směrnici.\n"
    )
    assert not [fit for fit in analyse(Folder(tmp_path)).fits if fit.requested]
    (tmp_path / "rozmery.txt").unlink()
    (tmp_path / "nosnik.txt").write_text("99.1 0.658\n199.6 1.353\n299.6 2.020\n399.0 2.685\n")
    assert [fit for fit in analyse(Folder(tmp_path)).fits if fit.requested]


def test_a_definition_in_the_prose_takes_no_other_column_for_its_variable(tmp_path: Path) -> None:
    """`x = R_max·ρ` (a β range as mass per area, in a radioactivity handout's theory): x is
    a thickness, but R_max and ρ name no column, so the counts beside the lead thickness
    are not its variable; the thickness stays the table's."""
    thickness = ["1", "5", "10", "15", "20", "25"]
    counts = ["3000", "2400", "1900", "1500", "1200", "950"]
    table = _table(tmp_path, "Pb Dicke in mm,N", [thickness, counts])
    text = "Maximalenergie nach Flammersfeld: x = R_max·ρ in g/cm²."
    decide_roles([table], Handout.of(["μ aus der Absorptionskurve bestimmen."], text))
    assert table.summary.x == "Pb Dicke"


def test_the_first_word_of_a_compound_names_no_column() -> None:
    """A ProCoDA export of a gas-transfer run (Cornell CEE 4530, tests/data/real/procoda)
    holds `air valve control ()`: "the air-flow calibration test (accumulator pressure vs.
    time)" speaks of a flow, not of the valve's control, and "dissolved oxygen vs. time"
    sets the time as the variable."""
    [table] = read_data(Folder(REAL / "procoda"), "gas_transfer_160.txt").tables
    decide_roles([table], Handout.of([
        "#3 Plot the representative data set showing dissolved oxygen vs. time",
        "`200.txt` is the air-flow calibration test (accumulator pressure vs. time).",
    ]))  # fmt: skip
    summary = table.summary
    assert summary.x == "Day fraction since midnight on"
    assert summary.response != "air valve control"
    assert "air valve control" in [c.name for c in summary.columns]  # its empty `()` no unit
