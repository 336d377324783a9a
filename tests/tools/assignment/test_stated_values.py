"""tools.assignment.stated_values: values a handout states in prose, and measured means, as the
inputs of a formula (tools.formulas.prediction)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from labscribe.tools.analysis.folder import analyse
from labscribe.tools.assignment.handout_latex import latex_text
from labscribe.tools.assignment.stated_values import listed_values, measured_inputs, stated_values
from labscribe.tools.fits.repeats import decode, repeated_measurements
from labscribe.tools.formats.tables import read_data
from labscribe.tools.formulas.prediction import predictions
from labscribe.tools.formulas.prediction_inputs import input_of
from labscribe.tools.tool import Folder

REPEATS = Path(__file__).parents[2] / "data" / "real" / "repeats"
BRIEF = (
    "A steel ball was dropped 20 times from rest from a height h = 1.200 m (measured to ±1 mm) "
    "and the fall time was taken with a phone stopwatch.\n"
    "* The value of g = 2h/t² from the mean time, with its uncertainty, compared with "
    "g = 9.81 m/s².\n"
)


def test_a_value_stated_in_prose_is_read_with_its_tolerance_in_its_own_unit() -> None:
    rows = stated_values(BRIEF, "brief.txt")
    height = input_of("h", rows)
    assert height is not None and height.value == pytest.approx(1.2)
    assert height.sigma == pytest.approx(0.001 / math.sqrt(3))  # ±1 mm, not ±1 m
    assert height.unit == "m"
    assert "g" in {row.name for row in rows}  # 9.81 m/s², never the formula 2h/t²
    assert all("2h" not in row.value for row in rows)


def test_the_mean_of_a_coded_series_is_an_input_in_si() -> None:
    [series] = repeated_measurements(read_data(Folder(REPEATS), "newcomb.csv").tables)
    decode([series], "The data are recorded as deviations from 24800 nanoseconds.")
    [found] = measured_inputs([series])
    assert found.symbol == "dat" and found.unit == "s"
    assert found.value == pytest.approx((24800 + 26.2121) * 1e-9, rel=1e-6)
    assert found.sigma == pytest.approx(1.3227e-9, rel=1e-3)


def test_a_formula_takes_a_measured_mean_by_its_name() -> None:
    [series] = repeated_measurements(read_data(Folder(REPEATS), "newcomb.csv").tables)
    series.name, series.unit = "t", "ns"
    text = "The length of the path is d = 7.44242 km.\nCompute v = 2d/t from the mean passage time."
    [found] = predictions(text, [], stated_values(text, "h.md"), [], measured_inputs([series]))
    mean = series.summary.mean * 1e-9
    assert found.value == pytest.approx(2 * 7442.42 / mean)
    assert found.sigma == pytest.approx(found.value * series.summary.sem / series.summary.mean)
    assert found.measured.startswith("t = the mean of t (newcomb.csv, n = 66)")
    assert "predicted" not in found.text()


@pytest.mark.parametrize(
    ("text", "symbol", "value", "unit"),
    [
        ("(V_T = k_B T/e, k_B = 1,380649×10⁻²³ J/K, e = 1,602177×10⁻¹⁹ C).", "k_B", 1.380649e-23,
         "J/K"),
        ("(V_T = k_B T/e, k_B = 1,380649×10⁻²³ J/K, e = 1,602177×10⁻¹⁹ C).", "e", 1.602177e-19,
         "C"),
        ("On prendra g = 9,81 m/s² pour la pesanteur.", "g", 9.81, "m/s²"),
        ("Use q = 1.6 · 10^-19 C for the charge.", "q", 1.6e-19, "C"),
        ("Take e = 1.602e-19 C.", "e", 1.602e-19, "C"),
        # a unit's factors written apart with their powers (Trento's Fisica 1 handout)
        ("Si assuma g = 9,806 m s⁻² (incertezza trascurabile).", "g", 9.806, "m/s²"),
        ("R = 8.314 J mol⁻¹ K⁻¹ is the gas constant.", "R", 8.314, "J/mol/K"),
        ("ρ_Fe = 7870 kg m^-3.", "ρ_Fe", 7870, "kg/m³"),
    ],
)  # fmt: skip
def test_a_constant_written_with_a_decimal_comma_or_a_power_of_ten(
    text: str, symbol: str, value: float, unit: str
) -> None:
    """The eval's French diode handout states k_B and e with decimal commas and ×10⁻ⁿ: they
    were read as 1 and 1, and V_T = k_B·T/e came out as 295."""
    rows = {row.name: row for row in stated_values(text, "handout.md")}
    assert rows[symbol].number == pytest.approx(value, rel=1e-12)
    assert rows[symbol].unit == unit


def test_a_symbol_stated_twice_or_a_list_of_values_states_no_value() -> None:
    """A solar-cell handout gives n and S once per cell; `n = 1, 2, 3` is a list."""
    text = (
        "Ogniwo polikrystaliczne: n = 8 sekcji, S = 7,8 cm². Ogniwo monokrystaliczne: n = 1, "
        "S = 63 cm². Natężenie promieniowania Φ = 130,6 W/m².\n\nf_n = n·u/(2L), k = 1, 2, 3"
    )
    assert [row.name for row in stated_values(text, "instrukcja.md")] == ["Φ"]


def test_a_formula_that_opens_with_a_number_states_no_value() -> None:
    """A lamp's filament temperature from its resistance (UFMG's Stefan-Boltzmann lab):
    `T = 273 + [√(α² + 4β(R/R0 − 1)) − α]/(2β)` is a formula, not T = 273; n = 4 is a value."""
    text = "T = 273 + [ √(α² + 4β (R/R0 − 1)) − α ] / (2β)   (T em kelvin). A teoria dá n = 4."
    assert [(row.name, row.value) for row in stated_values(text, "roteiro.md")] == [("n", "4")]


def test_the_right_side_of_a_formula_states_no_value() -> None:
    """An RC circuit's tasks (TU Dortmund V353): `A/U_0 = 1/√(…)` and `f_g = 1/(2π RC)` are
    formulas; only `U_0 = 4,2 V` is a value."""
    text = (
        "Die Amplitude der Generatorspannung betrug U_0 = 4,2 V. Bestimmen Sie RC durch "
        "einen Fit von A/U_0 = 1/√(1 + (2πf·RC)²) und die Grenzfrequenz f_g = 1/(2π RC)."
    )
    assert [(row.name, row.value) for row in stated_values(text, "Aufgabe.txt")] == [
        ("U_0", "4,2 V")
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("latex", "text"),
    [
        (r"\SI{589.3}{\nano\metre}", "589.3 nm"),  # an Italian prism handout's sodium line
        (r"\SI{9.81}{\metre\per\second\squared}", "9.81 m/s²"),
        (r"\qty{4.7}{\kilo\ohm}", "4.7 kΩ"),
        (r"\SI{589.3}{nm}", "589.3 nm"),
        (r"\bar{x} = 2", "x\u0305 = 2"),  # an accent keeps its letter: no unit takes it
    ],
)
def test_siunitx_quantities_print_their_units(latex: str, text: str) -> None:
    assert latex_text(latex) == text


def test_values_after_latex_blanks_and_no_origin_or_condition() -> None:
    """A Russian Hall-effect handout writes `$L_{35} = 3{,}0$~мм`; "the ANC at t = 0 as
    ANC_0" (a Gran titration) states no value of t, nor attoseconds."""
    text = latex_text(r"$L_{35} = 3{,}0$~мм.") + " Compare the measured ANC at t = 0 as ANC_0."
    assert [(row.name, row.value) for row in stated_values(text, "zadanie.tex")] == [
        ("L_35", "3,0 мм")
    ]  # fmt: skip


