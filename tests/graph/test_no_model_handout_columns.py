"""`labscribe run --no-model` where only the handout says what the columns are, on real files
(tests/data/real/SOURCES.md), with handouts in the wording of the eval's lab sheets:

- LabVIEW files whose columns are `Untitled` and `Untitled 1`: "`Untitled` = tension
  imposée v (V), `Untitled 1` = courant mesuré i (A)" gives them their symbols and units, so
  the task's i(v) and its formulas are fitted to them, not to the format's time axis;
- a symbol the task defines from stated values ("V_T = k_B T/e" with k_B and e beside it,
  T stated elsewhere) is fixed at that value, so the ideality factor n is fitted, not the
  product n·V_T; a model fitted to the other file of the folder (the resistor's line to
  the diode) is no answer;
- thermistor columns `V` and `T` take the units "(tension, V)" and "(température RTD, °C)";
  the line a task prescribes is the answer for both thermistors, where it follows the data
  but not to within their noise with that caveat, never withheld for one of them; a plot
  "sur un même graphique" is left to the student, as the report draws one table a figure.

The expected values are worked out here with numpy and scipy from the same files."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy.optimize import curve_fit
from test_no_model_checklist import REAL, checklist, report_for

DIODE = """\
# Laboratoire 3 : caractéristiques courant-tension

## Fichiers
Dans le tableau : colonne `X_Value` vide, `Untitled` = tension imposée v (V),
`Untitled 1` = courant mesuré i (A).

Température du laboratoire : 22 °C (T = 295,15 K).

## Questions
a) Tracer i(v) pour la résistance. Ajuster i = i₀ + v/R et donner R avec son incertitude.
b) Sur la plage 0,30 V ≤ v ≤ 0,60 V, ajuster i = I_s (e^{v/(n V_T)} − 1). En déduire le
   courant de saturation I_s et le facteur d'idéalité n (V_T = k_B T/e,
   k_B = 1,380649×10⁻²³ J/K, e = 1,602177×10⁻¹⁹ C).
"""

THERMISTORS = """\
# Étalonnage de deux thermistances

## Données
`thermi_1.csv` et `thermi_2.csv`. Colonnes `V` (tension, V) et `T` (température RTD, °C).

## Travail demandé
1. Sur l'intervalle 20,0 °C ≤ T ≤ 30,0 °C, ajuster une droite V = β + αT et donner la
   sensibilité α de chaque thermistance.
2. Tracer T en fonction de V pour les deux thermistances sur un même graphique.
"""


def _row(report: str, mark: str) -> str:
    return next(line for line in checklist(report).splitlines() if line.startswith(f"{mark} &"))


def _lvm(name: str) -> tuple[np.ndarray, np.ndarray]:
    lines = (REAL / "labview" / name).read_text().splitlines()
    start = next(k for k, line in enumerate(lines) if line.startswith("X_Value")) + 1
    rows = [line.split("\t")[1:3] for line in lines[start:] if line.strip()]
    v, i = (
        np.array([float(cell.replace(",", ".")) for cell in column])
        for column in zip(*rows, strict=True)
    )
    return v, i


def test_columns_the_handout_names_and_a_symbol_it_defines(tmp_path: Path) -> None:
    names = ["914b_donnees_iv_01.lvm", "resistance_donnees_iv_01.lvm"]
    report = report_for(
        tmp_path, ("consignes.md", DIODE), *[(REAL / "labview" / n, n) for n in names]
    )
    assert "i is taken as the response to v, as the assignment says" in report
    v, i = _lvm(names[1])
    resistance = 1 / np.polyfit(v, i, 1)[0]
    resistor = _row(report, "a")
    found = re.search(r"R = ([\d.]+) ± ([\d.]+) V/A", resistor)
    assert found, resistor
    assert float(found[1]) == pytest.approx(resistance, rel=1e-5)
    assert resistor.count("R = ") == 1  # the diode's curve gives no resistance

    v, i = _lvm(names[0])
    inside = (v >= 0.30) & (v <= 0.60)
    thermal = 1.380649e-23 * 295.15 / 1.602177e-19
    (saturation, ideality), _ = curve_fit(
        lambda v, s, n: s * (np.exp(v / (n * thermal)) - 1), v[inside], i[inside], p0=(3e-9, 1.9)
    )
    diode = _row(report, "b")
    assert f"V_T = {thermal:.6g} V as the task gives" in diode, diode
    found = re.search(r"n = ([\d.]+) ± ([\d.]+)", diode)
    assert found, diode
    assert float(found[1]) == pytest.approx(ideality, rel=2e-3)
    assert float(found[2]) < 0.05
    found = re.search(r"I_s = \(([\d.]+) ± ([\d.]+)\)e-9 A", diode)
    assert found, diode
    assert float(found[1]) * 1e-9 == pytest.approx(saturation, rel=0.02)
    assert "V_T = (" not in report  # V_T is no fit parameter
    # the resistor's line determines no ideality factor; the diode's curve does
    assert "not determined" not in diode.split(" & ")[-1]


def test_the_prescribed_line_answers_for_every_thermistor(tmp_path: Path) -> None:
    files = [(REAL / "thermistor" / f"thermi_{k}.csv", f"thermi_{k}.csv") for k in (1, 2)]
    report = report_for(tmp_path, ("TP.md", THERMISTORS), *files)
    row = _row(report, "1")
    for source, name in files:
        frame = pd.read_csv(source, index_col=0)
        inside = frame[(frame["T"] >= 20.0) & (frame["T"] <= 30.0)]
        alpha = np.polyfit(inside["T"], inside["V"], 1)[0]
        assert re.search(rf"alpha = {alpha:.5f} ± [\d.]+ V/°C \(the model this task asks for, "
                         rf"fitted to V against T \({name}\)", row), (name, row)  # fmt: skip
    assert "gives no value" not in row
    assert _row(report, "2").endswith("then the plot of them on one graph \\\\")  # not drawn


RC_CIRCUIT = """\
Versuch 353: Das Relaxationsverhalten eines RC-Kreises

