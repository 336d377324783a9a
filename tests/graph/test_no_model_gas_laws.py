"""`labscribe run --no-model` on a German gas-laws lab laid out as a spreadsheet export
writes it (a title line, a row of units in brackets, then the names right over the data;
`dL`, `dT`, `dp` the uncertainties of the column before each, a unit cell split at a
comma nobody quoted, an older estimate of dp kept beside it), with a handout that states
Amontons' law as p(ϑ) = p₀ (1 + γ ϑ) and ϑ₀ = −1/γ in its prose. The layout is that of a
TU student's Grundpraktikum files; the numbers are made here from the law with noise."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from test_no_model_checklist import checklist, report_for

HANDOUT = """\
# Grundpraktikum Physik — Versuch T4: Gasgesetze

## Grundlagen
- Boyle-Mariotte (T = const): p · V = const.
- Amontons (V = const): p(ϑ) = p₀ (1 + γ ϑ), ϑ in °C. Der Druck verschwindet bei ϑ₀ = −1/γ.

## Aufgaben
1. Tragen Sie für Teilversuch A p gegen L auf.
2. Tragen Sie für die Jolly-Gaskugel p gegen ϑ auf, bestimmen Sie durch lineare Regression den
   Spannungskoeffizienten γ und die Temperatur ϑ₀, bei der der Druck verschwinden würde.
"""
THETA = np.array([3.4, 8.6, 14.0, 19.1, 25.5, 31.0, 36.2, 41.9])
NOISE = np.array([1.2, -0.8, 0.5, -1.5, 0.9, 0.3, -0.6, 1.1])


def _files(folder: Path) -> None:
    pressure = 900 * (1 + 0.0040 * THETA) + NOISE
    rows = "\n".join(f"{t},0.55,{p:.1f},2.0,15.1" for t, p in zip(THETA, pressure, strict=True))
    (folder / "Jolly.csv").write_text(
        "\ufeffJolly-Gaskugel (Teilexperiment B),,,,Temperatur-Größtfehler 0.5 °C\n"
        f"(in °C),(in °C),(in hPa),(in hPa),\nTemperatur,dT,Druck,dp,dp_alt\n{rows}\n"
    )
    lengths = np.arange(6, 16)
    boyle = "\n".join(f"{n},0.1,{14.2 / n:.3f},0.06,{0.25 + 0.08 * np.exp(-n / 3.5):.4f}"
                      for n in lengths)  # fmt: skip
    # the last unit cell holds a comma nobody quoted, and the last column an estimate the
    # group discarded: both as the group's own file writes them
    (folder / "BoyleMariotte.csv").write_text(
        "\ufeffRaumtemperatur um 14:24,23.8 °C,,,\n,,,,\n(in cm),(in cm),(in Bar),"
        "(1% vom Endbereich des Manometers, in Bar)\n"
        f"Laenge,dL,Druck,dp,dp_Alt_verworfen\n{boyle}\n"
    )


def test_units_over_names_and_amontons_law_read_off_its_line(tmp_path: Path) -> None:
    """The names are the row over the data, the units the row above them; the Jolly task's
    line is p against ϑ of Jolly.csv alone (Boyle's file holds a p too, but no ϑ), and
    the law gives γ = slope/intercept and the handout's ϑ₀ = −1/γ, in °C."""
    data = tmp_path / "data"
    data.mkdir()
    _files(data)
    report = report_for(
        tmp_path, ("Anleitung.md", HANDOUT),
        (data / "Jolly.csv", "Jolly.csv"), (data / "BoyleMariotte.csv", "BoyleMariotte.csv"),
    )  # fmt: skip
    plain = report.replace("\\_\\allowbreak{}", "_").replace("\\allowbreak{}", "")
    assert "\\textbf{Temperatur [°C]} & \\textbf{dT [°C]} & \\textbf{Druck [hPa]}" in plain
    assert "\\textbf{Laenge [cm]} & \\textbf{dL [cm]} & \\textbf{Druck [bar]}" in plain
    assert "Jolly-Gaskugel (Teilexperiment B) [°C]" not in plain
    # dp is Druck's uncertainty in bar; the discarded estimate and the older one beside dp
    # are never fitted, drawn or weights
    assert "\\textbf{Druck [bar]} & \\textbf{dp [bar]}" in plain
    assert re.search(
        r"Druck \[bar\] against Laenge \[cm\][^\n]*σ[^\n]*: dp",
        plain.replace("\\ensuremath{\\sigma}", "σ"),
    )
    assert "dp_Alt" not in plain and "dp_alt" not in plain
    assert not re.search(r"Druck \[bar\] against Laenge \[cm\] \(BoyleMariotte.csv\) & "
                         r"[^&]*task 2", plain)  # fmt: skip
    pressure = 900 * (1 + 0.0040 * THETA) + NOISE
    slope, intercept = np.polyfit(THETA, pressure, 1)
    row = next(r for r in checklist(report).splitlines() if r.startswith("2 & "))
    row = row.replace("\\ensuremath{\\gamma}", "γ").replace("\\ensuremath{-}", "-")
    gamma = re.search(r"γ = ([\d.]+)(?:e(-\d+))? ± [\d.]+(?:e-\d+)? 1/°C", row)
    zero = re.search(r"ϑ₀ = (-[\d.]+) ± ([\d.]+) °C", row)
    assert gamma and zero, row
    assert float(gamma[1] + (f"e{gamma[2]}" if gamma[2] else "")) == pytest.approx(
        slope / intercept, rel=2e-3
    )
    assert float(zero[1]) == pytest.approx(-intercept / slope, rel=2e-3)
