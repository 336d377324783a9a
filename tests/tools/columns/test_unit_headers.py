"""tools.columns.unit_headers: a column headed by its unit alone (`mA (1k)`, `°C`) is its unit's
quantity and carries the unit; a lone letter (`V`, `m`) only where every column is headed
by a unit; a difference's name (`dV`) is no deci-unit."""

from __future__ import annotations

from pathlib import Path

from labscribe.tools.columns.unit_headers import named_by_units
from tests.tools.formats.test_tables import one_table


def spelled(*headers: str) -> list[tuple[str, str, str]]:
    return [(h, h, "") for h in headers]


def test_units_alone_name_their_quantities_and_keep_their_labels() -> None:
    assert named_by_units(spelled("V", "mA (1k)", "mA (2k2)")) == [
        ("V", "voltage", "V"), ("mA (1k)", "current (1k)", "mA"),
        ("mA (2k2)", "current (2k2)", "mA"),
    ]  # fmt: skip
    assert named_by_units(spelled("Hz", "mV", "ms")) == [
        ("Hz", "frequency", "Hz"), ("mV", "voltage", "mV"), ("ms", "time", "ms"),
    ]  # fmt: skip


def test_a_lone_letter_beside_a_symbol_stays_a_symbol() -> None:
    assert named_by_units(spelled("x", "Hz", "m"))[2] == ("m", "m", "")
    assert named_by_units(spelled("t", "V", "dV")) == spelled("t", "V", "dV")


def test_a_unit_written_as_a_word_keeps_its_name_and_gives_its_unit() -> None:
    assert named_by_units(spelled("Volts", "Amps")) == [("Volts", "Volts", "V"),
                                                        ("Amps", "Amps", "A")]  # fmt: skip


def test_a_stated_unit_is_kept(tmp_path: Path) -> None:
    (tmp_path / "iv.csv").write_text("V,mA (1k)\n0,0\n1,1.01\n2,1.99\n3,3.02\n")
    columns = one_table(tmp_path, "iv.csv").summary.columns
    assert [(c.name, c.unit) for c in columns] == [("voltage", "V"), ("current (1k)", "mA")]
