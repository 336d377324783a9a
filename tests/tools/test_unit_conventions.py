"""Units as labs and their tools write them beyond SI symbols: superscript exponents
(`a/(m·s⁻²)`, the axis labels of Chinese physics texts), the tonne beside a mass's name
(`Weight (t)`, `Rec Wt (T)` in exported CSV headers), a scale's own unit (`(punti)`,
`Skt`), and a one-column file's comment header as numpy.savetxt writes it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from labscribe.tools.base import Folder
from labscribe.tools.header_rows import one_column_heading
from labscribe.tools.tables import read_tables
from labscribe.tools.units import product, split_unit


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        # a Chinese textbook's axis labels (plotting scripts in public repositories)
        ("a/(m·s⁻²)", ("a", "m·s^-2")),
        ("σ_g/(m·s⁻²)", ("σ_g", "m·s^-2")),
        ("v/(m·s⁻¹)", ("v", "m·s^-1")),
        ("wavenumber [cm⁻¹]", ("wavenumber", "cm^-1")),
        ("1/m / kg⁻¹", ("1/m", "kg^-1")),
        # the tonne beside a mass, a load or a weight; "T" is no tesla there
        ("weight (t)", ("weight", "t")),
        ("Weight (t)", ("Weight", "t")),
        ("Rec Wt (T)", ("Rec Wt", "t")),
        ("Last in t", ("Last", "t")),
        ("Masse/t", ("Masse", "t")),
        # a scale's own unit
        ("horizontal distance d (punti)", ("horizontal distance d", "punti")),
        ("Ausschlag (Skt)", ("Ausschlag", "Skt")),
    ],
)
def test_split_unit_reads_units_as_labs_write_them(header: str, expected: tuple[str, str]) -> None:
    assert split_unit(header) == expected


@pytest.mark.parametrize("header", ["x/t", "Zeit (t)", "time (t)", "B (T)", "Field (T)"])
def test_a_t_beside_anything_but_a_mass_stays_as_it_was(header: str) -> None:
    unit = split_unit(header)[1]
    assert unit != "t"


def test_a_slope_against_tonnes_is_per_tonne() -> None:
    assert product("mm", split_unit("weight (t)")[1]) == "mm/t"
    assert product("", split_unit("k [cm⁻¹]")[1], -1) == "1/cm"  # read as an inverse


def test_a_one_column_comment_header_gives_its_name_and_unit() -> None:
    assert one_column_heading(["t", "[s]"]) == "t [s]"
    assert one_column_heading(["Free fall of a ball, h = 1.2 m", "t", "[s]"]) == "t [s]"
    assert one_column_heading(["t [s]"]) == "t [s]"
    assert one_column_heading(["[s]"]) == "[s]"
    assert one_column_heading(["The times were taken by hand."]) is None
    assert one_column_heading(["n = 20"]) is None


def test_numpy_savetxts_one_column_header_is_read_with_its_unit(tmp_path: Path) -> None:
    times = np.array([0.45, 0.54, 0.50, 0.47, 0.49, 0.52])
    np.savetxt(tmp_path / "times.txt", times, fmt="%.2f", header="fall times, hand-timed\nt\n[s]")
    (table,) = read_tables(Folder(tmp_path), "times.txt")
    column = table.summary.columns[0]
    assert (column.name, column.unit, table.summary.rows) == ("t", "s", 6)
