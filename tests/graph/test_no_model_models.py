"""`labscribe run --no-model`: the standard model a report gives as the best is one a
student could report (tools.fits.model_choice), on real files (origins in
tests/data/real/SOURCES.md)."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
from test_no_model import no_model_report

REAL = Path(__file__).resolve().parents[1] / "data" / "real"


def report_of(tmp_path: Path, data: str, tasks: str) -> str:
    """The report, its whitespace folded, of a folder holding the real file `data` (a path
    under tests/data/real) and a handout with `tasks`."""
    folder = tmp_path / "lab"
    folder.mkdir()
    shutil.copy(REAL / data, folder / Path(data).name)
    (folder / "assignment.md").write_text(f"# Lab\n\nTasks:\n\n{tasks}\n")
    return " ".join(no_model_report(folder, tmp_path).split())


def test_no_model_gives_galileos_plane_no_resonance(tmp_path: Path) -> None:
    """Galileo's 1608 folio 116v: no resonance phase (f0 = 554 ± 545) as the best fit."""
    report = report_of(tmp_path, "verdicts/galileo1608.csv",
                       "1. Plot the distance d against the release height h.")  # fmt: skip
    assert "resonance" not in report
    assert "(the best of the standard models by BIC)" in report


def test_no_model_gives_a_real_diode_sweep_no_peak_outside_it(tmp_path: Path) -> None:
    """A Keysight B1500 diode sweep (Id against Vd): a Lorentzian whose parameters the data
    do not determine, centred at the sweep's edge, had the lowest BIC; it is no answer."""
    report = report_of(tmp_path, "smu/keysight_b1500_sweep_diode_first20.csv",
                       "1. Plot the drain current Id against the voltage Vd.")  # fmt: skip
    assert "lorentzian" not in report.lower()
    assert "(the best of the standard models by BIC)" in report


def test_no_model_words_agree_with_a_reduced_chi_square_of_five(tmp_path: Path) -> None:
    """NIST's Longley data (public domain), the armed forces against the year: a reduced χ²
    of 5.5 is not "like noise"; the report says the data cannot tell."""
    import pandas as pd

    longley = pd.read_csv(Path(__file__).resolve().parents[2] / "bench/analysis/strd/Longley.csv")
    folder = tmp_path / "lab"
    folder.mkdir()
    longley[["x6", "x4"]].set_axis(["Year", "Armed Forces"], axis=1).to_csv(
        folder / "armed_forces.csv", index=False
    )
    (folder / "assignment.md").write_text(
        "# Lab\n\nTasks:\n\n1. Plot the size of the armed forces against the year and fit a "
        "quadratic to it.\n"
    )
    report = " ".join(no_model_report(folder, tmp_path).split())
    assert "the data cannot tell whether the model misses something" in report
    assert "its residuals are like noise (reduced \\ensuremath{\\chi}² = 5" not in report


def folder_report(tmp_path: Path, files: dict[str, str], tasks: str) -> str:
    """The report, its whitespace folded, of a folder of `files` (name: text) and a handout
    with `tasks`."""
    folder = tmp_path / "lab"
    folder.mkdir()
    for name, text in files.items():
        (folder / name).write_text(text)
    (folder / "assignment.md").write_text(f"# Lab\n\nTasks:\n\n{tasks}\n")
    return " ".join(no_model_report(folder, tmp_path).split())


def test_no_model_fits_a_real_discharge_whose_handout_asks_for_the_time_constant(
    tmp_path: Path,
) -> None:
    """A real RC discharge (47 kΩ, 2200 µF: RC = 103 s) under "Time (s)": "the time constant
    τ" names the parameter, not the time column, so U0·exp(−t/τ) is fitted against t."""
    real = (REAL / "verdicts" / "discharge_47k_2200uF.csv").read_text().splitlines()
    data = "\n".join(["Time (s),Voltage (V)", *real[1:]]) + "\n"
    report = folder_report(tmp_path, {"discharge.csv": data},
                           "1. Fit U(t) = U0·exp(−t/τ) to the voltage and determine the "
                           "time constant τ.")  # fmt: skip
    assert "could not be fitted" not in report
    assert "tau = 104.48 ± 0.22 s" in report


def test_no_model_fits_a_scope_charging_curve_from_the_trigger_on(tmp_path: Path) -> None:
    """A scope's export with 20 samples before the trigger (flat at 0 V): the charging law
    is fitted from the step on, τ = 1.001 ms, and the report says which points it left out."""
    rng = np.random.default_rng(7)
    t = np.arange(-20, 121) * 5e-5
    u = np.where(t <= 0, 0.0, 5.0 * (1 - np.exp(-np.clip(t, 0, None) / 1e-3)))
    u = np.round((u + 0.02 * rng.standard_normal(len(t))) / 0.04) * 0.04
    rows = "".join(f"{a:.6e},{b:.2f}\n" for a, b in zip(t, u, strict=True))
    report = folder_report(tmp_path, {"scope.csv": "Time(s),CH1(V)\n" + rows},
                           "1. Fit the charging law U(t) = U0·(1 − exp(−t/τ)) to the capacitor "
                           "voltage and determine the time constant τ.")  # fmt: skip
    assert "fitted from the step on: the first 20 points" in report
    assert "tau = 1.0010 ± 0.0026 ms" in report or "tau = 0.0010010 ± 0.0000026 s" in report
    assert "no model tried describes these data" not in report


def test_no_model_fixes_the_thermal_voltage_a_diode_handout_gives(tmp_path: Path) -> None:
    """A real 1N4004 forward characteristic (an Arduino tester's log): with n and U_T both
    free the Shockley fit determines neither (n = 0.2 ± 3.5e8); with U_T = 25.85 mV fixed,
    as the handout gives it, n is determined."""
    report = report_of(tmp_path, "verdicts/diode_1n4004_arduino.csv",
                       "1. Fit the Shockley equation I = I_S·(exp(U/(n·U_T)) − 1) with U_T = "
                       "25.85 mV to the forward characteristic and determine the ideality "
                       "factor n and the saturation current I_S.")  # fmt: skip
    assert "n = 1.62 ± 0.17" in report and "n = 1.62 ± 0.17 V" not in report
    assert "U\\_T fixed at 0.02585 V, the value the task gives, not fitted" in report
    # no fitted U_T in the table: only the value the task gives, named as such
    given = "U\\_\\allowbreak{}T = 0.02585 V as the task gives"
    assert given in report
    assert report.count("U\\_\\allowbreak{}T = 0") == report.count(given)
