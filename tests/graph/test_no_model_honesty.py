"""`labscribe run --no-model` on real handouts and real data: a checklist row claims only what
the report holds. A task's statistic (a weighted mean, χ²) or transformed axes (T² against L)
that the analysis did not produce is "not done", never "checking and stating the values
given"; a plot's scale ("linear und halblogarithmisch") asks for no straight line."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from test_no_model_assignment import checklist
from test_no_model_regression import LONGLEY_NAMES, longley_folder, report_of

REAL = Path(__file__).parents[1] / "data" / "real"
CHECKING = "checking and stating the values given"
# Step 11 of tests/data/real/handouts/genphys_pendulum_cut.md (AngelaBi/GenPhysLaboratory).
SLOPE = "Determine the slope of your graph."
# The title of the weighted-mean exercise of Troels Petersen's Applied Statistics course
# (github simonguld/AppStat2022), as a task.
COMBINING = (
    "# Exercise: combining measurements\n\nTasks:\n1. Calculate the weighted mean, the "
    "standard deviation, χ² and the χ²-probability.\n2. Are the series consistent?\n"
)
# German: issue 26's kondensator handout (a plot's scales); English: the Phys 223 RC-circuit
# exercise (jcdaly.com/phys223Lab/Lab3RCcircuits/Exercise3.html, a straight line on semi-log
# paper: an exponential).
DISCHARGE = (
    "# Entladung eines Kondensators\n\nAufgaben:\n"
    "1. Stellen Sie U(t) linear und halblogarithmisch dar.\n"
    "2. Plot the voltage as a function of time on semi-log paper to achieve a straight line "
    "with a slope of -1/RC.\n"
    "3. Determine the time constant from the plot.\n"
)


def rows_of_fits(report: str) -> str:
    """The table of fits, its break points and escapes undone."""
    table = report.split("Fits of the data", 1)[1].split("\\end{longtable}", 1)[0]
    table = table.replace("\\allowbreak{}", "")
    return table.replace("\\_", "_").replace("\\textasciicircum{}", "^")


def row(rows: str, number: int) -> str:
    """Row `number` of the checklist's table, from its number to its end."""
    found = [line for line in rows.splitlines() if line.startswith(f"{number} & ")]
    assert found, rows
    return found[0].removesuffix("\\\\").strip()


def test_no_model_answers_a_fit_of_squared_axes_with_the_squared_column(tmp_path: Path) -> None:
    """The handout asks for T² against L; the data hold five timings of T per length l: the
    slope row gives the fit of the formed T² against l (numpy's slope of the mean T, squared),
    and no row offers a fit of T itself as the task's."""
    folder = tmp_path / "pendulum"
    folder.mkdir()
    shutil.copy(REAL / "handouts" / "genphys_pendulum_cut.md", folder / "handout.md")
    data = REAL / "labtables" / "pendulum-lengths-periods.csv"
    shutil.copy(data, folder)
    report = report_of(folder, tmp_path)
    rows = checklist(report)
    slope_row = next(line for line in rows.split("\\\\") if SLOPE in line)
    table = np.loadtxt(data, delimiter=",", skiprows=1)
    expected = np.polyfit(table[:, 0], table[:, 1:].mean(axis=1) ** 2, 1)[0]
    given = re.search(r"slope = ([0-9.]+) ± [0-9.]+ s\^2/cm", slope_row.replace("\\", ""))
    assert given is not None, slope_row
    assert float(given[1]) == pytest.approx(expected, rel=1e-4)
    assert "T² against l)" in slope_row and "not done" not in slope_row
    assert "fitted to T against" not in slope_row


