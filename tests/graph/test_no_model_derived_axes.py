"""`labscribe run --no-model` where the handout's axes are quantities it defines or forms
from the columns, on real files (tests/data/real/SOURCES.md), with handouts written here in
the wording of the eval's worksheets:

- Compton scattering: "the variables x = 1 − cos θ and y = 1/E′" (two definitions in one
  sentence, a primed symbol, an angle in `deg.`, taken in radians by the cosine);
- a fine-beam tube: `v_err` and `curr_err` are the uncertainties of voltage and current,
  the current's carried through the slope (effective variance), and the formula
  V = m·i² + c fitted against i is the straight line of V against i² the task asks for;
- a resonance file without a suffix (`resonanz`) is read as data.

The expected values are worked out here with numpy from the same files."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from test_no_model_checklist import REAL, checklist, report_for

COMPTON = """\
# Compton scattering — worksheet

## Aim
Test the Compton relation 1/E′ − 1/E₀ = (1 − cos θ)/(m_e c²).

## Tasks
1. Tabulate θ, E′ and the variables x = 1 − cos θ and y = 1/E′ (in keV⁻¹).
2. Plot y against x and fit a straight line. Give its slope and intercept with errors.
"""

FINE_BEAM = """\
SPECIFIC CHARGE OF THE ELECTRON

Purpose
  Keeping the beam radius fixed, vary the voltage V and the coil current i.

Tasks
  1. Plot V against i² with error bars and fit a straight line V = m·i² + c. Report m and c
     with standard errors.
"""

RESONANCE = """\
# Series resonance

## Tasks
1. From resonanz, plot U_C against f and give the frequency of the measured maximum.
"""


def _row(report: str, number: str) -> str:
    return next(line for line in checklist(report).splitlines() if line.startswith(f"{number} &"))


def test_quantities_the_handout_defines_are_formed_and_fitted(tmp_path: Path) -> None:
    data = REAL / "conventions" / "compton_errors_bom_deg.csv"
    report = report_for(tmp_path, ("worksheet.md", COMPTON), (data, "errors.csv"))
    frame = pd.read_csv(data, encoding="utf-8-sig")
    x = 1 - np.cos(np.radians(frame["angle / deg."].dropna()))
    y = 1 / frame["scattered energy / keV"].dropna()
    (slope, intercept), cov = np.polyfit(x, y, 1, cov=True)
    assert "x = 1 - cos((angle in rad))" in report
    row = _row(report, "2")
    found = re.search(r"slope = ([\d.]+) ± ([\d.]+) keV\S*, intercept = ([\d.]+) ± ([\d.]+)", row)
    assert found, row
    assert float(found[1]) == pytest.approx(slope, rel=2e-3)
    assert float(found[2]) == pytest.approx(np.sqrt(cov[0, 0]), rel=0.02)
    assert float(found[3]) == pytest.approx(intercept, rel=2e-4)
    assert "against angle" not in row  # no line of y against the raw angle is the answer


def test_uncertainty_columns_by_abbreviation_and_a_formula_that_is_the_line(
    tmp_path: Path,
) -> None:
    data = REAL / "conventions" / "fine_beam_err_columns.csv"
    report = report_for(tmp_path, ("handout.txt", FINE_BEAM), (data, "fine_beam.csv"))
    row = _row(report, "1")
    assert re.search(r"m = [\d.]+ ± [\d.]+ V/A\S*, c = [\d.]+ ± [\d.]+ V \(the model this task "
                     r"asks for", row), row  # fmt: skip
    assert "not done" not in row and "nonlinear" not in row
    assert row.endswith("the plot with error bars, from the values given \\\\")  # none drawn
    # the current's ±0.05 A, carried through the slope, is most of the voltage's noise: the
    # line is no worse than its uncertainties say
    assert "v\\_err and curr\\_err (through the slope)" in report.replace("\\allowbreak{}", "")
    assert "does not describe those data" not in report
    assert "v\\_err against" not in report  # an uncertainty column is no response


def test_a_data_file_without_a_suffix_is_read(tmp_path: Path) -> None:
    data = REAL / "resonance" / "resonanz"
    report = report_for(tmp_path, ("assignment.md", RESONANCE), (data, "resonanz"))
    assert "\\textbf{f [kHz]} & \\textbf{U\\_0 [V]} & \\textbf{U\\_C [V]}" in report
    assert re.search(r"data \(1\): resonanz", report)
    assert "other (1)" not in report


THERMISTORS = """\
# TP — Étalonnage de deux thermistances

