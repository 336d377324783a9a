"""`labscribe run --no-model` on real sheets whose columns are named by a unit alone or as
numbered runs (issue 26, items 1–3 and 5): `V`, `mA (1k)`, `mA (330)` are a voltage and two
currents, and the task's `U = R·I + U₀` is read off the lines of current against voltage
(R = 1/slope, in kΩ); five columns `1st run` … `5th Run`, each the time of 10 oscillations
as the handout says, form the period T = mean/10, so g comes from the asked line of T²
against l and never from the raw times (which would give g = 0.09 m/s²)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from test_no_model_headers import report

REAL = Path(__file__).resolve().parents[1] / "data" / "real"
OHM_TASKS = """# Current measurement on resistors

## Tasks
1. Plot U vs. I for both resistors in one diagram.
2. Fit a straight line U = R·I + U₀ to each data set and determine R from the slope, with
   its standard error.
3. Is the linear (ohmic) law confirmed? Quote R² of each fit.
4. Find the maximum current through each resistor and the power dissipated at 20 V.
"""
PENDULUM_TASKS = """# The simple pendulum

For every length the time for 10 complete oscillations was taken five times.

## Tasks
1. Plot T² versus l and fit a straight line T² = a·l + b.
2. Determine g from the slope using T = 2π√(l/g), with its uncertainty.
"""


def checklist_row(text: str, number: int) -> str:
    tasks = text.split("The assignment's tasks", 1)[-1]
    row = re.search(rf"(?:\\endhead|\\\\) {number} & (.*?)\\\\", tasks)
    assert row is not None, tasks
    return row.group(1)


def test_columns_named_by_units_give_the_law_of_the_tasks_line(tmp_path: Path) -> None:
    folder = tmp_path / "ohm"
    folder.mkdir()
    shutil.copy(REAL / "conventions" / "strommessung_widerstand.xlsx", folder)
    (folder / "handout.md").write_text(OHM_TASKS)
    text = report(folder, tmp_path)
    assert "current (1k) [mA] against voltage [V]" in text
    fit_row = checklist_row(text, 2)
    # the published truth (numpy on the sheet): 995.0 ± 1.4 Ω and 343.1 ± 0.6 Ω
    assert "R = 0.9950 ± 0.0014 k\\ensuremath{\\Omega}" in fit_row
    assert "R = 0.34305 ± 0.00064 k\\ensuremath{\\Omega}" in fit_row
    assert "not done" not in fit_row
    quality = checklist_row(text, 3)
    assert "R² = 0.99998 of the straight line of current (1k) against voltage" in quality
    assert "not done" not in quality
    power = checklist_row(text, 4)
    assert "not done: the power dissipated at 20 V is not in this report" in power


def test_numbered_runs_of_several_swings_form_the_period(tmp_path: Path) -> None:
    folder = tmp_path / "pendulum"
    folder.mkdir()
    shutil.copy(REAL / "repeats" / "pendulum_runs_Table_1_FA.csv", folder)
    (folder / "handout.md").write_text(PENDULUM_TASKS)
    text = report(folder, tmp_path)
    assert "T [s] as the mean of 1st run, 2nd run, 3rd Run, 4th Run, 5th Run" in text
    assert "slope = 3.96 ± 0.33 s\\textasciicircum{}2/m" in text
    assert "g = 9.98 ± 0.83 m/s²" in checklist_row(text, 2)
    assert "g = 0.0" not in text


def test_times_of_several_swings_fitted_as_one_period_give_no_g(tmp_path: Path) -> None:
    # the handout does not say the runs time 10 swings: each run fitted as T gives
    # g ≈ 0.09 m/s², which the report flags instead of giving as the answer
    folder = tmp_path / "pendulum"
    folder.mkdir()
    shutil.copy(REAL / "repeats" / "pendulum_runs_Table_1_FA.csv", folder)
    (folder / "handout.md").write_text(
        "# The simple pendulum\n\n## Tasks\n"
        "1. Fit T = 2π√(l/g) to the times against the length l and determine g.\n"
    )
    text = report(folder, tmp_path)
    assert "no value: g would lie outside its physical range" in text
    assert "g = 0.0877 ± 0.0036 m/s² is 112 times smaller than standard gravity" in text
    assert "g = 0.0877" not in checklist_row(text, 1)


RESONANCE_TASKS = """# Series RLC circuit: resonance

The file holds the generator frequency (Hz), the amplitude U across the resistor (mV) and
the time lag (ms).

## Tasks
1. Give the resonance frequency (the maximum of U) and the largest amplitude.
2. Find the half-power frequencies, where U = U_max/√2, by linear interpolation between the
   measured points; from them the bandwidth and the quality factor Q = f_res/Δf.
"""


def test_a_resonance_is_read_off_the_points_as_its_tasks_ask(tmp_path: Path) -> None:
    """A real RLC resonance (KIT P1, columns `Hz,mV,ms`): "the maximum of U" is the largest
    voltage, the −3 dB points are interpolated between the measured points on either side of
    the peak (not taken from a fitted curve), and U = U_max/√2 is a level, not a model."""
    import numpy as np

    folder = tmp_path / "rlc"
    folder.mkdir()
    shutil.copy(REAL / "resonance" / "2_3data.csv", folder)
    (folder / "handout.md").write_text(RESONANCE_TASKS)
    text = report(folder, tmp_path)
    f, u, _ = np.loadtxt(REAL / "resonance" / "2_3data.csv", delimiter=",", skiprows=1).T
    peak = int(np.argmax(u))
    assert f"largest voltage in the data is {u[peak]:.6g} mV at frequency = {f[peak]:.6g} Hz" \
        in checklist_row(text, 1)  # fmt: skip
    level = u[peak] / np.sqrt(2)
    lower = np.interp(level, u[: peak + 1], f[: peak + 1])  # rising side
    upper = np.interp(level, u[peak:][::-1], f[peak:][::-1])  # falling side
    band = checklist_row(text, 2)
    assert f"frequency = {lower:.4g} Hz and {upper:.4g} Hz" in band
    assert f"width {upper - lower:.4g} Hz" in band
    assert f"= {f[peak] / (upper - lower):.3g}" in band
    assert "(fit of" not in band  # the fitted resonance's Q is another method
    assert "cannot tell the variable" not in text