def test_no_model_gives_the_weighted_mean_and_chi_square_a_task_asks_for(tmp_path: Path) -> None:
    """NBS gravity series (boot's gravity) hold no uncertainty column: the weighted mean is
    that of the series means (weights 1/SE², computed here with pandas) with its χ², and the
    row may then say it lists them; light speeds 1947-56 (Quail) have one, and both are
    given."""
    folder = tmp_path / "gravity"
    folder.mkdir()
    (folder / "handout.md").write_text(COMBINING)
    shutil.copy(REAL / "repeats" / "gravity.csv", folder)
    first = row(checklist(report_of(folder, tmp_path)), 1)
    series = pd.read_csv(REAL / "repeats" / "gravity.csv").groupby("series")["g"]
    weights = 1 / (series.std() / np.sqrt(series.count())) ** 2
    mean = float((series.mean() * weights).sum() / weights.sum())
    sigma = float(1 / np.sqrt(weights.sum()))
    assert f"(weights 1/SE²) {mean:.2f} ± {sigma:.2f}" in first
    chi_square = float((weights * (series.mean() - mean) ** 2).sum())
    dof = series.ngroups - 1
    assert f"\\ensuremath{{\\chi}}² = {chi_square:.1f} for {dof} degrees of freedom" in first
    assert first.endswith(CHECKING)
    light = tmp_path / "light"
    light.mkdir()
    (light / "handout.md").write_text(COMBINING)
    shutil.copy(REAL / "repeats" / "light_speeds_1947_1956.csv", light)
    (tmp_path / "l").mkdir()
    first = row(checklist(report_of(light, tmp_path / "l")), 1)
    assert "weighted mean (weights 1/Error²)" in first and first.endswith(CHECKING)


def test_no_model_reads_a_plot_scale_as_no_model(tmp_path: Path) -> None:
    """A real discharge (47 kΩ, 2200 µF): "linear und halblogarithmisch" asks for a plot; a
    straight line on semi-log paper asks for the exponential, and gets it."""
    folder = tmp_path / "discharge"
    folder.mkdir()
    (folder / "handout.md").write_text(DISCHARGE)
    shutil.copy(REAL / "verdicts" / "discharge_47k_2200uF.csv", folder)
    report = report_of(folder, tmp_path)
    assert "the model task 1 asks for" not in report
    rows = checklist(report)
    assert row(rows, 1).endswith(" & all of it")  # no model offered, none said to fail
    second = row(rows, 2)
    assert (
        "decay = 104" in second
        and "(the model this task asks for, fitted to V against t)" in second
    )


def test_no_model_answers_a_regressions_later_tasks_from_it_alone(tmp_path: Path) -> None:
    """NIST's Longley data: task 1's row lists the regression and no one-predictor fit beside
    it; task 2 (R², residual standard deviation, certified 0.995479004577296 and
    304.854073561965) is answered from it; task 3 (NIST's digit comparison) is not done:
    the listed coefficients are rounded to their standard errors."""
    folder = longley_folder(tmp_path, LONGLEY_NAMES, (
        "# Longley's employment data\n\nTasks\n\n"
        "1. Fit a multiple linear regression of Employed on the six other columns and give "
        "all seven coefficients with their standard errors.\n"
        "2. Give the residual standard deviation and R².\n"
        "3. Compare your coefficients with the certified values; how many significant digits "
        "agree?\n"
    ))  # fmt: skip
    rows = checklist(report_of(folder, tmp_path))
    assert "(fit of" not in row(rows, 1)
    assert "R² = 0.9955, adjusted R² = " in row(rows, 2)
    assert "residual standard deviation 304.9" in row(rows, 2)
    assert row(rows, 2).endswith(CHECKING)
    assert "not done: the values in full precision" in row(rows, 3)


def test_no_model_gives_each_task_its_part_of_a_repeated_quantity(tmp_path: Path) -> None:
    """Michelson's 1879 runs (R's morley, via Rdatasets): a task for each experiment gets the
    experiments' means, a task for the overall mean the pooled mean, not one block for both."""
    folder = tmp_path / "morley"
    folder.mkdir()
    (folder / "handout.md").write_text(
        "# Michelson 1879\n\nTasks:\n1. For each experiment, compute the mean speed and its "
        "standard error.\n2. Give the overall mean of all 100 runs and its standard error.\n"
    )
    shutil.copy(REAL / "repeats" / "morley.csv", folder)
    rows = checklist(report_of(folder, tmp_path))
    first, second = row(rows, 1), row(rows, 2)
    assert "by series (mean ± standard error)" in first and "909 ± 23" in first
    assert "852.4 ± 7.9" not in first
    assert "852.4 ± 7.9" in second and "909 ± 23" not in second
