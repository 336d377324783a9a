"""`labscribe run --no-model` on folders whose assignment decides which column is fitted
against which (issue 26, item 2), or writes its formula with physical constants (item 5):
each run reads report.tex.

The data are real where a public repository has them (tests/data/real/SOURCES.md); every
expected number is computed here by an independent route (numpy, scipy), never copied."""

from __future__ import annotations

import math
import re
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import constants
from scipy.optimize import curve_fit
from test_no_model import no_model_report

REAL = Path(__file__).parents[1] / "data" / "real" / "labtables"
# The reversed pendulum of the issue: the period first in the file, the length second.
PERIODS = [0.8978, 1.1006, 1.2696, 1.4148, 1.5567, 1.6799, 1.7924, 1.9053, 2.0075, 2.1052,
           2.1977]  # fmt: skip
LENGTHS = [0.2 + 0.1 * i for i in range(11)]


def report_of(folder: Path, tmp_path: Path) -> str:
    return no_model_report(folder, tmp_path)


def folder_with(tmp_path: Path, files: dict[str, str]) -> Path:
    folder = tmp_path / "lab"
    folder.mkdir()
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def reversed_table(header: str = "T (s),L (m)") -> str:
    rows = [f"{t:.4f},{length:.3f}" for t, length in zip(PERIODS, LENGTHS, strict=True)]
    return header + "\n" + "\n".join(rows) + "\n"


def fitted(report: str, name: str) -> tuple[float, float, str]:
    """(value, error, unit) of `name = value ± error unit` in the fit table, in the form
    format_value writes (`(440 ± 23)e-36` included)."""
    number = r"-?\d+(?:\.\d+)?"
    found = re.search(
        rf"(?<![\w\\]){re.escape(name)} = \(?({number}) ± ({number})\)?(?:e(-?\d+))?"
        r"(?: ([^;&,()]+?))?(?:;| &|,|\))",
        report,
    )
    assert found, f"no {name} = ... ± ... in the report"
    scale = 10.0 ** int(found[3]) if found[3] else 1.0
    return float(found[1]) * scale, float(found[2]) * scale, (found[4] or "").strip()


def power_law_amplitude() -> float:
    (a, _b), _ = curve_fit(lambda x, a, b: a * x**b, LENGTHS, PERIODS, p0=(2.0, 0.5))
    return float(a)


def test_no_model_fits_the_period_against_the_length_whatever_the_column_order(
    tmp_path: Path,
) -> None:
    """The issue's folder: `T (s),L (m)` and "Plot the period T against the length L. Fit a
    power law T = a L^b" gave "L against L" with a = 1 m/m."""
    handout = (
        "# Lab 2: The simple pendulum\n\nTasks:\n1. Plot the period T against the length L.\n"
        "2. Fit a power law T = a L^b to the data.\n"
    )
    report = report_of(folder_with(tmp_path, {"data.csv": reversed_table(),
                                              "handout.md": handout}), tmp_path)  # fmt: skip
    assert "L against L" not in report and "L against T" not in report
    assert "T [s] against L [m] (data.csv) & T = a L" in report
    a, error, unit = fitted(report, "a")
    assert abs(a - power_law_amplitude()) < 2 * error
    assert unit.startswith("s/m")
    assert "T is taken as the response to L, as the assignment says" in report


def test_no_model_reads_the_axes_from_a_german_handout(tmp_path: Path) -> None:
    handout = (
        "# Versuch 2: Fadenpendel\n\nAufgaben:\n"
        "1. Tragen Sie die Periodendauer T gegen die Pendellänge L auf.\n"
        "2. Passen Sie ein Potenzgesetz an die Messwerte an.\n"
    )
    report = report_of(folder_with(tmp_path, {"messung.csv": reversed_table(),
                                              "anleitung.md": handout}), tmp_path)  # fmt: skip
    assert "T [s] against L [m] (messung.csv) & power law" in report
    assert "L against T" not in report


