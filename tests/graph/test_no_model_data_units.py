"""`labscribe run --no-model` on first-order BOD data: y = L0·(1 − e^(−k·t)) with "the rate
constant k (per day)". k spells Boltzmann's constant, but a rate in 1/d is none: the fit is
done in the data's units and gives L0 in mg/L and k in 1/d, never a value rescaled to SI and
printed without its unit ("L0 = 0.0191 ± 0.0025").

Data: R's BOD dataset (Marske 1967; Bates & Watts 1988, A1.4), wch/r-source
src/library/datasets/data/BOD.R at 0deacd3; and NIST StRD BoxBOD (Box et al. 1978), the
file bench/analysis/strd/BoxBOD.csv already holds (mlpack/ensmallen tests/data/boxBOD.csv).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from scipy.optimize import curve_fit
from test_no_model_roles import fitted, folder_with, report_of

BENCH = Path(__file__).resolve().parents[2] / "bench" / "analysis" / "strd"
R_BOD = ((1, 8.3), (2, 10.3), (3, 19.0), (4, 16.0), (5, 15.6), (7, 19.8))  # Time, demand


def first_order(t: np.ndarray, l0: float, k: float) -> np.ndarray:
    return l0 * (1 - np.exp(-k * t))


def test_bod_parameters_in_mg_per_l_and_per_day(tmp_path: Path) -> None:
    folder = folder_with(tmp_path, {
        "bod.csv": "Time (d),demand (mg/L)\n" + "".join(f"{t},{y}\n" for t, y in R_BOD),
        "handout.txt": (
            "BOD kinetics\n\nQuestions\n"
            "Q1 Fit the first-order BOD model y(t) = L0·(1 − e^(−k·t)) to the data. Give the "
            "ultimate BOD L0 and the rate constant k (per day) with standard errors.\n"
        ),
    })  # fmt: skip
    report = report_of(folder, tmp_path)
    t, y = np.array(R_BOD, dtype=float).T
    (l0, k), _ = curve_fit(first_order, t, y, p0=(20, 0.5))
    value, error, unit = fitted(report, "L0")
    assert unit == "mg/L" and abs(value - l0) < 0.05 * error
    value, error, unit = fitted(report, "k")
    assert unit == "1/d" and abs(value - k) < 0.05 * error
    assert "no unit in the file" not in report


def test_boxbod_in_the_units_its_handout_gives(tmp_path: Path) -> None:
    data = np.loadtxt(BENCH / "BoxBOD.csv", delimiter=",", skiprows=1)
    folder = folder_with(tmp_path, {
        "boxbod.csv": "incubation time [days],BOD [mg/L]\n"
        + "".join(f"{x:g},{y:g}\n" for x, y in data),
        "assignment.md": (
            "# Biochemical oxygen demand\n\n## Tasks\n"
            "1. Fit y = b1·(1 − exp(−k·t)) to the BOD against the incubation time and give "
            "the ultimate BOD b1 and the rate constant k.\n"
        ),
    })  # fmt: skip
    report = report_of(folder, tmp_path)
    value, error, unit = fitted(report, "b1")
    assert unit == "mg/L" and abs(value - 213.80940889) < max(error, 1.0)  # NIST certified
    value, error, unit = fitted(report, "k")
    assert unit.endswith("/d") or unit.endswith("/days")
    assert abs(value - 0.54723748542) < max(error, 0.01)