Messdaten
  RC-Entladekurve.csv        t in Mikrosekunden, U = Kondensatorspannung U_C in V
  kondensatorspannung1.csv   f in Hz,  A = Amplitude von U_C in V
  kondensatorspannung2.csv   f in kHz, A = Amplitude von U_C in mV
  4c-1.csv                   f in Hz,  a = Abstand der Nulldurchgänge,
                             b = Periodendauer (a und b in Skalenteilen)
Die Amplitude der Generatorspannung betrug U_0 = 4,2 V.

Aufgaben
Aufgabe 1: Bestimmen Sie RC durch eine Ausgleichsrechnung U_C(t) = U_0' · exp(−t/RC).
Aufgabe 2: Berechnen Sie A/U_0 und tragen Sie es doppeltlogarithmisch gegen f auf. Bestimmen
           Sie RC durch einen Fit von A/U_0 = 1/√(1 + (2πf·RC)²).
Aufgabe 3: Berechnen Sie die Phasenverschiebung φ = 2π·a/b für alle Frequenzen und bestimmen
           Sie RC aus einem Fit von φ(f) = arctan(2πf·RC).
"""


def test_units_a_listing_of_the_files_gives_and_the_formula_a_task_fits(tmp_path: Path) -> None:
    """Each file takes the units its line of the listing gives (µs, kHz, mV); U_0, which
    the handout states and no task asks for, is fixed; φ = 2π·a/b is formed and the formula
    after "Fit von" is the one fitted; "es" (A/U_0) names no axis of its own."""
    folder = REAL / "rc353"
    names = ["RC-Entladekurve.csv", "kondensatorspannung1.csv", "kondensatorspannung2.csv",
             "4c-1.csv"]  # fmt: skip
    report = report_for(tmp_path, ("Aufgabe.txt", RC_CIRCUIT), *[(folder / n, n) for n in names])
    assert "U [V] against t [µs]" in report and "A [mV] against f [kHz]" in report

    def rc_in(row: str, unit: str) -> float:
        found = re.search(
            rf"RC = \(?([\d.]+) ± [\d.]+\)?(e-?\d+)? {re.escape(unit)} \(the model this task", row
        )
        assert found, row
        return float(found[1] + (found[2] or ""))

    discharge = pd.read_csv(folder / names[0])
    (_, tau), _ = curve_fit(lambda t, u0, rc: u0 * np.exp(-t / rc), discharge["t"],
                            discharge["U"], p0=(2, 100))  # fmt: skip
    assert rc_in(_row(report, "1"), "µs") == pytest.approx(tau, rel=1e-3)

    amplitude = pd.read_csv(folder / names[1]).sort_values("f")
    (rc,), _ = curve_fit(lambda f, rc: 1 / np.sqrt(1 + (2 * np.pi * f * rc) ** 2),
                         amplitude["f"], amplitude["A"] / 4.2, p0=(1e-3,))  # fmt: skip
    second = _row(report, "2")
    assert rc_in(second, "1/Hz") == pytest.approx(rc, rel=1e-3)
    assert "U_0 = 4.2 V as the task gives" in second
    assert "doppeltlogarithmisch against" not in second and "of a against f" not in second
    # the report's figures have linear axes: the log-log plot is the student's
    assert "the plot on logarithmic axes" in second.rsplit(" & ", 1)[1]
    assert "logarithmic" not in _row(report, "1").rsplit(" & ", 1)[1]

    phase = pd.read_csv(folder / names[3]).sort_values("f")
    (rc,), _ = curve_fit(lambda f, rc: np.arctan(2 * np.pi * f * rc), phase["f"],
                         2 * np.pi * phase["a"] / phase["b"], p0=(1e-3,))  # fmt: skip
    third = _row(report, "3")
    assert rc_in(third, "1/Hz") == pytest.approx(rc, rel=1e-3)
    assert "fit of a against f" not in third and "fit of A against f" not in third


def test_a_task_on_part_of_the_data_is_not_answered_by_a_fit_of_all_of_it(
    tmp_path: Path,
) -> None:
    """Task 2 fits only the points from t = 40 µs on: the fit of all fourteen points, which
    answers task 1, is no answer to it, and the row says why."""
    handout = RC_CIRCUIT.split("Aufgaben")[0] + (
        "Aufgaben\n"
        "Aufgabe 1: Bestimmen Sie RC durch eine Ausgleichsrechnung U_C(t) = U_0' · exp(−t/RC).\n"
        "Aufgabe 2: Verwenden Sie nur die Messwerte ab t = 40 µs und bestimmen Sie RC durch\n"
        "           eine Ausgleichsrechnung U_C(t) = U_0' · exp(−t/RC).\n"
    )
    name = "RC-Entladekurve.csv"
    report = report_for(tmp_path, ("Aufgabe.txt", handout), (REAL / "rc353" / name, name))
    assert "RC = 100.9 ± 6.5 µs" in _row(report, "1")
    second = _row(report, "2")
    assert "RC = " not in second
    assert "not done: the task works on part of the data only (“nur die Messwerte”)" in second


RC_MARKDOWN = """\
# V353 – Entladung eines Kondensators

