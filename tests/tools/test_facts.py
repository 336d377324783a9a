from pathlib import Path

from labscribe.guards.numbers import check_numbers
from labscribe.tools.facts import data_facts


def make_table(folder: Path) -> None:
    rows = "\n".join(
        f"{i},{2.5 * i + 1 + (0.01 if i % 2 else -0.01)},{(i - 6) ** 2}" for i in range(13)
    )
    (folder / "ohm.csv").write_text(f"current_mA,voltage_V,ripple\n{rows}\n")


def facts_by_label(folder: Path) -> dict[str, float]:
    return {fact.label: fact.value for fact in data_facts(folder)}


def test_facts_of_a_table(tmp_path: Path) -> None:
    make_table(tmp_path)
    facts = facts_by_label(tmp_path)
    assert facts["rows of ohm.csv"] == 13
    assert facts["maximum of voltage_V in ohm.csv"] == 30.99
    assert facts["current_mA where voltage_V peaks in ohm.csv"] == 12
    assert facts["minimum of ripple in ohm.csv"] == 0
    slope = facts["slope of a straight-line fit of voltage_V against current_mA in ohm.csv"]
    assert abs(slope - 2.5) < 0.01


def test_a_fitted_constant_is_checked(tmp_path: Path) -> None:
    make_table(tmp_path)
    facts = data_facts(tmp_path)
    _, right = check_numbers("A straight-line fit gives a slope of 2.50 for the voltage.", facts)
    _, wrong = check_numbers("A straight-line fit gives a slope of 3.10 for the voltage.", facts)
    assert right == []
    assert [m.fact for m in wrong] == [
        "slope of a straight-line fit of voltage_V against current_mA in ohm.csv"
    ]


def test_a_table_without_a_header_gives_no_facts(tmp_path: Path) -> None:
    (tmp_path / "raw.csv").write_text("1,2\n3,4\n")
    assert data_facts(tmp_path) == []


def test_a_table_with_text_cells_gives_no_facts(tmp_path: Path) -> None:
    (tmp_path / "log.csv").write_text("time,event\n1,start\n2,stop\n")
    assert data_facts(tmp_path) == []
