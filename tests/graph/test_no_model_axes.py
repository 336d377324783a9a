"""`labscribe run --no-model` on folders whose assignment plots a quantity no column holds:
T² from the time of 10 swings, 1/λ, ln p against 1/T with T in °C, P = U·I against T⁴,
a pressure with the atmosphere the handout states added. Each run reads report.tex: the
fit carries the task's axes, and its numbers are computed here by an independent route
(numpy), never copied.

Real material: the pendulum of HuntFeng/experimental-physics (tests/data/real/SOURCES.md)
with the wording of AngelaBi/GenPhysLaboratory's handout ("plot the square of the average
period, $T^2$, as a function of the length $L$ ... force the fit to pass through the
origin"); the IITB virtual lab's "a graph of V on the vertical axis vs. 1/λ on the
horizontal axis" (virtual-labs/exp-plancks-constant-from-kinetic-energy-versus-frequency-
graph-iitb, experiment/theory.md @877da5e); the vapour pressure of water at 20-100 °C as
the IAPWS-95 formulation gives it (NIST Chemistry WebBook, saturation properties)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
from test_no_model_roles import folder_with, report_of

REAL = Path(__file__).parents[1] / "data" / "real" / "labtables"
NUMBER = r"\(?(-?\d+(?:\.\d+)?) ± (\d+(?:\.\d+)?)\)?(?:e(-?\d+))?"


def row_of(report: str, start: str, model: str) -> str:
    """The fit table's row for `start` (its data, as the table writes them) and `model`."""
    rows = [line for line in report.splitlines() if line.startswith(start) and model in line]
    assert rows, f"no fit row {start!r} with {model!r}:\n" + "\n".join(
        line for line in report.splitlines() if " against " in line and "&" in line
    )
    return rows[0]


def value_in(row: str, name: str) -> tuple[float, float]:
    found = re.search(rf"{re.escape(name)} = {NUMBER}", row)
    assert found, f"no {name} in {row}"
    scale = 10.0 ** int(found[3]) if found[3] else 1.0
    return float(found[1]) * scale, float(found[2]) * scale


def test_real_pendulum_t_squared_of_five_runs_against_the_length(tmp_path: Path) -> None:
    folder = tmp_path / "lab"
    folder.mkdir()
    shutil.copy(REAL / "pendulum-lengths-periods.csv", folder / "pendulum.csv")
    (folder / "handout.md").write_text(
        "# Acceleration due to gravity with a simple pendulum\n\n## Tasks\n\n"
        "- Using the data of the five runs, plot the square of the average period, $T^2$, "
        "as a function of the length $L$.\n"
        "- Draw the best fit straight line through your data points (force the fit to pass "
        "through the origin).\n- Determine the slope of your graph: $m = 4\\pi^2/g$.\n",
        encoding="utf-8",
    )
    report = report_of(folder, tmp_path)
    frame = pd.read_csv(folder / "pendulum.csv", skipinitialspace=True)
    length = frame.iloc[:, 0].to_numpy(float)
    squared = frame.iloc[:, 1:].to_numpy(float).mean(axis=1) ** 2
    row = row_of(report, r"T² [s\textasciicircum{}2] against l [cm]", "proportional")
    slope, error = value_in(row, "slope")
    expected = np.sum(length * squared) / np.sum(length**2)
    assert abs(slope - expected) <= 1e-6 * expected + error / 10
    assert r"s\textasciicircum{}2/cm" in row
    assert "the mean of the 5 T" in report  # the report says how T² was formed


