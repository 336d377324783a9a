"""`labscribe run --no-model` on folders whose handout gives a formula for a predicted value
and whose parameter files hold its inputs (issue 26, item 12): the prediction, its
propagated uncertainty and its discrepancy from the measured value, in report.tex. Every
expected number is computed here from the inputs, never copied from a run."""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pandas as pd
from test_no_model_roles import fitted, folder_with, report_of

REAL = Path(__file__).parents[1] / "data" / "real" / "repeats"


def test_no_model_sets_the_predicted_f0_beside_the_measured_one(
    example: Path, tmp_path: Path
) -> None:
    """The shipped example: f0 = 1/(2π√(LC)) in its handout, L and C with their tolerances in
    params.ini, and a task that asks to compare f0 with the prediction."""
    report = report_of(example, tmp_path)
    inductance, capacitance = 10e-3, 100e-9
    f0 = 1 / (2 * math.pi * math.sqrt(inductance * capacitance))
    # a tolerance t is a rectangular distribution: u = t/√3; f0 goes as (LC)^(-1/2)
    sigma = f0 / 2 * math.hypot(0.10 / math.sqrt(3), 0.05 / math.sqrt(3))
    shown = re.search(r"f0 predicted (\d+) ± (\d+) Hz from f0 = 1/\(2 pi sqrt\(LC\)\)", report)
    assert shown, "no predicted f0 in the report"
    assert abs(float(shown[1]) - f0) <= 1 and abs(float(shown[2]) - sigma) <= 1
    row = next(line for line in report.splitlines() if line.startswith("4 & Compare f0"))
    assert "f0 predicted" in row and "z = 0.00" in row
    assert "they agree within their uncertainties" in row
    assert r"read as a rectangular distribution: u = 10 \%/\ensuremath{\surd}3" in report


def test_no_model_predicts_from_values_written_with_their_tolerance(tmp_path: Path) -> None:
    """`L = 10 mH ± 10%` and `C = (100 ± 5) nF`, and a measured f0 in kHz: the prediction is
    shown in kHz, z computed in SI."""
    frequency = np.geomspace(2.0, 12.0, 120)
    f0, q = 4.8, 4.0
    amplitude = 1 / np.sqrt(1 + q**2 * (frequency / f0 - f0 / frequency) ** 2)
    noise = np.random.default_rng(3).normal(0, 0.003, frequency.size)
    table = pd.DataFrame({"f (kHz)": frequency, "U_R (V)": amplitude + noise})
    folder = folder_with(tmp_path, {
        "sweep.csv": table.to_csv(index=False, float_format="%.5f"),
        "components.txt": "L = 10 mH ± 10%\nC = (100 ± 5) nF\nR = 47 ohm\n",
        "assignment.md": (
            "# RLC resonance\n\nThe resonance frequency of the circuit is f0 = 1/(2π√(LC)).\n\n"
            "Tasks:\n1. Fit the resonance curve of U_R against f and determine f0.\n"
            "2. Compare the measured f0 with the value predicted from L and C.\n"
        ),
    })  # fmt: skip
    report = report_of(folder, tmp_path)
    predicted = 1 / (2 * math.pi * math.sqrt(10e-3 * 100e-9)) / 1000
    sigma = predicted / 2 * math.hypot(0.1 / math.sqrt(3), 0.05 / math.sqrt(3))
    shown = re.search(r"f0 predicted (\d+\.\d+) ± (\d+\.\d+) kHz", report)
    assert shown, "no predicted f0 in kHz"
    assert abs(float(shown[1]) - predicted) < 0.01 and abs(float(shown[2]) - sigma) < 0.01
    measured, error, _ = fitted(report, "f0")
    z = abs(measured - predicted) / math.hypot(error, sigma)
    stated = re.search(
        r"measured [^;]*kHz \(the resonance fit of U\\_\\allowbreak\{\}R "
        r"against f\), z = (\d+\.\d+)",
        report,
    )
    assert stated and abs(float(stated[1]) - z) < 0.02
    assert "a tolerance of ±5 nF, read as a rectangular distribution" in report