def test_the_end_of_a_chain_of_a_formula_is_no_symbols_value() -> None:
    """A diode handout: "V_T = k_B T / e = 25.85 mV" gives no value of e."""
    text = "At room temperature V_T = k_B T / e = 25.85 mV. The series resistor is R = 200 Ω."
    assert [(row.name, row.value) for row in stated_values(text, "handout.md")] == [
        ("R", "200 Ω")
    ]  # fmt: skip


def test_a_value_given_as_an_example_is_not_stated() -> None:
    """A Slovene handout's "(npr. `365.csv` → λ = 365 nm)" names how files are called, not
    the wavelength; "z. B." alike; a value stated after them is."""
    text = ("Ime datoteke je valovna dolžina v nanometrih (npr. `365.csv` → λ = 365 nm). "
            "Wir nehmen z. B. U = 4 V an. Es gilt R = 10 kOhm.")  # fmt: skip
    assert [row.name for row in stated_values(text, "a.md")] == ["R"]


def test_a_temperatures_scale_letter_is_no_symbol() -> None:
    """`T₀ = 21 °C = 294 K` (a Curie–Weiss handout) states no value of C, the Curie
    constant of the same handout's χ = C/(T − Θ)."""
    rows = stated_values("T = T₀ + (V − V₀)/k, T₀ = 21 °C = 294 K, k = 41 µV/K.", "a.md")
    assert "C" not in [row.name for row in rows]


