"""Units as labs and their tools write them beyond SI symbols: superscript exponents
(`a/(m·s⁻²)`, the axis labels of Chinese physics texts), the tonne beside a mass's name
(`Weight (t)`, `Rec Wt (T)` in exported CSV headers), a scale's own unit (`(punti)`,
`Skt`), a one-column file's comment header as numpy.savetxt writes it (and such a file
listed as data, not as a document), and a scope's setting above its names."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from labscribe.tools.columns.units import product, split_unit
from labscribe.tools.explorer.scanning import scan_folder, with_tables
from labscribe.tools.formats.header_rows import one_column_heading
from labscribe.tools.formats.tables import read_data
from labscribe.tools.tool import Folder


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
    (table,) = read_data(Folder(tmp_path), "times.txt").tables
    column = table.summary.columns[0]
    assert (column.name, column.unit, table.summary.rows) == ("t", "s", 6)


SCOPE = (
    "DS1000Z,CSV export\n"
    "Source,CH2\n"
    "Vertical scale,0.50 V/div\n"
    "Sample interval,2.000000e-05\n"
    "Trigger,CH2 falling 1.20 V\n"
    "\n"
    "Time(s),CH2(V)\n"
)


def test_a_setting_above_a_blank_line_is_no_first_word_of_the_names(tmp_path: Path) -> None:
    # a scope's export: its settings, a blank line, then the names; the trigger's two cells
    # once became the first words of names over two rows (`Trigger Time`)
    rows = "".join(f"{i * 2e-5:.6e},{3.0 * np.exp(-i / 20):.3f}\n" for i in range(40))
    (tmp_path / "scope.csv").write_text(SCOPE + rows)
    (table,) = read_data(Folder(tmp_path), "scope.csv").tables
    assert [(c.name, c.unit) for c in table.summary.columns] == [("Time", "s"), ("CH2", "V")]


def test_names_over_two_rows_without_a_blank_between_still_join(tmp_path: Path) -> None:
    # PerkinElmer Pyris' `Unsubtracted` over `Weight`: names over two rows, no blank between
    text = "Sample,Unsubtracted\nTemperature,Weight\n" + "".join(
        f"{20 + i},{10 - 0.1 * i:.2f}\n" for i in range(10)
    )
    (tmp_path / "tga.csv").write_text(text)
    (table,) = read_data(Folder(tmp_path), "tga.csv").tables
    assert [c.name for c in table.summary.columns] == ["Sample Temperature", "Unsubtracted Weight"]


def test_the_inventory_lists_a_text_file_read_as_a_table_under_data(tmp_path: Path) -> None:
    (tmp_path / "brief.txt").write_text("Lab brief: time the ball twenty times.\n")
    np.savetxt(tmp_path / "times.txt", np.array([0.45, 0.54, 0.50, 0.47]), header="t\n[s]")
    scan = scan_folder(tmp_path).model_dump()
    listed = with_tables(scan, {"times.txt"})["buckets"]
    assert (listed["documents"]["count"], listed["documents"]["files"]) == (1, ["brief.txt"])
    assert (listed["data"]["count"], listed["data"]["files"]) == (1, ["times.txt"])
    assert scan["buckets"]["documents"]["count"] == 2  # the scan itself is left as it was
    assert with_tables(scan, set()) == scan


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        # a calorimetry sheet (TU Dortmund V201): six subscripts of two symbols, none a unit
        ("#m_p, m_d, m_dg, T_p, T_d, T_m",
         [("m_p", ""), ("m_d", ""), ("m_dg", ""), ("T_p", ""), ("T_d", ""), ("T_m", "")]),
        # one quantity in two units, and names whose suffixes are all units
        ("temp_C, temp_K", [("temp", "°C"), ("temp", "K")]),
        ("t_s, signal_V", [("t", "s"), ("signal", "V")]),
        # KIT's reversible pendulum: the unit once, after the last of six numbered runs
        ("h in cm,M1f,M1b,M2f,M2b,M3f,M3b in ms",
         [("h", "cm"), *((f"M{i}{e}", "ms") for i in (1, 2, 3) for e in "fb")]),
        ("n1, x2 [m]", [("n1", ""), ("x2", "m")]),
    ],
)  # fmt: skip
def test_subscripts_and_a_unit_written_once_for_numbered_runs(
    tmp_path: Path, header: str, expected: list[tuple[str, str]]
) -> None:
    rows = "\n".join(", ".join(f"{(r + 1) * (c + 2)}.5" for c in range(len(expected)))
                     for r in range(8))  # fmt: skip
    (tmp_path / "a.csv").write_text(f"{header}\n{rows}\n")
    [table] = read_data(Folder(tmp_path), "a.csv").tables
    assert [(c.name, c.unit) for c in table.summary.columns] == expected