def test_the_time_of_ten_swings_becomes_the_period_squared(tmp_path: Path) -> None:
    rng = np.random.default_rng(7)
    lengths = np.arange(30.0, 121.0, 10.0)
    period = 2 * np.pi * np.sqrt(lengths / 100 / 9.81)
    runs = [10 * period + rng.normal(0, 0.08, len(lengths)) for _ in range(3)]
    lines = ["l\tt10_1\tt10_2\tt10_3", "cm\ts\ts\ts"]
    lines += ["\t".join(f"{v:.2f}" for v in row) for row in zip(lengths, *runs, strict=True)]
    folder = folder_with(tmp_path, {
        "messung.tsv": "\n".join(lines) + "\n",
        "aufgabe.md": "## Fadenpendel\n\nFür jede Länge wurde die Zeit für 10 Schwingungen "
        "dreimal gemessen.\n\n### Aufgaben\n1) Berechnen Sie die Periodendauer T einer "
        "Schwingung.\n2) Tragen Sie T² gegen l auf. Bestimmen Sie aus der Steigung der "
        "Ausgleichsgeraden die Erdbeschleunigung g.\n",
    })  # fmt: skip
    report = report_of(folder, tmp_path)
    written = [np.round(run, 2) for run in runs]
    squared = (np.mean(written, axis=0) / 10) ** 2
    slope, _intercept = np.polyfit(lengths, squared, 1)
    row = row_of(report, r"T² [s\textasciicircum{}2] against l [cm]", "linear")
    assert "asks for" in row
    value, error = value_in(row, "slope")
    assert abs(value - slope) <= max(error / 10, 1e-6 * abs(slope))
    assert not re.search(r"t10\\_\\allowbreak\{\}1 \[s\] against l \[cm\].*asks for", report)
    assert re.search(
        r"\\caption\{T² against l \(messung.tsv\) with the model tasks? \w+ asks? for", report
    )