## Travail demandé
1. Pour chaque thermistance, ajuster un polynôme de degré 3, T(V) = a₀ + a₁V + a₂V² + a₃V³,
   par moindres carrés. Donner les coefficients et l'écart-type des résidus (en °C).
2. Sur l'intervalle 20,0 °C ≤ T ≤ 30,0 °C, ajuster une droite V = β + αT et donner la
   sensibilité α de chaque thermistance.
"""


def test_a_range_the_task_names_and_subscripted_coefficients(tmp_path: Path) -> None:
    """pandas' unnamed index (12, 13, ...) is no variable; `a₁V` is a₁·V, so the cubic is
    fitted; each thermistor's residual spread is its own cubic's, not task 2's line's; the
    line is fitted over 20–30 °C, written with ≤ about a column that states no unit."""
    files = [(REAL / "thermistor" / f"thermi_{k}.csv", f"thermi_{k}.csv") for k in (1, 2)]
    report = report_for(tmp_path, ("TP_thermistance.md", THERMISTORS), *files)
    assert "only numbers the rows" in report
    cubic, line = _row(report, "1"), _row(report, "2")
    for source, name in files:
        frame = pd.read_csv(source, index_col=0)
        coefficients = np.polyfit(frame["V"], frame["T"], 3)
        spread = np.sqrt(np.sum((np.polyval(coefficients, frame["V"]) - frame["T"]) ** 2)
                         / (len(frame) - 4))  # fmt: skip
        assert f"s = {spread:.6g}" in cubic, cubic
        assert f"{coefficients[-1]:.2f}" in cubic  # a₀
        inside = frame[(frame["T"] >= 20.0) & (frame["T"] <= 30.0)]
        alpha = np.polyfit(inside["T"], inside["V"], 1)[0]
        assert f"alpha = {alpha:.5f}" in report, name
    assert "T from 20 to 30, the range the task names" in report
    assert "s = " not in line


SPRING = """\
# Constante elástica de un resorte

Se cuelgan del resorte distintas masas m (en g) y se mide con una regla la altura del gancho
(`hGancho(cm)`) y la del extremo del resorte (`hResorte(cm)`) respecto del piso.

Estiramiento: x = h(m=0) − h(m). En equilibrio: m·g = k·x, es decir x = (g/k)·m.
Usar g = 9,79 m/s² (valor local).

## Consignas
1. Con hResorte(cm) calcular el estiramiento x para cada masa y ajustar x = (g/k)·m (recta por
   el origen). Informar k con su incerteza.
2. Calcular k dinámico = 4π²·m/T² con su incerteza.
"""
# Rows as a lab writes them down: not sorted by load, the unloaded spring second, and two
# loads of no whole ball (bolitas = 0).
SPRING_DATA = """\
bolitas;m(g);hGancho(cm);hResorte(cm)
6;37.7;31.9;34.0
0;0.0;36.8;39.2
0;7.3;35.8;38.3
4;27.3;33.3;35.6
2;17.9;34.4;36.9
8;47.5;30.3;32.6
10;57.9;28.7;31.1
"""


def test_a_stretch_from_the_unloaded_row_answers_hookes_law(tmp_path: Path) -> None:
    """The handout's x = h(m=0) − h(m) is formed from the height it names and the row where
    m is 0, and k comes from the line through the origin of x against m, in N/m; Hooke's law
    fitted to the raw height (k = 1.2 N/m here) is never the answer, and the fitted k is no
    answer to the task that works k out by its own formula."""
    folder = tmp_path / "data"
    folder.mkdir()
    (folder / "MvsH.csv").write_text(SPRING_DATA)
    report = report_for(tmp_path, ("consigna.md", SPRING), (folder / "MvsH.csv", "MvsH.csv"))
    frame = pd.read_csv(folder / "MvsH.csv", sep=";")
    mass = frame["m(g)"].to_numpy() / 1000
    stretch = (39.2 - frame["hResorte(cm)"].to_numpy()) / 100
    slope = np.sum(mass * stretch) / np.sum(mass**2)
    row = _row(report, "1")
    found = re.search(r"k = ([\d.]+) ± ([\d.]+) N/m", row)
    assert found, row
    assert float(found[1]) == pytest.approx(9.79 / slope, rel=2e-3)
    assert "hResorte where m = 0" in report.replace("\\allowbreak{}", "")
    assert "k = " not in _row(report, "2").split(" & ")[2]