def test_a_value_written_in_two_units_is_the_last_and_a_subscript_is_typed() -> None:
    """`T₀ = 21 °C = 294 K` gives T_0 = 294 K, the kelvin a formula takes."""
    rows = {r.name: r for r in stated_values("T₀ = 21 °C = 294 K, V₀ = 90 µV.", "a.md")}
    assert (rows["T_0"].number, rows["T_0"].unit) == (294.0, "K")
    assert (rows["V_0"].number, rows["V_0"].unit) == (90.0, "µV")


# eval13's handouts (French, Chinese, Dutch), as their courses write given values
@pytest.mark.parametrize(
    ("text", "stated"),
    [
        ("- Distance entre les deux marqueurs : d = 100 mm\n- g = 9,81 m/s²\n- ρ₁ = 819 kg/m³",
         [("d", "100 mm"), ("g", "9,81 m/s²"), ("ρ_1", "819 kg/m³")]),
        ("Toutes les cellules ont une surface S = (100 ± 4) cm² : d₁ = (40,0 ± 0,2) cm.",
         [("S", "100 ± 4 cm²"), ("d_1", "40,0 ± 0.2 cm")]),
        ("磁阻：R = U/I_R，磁阻两端电压（电桥电压）U = 4 V。线圈密度 n = 24000 匝/米；",
         [("U", "4 V"), ("n", "24000 匝/米")]),
        ("I_M = 0.500 A 不变，改变工作电流 IS(mA)", [("I_M", "0.500 A")]),
        # eval12's Slovene handout: the ampere-second, never the word "as"
        ("s tabelirano vrednostjo e₀ = 1,602·10⁻¹⁹ As in oceni", [("e_0", "1,602·10⁻¹⁹ As")]),
        ("Golflengtes: λ(D₂) = 588,9950954 nm, λ(D₁) = 589,5824237 nm.",
         [("λ(D_2)", "588,9950954 nm"), ("λ(D_1)", "589,5824237 nm")]),
    ],
)  # fmt: skip
def test_values_stated_in_lists_brackets_and_chinese_punctuation(text: str, stated: list) -> None:
    assert [(row.name, row.value) for row in stated_values(text, "a.md")] == stated


def test_a_turns_density_is_per_metre() -> None:
    [row] = stated_values("线圈密度 n = 24000 匝/米；", "a.md")
    assert row.unit == "1/m" and row.number == 24000


