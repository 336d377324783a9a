"""A task that asks for several predictors, through the analysis of a folder: the regression
in its results, its checklist row, its digest and its number checks, and no one-predictor
fit in its place without a sentence saying so."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from labscribe.guards.numbers import check_numbers
from labscribe.tools.analysis.analysis_digest import WRITER_DIGEST, digest
from labscribe.tools.analysis.folder import Analysis, analyse
from labscribe.tools.assignment.checklist import checklist
from labscribe.tools.fits.fit_result import format_value
from labscribe.tools.tool import Folder

STRD = Path(__file__).resolve().parents[3] / "bench" / "analysis" / "strd"

TASKS = (
    "Tasks:\n"
    "(a) Fit the yield as a linear function of both the temperature and the pressure "
    "(multiple linear regression).\n"
    "(b) State each coefficient with its standard error.\n"
)


@pytest.fixture(scope="module")
def analysis(tmp_path_factory: pytest.TempPathFactory) -> Analysis:
    folder = tmp_path_factory.mktemp("multi")
    rng = np.random.default_rng(7)
    t, p = rng.uniform(0, 10, 30), rng.uniform(0, 5, 30)
    y = 2 + 3 * t - 1.5 * p + rng.normal(0, 0.2, 30)
    rows = "\n".join(f"{a:.3f},{b:.3f},{c:.3f}" for a, b, c in zip(t, p, y, strict=True))
    (folder / "yield.csv").write_text("temperature (C),pressure (bar),yield (g)\n" + rows + "\n")
    (folder / "assignment.txt").write_text("Exercise 7: Reaction yield\n\n" + TASKS)
    return analyse(Folder(folder))


def test_analyse_fits_the_multiple_regression_the_task_asks_for(analysis: Analysis) -> None:
    (regression,) = analysis.regressions
    assert (regression.number, regression.response, regression.predictors) == (
        1, "yield", ["temperature", "pressure"],
    )  # fmt: skip
    assert [(c.name, c.unit) for c in regression.coefficients] == [
        ("intercept", "g"), ("temperature", "g/°C"), ("pressure", "g/bar"),
    ]  # fmt: skip
    assert regression.good and regression.points == 30


def test_analyse_never_fits_the_request_as_one_straight_line(analysis: Analysis) -> None:
    assert [f for f in analysis.fits if f.requested] == []
    single = [f for f in analysis.fits if f.y == "yield"]
    assert single and all(
        any(n.startswith("not the regression task a asks for") for n in f.notes) for f in single
    )


def test_checklist_gives_the_coefficients_to_the_task_and_the_one_after(
    analysis: Analysis,
) -> None:
    rows = checklist(analysis)
    coefficient = analysis.regressions[0].coefficients[1]
    stated = f"temperature = {format_value(coefficient)}"
    assert stated in rows[0].given[0] and stated in rows[1].given[0]
    assert rows[0].given[0].startswith("multiple linear regression of yield on temperature and")


def test_digest_states_the_regression(analysis: Analysis) -> None:
    assert "- task a: multiple linear regression of yield on temperature and pressure" in digest(
        analysis, WRITER_DIGEST
    )


def test_number_checks_hold_a_coefficient_to_twice_its_error(analysis: Analysis) -> None:
    coefficient = analysis.regressions[0].coefficients[1]
    right = f"The coefficient of temperature is {coefficient.value:.3f} g/C."
    wrong = f"The coefficient of temperature is {coefficient.value * 1.2:.3f} g/C."
    assert check_numbers(right, analysis.facts())[1] == []
    assert len(check_numbers(wrong, analysis.facts())[1]) == 1


def test_number_checks_leave_a_one_predictor_slope_to_its_own_fit(analysis: Analysis) -> None:
    """A straight line through yield against temperature alone has a slope of its own, not
    the regression's coefficient of temperature."""
    coefficient = analysis.regressions[0].coefficients[1]
    sentence = f"The slope of yield against temperature is {0.85 * coefficient.value:.3f} g/C."
    _, wrong = check_numbers(sentence, analysis.facts())
    assert [m for m in wrong if "multiple regression" in m.fact] == []


def test_analyse_states_why_a_regression_was_not_done(tmp_path: Path) -> None:
    (tmp_path / "data.csv").write_text("a1,a2,y\n1,2,1\n2,1,2\n3,4,2\n4,3,5\n")
    (tmp_path / "handout.md").write_text("# Lab\n\nTasks\n\n1. Regress y on a1 and a2.\n")
    analysis = analyse(Folder(tmp_path))
    (regression,) = analysis.regressions
    assert not regression.done and "3 coefficients need at least 5" in regression.why_not
    (row, *_) = checklist(analysis)
    assert row.left.startswith("all of it: the regression was not done, because only 4 rows")


def test_analyse_solves_a_polynomial_the_task_writes_to_nist_digits(tmp_path: Path) -> None:
    """NIST StRD Filip, a tenth-degree polynomial: lmfit's iterations keep 2.6 digits of its
    certified coefficients; the regression's keep 11."""
    (tmp_path / "data.csv").write_text((STRD / "Filip.csv").read_text())
    model = "y = " + " + ".join(["b0"] + [f"b{i}*x**{i}" for i in range(1, 11)])
    (tmp_path / "handout.md").write_text(f"# Filip\n\nTasks\n\n1. Fit the model {model}.\n")
    analysis = analyse(Folder(tmp_path), budget_seconds=60)
    fit = next(f for f in analysis.fits if f.requested)
    listed = json.loads((STRD / "strd.json").read_text())["datasets"]
    certified = next(d for d in listed if d["name"] == "Filip")["certified"]
    for name, value in certified.items():
        parameter = fit.parameter(name)
        assert abs(parameter.value - value["value"]) < 1e-10 * abs(value["value"])
        assert abs(parameter.stderr - value["stderr"]) < 1e-9 * value["stderr"]
    assert analysis.regressions == []  # one variable: the fit, not a regression, shows it


def test_a_formulas_symbols_name_columns_that_write_a_runs_number(tmp_path: Path) -> None:
    """A gyroscope's third run, `f3_start, f3_end, T`, under "T = c + a · f_start + b ·
    f_end": the symbols name the columns, and the coefficients are numpy's."""
    rng = np.random.default_rng(3)
    start = np.linspace(8, 20, 14)
    end = start - 2.5 - 0.1 * rng.standard_normal(14)
    period = -2.5 + 0.3 * start + 3.4 * end + 0.2 * rng.standard_normal(14)
    rows = "\n".join(f"{a:.2f},{b:.2f},{t:.2f}" for a, b, t in zip(start, end, period, strict=True))
    (tmp_path / "kreisel.csv").write_text(f"f3_start,f3_end,T\n{rows}\n")
    (tmp_path / "assignment.md").write_text(
        "# Kreisel\n\n## Aufgaben\n1. Führen Sie eine multiple lineare Regression "
        "T = c + a · f_start + b · f_end durch.\n"
    )
    [regression] = analyse(Folder(tmp_path)).regressions
    assert regression.done and regression.predictors == ["f3_start", "f3_end"]
    frame = np.genfromtxt(tmp_path / "kreisel.csv", delimiter=",", names=True)
    design = np.column_stack([np.ones(14), frame["f3_start"], frame["f3_end"]])
    expected = np.linalg.lstsq(design, frame["T"], rcond=None)[0]
    assert np.allclose([c.value for c in regression.coefficients], expected, atol=1e-6)