def test_no_model_reads_the_axes_from_a_chinese_handout(tmp_path: Path) -> None:
    handout = (
        "# 实验二 单摆\n\n实验内容：\n1. 以摆长 L 为横坐标，周期 T 为纵坐标作图。\n"
        "2. 用幂函数 T = a L^b 拟合数据。\n"
    )
    table = reversed_table("周期(s),摆长(m)")
    report = report_of(folder_with(tmp_path, {"data.csv": table, "实验指导.md": handout}),
                       tmp_path)  # fmt: skip
    assert "周期 against 摆长" in report
    assert "摆长 against 周期" not in report
    a, error, _ = fitted(report, "a")
    assert abs(a - power_law_amplitude()) < 2 * error


def test_no_model_says_which_column_it_took_as_the_variable_when_nothing_names_one(
    tmp_path: Path,
) -> None:
    report = report_of(folder_with(tmp_path, {"data.csv": reversed_table()}), tmp_path)
    assert "L was taken as the variable: its values are set in even steps, T's are measured." in (
        report
    )
    assert "T against L (data.csv)" in report and "L against T" not in report


def test_no_model_fits_a_law_against_the_length_not_the_trial_number(tmp_path: Path) -> None:
    """A first column that numbers the trials is never the predictor a request picks."""
    rows = [
        f"{i},{length:.3f},{t:.4f}"
        for i, (t, length) in enumerate(zip(PERIODS, LENGTHS, strict=True), start=1)
    ]
    handout = "Tasks:\n1. Fit T = a L^b to the periods and determine a and b.\n"
    report = report_of(folder_with(tmp_path, {"runs.csv": "trial,L (m),T (s)\n"
                                              + "\n".join(rows) + "\n",
                                              "assignment.md": handout}), tmp_path)  # fmt: skip
    assert "T [s] against L [m] (runs.csv) & T = a L" in report
    assert "against trial" not in report


def test_no_model_leaves_a_fit_on_two_predictors_to_the_regression(tmp_path: Path) -> None:
    """The issue's yield table: "pressure against temperature" was the fit of a task that
    asks for yield as a function of both."""
    rng = np.random.default_rng(7)
    temperature, pressure = rng.uniform(0, 10, 30), rng.uniform(0.5, 4.5, 30)
    crop = 3 * temperature - 2 * pressure + 2 + rng.normal(0, 0.5, 30)
    table = pd.DataFrame({"temperature (C)": temperature, "pressure (bar)": pressure,
                          "yield (g)": crop}).to_csv(index=False, float_format="%.3f")  # fmt: skip
    handout = (
        "Exercise 7: Reaction yield\n\nTasks:\n(a) Fit the yield as a linear function of both "
        "the temperature and the pressure (multiple linear regression).\n"
    )
    report = report_of(folder_with(tmp_path, {"yield.csv": table,
                                              "assignment.txt": handout}), tmp_path)  # fmt: skip
    assert "pressure against temperature" not in report
    assert "The assignment names temperature and pressure as predictors of yield" in report


def test_no_model_gives_g_of_a_real_pendulum_in_si_units(tmp_path: Path) -> None:
    """HuntFeng/experimental-physics: lengths in cm, five periods each. T = 2π√(l/g) with
    "determine the gravitational acceleration g" makes g the parameter, in m/s²."""
    folder = folder_with(tmp_path, {"handout.md": (
        "# Lab 3: The simple pendulum\n\nYou measure the period T of a pendulum of length l.\n\n"
        "Tasks:\n1. Plot the period T against the length l.\n"
        "2. Fit T = 2π √(l/g) to the data and determine the gravitational acceleration g.\n"
    )})  # fmt: skip
    shutil.copy(REAL / "pendulum-lengths-periods.csv", folder)
    report = report_of(folder, tmp_path)
    data = np.loadtxt(REAL / "pendulum-lengths-periods.csv", delimiter=",", skiprows=1)
    length, period = data[:, 0] / 100, data[:, 1]  # cm as m; the first series of periods
    (g,), _ = curve_fit(lambda x, g: 2 * math.pi * np.sqrt(x / g), length, period, p0=(9.8,))
    value, error, unit = fitted(report, "g")
    assert unit == "m/s²"
    assert abs(value - g) < 2 * error + 1e-9
    assert "g = 9.80665" not in report  # asked for: fitted, not taken as standard gravity


