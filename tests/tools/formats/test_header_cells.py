"""Header cells as labs part them (tools.formats.header_cells): a separator of the header's own,
names of several words closed by their unit, rows labelled as names, symbols and units.
The real files are a student's numpy.savetxt tables (tests/data/real/labsigma, SOURCES.md)."""

from pathlib import Path

import pytest

from labscribe.tools.formats.header_cells import labelled_rows, names_closed_by_units, own_cells
from labscribe.tools.formats.tables import read_data
from labscribe.tools.tool import Folder

REAL = Path(__file__).resolve().parents[2] / "data" / "real" / "labsigma"


def spelled(folder: Path, name: str) -> list[tuple[str, str]]:
    tables = read_data(Folder(folder), name).tables
    assert len(tables) == 1
    return [(c.name, c.unit) for c in tables[0].summary.columns]


def test_own_cells_part_a_header_by_its_bars_or_tabs() -> None:
    assert own_cells("Wavelength (nm) | Stopping_Voltage (Vs) | Uncertainty (Vs)", 3) == [
        "Wavelength (nm)", "Stopping_Voltage (Vs)", "Uncertainty (Vs)"
    ]  # fmt: skip
    assert own_cells("| t (s) | x (m) |", 2) == ["t (s)", "x (m)"]  # a Markdown row
    tabbed = own_cells("Time [s]\tIntensity [arb. units]", 2)
    assert tabbed == ["Time [s]", "Intensity [arb. units]"]
    assert own_cells("a | b | c", 2) is None  # three names over two columns: not this header
    # blanks over comma-separated data (TU Dortmund V702's `# t[s]   N[Impulse]`)
    assert own_cells(" t[s]   N[Impulse]", 2) == ["t[s]", "N[Impulse]"]
    assert own_cells("t[s] N[Impulse]", 2) == ["t[s]", "N[Impulse]"]
    assert own_cells("Zerfall von Rhodium", 2) is None


@pytest.mark.parametrize(
    ("words", "names"),
    [
        (["Inverse", "Wavelength[nm^-1]", "Slope", "dSlope"],
         ["Inverse Wavelength[nm^-1]", "Slope", "dSlope"]),
        (["Slope", "dSlope", "Inverse", "Wavelength[nm^-1]"],
         ["Slope", "dSlope", "Inverse Wavelength[nm^-1]"]),
        (["Elapsed", "time", "(s)", "Bath", "temperature", "(K)"], None),  # no unit attached
        (["Elapsed", "time(s)", "Bath", "temperature(K)"],
         ["Elapsed time(s)", "Bath temperature(K)"]),
        (["Data", "recorded", "by", "group", "3"], None),
    ],
)  # fmt: skip
def test_names_closed_by_units(words: list[str], names: list[str] | None) -> None:
    assert names_closed_by_units(words, 3 if names is None or len(names) == 3 else 2) == names


def test_names_closed_by_units_refuses_a_grouping_that_is_not_the_only_one() -> None:
    # `a b[s] c d[m]` over three columns: `a b[s]` or `c d[m]` may be the name of two words
    assert names_closed_by_units(["a", "b[s]", "c", "d[m]"], 3) is None


def test_labelled_rows_give_names_and_units() -> None:
    rows = [["NAME", "Starting Angle", "5 Periods of Swing"], ["VAR", "\\theta", "5T"],
            ["UNIT", "rad", "s"]]  # fmt: skip
    read = labelled_rows(rows, 2)
    assert read is not None
    assert (read.names, read.units, read.rows) == (
        ["Starting Angle", "5 Periods of Swing"], ["rad", "s"], [0, 1, 2]
    )  # fmt: skip


def test_labelled_rows_take_symbols_where_no_names_are_written() -> None:
    read = labelled_rows([["Symbol:", "t", "U"], ["Unit:", "s", "mV"]], 2)
    assert read is not None and (read.names, read.units) == (["t", "U"], ["s", "mV"])


