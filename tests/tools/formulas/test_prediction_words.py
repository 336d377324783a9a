"""A formula's symbol read from the settings by the word the handout names it with
(tools.formulas.prediction_words), and the predictions it makes possible
(tools.formulas.prediction)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from labscribe.tools.fits.fit_result import Fit, Parameter
from labscribe.tools.formats.parameters import ParameterRow, read_parameters
from labscribe.tools.formulas.prediction import predictions
from labscribe.tools.formulas.prediction_words import worded_input
from labscribe.tools.tool import Folder

COIL = (
    "For a flat coil of N turns and radius R carrying a current I, the field at the centre "
    "is B(0) = µ0·N·I/(2R). Use µ0 = 4π × 10−7 T m/A."
)
TASK = (
    "Calculate the field at the centre predicted by B(0) = µ0·N·I/(2R) from the nominal coil "
    "data in coil.yaml. Does your fitted Bmax agree with it?"
)
SETTINGS = (
    "turns: 320\nmean_radius_mm: 60.0\nradius_tolerance_mm: 1.5\ncurrent_A: 2.00\n"
    "current_tolerance_percent: 1.0\n"
)


def _rows(tmp_path: Path, text: str, name: str = "coil.yaml") -> list[ParameterRow]:
    (tmp_path / name).write_text(text, encoding="utf-8")
    return read_parameters(Folder(tmp_path), name)


def test_the_handout_s_words_tie_symbols_to_settings(tmp_path: Path) -> None:
    rows = _rows(tmp_path, SETTINGS)
    turns, radius, current = (worded_input(s, rows, COIL) for s in ("N", "R", "I"))
    assert turns is not None and turns.value == 320 and turns.dimension == (0.0,) * 7
    assert radius is not None and radius.value == pytest.approx(0.060) and radius.unit == "m"
    # the mean radius takes the tolerance written for the radius, read as rectangular
    assert radius.sigma == pytest.approx(1.5e-3 / math.sqrt(3))
    assert current is not None and current.sigma == pytest.approx(0.02 / math.sqrt(3))
    # "where R is the radius of the coil" (virtual-labs IITK, magnetic field of a coil)
    assert worded_input("R", rows, "B = (μ0 * N * I) / (2 * R) where R is the radius of the coil")


def test_no_single_setting_no_value(tmp_path: Path) -> None:
    rows = _rows(tmp_path, "inner_radius_mm: 50\nouter_radius_mm: 70\n")
    assert worded_input("R", rows, COIL) is None  # two radii: which is R is not guessed
    assert worded_input("Z", rows, COIL) is None  # no word names Z


def test_a_value_at_a_point_is_predicted_from_the_nominal_data_beside_the_fitted_one(
    tmp_path: Path,
) -> None:
    fit = Fit(table="t", x="z", y="B", x_unit="cm", y_unit="mT", model="B(z)", good=True,
              parameters=[Parameter(name="Bmax", value=6.5682, stderr=0.0059, unit="mT"),
                          Parameter(name="R", value=6.1161, stderr=0.0074, unit="cm")])  # fmt: skip
    (found,) = predictions(COIL, [TASK], _rows(tmp_path, SETTINGS), [fit])
    assert found.quantity == "B(0)" and found.task == TASK
    # µ0·N·I/(2R) = 4π·10⁻⁷·320·2/(2·0.06) T = 6.702 mT, from the NOMINAL radius
    assert found.value == pytest.approx(6.702, abs=5e-4) and found.unit == "mT"
    assert [c.value for c in found.comparisons] == [6.5682]  # the fitted Bmax, not R
    assert "R = 0.06000 ± 0.00087 m" in found.text()