def test_no_model_fits_planck_constant_with_e_and_c_from_codata(tmp_path: Path) -> None:
    """dusan-zdravkovic/Physics-Data-Analytics: stopping voltages of a phototube against the
    wavelength (nm). e U = h c/λ − W with "determine Planck's constant h": e and c are
    constants, h and W parameters; h agrees with a straight line of U against 1/λ within
    its error."""
    folder = folder_with(tmp_path, {"assignment.md": (
        "# Photoelectric effect\n\nThe stopping voltage U of the electrons that light of "
        "wavelength λ ejects obeys e U = h c/λ − W, where e is the elementary charge, c the "
        "speed of light and W the work function of the cathode.\n\nTasks:\n"
        "1. Plot the stopping voltage U against the wavelength λ.\n"
        "2. Fit e U = h c/λ − W to the data and determine Planck's constant h.\n"
    )})  # fmt: skip
    shutil.copy(REAL / "photoelectric_stopping_voltage.csv", folder)
    report = report_of(folder, tmp_path)
    data = pd.read_csv(REAL / "photoelectric_stopping_voltage.csv")
    slope, _ = np.polyfit(1 / (data.iloc[:, 0] * 1e-9), data.iloc[:, 2], 1)
    h, error, _ = fitted(report, "h")
    # the filters' Delta Wavelength, carried through the slope, weights the points (the
    # effective variance): h is the straight line's within its error, not to the digit
    assert abs(h - slope * constants.e / constants.c) < error
    assert "Delta Wavelength (through the slope)" in report.replace("\\allowbreak{}", "")
    assert error < abs(h) / 5
    assert "e = 1.602176634e-19 C (the elementary charge" in report
    assert "c = 299792458 m/s (the speed of light" in report
    assert "Stopping Voltage against Wavelength (photoelectric" in report


SPRING = REAL / "spring_defl_vs_added_mass.csv"
HOOKE = "# Hooke's law\n\nMasses m are hung from a spring and the position x of its end is read."


def spring_constant(tmp_path: Path, handout: str, g: float) -> str:
    """The report on the spring with `handout`, after checking that its k, in N/m, is the
    slope of m against x (numpy) times `g`."""
    folder = folder_with(tmp_path, {"assignment.md": handout})
    shutil.copy(SPRING, folder)
    report = report_of(folder, tmp_path)
    data = pd.read_csv(SPRING)
    slope, _ = np.polyfit(data.iloc[:, 0] / 100, data.iloc[:, 1] / 1000, 1)
    k, error, unit = fitted(report, "k")
    assert unit == "N/m"
    assert abs(k - slope * g) < error / 5
    return report


def test_no_model_takes_g_as_a_constant_and_fits_the_spring_constant(tmp_path: Path) -> None:
    """skcpr/scientific-data-analysis: deflection (cm) and added mass (g). m g = k (x − x_0)
    with g named but not asked for: g is standard gravity, k (no Boltzmann constant: J/K
    is not N/m) a parameter in N/m."""
    report = spring_constant(tmp_path, (
        f"{HOOKE}\n\nTasks:\n1. Plot the spring deflection x against the added mass m.\n"
        "2. The spring obeys m g = k (x − x_0), where g is the gravitational acceleration. "
        "Fit this law to the data and find the spring's stiffness.\n"
    ), constants.g)  # fmt: skip
    assert "g = 9.80665 m/s² (standard gravity" in report
    assert "spring\\_\\allowbreak{}deflection against added\\_\\allowbreak{}mass" in report