def test_a_header_whose_first_name_reads_like_a_label_is_names() -> None:
    assert labelled_rows([["Unit", "Voltage", "Current"]], 3) is None


def test_comment_rows_labelled_name_var_unit(tmp_path: Path) -> None:
    (tmp_path / "swing.txt").write_text(
        "#NAME\tStarting Angle\t5 Periods of Swing\n#VAR\t\\theta\t5T\n#UNIT\tdeg\ts\n"
        "0\t6.82\n0\t6.74\n40.2\t6.07\n40.2\t5.99\n"
    )
    assert spelled(tmp_path, "swing.txt") == [
        ("Starting Angle", "deg"), ("5 Periods of Swing", "s")
    ]  # fmt: skip


def test_origin_label_rows_above_the_data(tmp_path: Path) -> None:
    """Origin's worksheet label rows as a copy with their labels writes them: Long Name,
    Units, Comments, each over the columns after its label; comments name nothing."""
    (tmp_path / "sheet.txt").write_text(
        "Long Name\tTime\tCell Voltage\nUnits\ts\tmV\nComments\trun 1\tsample B\n"
        "\t0\t12.1\n\t1\t12.9\n\t2\t13.6\n\t3\t14.2\n"
    )
    assert spelled(tmp_path, "sheet.txt") == [("Time", "s"), ("Cell Voltage", "mV")]


def test_comment_header_parted_by_bars_over_blank_separated_data(tmp_path: Path) -> None:
    (tmp_path / "v.txt").write_text(
        "# Frequency (Hz) | Peak Voltage (V) | Phase (deg)\n10 1.02 0.5\n20 1.01 1.1\n40 0.98 2.0\n"
    )
    assert spelled(tmp_path, "v.txt") == [
        ("Frequency", "Hz"), ("Peak Voltage", "V"), ("Phase", "deg")
    ]  # fmt: skip


def test_header_parted_by_tabs_over_blank_separated_data(tmp_path: Path) -> None:
    """`name [unit]` cells parted by tabs, a blank inside a unit, over numbers parted by
    blanks (a spreadsheet's header pasted over numpy.savetxt's rows)."""
    (tmp_path / "spec.txt").write_text(
        "Wavelength [nm]\tIntensity [arb. units]\n400 12\n410 15\n420 19\n"
    )
    assert spelled(tmp_path, "spec.txt") == [("Wavelength", "nm"), ("Intensity", "arb. units")]


def test_real_student_tables_with_comment_headers() -> None:
    assert spelled(REAL, "stop_voltages.txt") == [
        ("Wavelength", "nm"), ("Stopping_Voltage (Vs)", ""), ("Uncertainty (Vs)", "")
    ]  # fmt: skip
    assert spelled(REAL, "week_2_slopes.txt") == [
        ("Inverse Wavelength", "nm^-1"), ("Slope", ""), ("dSlope", "")
    ]  # fmt: skip
    assert spelled(REAL, "angle_vs_period.txt") == [
        ("Starting Angle", "rad"), ("5 Periods of Swing", "s")
    ]  # fmt: skip


def test_an_instruments_banner_names_no_column(tmp_path: Path) -> None:
    """A tensiometer's banner (a real export's first lines, eval of Czech du Noüy files):
    its date and time, parted by a comma, are no names of the two columns below."""
    (tmp_path / "ring.txt").write_text(
        "#" + "=" * 60 + "\n# Created with Tensionmeter 1.0 on 16.04.2024, 18:40:37.\n"
        "#" + "=" * 60 + "\n 0.000000E+0000  1.177200E-0001\n 4.840000E-0001  1.177200E-0001\n"
        " 9.690000E-0001  1.177200E-0001\n 1.438000E+0000  6.180300E-0001\n"
    )
    assert spelled(tmp_path, "ring.txt") == [("column 1", ""), ("column 2", "")]
