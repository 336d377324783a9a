"""tools.columns.named_quantities: a quantity a task asks for by its name alone is answered only by
a value that names it or is in a unit of its dimension."""

from __future__ import annotations

from labscribe.tools.columns.named_quantities import unnamed_quantities

POWER_TASK = ("Find the maximum current through each resistor and the power dissipated at "
              "20 V. Was the power rating respected?")  # fmt: skip


def test_a_quantity_no_value_holds_is_named_as_the_task_names_it() -> None:
    readings = "The largest current (1k) in the data is 20.08 mA at voltage = 20 V"
    assert unnamed_quantities(POWER_TASK, readings) == ["the power dissipated at 20 V"]


def test_a_value_in_a_unit_of_the_quantity_answers_it() -> None:
    task = "Determine the resistance of each resistor."
    assert unnamed_quantities(task, "R = 0.9950 ± 0.0014 kΩ (from U = R·I)") == []
    assert unnamed_quantities(task, "slope = 1.005 ± 0.001 mA/V") == [
        "the resistance of each resistor"
    ]
    assert unnamed_quantities("Determine the acceleration.", "g = 9.81 ± 0.02 m/s^2") == []


def test_a_quantity_named_with_its_symbol_is_left_to_the_symbols_row() -> None:
    assert unnamed_quantities("Determine the period T of the swing.", "") == []
