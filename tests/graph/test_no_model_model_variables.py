"""`labscribe run --no-model`: a model's symbol that is a column is a variable, never a
parameter, and a model of a quantity the handout works out from others (η = P_mech/P_el)
is fitted to that quantity as formed, never to the columns it is worked out from.

Before, `R = ρ·L/A` was fitted against L with the cross-section A as a parameter, and
`η(n) = c0 + c1·n + c2·n²` was fitted to P_el and M and called "the model the task asks
for". The handouts' wording follows the convention of naming a symbol first ("where L is
the length", "with t the ageing time in weeks", NIST's Nelson set).
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from test_no_model import no_model_report

WIRES = """# Lab 3: Resistivity of copper wire

The resistance of copper wires of several lengths and cross-sections was measured (`wires.csv`).

## Analysis

1. Fit the model R = ρ·L/A to all measurements, where R is the resistance of the wire, L the
   length of the wire and A the cross-section of the wire, and give ρ with its uncertainty.
"""
MOTOR = """# Lab 7: DC motor efficiency

The motor was loaded with a brake at several speeds (`motor.csv`).

## Analysis

1. For every point compute the mechanical power P_mech = 2π·n·M/60 and the efficiency
   η = P_mech/P_el.
2. Fit η(n) = c0 + c1·n + c2·n² to the efficiencies and find the speed of best efficiency.
"""


def test_a_symbol_the_handout_names_as_a_column_is_no_parameter(tmp_path: Path) -> None:
    folder = tmp_path / "folder"
    folder.mkdir()
    rows = list(itertools.product([0.5, 1.0, 1.5, 2.0], [0.5, 1.0, 1.5]))
    length, section = np.array(rows).T
    rng = np.random.default_rng(3)
    resistance = 1.72e-8 * length / (section * 1e-6) * (1 + 0.01 * rng.standard_normal(12))
    pd.DataFrame({"L_m": length, "section_mm2": section, "R_ohm": resistance.round(5)}).to_csv(
        folder / "wires.csv", index=False
    )
    (folder / "handout.md").write_text(WIRES)
    report = no_model_report(folder, tmp_path)
    assert "the model has more than one variable (A stands for a column" in report
    assert "; A = " not in report and "rho = " not in report


def test_a_worked_out_response_is_formed_as_defined_and_fitted(tmp_path: Path) -> None:
    folder = tmp_path / "folder"
    folder.mkdir()
    speed = np.arange(500.0, 3001.0, 250.0)
    torque = 2.0 - 5e-4 * speed
    electric = 2 * np.pi * speed * torque / 60 / (0.5 + 3e-4 * speed - 8e-8 * speed**2)
    pd.DataFrame({"n": speed, "M": torque.round(4), "P_el": electric.round(2)}).to_csv(
        folder / "motor.csv", index=False
    )
    (folder / "lab7.md").write_text(MOTOR)
    report = no_model_report(folder, tmp_path)
    # η is formed as task 1 defines it (2π and all), then fitted as task 2 asks: the
    # efficiency the data were made with, 0.5 + 3e-4·n − 8e-8·n²
    formed = "P\\_mech as P\\_mech = pi·M·n/30; \\ensuremath{\\eta} as \\ensuremath{\\eta} = "
    assert formed + "P\\_mech/P\\_el" in report
    fitted = re.search(r"c0 = ([\d.]+) ± [\d.]+; c1 = \(([\d.]+) ± [\d.]+\)e-6; "
                       r"c2 = \(-([\d.]+) ± [\d.]+\)e-9", report)  # fmt: skip
    assert fitted, report
    assert float(fitted[1]) == pytest.approx(0.5, abs=1e-3)
    assert float(fitted[2]) == pytest.approx(300, rel=1e-3)
    assert float(fitted[3]) == pytest.approx(80, rel=1e-3)
