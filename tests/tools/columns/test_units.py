import pytest

from labscribe.tools.columns.units import (
    canonical,
    inverse,
    known_unit,
    product,
    split_unit,
    split_value,
)
from labscribe.tools.formats.headings import symbol_font


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("V_R (V)", ("V_R", "V")),
        ("V_R [V]", ("V_R", "V")),
        ("air valve control ()", ("air valve control", "")),  # a logger's empty unit
        ("x []", ("x", "")),
        ("freq_Hz", ("freq", "Hz")),
        ("V_R_Vpp", ("V_R", "Vpp")),
        ("电压(V)", ("电压", "V")),
        ("电压（V）", ("电压", "V")),
        ("T/K", ("T", "K")),
        ("phase_deg", ("phase", "deg")),
        ("R_nominal_ohm", ("R_nominal", "Ω")),
        ("L_tolerance_pct", ("L_tolerance", "%")),
        ("ch1_scale_V_per_div", ("ch1_scale", "V/div")),
        ("room_temperature_C", ("room_temperature", "°C")),
        ("a (m/s^2)", ("a", "m/s^2")),
        ("I [arb. units]", ("I", "arb. units")),
        ("time_us", ("time", "µs")),
        ("t_s", ("t", "s")),
        ("T_K", ("T", "K")),
        ("U_V", ("U", "V")),
        ("d (cm)", ("d", "cm")),
        ("d {cm}", ("d", "cm")),
        ("v [km/s]", ("v", "km/s")),
        ("I/mA", ("I", "mA")),
        ("U / V", ("U", "V")),
        ("T in K", ("T", "K")),
        ("Spannung in mV", ("Spannung", "mV")),
        ("T in [K]", ("T", "K")),
        ("Temperature, °C", ("Temperature", "°C")),
        ("DSC/(uV/mg)", ("DSC", "µV/mg")),
        ("c (mM)", ("c", "mM")),
        ("rho (kg m^-3)", ("rho", "kg m^-3")),
        ("k (W/(m·K))", ("k", "W/(m·K)")),
        ("p (psi)", ("p", "psi")),
        ("p (mmHg)", ("p", "mmHg")),
        ("B (gauss)", ("B", "Gs")),  # the gauss as labs abbreviate it (`B(Gs)`): 10⁻⁴ T
        ("Flow (L/min)", ("Flow", "L/min")),
        ("x (in)", ("x", "in")),
        ("Temperature (C)", ("Temperature", "°C")),
        ("Heating Rate (C/s)", ("Heating Rate", "°C/s")),
        ("Oxygen (%) (P)", ("Oxygen (P)", "%")),
        ("Q (C)", ("Q", "C")),
        # the degree as keyboards without one write it (a Spanish practical's `Temperatura
        # (ºC)`), and Fahrenheit, which pint converts to kelvin like Celsius
        ("Temperatura (ºC)", ("Temperatura", "°C")),
        ("T (oC)", ("T", "°C")),
        ("Temperatura (C°)", ("Temperatura", "°C")),  # the sign after the letter (Unicamp F229)
        ("Temp (° C)", ("Temp", "°C")),
        ("T/℉", ("T", "°F")),
        # a condition after the unit (dlmsr/praktikum V207), a LabVIEW graph's name after it
        ("U_therm1/microVolt(50celsius)", ("U_therm1 (50celsius)", "µV")),
        ("Frequency(Hz) - Plot 0", ("Frequency", "Hz")),
        ("phi/Grad", ("phi", "deg")),
        ("Temperatur in Grad", ("Temperatur", "°C")),
        ("zeitliche Ableitung w_1 / rad/s", ("zeitliche Ableitung w_1", "rad/s")),  # CASSY
    ],
)
def test_split_unit_reads_each_header_style(header: str, expected: tuple[str, str]) -> None:
    assert split_unit(header) == expected


