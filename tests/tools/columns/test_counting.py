"""Columns that only number the rows are never a variable; series labels are told apart by
their values (tools.columns.counting, tools.columns.variable_column,
tools.columns.row_numbers). The real files are R datasets as Rdatasets writes them
(tests/data/real/SOURCES.md)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from labscribe.tools.analysis.folder import analyse
from labscribe.tools.assignment.requested import Request
from labscribe.tools.columns.counting import counts_rows, series_label
from labscribe.tools.columns.row_numbers import restore_named
from labscribe.tools.formats.tables import read_data
from labscribe.tools.tool import Folder

REAL = Path(__file__).parents[2] / "data" / "real"
ONE_TO_TEN = np.arange(1, 11, dtype=float)


@pytest.mark.parametrize(
    ("header", "values"),
    [
        ("rownames", ONE_TO_TEN),
        ("Unnamed: 0", ONE_TO_TEN - 1),
        ("rownames", np.array([3.0, 7, 12, 40])),  # a subset's row names still number rows
        ("trial", ONE_TO_TEN),
        ("No.", ONE_TO_TEN),
        ("Nr.", ONE_TO_TEN + 4),
        ("#", ONE_TO_TEN),
        ("Messung Nr.", ONE_TO_TEN),
        ("Run", np.tile(np.arange(1.0, 6), 3)),  # counted again in each series (morley)
        ("序号", ONE_TO_TEN),
        ("次数", ONE_TO_TEN),
        ("rep", np.arange(1.0, 6)),  # a repeat's number beside probe_1..probe_5
        ("n°", ONE_TO_TEN),  # French: nº written with the degree sign
        ("N°", ONE_TO_TEN),  # a French logger's header (`N°;heure;date;T1 (degrés C)`)
        ("Nº", ONE_TO_TEN),
        ("Essai", ONE_TO_TEN),
        ("tree", np.arange(1.0, 32)),  # the numbered tree a row describes
        ("medição", ONE_TO_TEN),  # a caliper's ten readings (Portuguese)
        ("medicao", ONE_TO_TEN),  # the same written without accents
        ("pesagem", np.arange(1.0, 7)),  # six weighings of one cylinder
        ("Lectura", np.arange(1.0, 4)),  # three readings of one sample (Spanish)
        ("lettura", ONE_TO_TEN),
        ("número de medida", ONE_TO_TEN),
        ("n.º", ONE_TO_TEN),  # Portuguese `número` abbreviated with a stop
        ("复孔", np.tile(np.arange(1.0, 4), 4)),  # the replicate well, 1..3 at each dose
        ("step", ONE_TO_TEN - 1),  # a protocol's step beside the current set at each
        # a sensor's events, 1..100 at each of ten positions, seven dropped in one of them
        (
            "event",
            np.concatenate(
                [*[np.arange(1.0, 101)] * 9, np.delete(np.arange(1.0, 108), range(40, 47))]
            ),
        ),
    ],
)
def test_counts_rows_knows_a_row_number(header: str, values: np.ndarray) -> None:
    assert counts_rows(header, values, first=True, named_others=True)


@pytest.mark.parametrize(
    ("header", "values"),
    [
        ("m", np.arange(1.0, 6)),  # a diffraction order
        ("N", ONE_TO_TEN),  # a fringe count
        ("n", ONE_TO_TEN),  # turns of a coil
        ("number of turns", ONE_TO_TEN),
        ("trial (s)", ONE_TO_TEN),  # a unit makes it a quantity
        ("trial", ONE_TO_TEN / 2),
        ("trial", np.array([1.0, 2, 4, 8])),
        ("count", ONE_TO_TEN),  # a counter's counts
        ("n", ONE_TO_TEN),  # the letter alone stays a quantity, degree sign or not
        ("cycle number", np.arange(0.0, 100, 5)),
        ("step", np.array([1.0, 2, 3, 5, 6, 7, 9, 10])),  # a count that skips a quarter
    ],
)
def test_counts_rows_keeps_an_integer_quantity(header: str, values: np.ndarray) -> None:
    assert not counts_rows(header, values, first=True, named_others=True)


def test_counts_rows_takes_an_unnamed_column_only_first_beside_named_ones() -> None:
    assert counts_rows("", ONE_TO_TEN, first=True, named_others=True)
    assert not counts_rows("", ONE_TO_TEN, first=True, named_others=False)  # no header at all
    assert not counts_rows("", ONE_TO_TEN, first=False, named_others=True)
    # pandas writes a filtered frame's index unnamed, from the first row it kept (12, 13, ...)
    assert counts_rows("", ONE_TO_TEN + 11, first=True, named_others=True)
    assert not counts_rows("", ONE_TO_TEN * 2, first=True, named_others=True)  # steps of two


def test_series_label_is_a_repeated_value_not_a_count() -> None:
    experiments = np.repeat(np.arange(1.0, 6), 20)
    assert series_label("Expt", experiments)
    assert series_label("series", np.repeat([1.0, 2, 3], 4))
    assert not series_label("Run", np.tile(np.arange(1.0, 21), 5))
    assert not series_label("Expt", ONE_TO_TEN)
    assert not series_label("Speed", experiments)


def test_read_data_sets_aside_r_row_names_and_a_run_count_of_michelsons_data() -> None:
    [table] = read_data(Folder(REAL / "repeats"), "morley.csv").tables
    summary = table.summary
    assert summary.x is None  # repeats of one quantity, labelled by Expt
    assert [c.name for c in summary.columns] == ["Expt", "Speed"]
    assert [c.name for c in summary.row_numbers] == ["rownames", "Run"]
    assert "rownames only numbers the rows (1 to 100): not a variable" in summary.notes


def test_read_data_never_takes_a_trial_number_for_the_variable(tmp_path: Path) -> None:
    (tmp_path / "stopwatch.csv").write_text(
        "trial,T (s)\n" + "".join(f"{i},{2 + 0.01 * (-1) ** i}\n" for i in range(1, 11))
    )
    [table] = read_data(Folder(tmp_path), "stopwatch.csv").tables
    assert table.summary.x is None
    assert [c.name for c in table.summary.columns] == ["T"]


def test_read_data_sets_aside_pandas_index_and_fits_against_the_swept_column(
    tmp_path: Path,
) -> None:
    rows = "".join(f"{i},{0.5 * i:.1f},{0.1 * i * i:.3f}\n" for i in range(8))
    (tmp_path / "iv.csv").write_text(",U (V),I (mA)\n" + rows)  # DataFrame.to_csv's index
    [table] = read_data(Folder(tmp_path), "iv.csv").tables
    assert table.summary.x == "U"
    assert [c.name for c in table.summary.columns] == ["U", "I"]


def test_read_data_keeps_a_diffraction_order_as_the_variable(tmp_path: Path) -> None:
    (tmp_path / "grating.csv").write_text("m,x (mm)\n1,12.1\n2,24.3\n3,36.2\n4,48.5\n")
    [table] = read_data(Folder(tmp_path), "grating.csv").tables
    assert table.summary.x == "m" and not table.summary.row_numbers


def test_read_data_keeps_a_lap_number_when_the_other_column_rises_throughout(
    tmp_path: Path,
) -> None:
    # repeats never rise throughout: these are times against the lap's number
    (tmp_path / "laps.csv").write_text("No.,t (s)\n1,2.01\n2,4.03\n3,5.98\n4,8.02\n5,10.01\n")
    [table] = read_data(Folder(tmp_path), "laps.csv").tables
    assert table.summary.x == "No." and not table.summary.row_numbers


def test_restore_named_puts_back_a_row_number_the_formula_names(tmp_path: Path) -> None:
    (tmp_path / "pulses.csv").write_text("Nr,U (V)\n1,2.01\n2,1.98\n3,2.03\n4,2.00\n5,1.99\n")
    tables = read_data(Folder(tmp_path), "pulses.csv").tables
    assert tables[0].summary.x is None
    request = Request(task="Fit U = a + b*Nr.", number=1, formula="U = a + b*Nr")
    [restored] = restore_named(tables, [request])
    assert restored.summary.x == "Nr" and not restored.summary.row_numbers
    assert [c.name for c in restored.summary.columns] == ["Nr", "U"]


def test_series_label_takes_two_blocks_of_whole_numbers_whatever_the_name() -> None:
    # Cavendish (1798): the first six determinations with a softer torsion wire (`fil` 1)
    wire = np.array([1.0] * 6 + [2.0] * 23)
    assert series_label("fil", wire)
    assert series_label("Draht", wire)
    assert not series_label("fil", np.array([1.0, 2] * 10))  # alternating: no two blocks
    assert not series_label("V", np.repeat([1.0, 2, 3], 5))  # three settings: a variable
    assert not series_label("fil", np.array([1.0, 1, 2, 2]))  # too few rows to tell


def test_grid_of_repeats_against_a_repeat_number_has_no_variable(tmp_path: Path) -> None:
    """NIST StRD's SiRstv (certified F = 1.18046237440255), laid out as a lab writes it: one
    column per probe, a row per repeat; probe 4's five readings fall throughout by chance."""
    values = _sirstv()
    lines = ["rep\t" + "\t".join(f"probe_{i}" for i in range(1, 6))]
    lines += [f"{r + 1}\t" + "\t".join(f"{v:.4f}" for v in values[:, r]) for r in range(5)]
    (tmp_path / "grid.txt").write_text("\n".join(lines) + "\n")
    [table] = read_data(Folder(tmp_path), "grid.txt").tables
    assert table.summary.x is None
    assert [c.name for c in table.summary.row_numbers] == ["rep"]