Die Kondensatorspannung folgt U_C(t) = U_0' · exp(−t/RC). Datei `RC-Entladekurve.csv`:
Spalte `t` = Zeit t in **Mikrosekunden**, Spalte `U` = Kondensatorspannung U_C in **Volt**.
Die Bauteilwerte stehen in `bauteile.txt`.

## Aufgaben
1. Bestimmen Sie RC durch eine Ausgleichsrechnung U_C(t) = U_0' · exp(−t/RC).
"""
SETTINGS = "# Bauteile (Nennwerte)\nR = 10 kOhm\nC = 10 nF\nGenerator U_0 = 2.1 V\n"


def test_a_markdown_handout_gives_units_in_bold_and_symbols_before_them(tmp_path: Path) -> None:
    """ "Spalte `U` = Kondensatorspannung U_C in **Volt**": the column is U_C in V (Markdown's
    bold is no part of the unit), so the task's U_C(t) is fitted to it and RC is in µs; a
    settings file tried as a table first lists each of its rows once."""
    name = "RC-Entladekurve.csv"
    settings = tmp_path / "bauteile.txt"
    settings.write_text(SETTINGS)
    report = report_for(tmp_path, ("Aufgabe.md", RC_MARKDOWN), (REAL / "rc353" / name, name),
                        (settings, settings.name))  # fmt: skip
    assert "U_C [V] against t [µs]" in report.replace("\\_\\allowbreak{}", "_"), report
    assert "RC = 100.9 ± 6.5 µs" in _row(report, "1")
    apparatus = report.split("\\section{Apparatus and parameters}", 1)[1].split("\\section", 1)[0]
    for row in ("R & 10 kOhm", "C & 10 nF"):
        assert apparatus.count(row) == 1, apparatus


NAMED_FILES = """\
Versuch 353: Das Relaxationsverhalten eines RC-Kreises