def test_the_knee_voltage_against_the_inverse_wavelength(tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    wavelengths = np.array([940.0, 660, 625, 590, 570, 525, 470, 405])
    volts = 1239.84 / wavelengths - 0.2 + rng.normal(0, 0.03, len(wavelengths))
    table = "lambda (nm),V (V)\n" + "\n".join(
        f"{w:.0f},{v:.3f}" for w, v in zip(wavelengths, volts, strict=True)
    )
    folder = folder_with(tmp_path, {
        "leds.csv": table + "\n",
        "handout.md": "# Planck's constant from LEDs\n\nThe knee voltage V is measured for LEDs "
        "with different values of λ (wavelength of light). We see that the slope s of a graph "
        "of V on the vertical axis vs. 1/λ on the horizontal axis is hc/e.\n\n## Tasks\n1. "
        "Fit a straight line and determine Planck's constant h from the slope.\n",
    })  # fmt: skip
    report = report_of(folder, tmp_path)
    slope, _intercept = np.polyfit(1 / wavelengths, np.round(volts, 3), 1)
    row = row_of(report, r"V [V] against 1/\ensuremath{\lambda} [nm\textasciicircum{}-1]",
                 "linear")  # fmt: skip
    value, error = value_in(row, "slope")
    assert abs(value - slope) <= error / 10
    assert "V·nm" in row


def test_ln_p_against_inverse_absolute_temperature_from_celsius(tmp_path: Path) -> None:
    celsius = np.arange(20.0, 101.0, 10.0)
    # IAPWS-95 saturation pressures of water (NIST Chemistry WebBook), kPa
    kilopascal = [2.3393, 4.2470, 7.3849, 12.352, 19.946, 31.201, 47.414, 70.182, 101.42]
    table = "temperature (°C),vapour pressure (kPa)\n" + "\n".join(
        f"{c:.0f},{p}" for c, p in zip(celsius, kilopascal, strict=True)
    )
    folder = folder_with(tmp_path, {
        "vapour.csv": table + "\n",
        "assignment.md": "# Vapour pressure of water\n\nThe Clausius-Clapeyron equation "
        "ln p = -L/(R T) + const holds for the absolute temperature T.\n\n## Tasks\n1. Plot "
        "ln p against 1/T and fit a straight line.\n2. Determine the molar enthalpy of "
        "vaporisation from the slope.\n",
    })  # fmt: skip
    report = report_of(folder, tmp_path)
    slope, _ = np.polyfit(1 / (celsius + 273.15), np.log(kilopascal), 1)
    row = row_of(report, r"ln p against 1/T [K\textasciicircum{}-1]", "linear")
    value, error = value_in(row, "slope")
    assert abs(value - slope) <= error / 10
    assert re.search(r"slope = [^;&]*± [0-9.]+ K(;| &)", row)


def test_electric_power_against_the_fourth_power_of_temperature(tmp_path: Path) -> None:
    rng = np.random.default_rng(11)
    kelvin = np.linspace(1200, 2600, 12)
    power = 5.67e-8 * 0.35 * 0.5e-4 * kelvin**4 * (1 + rng.normal(0, 0.01, len(kelvin)))
    volts = np.sqrt(power * 2.0) * (1 + rng.normal(0, 0.002, len(kelvin)))
    amperes = power / volts
    rows = [f"{u:.3f};{i:.4f};{t:.0f}".replace(".", ",")
            for u, i, t in zip(volts, amperes, kelvin, strict=True)]  # fmt: skip
    folder = folder_with(tmp_path, {
        "messwerte.csv": "U in V;I in A;T in K\n" + "\n".join(rows) + "\n",
        "Aufgabe.txt": "Versuch W5: Stefan-Boltzmann-Gesetz\n\nAuswertung:\na) Berechnen Sie "
        "für jede Messung die elektrische Leistung P = U · I.\nb) Tragen Sie P gegen T⁴ auf, "
        "legen Sie eine Ausgleichsgerade durch den Ursprung und bestimmen Sie aus der Steigung "
        "die Stefan-Boltzmann-Konstante.\n",
    })  # fmt: skip
    report = report_of(folder, tmp_path)
    frame = pd.read_csv(folder / "messwerte.csv", sep=";", decimal=",")
    p = frame.iloc[:, 0].to_numpy() * frame.iloc[:, 1].to_numpy()
    t4 = frame.iloc[:, 2].to_numpy(float) ** 4
    expected = np.sum(p * t4) / np.sum(t4**2)
    row = row_of(report, r"P [W] against T⁴ [K\textasciicircum{}4]", "proportional")
    value, error = value_in(row, "slope")
    assert abs(value - expected) <= error / 10
    assert not re.search(r"^U \[V\] against", report, re.M)  # U and I are in P


def test_a_pressure_with_the_atmosphere_the_handout_states(tmp_path: Path) -> None:
    volumes = np.array([20.0, 18, 16, 14, 12, 10, 8])
    gauge = 101.3 * 20 / volumes - 101.3 + np.array([0.3, -0.2, 0.1, 0.4, -0.3, 0.2, -0.1])
    table = "V (mL),p_g (kPa)\n" + "\n".join(
        f"{v:.0f},{g:.1f}" for v, g in zip(volumes, gauge, strict=True)
    )
    folder = folder_with(tmp_path, {
        "syringe.csv": table + "\n",
        "exercise_sheet.txt": "Boyle's law with a syringe\n\nThe gauge reads the pressure "
        "above the atmosphere's; on the day it stood at 101.3 kPa, so the pressure of the air is "
        "p = p_g + 101.3 kPa.\n\nTasks:\n- Plot p against 1/V and fit a line through the "
        "origin, p = k/V. Give k with its uncertainty.\n",
    })  # fmt: skip
    report = report_of(folder, tmp_path)
    pressure = np.round(gauge, 1) + 101.3
    expected = np.sum(pressure / volumes) / np.sum(1 / volumes**2)
    row = row_of(report, "p [kPa] against V [mL]", "p = k/V")
    value, error = value_in(row, "k")
    assert abs(value - expected) <= error / 10
    assert "p\\_g" not in row.split("&")[0]  # the gauge reading alone is never the pressure


def test_an_axis_no_column_forms_is_said_plainly(tmp_path: Path) -> None:
    table = "U (V),R (kOhm)\n" + "\n".join(f"{u},{1 + u / 10}" for u in range(1, 9))
    folder = folder_with(tmp_path, {
        "data.csv": table + "\n",
        "task.md": "## Tasks\n1. Plot ln I against U and fit a straight line.\n",
    })  # fmt: skip
    report = report_of(folder, tmp_path)
    assert "The assignment's axis ln I" in report
    assert "was not formed" in report


# Giordano and Nakanishi's black coffee (Computational Physics, the cooling exercise), as
# NAKONAKO4/ZJU-computational-physics-NAKO types it (Homework1/2.1/b1.py): minutes, °C.
COFFEE_MINUTES = list(range(0, 47, 2))
COFFEE_CELSIUS = [82.3, 78.5, 74.3, 70.7, 67.6, 65.0, 62.5, 60.1, 58.1, 56.1, 54.3, 52.8, 51.2,
                  49.9, 48.6, 47.2, 46.1, 45.0, 43.9, 43.0, 41.9, 41.0, 40.1, 39.5]  # fmt: skip


def test_a_law_written_as_t_of_t_makes_time_the_variable(tmp_path: Path) -> None:
    table = "time (min)\ttemperature (°C)\n" + "\n".join(
        f"{t}\t{c}" for t, c in zip(COFFEE_MINUTES, COFFEE_CELSIUS, strict=True)
    )
    folder = folder_with(tmp_path, {
        "coffee.tsv": table + "\n",
        "handout.md": "# Cooling of a cup of coffee\n\nFor the coffee, Newton's law of "
        "cooling gives T(t) = T_env + (T_init − T_env)·e^(−k·t).\n\n"
        "## Tasks\n- Fit Newton's law to the data with T_env, T_init and k free.\n"
        "- Give k and the fitted room temperature T_env with their uncertainties.\n",
    })  # fmt: skip
    report = report_of(folder, tmp_path)
    assert "temperature is taken as the response to time, as the assignment says" in report
    assert "time against temperature" not in report


def test_an_aim_whose_words_name_one_column_twice_decides_nothing(tmp_path: Path) -> None:
    rng = np.random.default_rng(5)
    celsius = np.sort(rng.uniform(0, 35, 14)).round(1)
    speed = (331.3 + 0.606 * celsius + rng.normal(0, 2.5, len(celsius))).round(1)
    table = "T_air / °C,v / (m/s)\n" + "\n".join(
        f"{t},{v}" for t, v in zip(celsius, speed, strict=True)
    )
    folder = folder_with(tmp_path, {
        "tube.csv": table + "\n",
        "instructions.md": "Speed of sound\n\nAim: find out how the speed of sound in air "
        "depends on the air temperature.\n\nWork:\n1. Plot v against the air temperature θ "
        "and fit a straight line v = v0 + b·θ.\n2. Decide whether a line is adequate.\n",
    })  # fmt: skip
    report = report_of(folder, tmp_path)
    assert "v is taken as the response to T\\_air" in report
    assert "T\\_\\allowbreak{}air [°C] against v" not in report
    slope, _ = np.polyfit(celsius, speed, 1)
    row = row_of(report, r"v [m/s] against T\_\allowbreak{}air [°C]", "v = v0 + b")
    value, error = value_in(row, "b")
    assert abs(value - slope) <= error / 10


def test_a_group_number_is_a_label_never_a_variable(tmp_path: Path) -> None:
    rng = np.random.default_rng(2)
    sigma = rng.uniform(0.005, 0.05, 8).round(3)
    g = (9.81 + rng.normal(0, 1, 8) * sigma).round(4)
    table = "Gruppe,g (m/s^2),sigma_g (m/s^2)\n" + "\n".join(
        f"{i},{v},{s}" for i, (v, s) in enumerate(zip(g, sigma, strict=True), start=1)
    )
    folder = folder_with(tmp_path, {
        "ergebnisse.csv": table + "\n",
        "aufgabe.md": "## Aufgaben\n1. Bilden Sie den gewichteten Mittelwert der Ergebnisse "
        "aller Gruppen.\n2. Vergleichen Sie ihn mit g = 9,81 m/s².\n",
    })  # fmt: skip
    report = report_of(folder, tmp_path)
    assert " against Gruppe" not in report
    assert "Gruppe (ergebnisse.csv) only numbers the rows" in report
