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
