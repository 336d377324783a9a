"""`labscribe run --no-model`: the formula a task writes is fitted in its own
parametrisation, whatever typeset notation it uses (tools.formulas.formula_glyphs), on NIST's
certified Eckerle4 transmittance scan (bench/analysis/strd/strd.json says where it is from):
the parameters the report gives are the task's, never lmfit's area "amplitude"."""

from __future__ import annotations

import shutil
from pathlib import Path

from test_no_model import no_model_report

REAL = Path(__file__).resolve().parents[1] / "data" / "real" / "verdicts"
ECKERLE4 = Path(__file__).resolve().parents[2] / "bench" / "analysis" / "strd" / "Eckerle4.csv"


def _report(tmp_path: Path, task: str) -> str:
    folder = tmp_path / "lab"
    folder.mkdir()
    shutil.copy(ECKERLE4, folder / "scan.csv")
    (folder / "assignment.md").write_text(f"# Lab\n\nTasks:\n\n1. {task}\n")
    return " ".join(no_model_report(folder, tmp_path).split())


def test_no_model_fits_nists_bracketed_model_to_its_certified_values(tmp_path: Path) -> None:
    """NIST writes Eckerle4's model with square brackets; certified b1 = 1.5543827178 ±
    0.0154, b2 = 4.0888321754 ± 0.0468, b3 = 451.54121844 ± 0.0468."""
    report = _report(tmp_path, "Fit the model y = (b1/b2) * exp[-0.5*((x-b3)/b2)**2] to the "
                               "data and report b1, b2 and b3.")  # fmt: skip
    assert "b1 = 1.554 ± 0.015; b2 = 4.089 ± 0.047; b3 = 451.541 ± 0.047" in report


def test_no_model_calls_nists_certified_gaussian_close_not_wrong(tmp_path: Path) -> None:
    """Its residuals keep a shape within 2 % of the range (σ estimated): the report says
    the model misses a detail and gives its values as the task's answer, never that it
    does not describe the data."""
    report = _report(tmp_path, "Fit the model y = (b1/b2) * exp[-0.5*((x-b3)/b2)**2] to the "
                               "data and report b1, b2 and b3.")  # fmt: skip
    assert "does not describe" not in report
    assert "it misses a detail of these data" in report
    row = report[report.rindex("1 & Fit the model") :][:400]
    assert "b1 = 1.554 ± 0.015" in row


def test_no_model_gives_the_area_a_task_defines_as_its_own_a(tmp_path: Path) -> None:
    """OriginLab's area-version Gauss function (y0, xc, w = 2σ, A the area), written with a
    square bracket and √: the report names the task's parameters, not lmfit's."""
    report = _report(tmp_path, "Fit the Gauss function y = y0 + (A/(w·√(π/2)))·exp[−2((x − "
                               "xc)/w)²] to the scan and report the area A, the width w and "
                               "the centre xc.")  # fmt: skip
    row = report[report.index("(the model task 1 asks for") :][:400]
    assert "A = 3.8" in row and "w = 8.0" in row and "xc = 451.5" in row
    assert "amplitude" not in row and "sigma =" not in row


def test_no_model_fits_the_line_of_ln_u_a_task_asks_for(tmp_path: Path) -> None:
    """A real capacitor discharge (47 kΩ, 2200 µF; tests/data/real/SOURCES.md): "plot ln U
    against t and fit a straight line" gives τ of that line (numpy's polyfit of ln U), not
    of the nonlinear fit of U, which weights the early volts."""
    import numpy as np

    data = np.loadtxt(REAL / "discharge_47k_2200uF.csv", delimiter=",", skiprows=1)
    folder = tmp_path / "lab"
    folder.mkdir()
    rows = "\n".join(f"{t:g},{u:g}" for t, u in data)
    (folder / "discharge.csv").write_text(f"time [s],voltage [V]\n{rows}\n")
    (folder / "assignment.md").write_text(
        "# Lab\n\nTasks:\n\n1. Plot ln U against t and fit a straight line to find the time "
        "constant τ of U(t) = U0·e^(−t/τ).\n"
    )
    report = " ".join(no_model_report(folder, tmp_path).split())
    slope = np.polyfit(data[:, 0], np.log(data[:, 1]), 1)[0]
    assert f"tau = {-1 / slope:.2f} ± " in report
    assert "fitted as the task asks: the straight line ln voltage" in report