def test_no_model_fits_with_the_local_g_the_handout_states(tmp_path: Path) -> None:
    """The same spring with "Use g = 9,79317 m/s² (the local value)": g is that value, not
    standard gravity, and k follows from it."""
    report = spring_constant(tmp_path, (
        f"{HOOKE} Use g = 9,79317 m/s² (the local value).\n\nTasks:\n"
        "1. The spring obeys m g = k (x − x_0). Fit this law to the data and find k.\n"
    ), 9.79317)  # fmt: skip
    assert "g = 9.79317 m/s² (the handout's value, 9.79317 m/s², in place of standard gravity" in (
        report
    )
    assert "9.80665" not in report


@pytest.mark.parametrize(
    ("law", "words"),
    [("F = k x", "the force F against the extension x"),
     ("F = k_B x", "the force F against the extension x")],
)  # fmt: skip
def test_no_model_never_takes_a_constant_that_cannot_hold(
    tmp_path: Path, law: str, words: str
) -> None:
    """Hooke's law with k, even spelled k_B: J/K·m is no force, so k is fitted, in N/m."""
    extension = np.linspace(0.01, 0.1, 10)
    force = 25.0 * extension + np.random.default_rng(5).normal(0, 0.01, 10)
    table = pd.DataFrame({"x (m)": extension, "F (N)": force})
    report = report_of(folder_with(tmp_path, {
        "hooke.csv": table.to_csv(index=False, float_format="%.4f"),
        "assignment.md": f"Tasks:\n1. Plot {words}.\n2. Fit {law} to the data.\n",
    }), tmp_path)  # fmt: skip
    name = law.split()[2]
    value, error, unit = fitted(report, name.replace("_", "\\_\\allowbreak{}"))
    assert unit == "N/m"
    assert abs(value - np.polyfit(extension, force, 1)[0]) < 3 * error
    assert "Boltzmann" not in report


@pytest.mark.parametrize(
    ("law", "constant", "columns", "truth", "unit"),
    [
        # a lamp's radiated power: σ is the Stefan–Boltzmann constant, a (emissivity times
        # area) is fitted in m²; the temperature in °C is shifted to kelvin inside the fit
        ("P = a σ (T^4 - T_0^4)", "σ = 5.67037441918e-08 W/(m²·K⁴) (the Stefan–Boltzmann",
         ("T (°C)", "P (W)"), 2.0e-5, "m²"),
        # a plate capacitor: ε_0 from CODATA, the plates' area fitted in m², d in mm, C in pF
        ("C = ε_0 A/d", "ε0 = 8.8541878188e-12 F/m (the vacuum permittivity",
         ("d (mm)", "C (pF)"), 0.0314, "m²"),
    ],
)  # fmt: skip
def test_no_model_fits_a_classic_law_with_its_constant_in_si(
    tmp_path: Path, law: str, constant: str, columns: tuple[str, str], truth: float, unit: str
) -> None:
    """Generated from the law with 0.5 % noise (no public folder holds a clean one)."""
    rng = np.random.default_rng(11)
    if columns[0].startswith("T"):
        x = np.linspace(400.0, 1600.0, 13)
        kelvin, ambient = x + 273.15, 293.15
        y = truth * constants.sigma * (kelvin**4 - ambient**4)
    else:
        x = np.linspace(0.5, 5.0, 10)
        y = constants.epsilon_0 * truth / (x * 1e-3) * 1e12
    y *= 1 + 0.005 * rng.standard_normal(x.size)
    table = pd.DataFrame({columns[0]: x, columns[1]: y})
    report = report_of(folder_with(tmp_path, {
        "data.csv": table.to_csv(index=False, float_format="%.6g"),
        "assignment.md": f"Tasks:\n1. Fit {law} to the data.\n",
    }), tmp_path)  # fmt: skip
    name = "a" if law.startswith("P") else "A"
    value, error, shown = fitted(report, name)
    assert shown == unit
    assert abs(value - truth) < 3 * error
    assert (
        constant.replace("σ", "\\ensuremath{\\sigma}").replace("ε", "\\ensuremath{\\epsilon}")
        in report
    )