def _sirstv() -> np.ndarray:
    """The 25 resistivities of NIST's SiRstv as scipy ships them, by instrument (5 × 5)."""
    import scipy

    path = Path(scipy.__file__).parent / "stats" / "tests" / "data" / "nist_anova" / "SiRstv.dat"
    rows = [line.split() for line in path.read_text().splitlines()[60:]]
    values = [float(r[1]) for r in rows if len(r) == 2]
    return np.array(values).reshape(5, 5)


def test_a_headerless_column_the_handout_calls_lp_numbers_the_rows(tmp_path: Path) -> None:
    """A Polish handout lists a headerless file's columns, the first `Lp.` (liczba
    porządkowa): it counts the rows and is no variable; the next column named is."""
    rows = [f"{i},{16 if i < 7 else 24},{80 + 15 * i},{20 + i}" for i in range(1, 13)]
    (tmp_path / "wyniki.csv").write_text("\n".join(rows) + "\n")
    (tmp_path / "instrukcja.md").write_text(
        "# Busola stycznych\n\nPlik `wyniki.csv` (bez nagłówka). Kolumny: Lp.; liczba zwojów N; "
        "prąd I [mA]; kąt wychylenia [°].\n\n## Zadania\n1. Wykonać wykres kąta od prądu I.\n"
    )
    [table] = analyse(Folder(tmp_path)).tables
    assert [c.name for c in table.row_numbers] == ["Lp"]
    assert "Lp" not in [c.name for c in table.columns]
    assert table.column(table.x or "").name == "I"