def test_a_list_names_values_in_words() -> None:
    text = ("## Valeurs\n- Diamètre de la bille : (2,00 ± 0,01) mm ; masse de la bille : "
            "(4,43 ± 0,03) mg\n- Incertitudes de lecture : température ± 0,5 °C\n"
            "- Huile 1 = HF 16-681\n")  # fmt: skip
    assert [(row.name, row.value) for row in listed_values(text, "a.md")] == [
        ("Diamètre de la bille", "2,00 ± 0.01 mm"),
        ("masse de la bille", "4,43 ± 0.03 mg"),
    ]


# The component values and model of a series RLC pulse lab, from the students' own README
# (Università di Bologna; tests/data/real/oscilloscope/unibo_rlc_handout.md, SOURCES.md)
RLC = (REPEATS.parent / "oscilloscope" / "unibo_rlc_handout.md").read_text()


def test_a_unit_after_the_error_and_the_concise_form_are_read() -> None:
    """`R = 35.31 ± 0.05 Ω` writes one unit for both; `C = 32.0(3) nF` is 32.0 nF with a
    standard uncertainty of 0.3 nF in its last digits (the concise form CODATA writes)."""
    rows = stated_values(RLC, "assignment.md")
    resistor, capacitor, inductor = (input_of(name, rows) for name in ("R", "C", "L"))
    assert resistor is not None and resistor.value == pytest.approx(35.31)
    assert resistor.sigma == pytest.approx(0.05 / math.sqrt(3))  # a tolerance, as written
    assert capacitor is not None and capacitor.value == pytest.approx(32.0e-9)
    assert capacitor.sigma == pytest.approx(0.3e-9)  # a σ: the concise form states one
    assert inductor is not None and inductor.sigma == pytest.approx(0.1e-3)
    assert stated_values("f(x) = 2(3)", "a.md") == []  # no decimals: a product, not a value


def test_a_squared_left_side_and_a_prediction_another_takes() -> None:
    """`ω0² = 1/(LC)` predicts ω0, and `γ = R_tot/L` takes the R_tot that `R_tot = R + R_L +
    R_G` predicts after it: 55.4(4)·10³ and 12.46(12)·10³ 1/s, the students' own values."""
    rows = stated_values(RLC, "assignment.md")
    tasks = ["Compute the expected ω0 and γ (with uncertainties) from the component values."]
    found = {p.quantity: p for p in predictions(RLC, tasks, rows, [])}
    omega, gamma = found["omega0"], found["gamma"]
    assert (omega.value, omega.sigma) == (pytest.approx(55433, abs=1), pytest.approx(377, abs=1))
    assert (gamma.value, gamma.sigma) == (pytest.approx(12460, abs=1), pytest.approx(123, abs=1))
    assert omega.unit == gamma.unit == "1/s"
    assert omega.name == "ω0" and omega.task == gamma.task == tasks[0]
    assert found["R_tot"].value == pytest.approx(126.72)


def test_values_the_handout_alone_states_predict_without_a_parameter_file(tmp_path: Path) -> None:
    """A folder with no settings file and no repeats: the handout's `R = 1.00 kΩ and C =
    2.2 µF` are the prediction's inputs all the same."""
    t = [0.5 * i for i in range(20)]
    rows = "\n".join(f"{x:.1f},{5 * math.exp(-x / 2.2):.4f}" for x in t)
    (tmp_path / "decay.csv").write_text("t (ms),U (V)\n" + rows + "\n")
    (tmp_path / "assignment.md").write_text(
        "# RC\n\nR = 1.00 kΩ and C = 2.2 µF, so τ = R·C.\n\n"
        "1. Fit the decay and compare τ with the expected value.\n"
    )
    analysis = analyse(Folder(tmp_path))
    assert not analysis.parameters and not analysis.repeats
    assert [(p.name, p.value) for p in analysis.predictions] == [("τ", pytest.approx(2.2e-3))]
