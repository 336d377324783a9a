"""`labscribe run --no-model` on TU Dortmund's V203 (vapour pressure of water) as a group's
files have it: two series in two files (p ≤ 1 bar and p > 1 bar) under a header `#T  #p`,
the units only in the handout's listing ("Spalten T (Grad Celsius) und p (bar)"), p0 in the
settings file with a remark after its unit. The task asks for ln(p/p0) against 1/T for the
series p ≤ 1 bar and L from the line; the law is set apart in the handout's prose. The
numbers are made here from the Clausius-Clapeyron law with noise."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from scipy import constants
from test_no_model_checklist import checklist, report_for

HANDOUT = """\
# V203: Verdampfungswärme und Dampfdruckkurve

## Theorie
Aus der Clausius-Clapeyronschen Gleichung folgt mit konstantem *L*

    ln(p / p0) = − L / (R T) + const.

## Messdaten
- `data1.txt`: Messreihe p ≤ 1 bar, Spalten T (Grad Celsius) und p (bar).
- `data2.txt`: Messreihe p > 1 bar, Spalten T (Grad Celsius) und p (bar).
- `parameter.txt`: Atmosphärendruck p0.

## Aufgaben
1. Tragen Sie ln(p/p0) gegen 1/T (T in Kelvin) für die Messreihe p ≤ 1 bar auf und bestimmen Sie
   durch lineare Regression die Verdampfungswärme L in J/mol mit Unsicherheit.
"""
LOW = np.arange(20.0, 100.0, 4.0)
HIGH = np.arange(110.0, 200.0, 10.0)


def _pressure(celsius: np.ndarray, latent: float, seed: int) -> np.ndarray:
    kelvin = celsius + 273.15
    clean = np.exp(-latent / (constants.R * kelvin) + latent / (constants.R * 373.15))
    return clean * (1 + np.random.default_rng(seed).normal(0, 0.01, celsius.size))


def test_the_heat_of_vaporisation_from_the_line_of_the_series_the_task_names(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    low, high = _pressure(LOW, 40_000.0, 1), _pressure(HIGH, 43_000.0, 2)
    for name, celsius, pressure in (("data1.txt", LOW, low), ("data2.txt", HIGH, high)):
        rows = "\n".join(f"{t:.0f}      {p:.4f}" for t, p in zip(celsius, pressure, strict=True))
        (data / name).write_text(f"#T      #p\n\n{rows}\n")
    (data / "parameter.txt").write_text(
        "p0 = 0.993 bar   (Atmosphärendruck, zu Versuchsbeginn gemessen)\n"
    )
    files = [(data / n, n) for n in ("data1.txt", "data2.txt", "parameter.txt")]
    report = report_for(tmp_path, ("Anleitung.md", HANDOUT), *files)
    plain = report.replace("\\_\\allowbreak{}", "_").replace("\\allowbreak{}", "")
    assert "\\textbf{T [°C]} & \\textbf{p [bar]}" in plain  # `#p` is p, in the listing's unit
    slope = np.polyfit(1 / (LOW + 273.15), np.log(low / 0.993), 1)[0]
    row = next(r for r in checklist(report).splitlines() if r.startswith("1 & "))
    found = re.findall(r"L = (\d+) ± (\d+) J/mol", row)
    assert len(found) == 1, row  # the p > 1 bar file's line is not the task's
    assert float(found[0][0]) == pytest.approx(-constants.R * slope, rel=1e-3)
    assert "the task works on part of the data only" not in row