def test_no_model_reads_a_parts_tolerance_beside_its_value_in_a_nested_file(
    tmp_path: Path,
) -> None:
    """A YAML block per part, `inductor: {L: 10 mH, tolerance: 5 %}`: the bare `tolerance`
    key bounds the part's value, so the prediction is not taken as exact."""
    frequency = np.geomspace(3.0, 15.0, 120)
    f0, q = 7.39, 2.7
    amplitude = 1 / np.sqrt(1 + q**2 * (frequency / f0 - f0 / frequency) ** 2)
    noise = np.random.default_rng(5).normal(0, 0.003, frequency.size)
    table = pd.DataFrame({"f (kHz)": frequency, "U_R (V)": amplitude + noise})
    folder = folder_with(tmp_path, {
        "sweep.csv": table.to_csv(index=False, float_format="%.5f"),
        "components.yaml": (
            "inductor:\n  L: 10 mH\n  tolerance: 5 %\n  dc_resistance: 28 ohm\n"
            "capacitor:\n  C: 47 nF\n  tolerance: 10 %\n"
        ),
        "assignment.md": (
            "# RLC resonance\n\nThe resonance frequency of the circuit is f0 = 1/(2π√(LC)).\n\n"
            "Tasks:\n1. Fit the resonance curve of U_R against f and determine f0.\n"
            "2. Compare the measured f0 with the value predicted from L and C.\n"
        ),
    })  # fmt: skip
    report = report_of(folder, tmp_path)
    assert "no uncertainty given: taken as exact" not in report
    predicted = 1 / (2 * math.pi * math.sqrt(10e-3 * 47e-9)) / 1000
    sigma = predicted / 2 * math.hypot(0.05 / math.sqrt(3), 0.10 / math.sqrt(3))
    shown = re.search(r"f0 predicted (\d+\.\d+) ± (\d+\.\d+) kHz", report)
    assert shown, "no predicted f0 in kHz"
    assert abs(float(shown[1]) - predicted) < 0.01 and abs(float(shown[2]) - sigma) < 0.01
    assert "they agree within their uncertainties" in report


def test_no_model_computes_g_from_the_mean_fall_time_with_its_uncertainty(
    tmp_path: Path,
) -> None:
    """`g = 2h/t²` from the mean of 20 hand-timed drops, h stated in the handout's prose with
    its ±: g with the uncertainty propagated from the standard error and the tolerance."""
    times = np.array([0.45, 0.54, 0.47, 0.50, 0.44, 0.52, 0.49, 0.46, 0.53, 0.48,
                      0.51, 0.43, 0.50, 0.47, 0.55, 0.46, 0.49, 0.52, 0.44, 0.49])  # fmt: skip
    folder = folder_with(tmp_path, {
        "drops.csv": "t (s)\n" + "\n".join(f"{t:.2f}" for t in times) + "\n",
        "brief.md": (
            "# Free fall\n\nA ball was dropped 20 times from a height h = 1.200 m (measured to "
            "±1 mm).\n\n## Tasks\n1. Give the mean fall time and its standard error.\n"
            "2. Compute g = 2h/t² from the mean time, with its uncertainty, and compare it "
            "with 9.81 m/s².\n"
        ),
    })  # fmt: skip
    report = report_of(folder, tmp_path)
    mean, sem = times.mean(), times.std(ddof=1) / math.sqrt(times.size)
    g = 2 * 1.2 / mean**2
    sigma = g * math.hypot(2 * sem / mean, 0.001 / math.sqrt(3) / 1.2)
    shown = re.search(r"g = (\d+\.\d+) ± (\d+\.\d+) m/s² from g = 2h/t² with t = the mean", report)
    assert shown, "no g from the mean time"
    assert abs(float(shown[1]) - g) < 0.01 and abs(float(shown[2]) - sigma) < 0.01
    row = next(line for line in report.splitlines() if line.startswith("2 & Compute g"))
    assert "its uncertainty propagated" in row


def test_no_model_takes_the_only_repeated_measurement_where_the_formula_says_mean(
    tmp_path: Path,
) -> None:
    """A file of 700 pendulum timings with no header (tests/data/real/repeats, Uebung06):
    the formula's T is the mean of its one column, and the report says it took it so."""
    folder = folder_with(tmp_path, {
        "Pendel-Messung.dat": (REAL / "Pendel-Messung.dat").read_text(),
        "aufgabe.md": (
            "# Pendel\n\nThe pendulum is l = 2.800 m long.\n\n## Tasks\n"
            "1. Give the mean period and its standard error.\n"
            "2. Compute g = 4π²l/T² from the mean period and compare it with 9.81 m/s².\n"
        ),
    })  # fmt: skip
    report = report_of(folder, tmp_path)
    periods = np.loadtxt(REAL / "Pendel-Messung.dat")
    g = 4 * math.pi**2 * 2.8 / periods.mean() ** 2
    shown = re.search(r"g & (\d+\.\d+) ± (\d+\.\d+) from g = 4", report)
    assert shown, "no g from the mean period"
    assert abs(float(shown[1]) - g) < 0.01
    assert "T taken as the mean of" in report and "the only repeated measurement" in report