Messdaten
  RC-Entladekurve.csv        t in Mikrosekunden, U = Kondensatorspannung U_C in V
  kondensatorspannung2.csv   f in kHz, A = Amplitude von U_C in mV

Aufgaben
1. Bestimmen Sie aus kondensatorspannung2.csv das Maximum der Spannung.
2. Legen Sie durch die Werte aus `RC-Entladekurve.csv` eine Ausgleichsgerade.
"""


def test_a_task_that_names_a_file_is_answered_from_that_file_alone(tmp_path: Path) -> None:
    """Both files hold a voltage: "aus kondensatorspannung2.csv das Maximum der Spannung" is
    A's largest reading there, never U's of the discharge; the line task 2 asks through
    `RC-Entladekurve.csv` is fitted to that file's columns only, and its row lists no fit
    of the other file."""
    folder = REAL / "rc353"
    names = ["RC-Entladekurve.csv", "kondensatorspannung2.csv"]
    report = report_for(tmp_path, ("Aufgabe.txt", NAMED_FILES), *[(folder / n, n) for n in names])
    amplitude = pd.read_csv(folder / names[1])
    first = _row(report, "1")
    assert f"The largest A in the data is {amplitude['A'].max():g} mV" in first, first
    assert "largest U " not in first and "RC-Entladekurve.csv" not in first, first
    second = _row(report, "2")
    assert "fitted to U against t" in second and "against f" not in second, second
    asked = [line for line in report.splitlines() if "(the model task 2 asks for" in line]
    assert asked and all("(RC-Entladekurve.csv)" in line for line in asked), asked


DISCHARGE = """\
# V353 – Relaxationsverhalten eines RC-Kreises

Die Kondensatorspannung folgt U_C(t) = U_0 · exp(−t / RC).
Datei `entladung.csv`: Spalte `T` = Zeit t in µs, Spalte `U` = Kondensatorspannung U_C in Volt
(Ablesegenauigkeit ca. 0,1 V).

## Aufgaben
1. Tragen Sie ln(U_C) gegen t auf und bestimmen Sie die Zeitkonstante RC mit Unsicherheit.
"""


def test_rc_from_the_line_of_ln_u_weighted_by_the_stated_reading_precision(
    tmp_path: Path,
) -> None:
    """ "ln(U_C) gegen t ... bestimmen Sie RC": the straight line of ln U_C, each point weighted
    by the stated 0.1 V over U_C (u(ln U) = u(U)/U), so the readings near the scope's
    resolution do not pull the slope; RC = −1/slope in µs. The column `T` the handout calls
    t is the task's t: the line is the one the task asks for."""
    frame = pd.read_csv(REAL / "rc353" / "RC-Entladekurve.csv")
    data = tmp_path / "entladung.csv"  # headed `T` as another group's file of V353 is
    frame.rename(columns={"t": "T"}).to_csv(data, index=False)
    report = report_for(tmp_path, ("Aufgabe.md", DISCHARGE), (data, "entladung.csv"))
    slope, _ = np.polyfit(frame["t"], np.log(frame["U"]), 1, w=frame["U"] / 0.1)
    row = _row(report, "1")
    found = re.search(r"RC = ([\d.]+) ± ([\d.]+) µs", row)
    assert found, row
    assert float(found[1]) == pytest.approx(-1 / slope, rel=2e-3)
    assert re.search(
        r"ln\(U_C\) against t \[µs\] \(entladung.csv\) & linear: slope·x \+ "
        r"intercept \(the model task 1 asks for\)",
        report.replace("\\_\\allowbreak{}", "_"),
    )
    unweighted = -1 / np.polyfit(frame["t"], np.log(frame["U"]), 1)[0]  # 78 µs, not 107
    assert abs(float(found[1]) - unweighted) > 3 * float(found[2])
    assert "as the handout states (“Ablesegenauigkeit ca. 0,1 V”)" in report.replace(
        "\\allowbreak{}", ""
    )
