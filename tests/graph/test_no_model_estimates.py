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