@pytest.mark.parametrize(
    "header",
    ["V_C", "I_A", "V_H", "V_R", "Voltage (CH1)", "V_R/V_in", "V_in/V_out", "I/O", "x/t",
     "Energy (e)", "Sample (Te)", "P (mass)", "Wavelength (lambda)", "Voltage (ch)",
     "Counts in bin", "x, y", "Temp./›C", "Metall(rau)", "Metall(glanz)", "pKa(app)"],
)  # fmt: skip
def test_split_unit_leaves_names_that_carry_no_unit(header: str) -> None:
    assert split_unit(header) == (header, "")


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        # keys as parameter files and property records write them (CoolProp-style records
        # `density_kg_m3`, `viscosity_Pa_s`; a lab's YAML `alpha_per_K`, `lines_per_mm`)
        ("density_kg_m3", ("density", "kg/m3")),
        ("g_m_s2", ("g", "m/s2")),
        ("alpha_per_K", ("alpha", "K^-1")),
        ("alpha_range_per_K", ("alpha_range", "K^-1")),
        ("lines_per_mm", ("lines", "mm^-1")),
        ("viscosity_Pa_s", ("viscosity_Pa_s", "")),  # Pa·s or Pa/s: not claimed
        ("speed_km_h", ("speed_km_h", "")),
        ("delta_T_K", ("delta_T", "K")),  # a one-letter symbol before the unit
        ("U_C_V", ("U_C", "V")),
        ("L0_uncertainty_mm", ("L0_uncertainty", "mm")),
    ],
)
def test_split_unit_reads_a_unit_written_over_a_keys_last_parts(
    key: str, expected: tuple[str, str]
) -> None:
    assert split_unit(key) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("20MHz", (20.0, "MHz")),
        ("10 mH", (10.0, "mH")),
        ("47", (47.0, "")),
        ("5,5", (5.5, "")),
        ("1e-3 s", (0.001, "s")),
        ("100 V film", (None, "")),
        ("4300-5800", (None, "")),
    ],
)
def test_split_value_reads_a_number_and_its_unit(
    text: str, expected: tuple[float | None, str]
) -> None:
    assert split_value(text) == expected


def test_cassy_symbol_font_letters_are_greek() -> None:
    """CASSY writes ϑ as `&J` (a thermometer's `&J_A11`) and β as `&b`; `R&D` is no Greek."""
    assert [symbol_font(t) for t in ("&J_A11", "Weg &b_A1", "R&D", "P & Q")] == [
        "ϑ_A11", "Weg β_A1", "R&D", "P & Q",
    ]  # fmt: skip


def test_canonical_tells_siemens_from_seconds() -> None:
    """`mS/cm` is a conductivity, not milliseconds per centimetre; `ms` and `US` stay times."""
    assert [canonical(u) for u in ("mS/cm", "µS/cm", "uS/cm", "ms", "us", "US")] == [
        "mS/cm", "µS/cm", "µS/cm", "ms", "µs", "µs",
    ]  # fmt: skip


def test_canonical_spells_prefixed_units_as_usual() -> None:
    assert [canonical(u) for u in ("kohm", "uF", "khz", "mA/V", "furlong")] == [
        "kΩ",
        "µF",
        "kHz",
        "mA/V",
        None,
    ]


def test_product_gives_the_unit_of_a_slope_and_a_curvature() -> None:
    assert product("V", "mA") == "V/mA"
    assert product("V", "s", 2) == "V/s^2"
    assert product("V", "") == "V"
    assert product("", "s") == "1/s"
    assert product("V", "Hz", -1) == "V·Hz"
    # against an inverse unit: a slope against nm^-1 (a student's inverse wavelength), a
    # wavenumber's cm-1 or 1/K is in the unit times the inverted one
    assert product("", "nm^-1") == "nm"
    assert product("V", "cm-1") == "V·cm"
    assert product("mV", "1/K") == "mV·K"
    assert product("V", "1/K", -1) == "V/K"
    # a slope of one quantity's unit against the same unit is a pure number (1/b against 1/g)
    assert product("cm^-1", "cm^-1") == ""
    assert product("V", "m^-1", 2) == "V·m^2"


def test_inverse_writes_hertz_for_a_time_axis() -> None:
    assert [inverse(u) for u in ("s", "ms", "µs", "m")] == ["Hz", "kHz", "MHz", "1/m"]


def test_known_unit_reads_units_pint_knows_as_written() -> None:
    assert [known_unit(u) for u in ("kg m^-3", "psi", "kDa", "µS/cm", "km/s")] == [
        "kg m^-3", "psi", "kDa", "µS/cm", "km/s"
    ]  # fmt: skip


def test_known_unit_reads_a_german_noun_s_capital() -> None:
    """German writes nouns with a capital: `(in Bar)`, `Volt`, `Sekunde`; a name stays none."""
    assert [known_unit(u) for u in ("Bar", "in Bar", "Volt", "Laenge", "Druck")] == [
        "bar", "bar", "V", None, None
    ]  # fmt: skip


def test_known_unit_refuses_what_pint_reads_as_constants_or_odd_units() -> None:
    # pint reads these as metric ton, elementary charge, milliarcsecond, tera-e, centihour
    assert [known_unit(u) for u in ("t", "e", "mass", "Te", "ch", "out", "V_out")] == [None] * 7


def test_a_unit_scaled_by_a_power_of_ten_is_its_prefixed_unit() -> None:
    assert [canonical(u) for u in ("Ae-12", "Ve-3", "se-6", "me3")] == ["pA", "mV", "µs", "km"]
    assert canonical("Ae-5") is None  # no prefix names 1e-5


def test_in_before_a_unit_says_where_it_is_and_alone_is_the_inch() -> None:
    assert [known_unit(t) for t in ("in Hz", "in s", "in")] == ["Hz", "s", "in"]
