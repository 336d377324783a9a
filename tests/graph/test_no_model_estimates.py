"""`labscribe run --no-model` on a task that asks for a fitted line's value at a point with
its interval ("Estimate the mean depression for a roller weight of 8, with a 95 % confidence
interval"): the real DAAG `roller` data (tests/data/real/SOURCES.md). The expected numbers
are computed here by the textbook formulas, ŷ ± t·s·√(1/n + (x0 − x̄)²/Sxx) (+1 under the root
for one new measurement), not by statsmodels."""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest
from scipy import stats
from test_no_model_stats import REAL, folder_with, report_of

ROLLER = REAL / "estimates" / "roller.csv"


def _expected(x0: float, single: bool) -> tuple[float, float, float]:
    data = np.genfromtxt(ROLLER, delimiter=",", names=True)
    x, y = data["weight"], data["depression"]
    slope, intercept = np.polyfit(x, y, 1)
    residual = y - (slope * x + intercept)
    s = math.sqrt(np.sum(residual**2) / (len(x) - 2))
    spread = 1 / len(x) + (x0 - x.mean()) ** 2 / np.sum((x - x.mean()) ** 2) + (1 if single else 0)
    half = stats.t.ppf(0.975, len(x) - 2) * s * math.sqrt(spread)
    mean = slope * x0 + intercept
    return mean, mean - half, mean + half


def test_no_model_gives_the_lines_value_at_the_point_a_task_names(tmp_path: Path) -> None:
    folder = folder_with(
        tmp_path, [ROLLER],
        "# Lawn rollers\n\n## Tasks\n1. Fit the depression as a linear function of the weight.\n"
        "2. Estimate the mean depression for a roller weight of 8, with a 95 % confidence "
        "interval.\n"
        "3. Predict the depression of a single new measurement at a weight of 10, with a 95 % "
        "prediction interval.\n",
    )  # fmt: skip
    report = report_of(folder, tmp_path)
    # the asked line describes the data: the line through the origin, which the BIC alone
    # would prefer, is no second answer beside it (no row, no figure)
    assert "linear: slope·x + intercept (the model task 1 asks for" in report
    assert "proportional" not in report
    mean, low, high = _expected(8.0, single=False)
    row = next(line for line in report.splitlines() if line.startswith("2 & Estimate"))
    shown = re.search(r"depression at weight = 8: ([\d.]+) .*confidence interval for the mean "
                      r"([\d.]+) to ([\d.]+)", row)  # fmt: skip
    assert shown, row
    assert [float(v) for v in shown.groups()] == [round(v, 2) for v in (mean, low, high)]
    mean, low, high = _expected(10.0, single=True)
    row = next(line for line in report.splitlines() if line.startswith("3 & Predict"))
    shown = re.search(r"at weight = 10: ([\d.]+) .*prediction interval for one new measurement "
                      r"(-?[\d.]+) to ([\d.]+)", row)  # fmt: skip
    assert shown, row
    assert np.allclose([float(v) for v in shown.groups()], (mean, low, high), atol=0.01)


def test_no_model_reads_a_calibration_curve_at_a_point_with_digits_enough(
    tmp_path: Path,
) -> None:
    """NIST's Pontius load cell (bench/analysis/strd, public domain) with an Italian sheet in
    our own words: the quadratic the task names is read at x = 1 500 000 (thousands grouped
    by blanks), with as many digits as its tiny standard error needs, and the residuals'
    standard deviation ("la deviazione standard dei residui") is given."""
    strd = Path(__file__).resolve().parents[2] / "bench" / "analysis" / "strd"
    folder = tmp_path / "cella"
    folder.mkdir()
    (folder / "Pontius.csv").write_bytes((strd / "Pontius.csv").read_bytes())
    (folder / "consegna.txt").write_text(
        "Taratura di una cella di carico\n\nCompiti\n"
        "1) Adattare una parabola y = c0 + c1·x + c2·x² e dare la deviazione standard dei "
        "residui.\n"
        "2) Con la curva quadratica, calcolare la deflessione attesa per un carico "
        "x = 1 500 000 con la sua incertezza.\n"
    )
    report = report_of(folder, tmp_path)
    x, y = np.loadtxt(strd / "Pontius.csv", delimiter=",", skiprows=1).T
    coefficients, covariance = np.polyfit(x, y, 2, cov="unscaled")
    residual = y - np.polyval(coefficients, x)
    s = float(np.sqrt(residual @ residual / (len(x) - 3)))
    first = next(line for line in report.splitlines() if line.startswith("1 & "))
    assert f"s = {s:.6g}" in first
    at = np.array([1.5e6**2, 1.5e6, 1.0])
    mean = float(at @ coefficients)
    error = float(np.sqrt(at @ covariance @ at) * s)
    second = next(line for line in report.splitlines() if line.startswith("2 & "))
    shown = re.search(r"estimated y at x = 1.5e\+06: ([\d.]+) \(standard error of the curve "
                      r"there ([\d.e-]+)\)", second)  # fmt: skip
    assert shown, second
    assert float(shown[1]) == pytest.approx(mean, abs=1e-6)
    assert float(shown[2]) == pytest.approx(error, rel=0.05)
    assert second.endswith("checking and stating the values given \\\\")
