"""`labscribe run --no-model` on a formula that takes absolute temperature: the B-equation
and Steinhart–Hart fitted to a real 10 kΩ NTC table in °C (fbaeuerlein/jupyter-steinhart-hart,
tests/data/real/SOURCES.md), in kelvin, R as the response, with the units the task states.
The handout's wording is a thermistor lab's as datasheets and lab sheets write it."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
from test_no_model_roles import folder_with, report_of

TABLE = Path(__file__).parents[1] / "data" / "real" / "thermistor" / "ntc_10k_rt_table.csv"
HANDOUT = """# NTC thermistor

The thermistor's resistance was read at bath temperatures from −20 °C to 80 °C.

## Tasks

1. Convert the temperatures to kelvin and fit ln(R/Ω) against (1/T − 1/298.15 K) to obtain
   the B parameter of the model R = R25·exp[B(1/T − 1/298.15 K)].
2. Fit the Steinhart–Hart equation 1/T = A + B·ln R + C·(ln R)³ (R in Ω, T in K) and give
   A, B and C.
"""


_VALUE = r"(\(?[-\d.]+ ± [\d.]+\)?(?:e-?\d+)?)"


def _number(text: str) -> tuple[float, float]:
    """A value and its error as the report prints them: `3320 ± 14`, `(886.4 ± 3.2)e-6`."""
    found = re.fullmatch(r"\(?([-\d.]+) ± ([\d.]+)\)?(?:e(-?\d+))?", text)
    assert found is not None, text
    scale = 10.0 ** int(found[3] or 0)
    return float(found[1]) * scale, float(found[2]) * scale


def test_the_b_equation_and_steinhart_hart_are_fitted_in_kelvin(tmp_path: Path) -> None:
    frame = pd.read_csv(TABLE)
    celsius, kilo_ohm = frame["T (°C)"].to_numpy(), frame["R_nom (kΩ)"].to_numpy()
    rows = "\n".join(f"{t:g},{r:g}" for t, r in zip(celsius, kilo_ohm, strict=True))
    folder = folder_with(tmp_path, {"assignment.md": HANDOUT,
                                    "ntc.csv": f"T (°C),R (kΩ)\n{rows}\n"})  # fmt: skip
    report = report_of(folder, tmp_path)
    flat = report.replace("\\allowbreak{}", "").replace("\\ensuremath{\\Omega}", "Ω")
    # the B-equation: R against T in kelvin, B from the line of ln R in 1/T
    row = re.search(r"R \[kΩ\] against T \[K\] \(ntc\.csv\) & R = R25.*?B = " + _VALUE + " K",
                    flat)  # fmt: skip
    assert row is not None, flat
    slope, _ = np.polyfit(1 / (celsius + 273.15) - 1 / 298.15, np.log(kilo_ohm), 1)
    value, error = _number(row[1])
    assert abs(value - slope) <= error / 2  # the printed digits: 3320 ± 14 K
    assert "converted to kelvin" in report
    # Steinhart–Hart: T in kelvin, R in Ω, the coefficients in 1/K
    ln_r = np.log(kilo_ohm * 1000)
    design = np.vstack([np.ones_like(ln_r), ln_r, ln_r**3]).T
    a, _, _ = np.linalg.lstsq(design, 1 / (celsius + 273.15), rcond=None)[0]
    row = re.search(r"T \[K\] against R \[Ω\] \(ntc\.csv\) & 1/T = A.*?A = " + _VALUE + " 1/K",
                    flat)  # fmt: skip
    assert row is not None, flat
    value, error = _number(row[1])
    assert abs(value - a) < 0.01 * a
    assert "converted from kΩ to Ω" in flat


DISCHARGE = Path(__file__).parents[1] / "data" / "real" / "verdicts" / "discharge_47k_2200uF.csv"


def test_the_line_of_ln_u_is_fitted_where_the_file_calls_u_otherwise(tmp_path: Path) -> None:
    # a real capacitor discharge (alexarmesz/Discharging-Capacitor, SOURCES.md); the sheet
    # calls the voltage U_C, the file V: the line of ln U_C against t is the line of ln V
    frame = pd.read_csv(DISCHARGE)
    handout = (
        "# Entladung eines Kondensators\n\n## Auswertung\n\n"
        "1. Plot ln U_C against t and fit a straight line; the time constant is −1/slope.\n"
    )
    folder = folder_with(tmp_path, {"assignment.md": handout,
                                    "discharge.csv": DISCHARGE.read_text()})  # fmt: skip
    flat = report_of(folder, tmp_path).replace("\\allowbreak{}", "")
    slope, _ = np.polyfit(frame["t/s"], np.log(frame["V/V"]), 1)
    row = re.search(r"ln V = b0 \+ b1·t \(the model task 1 asks for\).*?b1 = " + _VALUE + " 1/s",
                    flat)  # fmt: skip
    assert row is not None, flat
    value, error = _number(row[1])
    assert abs(value - slope) <= error / 2
