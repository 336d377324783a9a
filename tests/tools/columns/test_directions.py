"""Columns of one quantity read in two directions are named as a pair (tools.columns.directions)."""

from __future__ import annotations

import pytest

from labscribe.tools.columns.column import Column
from labscribe.tools.columns.directions import direction_pairs


def _columns(*names: str) -> list[Column]:
    return [Column(key=n, header=n, name=n, unit="", count=5) for n in names]


@pytest.mark.parametrize(
    ("names", "said"),
    [
        (("Temperatur", "Anzeige_auf", "Anzeige_ab"), "up and down"),
        (("温度t", "升温R1", "降温R2"), "heating and cooling"),
        (("B", "V_up", "V_down"), "up and down"),
        (("T", "L heating", "L cooling"), "heating and cooling"),
        (("V", "I forward", "I reverse"), "forward and reverse"),
        (("T", "R montée", "R descente"), "up and down"),
    ],
)
def test_direction_pairs_name_one_quantity_in_two_directions(
    names: tuple[str, ...], said: str
) -> None:
    [(first, second, found)] = direction_pairs(_columns(*names))
    assert (first.name, second.name, found) == (names[1], names[2], said)


@pytest.mark.parametrize(
    "names",
    [("t", "R1", "R2"), ("x", "up", "U"), ("T", "V_up", "I_down"), ("f", "A_up", "B_ab")],
)
def test_direction_pairs_need_one_stem_and_opposite_words(names: tuple[str, ...]) -> None:
    assert direction_pairs(_columns(*names)) == []
