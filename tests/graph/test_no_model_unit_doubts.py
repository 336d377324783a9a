"""`labscribe run --no-model` on a lamp's I–V curve whose voltmeter column is headed in
milliamperes (Università di Padova, LabFis3 E1, tests/data/real/conventions/labfis3_*): a
column whose name names one quantity and whose unit another gives no formula's symbol by
its unit, and the report says so."""

from __future__ import annotations

from pathlib import Path

from test_no_model_checklist import REAL, checklist, plain, report_for

CONVENTIONS = REAL / "conventions"


def test_a_column_named_a_voltage_but_headed_in_ma_is_no_current(tmp_path: Path) -> None:
    """Task 1 asks R = V/I of each resistor. Before, it was answered by 'R = 1.0297 ±
    0.0061 kΩ, whose line gives R = 1/slope', from the lamp's POTENZIALE [mA] taken as a
    current against the generator's VDC [V]: a resistance no resistor has."""
    report = plain(report_for(
        tmp_path,
        ("assignment.md", (CONVENTIONS / "labfis3_e1_assignment.md").read_text()),
        (CONVENTIONS / "labfis3_lampadina_monte.csv", "lampadina_monte.csv"),
        (CONVENTIONS / "labfis3_resistenze.csv", "resistenze.csv"),
    ))  # fmt: skip
    first = checklist(report).split("\\midrule", 1)[1].split("\n2 & ", 1)[0]
    assert "1/slope" not in first and "POTENZIALE" not in first, first
    assert (
        "lampadina_monte.csv: POTENZIALE is headed in mA, a current's unit, while its name "
        "says a voltage: no formula's symbol is matched to it by its unit; check which of the "
        "two is wrong" in report
    )
    assert "CORRENTE is headed" not in report  # a current in mA is what it says
