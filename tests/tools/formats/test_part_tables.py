"""Parts tables and datasheet lines as labs write them, read as settings with their names,
units and tolerances (tools.formats.part_tables, tools.formats.stated_specs, tools.formats.grid).

The spellings come from outside: a lab's components list (`ref,part,nominal,unit,
tolerance_pct,notes`), the measurement-file convention `name,value,unit,uncertainty` seen in
public code (a water lab's `pH,7,pH,0.1`), German `Bauteil;Nennwert;Einheit;Toleranz`, and
thermistor datasheet values as public firmware and READMEs quote them (`B25/85 = 3600K`,
`R25 = 10 kOhm`, `−40…+125 °C`, Vishay NTCLE100's `B25/85 = 3977 K ± 0.75 %`).
"""

from __future__ import annotations

import pytest

from labscribe.tools.formats.grid import tables_in
from labscribe.tools.formats.instruments import metadata_of_line
from labscribe.tools.formats.part_tables import part_rows
from labscribe.tools.formats.stated_specs import named_line, read_stated
from labscribe.tools.formats.text_tables import text_grid

COMPONENTS = """\
ref,part,nominal,unit,tolerance_pct,notes
X,unknown resistor (colour bands yellow-violet-red-gold),4.7,kOhm,5,device under test
Rs,series current-limiting resistor,1.0,kOhm,5,in series with supply; NOT measured
PS,bench power supply 0-30 V,30,V,,set in 0.5 V steps
DMM1,voltmeter (across X),20,V range,0.5,
DMM2,ammeter (in series),20,mA range,0.8,
"""


def settings(text: str) -> dict[str, str]:
    grid, _ = text_grid(text, [])
    found, rows, _ = tables_in(grid)
    assert found == []
    return {row.name: row.shown() for row in rows}


def test_a_components_list_is_each_part_by_its_ref_with_unit_and_tolerance() -> None:
    shown = settings(COMPONENTS)
    assert shown == {
        "X": "4.7 kΩ ± 5 %",
        "Rs": "1.0 kΩ ± 5 %",
        "PS": "30 V",
        "DMM1": "20 V range ± 0.5 %",
        "DMM2": "20 mA range ± 0.8 %",
    }


def test_a_parts_list_of_three_rows_or_more_is_no_table_to_fit() -> None:
    text = "name,value,unit,uncertainty\npH,7,pH,0.1\nTemp,20,°C,0.5\nflow,1.5,L/min,0.1\n"
    assert settings(text) == {"pH": "7 pH ± 0.1 pH", "Temp": "20 °C ± 0.5 °C",
                              "flow": "1.5 L/min ± 0.1 L/min"}  # fmt: skip


def test_a_dimension_column_beside_a_uom_column_names_the_quantities() -> None:
    """`dimension,value,uncertainty,uom` (Catania's inclined plane, tests/data/real/repeats/
    catania_incline_parts.csv): `dimension` holds h1, m1, …, `uom` their UN/CEFACT units."""
    shown = settings("dimension,value,uncertainty,uom\nh2,0.412,0.001,MTR\nm1,15.19,0.01,GRM\n"
                     "m2,98.82,0.01,GRM\n")  # fmt: skip
    assert shown == {"h2": "0.412 m ± 0.001 m", "m1": "15.19 g ± 0.01 g", "m2": "98.82 g ± 0.01 g"}


def test_a_german_parts_list_with_semicolons_and_decimal_commas() -> None:
    text = "Bauteil;Nennwert;Einheit;Toleranz_%\nR1;220;Ohm;1\nC1;4,7;uF;10\nL1;10;mH;5\n"
    shown = settings(text)
    assert shown["R1"] == "220 Ω ± 1 %"
    assert shown["C1"].endswith("µF ± 10 %")


def test_readings_in_long_form_stay_a_table() -> None:
    """A logger's long table names its sensors again and again: readings, not parts."""
    rows = "".join(f"{i},T1,{20 + i},°C\n{i},T2,{21 + i},°C\n" for i in range(6))
    grid, _ = text_grid("t_s,sensor,value,unit\n" + rows, [])
    assert part_rows(grid) is None


DATASHEET = """\
NTC thermistor, 10 kΩ, leaded, epoxy coated  (excerpt)
R25 = 10.0 kΩ ± 1 %
B25/85 = 3977 K ± 0.75 %
Operating temperature -40 ... +125 °C
Dissipation constant 1.5 mW/K (still air)
"""


def test_a_datasheet_excerpt_reads_name_value_unit_tolerance() -> None:
    grid, _ = text_grid(DATASHEET, [])
    _, rows, _ = tables_in(grid)
    by_name = {row.name: row for row in rows}
    assert by_name["B25/85"].number == 3977 and by_name["B25/85"].unit == "K"
    assert by_name["B25/85"].shown() == "3977 K ± 0.75 %"
    assert by_name["Operating temperature"].shown() == "-40 ... +125 °C"
    assert by_name["Dissipation constant"].shown() == "1.5 mW/K"
    assert by_name["Dissipation constant"].comment == "still air"
    assert not any(row.name in ("3977", "±") for row in rows)


@pytest.mark.parametrize(
    ("value", "number", "unit", "tolerance"),
    [
        ("3977 K ± 0.75 %", 3977.0, "K", "0.75 %"),
        ("10 kOhm +/- 1 %", 10.0, "kΩ", "1 %"),
        ("1.200 m ± 1 mm", 1.2, "m", "1 mm"),
        ("−40…+125 °C", None, "°C", ""),
    ],
)
def test_stated_values(value: str, number: float | None, unit: str, tolerance: str) -> None:
    stated = read_stated(value)
    assert stated is not None
    assert (stated.number, stated.unit, stated.tolerance) == (number, unit, tolerance)


def test_a_sentence_is_no_setting() -> None:
    assert named_line("Repeat the measurement 5 times") is None
    assert metadata_of_line("Dissipation constant 1.5 mW/K (still air)")[0].unit == "mW/K"


def test_a_temperature_key_named_theta_in_c_is_in_degrees_celsius() -> None:
    """`theta0_C: 22.0` (a German handout's ϑ0, Versuch W3's parameter.yaml) is 22 °C, not
    22 coulombs."""
    from labscribe.tools.columns.units import split_unit

    assert split_unit("theta0_C") == ("theta0", "°C")
