"""Predictions from the handout's formulas and the folder's parameter values, beside what
was measured (tools.formulas.prediction, tools.formulas.prediction_inputs)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from labscribe.tools.fits.fit_result import Fit, Parameter
from labscribe.tools.formats.parameters import ParameterRow, read_parameters
from labscribe.tools.formulas.formula_notation import formulas_in, juxtaposed
from labscribe.tools.formulas.prediction import predictions
from labscribe.tools.formulas.prediction_inputs import input_of
from labscribe.tools.tool import Folder

EXAMPLE = Path(__file__).parents[3] / "examples" / "rlc-resonance"
HANDOUT = (
    "The current is largest at the resonance frequency f0 = 1/(2 pi sqrt(LC)), where the "
    "reactances cancel. Q = f0/(f2 - f1)."
)


def rows(tmp_path: Path, text: str) -> list[ParameterRow]:
    """The rows labscribe's own reader gives for a parameter file of these lines."""
    (tmp_path / "components.txt").write_text(text + "\n", encoding="utf-8")
    return read_parameters(Folder(tmp_path), "components.txt")


def test_formulas_in_finds_every_formula_of_a_sentence() -> None:
    assert formulas_in(HANDOUT) == ["f0 = 1/(2 pi sqrt(LC))", "Q = f0/(f2 - f1)"]
    # no left side starts inside a word: "dinámico" holds no `mico`
    assert formulas_in("Calcular k dinámico = 4π²·m/T² con su incerteza.") == []
    # a left side subscripted as typed: "Der Druck verschwindet bei ϑ₀ = −1/γ"
    assert formulas_in("Der Druck verschwindet bei ϑ₀ = −1/γ.") == ["ϑ₀ = −1/γ"]
    # a name squared is a left side a prediction takes the root of, and only a prediction
    squared = "with γ = R_tot/L and ω0² = 1/(LC), R_tot = R + R_L."
    assert formulas_in(squared) == ["γ = R_tot/L", "R_tot = R + R_L"]
    assert formulas_in(squared, squared=True) == ["γ = R_tot/L", "ω0² = 1/(LC)", "R_tot = R + R_L"]


def test_a_product_written_without_a_sign_is_read_as_its_factors() -> None:
    """`LC` of 1/√(LC), `rF` of D = rF/φ: the longest known name first at each place."""
    known = {"L", "C", "r", "F", "Rs"}.__contains__
    assert juxtaposed("LC", known) == ["L", "C"]
    assert juxtaposed("rF", known) == ["r", "F"]
    assert juxtaposed("RsC", known) == ["Rs", "C"]
    assert juxtaposed("rX", known) is None and juxtaposed("r", known) is None


def test_input_of_reads_a_nominal_value_and_its_tolerance_from_the_example() -> None:
    settings = read_parameters(Folder(EXAMPLE), "params.ini")
    inductance = input_of("L", settings)
    assert inductance is not None
    assert inductance.value == pytest.approx(10e-3) and inductance.unit == "H"
    assert inductance.sigma == pytest.approx(10e-3 * 0.10 / math.sqrt(3))
    assert "rectangular distribution: u = 10 %/√3" in inductance.how
    resistance = input_of("R", settings)
    assert resistance is not None  # the nominal value with its tolerance, not the bare reading
    assert resistance.value == pytest.approx(47.0) and resistance.sigma is not None


@pytest.mark.parametrize(
    ("written", "value", "sigma"),
    [("L = 10 mH ± 10%", 10e-3, 1e-3 / math.sqrt(3)),
     ("C = (100 ± 5) nF", 100e-9, 5e-9 / math.sqrt(3)),
     ("C = 100 nF +/- 5 nF", 100e-9, 5e-9 / math.sqrt(3))],
)  # fmt: skip
def test_input_of_reads_a_value_written_with_its_tolerance(
    tmp_path: Path, written: str, value: float, sigma: float
) -> None:
    found = input_of(written[0], rows(tmp_path, written + "\nX = 1\nY = 2"))
    assert found is not None
    assert found.value == pytest.approx(value) and found.sigma == pytest.approx(sigma)


def test_input_of_takes_a_sigma_as_written(tmp_path: Path) -> None:
    found = input_of("m", rows(tmp_path, "m_kg = 0.250\nm_sigma_kg = 0.002\nT_s = 1.0"))
    assert found is not None and found.sigma == pytest.approx(0.002)
    assert "standard uncertainty" in found.how


