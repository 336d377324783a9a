"""`labscribe run --no-model` on a task that names several predictors: the data report gives
the multiple regression with every coefficient ± its standard error, on NIST's certified
Longley data (bench/analysis/strd, public domain) and a published exercise with its answer."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

from test_no_model import no_model_report

from labscribe.tools.fits.fit_result import Parameter, format_value

STRD = Path(__file__).resolve().parents[2] / "bench" / "analysis" / "strd"
# Longley's columns as R's `longley` names them, the response last; NIST's y, x1..x6.
LONGLEY_NAMES = {"x1": "GNP.deflator", "x2": "GNP", "x3": "Unemployed", "x4": "Armed.Forces",
                 "x5": "Population", "x6": "Year", "y": "Employed"}  # fmt: skip
# spu.edu/ddowning/bstatmrgr.html, "Multiple Regression sample exercises", problem 1: its
# data (X1..X4, Y1) and its published answer Y1 = 17 + 10 X1 + 20 X2 - 8 X3 + 3 X4, exact.
EXERCISE = """X1,X2,X3,X4,Y1
88,1,25,1,720
74,57,48,3,1522
18,21,80,6,-5
65,53,76,11,1152
6,87,31,11,1602
68,84,100,4,1589
66,32,97,6,559
1,15,99,13,-426
69,61,28,6,1721
2,93,25,2,1703
54,33,1,3,1218
71,3,28,5,578
31,59,24,0,1315
22,89,98,7,1254
6,47,54,4,597
"""


def report_of(folder: Path, tmp_path: Path) -> str:
    return no_model_report(folder, tmp_path)


def certified_longley() -> dict[str, Parameter]:
    listed = json.loads((STRD / "strd.json").read_text())["datasets"]
    certified = next(d for d in listed if d["name"] == "Longley")["certified"]
    return {name: Parameter(name=name, value=c["value"], stderr=c["stderr"])
            for name, c in certified.items()}  # fmt: skip


def longley_folder(tmp_path: Path, names: dict[str, str], handout: str) -> Path:
    """Longley's data as a student's folder: its columns renamed and reordered."""
    folder = tmp_path / "longley"
    folder.mkdir()
    header, *rows = (STRD / "Longley.csv").read_text().splitlines()
    keys = header.split(",")
    order = [keys.index(k) for k in names]
    lines = [",".join(names.values())]
    lines += [",".join(row.split(",")[i] for i in order) for row in rows]
    (folder / "longley.csv").write_text("\n".join(lines) + "\n")
    (folder / "handout.md").write_text(handout)
    return folder


def test_no_model_reports_longley_on_the_six_predictors_its_handout_names(
    tmp_path: Path,
) -> None:
    folder = longley_folder(tmp_path, LONGLEY_NAMES, (
        "# Longley's employment data\n\nTasks\n\n"
        "1. Fit the number of people employed as a linear function of the GNP deflator, the "
        "GNP, the number unemployed, the size of the armed forces, the population and the "
        "year (multiple linear regression).\n"
        "2. State each coefficient with its standard error.\n"
    ))  # fmt: skip
    report = report_of(folder, tmp_path)
    certified = certified_longley()
    columns = ["intercept", *list(LONGLEY_NAMES.values())[:6]]
    for name, coefficient in zip(columns, certified.values(), strict=True):
        assert f"{name} = {format_value(coefficient)}" in report  # the checklist, tasks 1, 2
    assert "a multiple linear regression of Employed on GNP.deflator, GNP" in report
    assert "R² = 0.9955, adjusted R² = 0.9925, 16 points" in report  # NIST: 0.995479004577296


def test_no_model_reports_longley_when_its_handout_writes_the_model(tmp_path: Path) -> None:
    names = {key: key for key in ("y", "x1", "x2", "x3", "x4", "x5", "x6")}
    folder = longley_folder(tmp_path, names, (
        "# Longley\n\nTasks\n\n1. Fit the model y = b0 + b1*x1 + b2*x2 + b3*x3 + b4*x4 + "
        "b5*x5 + b6*x6 to the data.\n"
    ))  # fmt: skip
    report = report_of(folder, tmp_path)
    for name, coefficient in certified_longley().items():
        term = f" (x{name[1:]})" if name != "b0" else ""
        assert f"{name}{term} = {format_value(coefficient)}" in report


def test_no_model_reports_a_published_exercise_with_its_answer(tmp_path: Path) -> None:
    folder = tmp_path / "exercise"
    folder.mkdir()
    (folder / "data.csv").write_text(EXERCISE)
    (folder / "assignment.md").write_text(
        "# Multiple regression\n\n1. Perform a multiple regression calculation with the "
        "given variables.\n"
    )
    report = report_of(folder, tmp_path)
    assert "intercept = 17; X1 = 10; X2 = 20; X3 = -8; X4 = 3; R² = 1.0000" in report
    assert "the data lie on the model exactly" in report


def test_no_model_gives_every_digit_where_a_task_compares_with_nists_certified_values(
    tmp_path: Path,
) -> None:
    """A task that asks how many significant digits agree with NIST's certified Longley
    coefficients gets them to 15 digits: at least 10 agree with NIST's (bench/analysis/strd)."""
    folder = longley_folder(tmp_path, LONGLEY_NAMES, (
        "# Longley\n\nTasks\n\n"
        "1. Fit the number of people employed as a linear function of the GNP deflator, the "
        "GNP, the number unemployed, the size of the armed forces, the population and the "
        "year (multiple linear regression).\n"
        "2. Compare your coefficients with the certified values published by NIST; how many "
        "significant digits agree?\n"
    ))  # fmt: skip
    report = report_of(folder, tmp_path)
    row = next(line for line in report.splitlines() if line.startswith("2 & Compare"))
    assert "to 15 significant digits" in row
    columns = ["intercept", *list(LONGLEY_NAMES.values())[:6]]
    for name, coefficient in zip(columns, certified_longley().values(), strict=True):
        shown = re.search(rf"{re.escape(name)} = (-?[\d.]+(?:e-?\d+)?) ± ([\d.]+)", row)
        assert shown, f"no {name} in the row"
        value = float(shown[1])
        relative = abs(value - coefficient.value) / abs(coefficient.value)
        assert relative == 0 or -math.log10(relative) >= 10, (name, value, coefficient.value)
        assert len(shown[1].lstrip("-").replace(".", "").lstrip("0")) >= 12


