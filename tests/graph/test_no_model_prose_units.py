"""`labscribe run --no-model` where the handout's prose, not the file, states the units
(issue 26, items 1, 2 and 5): R's `pressure` (mercury's vapour pressure) gets °C and mm Hg
from "column `pressure` is the vapour pressure in mm Hg", so 1/T is formed in kelvin, the
asked line of ln p against 1/T is fitted, and ΔH_vap = −R·slope comes with R from CODATA;
and a decay file whose comma is padded by tabs on either side is read as a table."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import constants
from test_no_model_headers import report
from test_no_model_unit_headers import checklist_row

REAL = Path(__file__).resolve().parents[1] / "data" / "real" / "conventions"
MERCURY = """# Vapour pressure of mercury

The Clausius–Clapeyron equation ln p = −ΔH_vap/(R·T) + const relates them.

## Data
`pressure_rdatasets.csv`: column `temperature` is the temperature in degrees Celsius, column
`pressure` is the vapour pressure in mm Hg (Torr).

## Tasks
1. Plot ln p versus 1/T (T in kelvin!) and fit a straight line.
2. Calculate ΔH_vap from the slope, with its standard error.
"""


def test_units_stated_in_prose_give_the_asked_line_and_its_law(tmp_path: Path) -> None:
    folder = tmp_path / "mercury"
    folder.mkdir()
    shutil.copy(REAL / "pressure_rdatasets.csv", folder)
    (folder / "handout.md").write_text(MERCURY)
    text = report(folder, tmp_path)
    data = pd.read_csv(REAL / "pressure_rdatasets.csv")
    slope = np.polyfit(1 / (data["temperature"] + 273.15), np.log(data["pressure"]), 1)[0]
    assert round(slope) == -7307
    assert "\\textbf{temperature [°C]} & \\textbf{pressure [mmHg]}" in text
    assert "slope = -7307 ± 18 K" in checklist_row(text, 1)
    enthalpy = checklist_row(text, 2)
    assert (
        f"\\Delta}}H\\_\\allowbreak{{}}vap = {round(-slope * constants.R)} ± 152 J/mol" in enthalpy
    )


def test_a_comma_padded_by_tabs_splits_the_columns(tmp_path: Path) -> None:
    folder = tmp_path / "vanadium"
    folder.mkdir()
    shutil.copy(REAL / "Vanadium.dat", folder)
    text = report(folder, tmp_path)
    assert "holds no table" not in text
    assert "of its 44 rows" in text


HOEPPLER = """# Höppler viscometer

## Aufgaben
1. Berechnen Sie Mittelwert und Standardabweichung der Fallzeiten der kleinen Kugel.
2. Tragen Sie ln(t̄) in Abhängigkeit von 1/T (T in Kelvin) auf.
"""


def test_a_column_commented_out_for_loadtxt_is_the_variable_it_heads(tmp_path: Path) -> None:
    # `76.35<TAB>…<TAB>#25` under `#t1[s] … T[°C]`: T is read, and is the variable; a
    # column `t` of fall times is no T, so no 1/T is formed from it
    folder = tmp_path / "hoeppler"
    folder.mkdir()
    for name in ("Messung2_Temperaturabhaengigkeit.txt", "Messung1_Raumtemperatur_klein.txt"):
        shutil.copy(REAL / name, folder)
    (folder / "aufgaben.md").write_text(HOEPPLER)
    text = report(folder, tmp_path)
    assert "t1 [s] against T [°C] (Messung2" in text
    assert "T was taken as the variable" in text
    assert "1/T (Messung1" not in text


def test_the_lens_law_gives_f_from_the_intercept_of_reciprocals(tmp_path: Path) -> None:
    folder = tmp_path / "lens"
    folder.mkdir()
    shutil.copy(REAL / "abbildungsgesetzt.csv", folder)
    (folder / "handout.md").write_text(
        "# Thin lens\n\nThe lens obeys 1/f = 1/b + 1/g.\n\n## Tasks\n"
        "1. Plot 1/b vs. 1/g and fit a straight line; determine f from the intercept and report "
        "the slope (expected −1).\n"
    )
    row = checklist_row(report(folder, tmp_path), 1)
    assert "f = 14.084 ± 0.075 cm (from 1/f = 1/b + 1/g, whose line gives f = 1/intercept" in row
    assert "slope = -1.052 ± 0.013, intercept = 0.07100 ± 0.00038 cm\\textasciicircum{}-1" in row