def test_predictions_compute_f0_with_its_propagated_uncertainty() -> None:
    settings = read_parameters(Folder(EXAMPLE), "params.ini")
    fit = Fit(table="sweep.csv", x="f", y="V_R", model="resonance", good=True,
              parameters=[Parameter(name="f0", value=5032.46, stderr=0.57, unit="Hz")])  # fmt: skip
    task = "Compare f0 with the value predicted from the component values."
    [found] = predictions(HANDOUT, [task], settings, [fit])
    f0 = 1 / (2 * math.pi * math.sqrt(10e-3 * 100e-9))
    assert found.value == pytest.approx(f0) and found.unit == "Hz"
    assert found.sigma == pytest.approx(f0 / 2 * math.hypot(0.1, 0.05) / math.sqrt(3))
    [compared] = found.comparisons
    assert compared.z == pytest.approx(abs(5032.46 - f0) / math.hypot(0.57, found.sigma))
    assert found.task == task


def test_predictions_show_the_prediction_in_the_measured_unit(tmp_path: Path) -> None:
    fit = Fit(table="t", x="f", y="U", model="resonance", good=True,
              parameters=[Parameter(name="f0", value=4.8, stderr=0.01, unit="kHz")])  # fmt: skip
    [found] = predictions(
        HANDOUT, [], rows(tmp_path, "L = 10 mH ± 10%\nC = (100 ± 5) nF\nR = 47 ohm"), [fit]
    )
    assert found.unit == "kHz" and found.value == pytest.approx(5.0329, rel=1e-4)


def test_predictions_leave_out_formulas_whose_inputs_the_folder_lacks(tmp_path: Path) -> None:
    settings = rows(tmp_path, "L = 10 mH\nR = 47 ohm\nU = 5 V")
    assert predictions("Q = f0/(f2 - f1).", [], settings, []) == []
    assert predictions(HANDOUT, [], settings, []) == []


def test_predictions_do_not_compare_what_has_no_unit(tmp_path: Path) -> None:
    fit = Fit(table="t", x="f", y="U", model="resonance", good=True,
              parameters=[Parameter(name="f0", value=4.8, stderr=0.01, unit="kHz")])  # fmt: skip
    [found] = predictions(HANDOUT, [], rows(tmp_path, "L = 0.01\nC = 1e-7\nR = 47"), [fit])
    assert found.comparisons == []
    assert "no unit" in found.text()


@pytest.mark.parametrize(
    ("name", "text"),
    [
        # a YAML block per part, the convention of part specifications such as
        # ajayitem/digital-datasheets part-spec/passives/inductor.json (value, tolerance)
        ("components.yaml", "inductor:\n  L: 10 mH\n  tolerance: 5 %\n  dc_resistance: 28 ohm\n"),
        ("components.toml", '[inductor]\nL = "10 mH"\ntol = "5 %"\nR_dc = "28 ohm"\n'),
        ("components.json", '{"inductor": {"L": "10 mH", "tolerance": "5 %", "R_dc": "28 ohm"}}'),
    ],
)
def test_input_of_reads_a_parts_tolerance_from_its_block(
    tmp_path: Path, name: str, text: str
) -> None:
    (tmp_path / name).write_text(text)
    settings = read_parameters(Folder(tmp_path), name)
    inductance = input_of("L", settings)
    assert inductance is not None and inductance.value == pytest.approx(0.01)
    assert inductance.sigma == pytest.approx(0.01 * 0.05 / math.sqrt(3))
    assert "a tolerance of ±5 %" in inductance.how
    # the block's tolerance bounds its value, not the coil's resistance listed after it
    other = "dc_resistance" if name.endswith("yaml") else "R_dc"
    resistance = input_of(other, settings)
    assert resistance is not None and resistance.sigma is None


def test_input_of_leaves_a_tolerance_of_no_block_unattached(tmp_path: Path) -> None:
    (tmp_path / "p.yaml").write_text("L: 10 mH\ntolerance: 5 %\nC: 47 nF\n")
    settings = read_parameters(Folder(tmp_path), "p.yaml")
    found = input_of("L", settings)
    assert found is not None and found.sigma is None


def test_a_formula_with_its_name_on_both_sides_predicts_nothing() -> None:
    """`T² h = (4π²/g)·h² + 4π² l₀²/(12 g)` (a compound pendulum's linearisation, Palermo)
    is read from its last symbol on: `h = (4π²/g)·h² + …` gives no value of h, however
    many of its inputs the handout states."""
    rows = [ParameterRow(source="a.md", key=k, name=k, value=f"{v} {u}", number=v, unit=u)
            for k, v, u in (("g", 9.81, "m/s²"), ("l_0", 1.0, "m"))]  # fmt: skip
    text = "T² h = (4π²/g) · h² + 4π² l₀² / (12 g)"
    assert predictions(text, [], rows, []) == []


@pytest.mark.parametrize("left", ["f0²", "f0^2", "f0^{2}"])
def test_a_squared_left_side_names_its_root_however_written(tmp_path: Path, left: str) -> None:
    handout = f"The resonance is at {left} = 1/(4π² L C)."
    [found] = predictions(handout, [], rows(tmp_path, "L = 10 mH ± 10%\nC = (100 ± 5) nF"), [])
    assert found.written == "f0" and found.value == pytest.approx(5032.9, rel=1e-4)
