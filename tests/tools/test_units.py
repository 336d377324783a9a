import pytest

from labscribe.tools.units import canonical, inverse, product, split_unit, split_value


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("V_R (V)", ("V_R", "V")),
        ("V_R [V]", ("V_R", "V")),
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
    ],
)
def test_split_unit_reads_each_header_style(header: str, expected: tuple[str, str]) -> None:
    assert split_unit(header) == expected


@pytest.mark.parametrize("header", ["V_C", "I_A", "V_H", "V_R", "Voltage (CH1)", "V_R/V_in"])
def test_split_unit_leaves_names_that_carry_no_unit(header: str) -> None:
    assert split_unit(header) == (header, "")


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


def test_inverse_writes_hertz_for_a_time_axis() -> None:
    assert [inverse(u) for u in ("s", "ms", "µs", "m")] == ["Hz", "kHz", "MHz", "1/m"]