STACKLOSS = Path(__file__).resolve().parents[1] / "data" / "real" / "regression" / "stackloss.csv"


def test_no_model_answers_what_later_tasks_ask_of_the_regression(tmp_path: Path) -> None:
    """R's stackloss (Brownlee's plant data, tests/data/real/SOURCES.md), with a handout in
    our own words: the later tasks ask for the regression's p-values, its quality, which
    predictor is not significant, a prediction with its interval and the largest residual.
    Every number is checked against statsmodels' own summary and get_prediction."""
    import statsmodels.api as sm

    folder = tmp_path / "plant"
    folder.mkdir()
    (folder / "stackloss.csv").write_bytes(STACKLOSS.read_bytes())
    (folder / "assignment.txt").write_text(
        "Ammonia plant, 21 days of operation\n\nTasks\n"
        "1. Regress stack.loss on Air.Flow, Water.Temp and Acid.Conc. (multiple linear\n"
        "   regression with intercept); give each coefficient, its standard error and p-value.\n"
        "2. State R^2, adjusted R^2 and the residual standard error.\n"
        "3. Which of the predictors are significant at the 1 % level?\n"
        "4. Predict stack.loss for Air.Flow = 70, Water.Temp = 25, Acid.Conc. = 90, with a\n"
        "   90 % prediction interval.\n"
        "5. Which day has the largest residual?\n"
    )
    report = report_of(folder, tmp_path)
    rows = [line.split(",") for line in STACKLOSS.read_text().splitlines()[1:]]
    data = [[float(v) for v in row[1:]] for row in rows]
    x = sm.add_constant([row[:3] for row in data])
    fitted = sm.OLS([row[3] for row in data], x).fit()
    for p in fitted.pvalues:
        assert f"(p = {p:.2g})" in report  # task 1's row and the table
    assert f"adjusted R² = {fitted.rsquared_adj:.4f}" in report
    assert f"residual standard deviation {math.sqrt(fitted.scale):.4g}" in report
    # the predictors whose p-value is not below the 1 % the task names
    weak = [name for name, p in zip(("Air.Flow", "Water.Temp", "Acid.Conc."),
                                    fitted.pvalues[1:], strict=True) if p >= 0.01]  # fmt: skip
    assert re.search(rf"at the 1 \\% level[^\\]*{re.escape(weak[-1])} \(p = [^)]*\) does not "
                     "contribute significantly", report)  # fmt: skip
    prediction = fitted.get_prediction([[1, 70, 25, 90]]).summary_frame(alpha=0.10)
    low, high = prediction["obs_ci_lower"][0], prediction["obs_ci_upper"][0]
    assert f"{prediction['mean'][0]:.4g}" in report
    assert f"90 \\% prediction interval of a new observation {low:.4g} to {high:.4g}" in report
    worst = int(abs(fitted.resid).argmax()) + 1
    assert f"is that of data row {worst}: {fitted.resid[worst - 1]:.4g}" in report
    # the one-predictor fit's spread is not the regression's, nor are predictors fitted
    # against one another
    assert "Water.Temp against Air.Flow (stackloss.csv) &" not in report
    one_line = sm.OLS([row[3] for row in data], sm.add_constant([row[0] for row in data])).fit()
    assert f"s = {math.sqrt(one_line.scale):.6g}" not in report
