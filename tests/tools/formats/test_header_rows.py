"""Headers as labs write them (tools.formats.header_rows): behind a comment mark, names of several
words over blank-separated columns, one name short of the data (R's write.table)."""

from pathlib import Path

import pytest

from labscribe.tools.formats.fixed_width import names_by_position
from labscribe.tools.formats.tables import Table, read_data
from labscribe.tools.tool import Folder

REAL = Path(__file__).resolve().parents[2] / "data" / "real" / "conventions"


def spelled(folder: Path, name: str) -> list[tuple[str, str, str]]:
    tables = read_data(Folder(folder), name).tables
    assert len(tables) == 1
    return [(c.header, c.name, c.unit) for c in tables[0].summary.columns]


def one(folder: Path, name: str) -> Table:
    tables = read_data(Folder(folder), name).tables
    assert len(tables) == 1
    return tables[0]


def test_comment_header_names_the_columns_of_a_gnuplot_file(tmp_path: Path) -> None:
    text = "# t  x\n# [s] [m]\n0.0 0.00\n0.1 0.05\n0.2 0.20\n0.3 0.44\n"
    (tmp_path / "fall.dat").write_text(text)
    assert spelled(tmp_path, "fall.dat") == [("t", "t", "s"), ("x", "x", "m")]
    assert one(tmp_path, "fall.dat").summary.x == "t"


@pytest.mark.parametrize("mark", ["%", "!", ";", "#", "##", "//"])
def test_comment_header_behind_each_mark(tmp_path: Path, mark: str) -> None:
    (tmp_path / "run.txt").write_text(f"{mark} time (s)  U (V)\n0 1.0\n1 2.1\n2 2.9\n3 4.2\n")
    assert spelled(tmp_path, "run.txt") == [("time (s)", "time", "s"), ("U (V)", "U", "V")]


def test_comment_header_as_numpy_savetxt_writes_it_with_a_delimiter(tmp_path: Path) -> None:
    (tmp_path / "out.csv").write_text("# t,x\n0,1\n1,2\n2,4\n3,8\n")
    assert [name for _, name, _ in spelled(tmp_path, "out.csv")] == ["t", "x"]


@pytest.mark.parametrize(
    "comments",
    [
        "# Data recorded by group 3 on Monday\n",  # a sentence: more words than columns
        "# name: x\n# type: matrix\n# rows: 4\n# columns: 2\n",  # Octave's text format
        "# run 2\n",  # a number is no column's name
    ],
)
def test_comment_that_is_no_header_leaves_the_columns_unnamed(
    tmp_path: Path, comments: str
) -> None:
    (tmp_path / "run.txt").write_text(comments + "0 1.0\n1 2.1\n2 2.9\n3 4.2\n")
    assert spelled(tmp_path, "run.txt") == [("", "column 1", ""), ("", "column 2", "")]


@pytest.mark.parametrize(
    ("heading", "energy", "sigma"),
    [
        ("% K-alpha lines measured with the SDD\n% columns: Z  E_Ka[keV]  sigma_E[keV]\n",
         "E_Ka[keV]", "sigma_E[keV]"),
        # names parted by commas over blank-separated numbers
        ("# Columns: Z, E_Ka (keV), sigma_E (keV)\n", "E_Ka (keV)", "sigma_E (keV)"),
        ("# Spalten: Z | E_Ka (keV) | sigma_E (keV)\n", "E_Ka (keV)", "sigma_E (keV)"),
    ],
)  # fmt: skip
def test_comment_that_says_it_lists_the_columns_names_them(
    tmp_path: Path, heading: str, energy: str, sigma: str
) -> None:
    """A label before the names (`columns:`) is no name, and a title above it no upper
    word of the names; the σ column pairs with the quantity it names by its symbol."""
    (tmp_path / "kalpha.txt").write_text(heading + "22 4.51 0.02\n29 8.05 0.03\n42 17.48 0.05\n")
    assert spelled(tmp_path, "kalpha.txt") == [
        ("Z", "Z", ""), (energy, "E_Ka", "keV"), (sigma, "sigma_E", "keV"),
    ]  # fmt: skip
    assert one(tmp_path, "kalpha.txt").summary.columns[2].uncertainty_of == "E_Ka"


def test_a_units_row_that_names_only_the_first_columns_unit(tmp_path: Path) -> None:
    """Kian158/pendulum-data-analysis's Table_1_FA.csv: `(m),,,,,` under the names is the
    first column's unit, not a title that hides the names above it."""
    (tmp_path / "runs.csv").write_text(
        "Length,1st run (second),2nd run (second)\n(m),,\n0.1,6.3,6.1\n0.2,9.1,8.1\n0.3,10.2,10.8\n"
    )
    assert spelled(tmp_path, "runs.csv") == [
        ("Length", "Length", "m"), ("1st run (second)", "1st run", "s"),
        ("2nd run (second)", "2nd run", "s"),
    ]  # fmt: skip


def test_comment_header_gives_way_to_a_header_of_the_data(tmp_path: Path) -> None:
    (tmp_path / "run.csv").write_text("# exported by logger\nt (s),T (K)\n0,300\n1,301\n2,303\n")
    assert [unit for _, _, unit in spelled(tmp_path, "run.csv")] == ["s", "K"]


def test_comment_units_row_alone_gives_units_to_unnamed_columns(tmp_path: Path) -> None:
    (tmp_path / "run.dat").write_text("# [s] [mV]\n0 1.0\n1 2.1\n2 2.9\n3 4.2\n")
    assert spelled(tmp_path, "run.dat") == [("", "column 1", "s"), ("", "column 2", "mV")]


def test_fixed_width_names_of_several_words_are_placed_by_position(tmp_path: Path) -> None:
    (tmp_path / "iv.txt").write_text(
        "Time (s)   Applied Voltage (V)   Current (mA)\n"
        "0.00       1.000                 0.10\n"
        "0.10       2.000                 0.21\n"
        "0.20       3.000                 0.29\n"
        "0.30       4.000                 0.41\n"
    )
    assert spelled(tmp_path, "iv.txt") == [
        ("Time (s)", "Time", "s"),
        ("Applied Voltage (V)", "Applied Voltage", "V"),
        ("Current (mA)", "Current", "mA"),
    ]


def test_fixed_width_names_over_right_aligned_numbers_behind_a_comment(tmp_path: Path) -> None:
    (tmp_path / "cool.dat").write_text(
        "#  Elapsed Time (min)    Bath Temperature (°C)\n"
        "                 0.0                     80.1\n"
        "                 1.0                     71.3\n"
        "                 2.0                     64.0\n"
    )
    assert spelled(tmp_path, "cool.dat") == [
        ("Elapsed Time (min)", "Elapsed Time", "min"),
        ("Bath Temperature (°C)", "Bath Temperature", "°C"),
    ]


def test_names_by_position_keeps_a_name_whose_words_overhang_the_data() -> None:
    data = ["     0.000             1.000", "     0.100             2.000"]
    names = names_by_position("      Time   Applied Voltage", data)
    assert names == ["Time", "Applied Voltage"]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ('"x" "y"\n"1" 0.1 1.2\n"2" 0.2 2.3\n"3" 0.3 3.1\n"4" 0.4 4.4\n', "r.txt"),  # write.table
        ('"x","y"\n"1",0.1,1.2\n"2",0.2,2.3\n"3",0.3,3.1\n"4",0.4,4.4\n', "r.csv"),  # sep=","
        ('"x" "y"\n"a" 0.1 1.2\n"b" 0.2 2.3\n"c" 0.3 3.1\n"d" 0.4 4.4\n', "named.txt"),
    ],
)
def test_header_one_name_short_names_the_last_columns(tmp_path: Path, text: str, name: str) -> None:
    (tmp_path / name).write_text(text)
    columns = spelled(tmp_path, name)
    assert columns[-2:] == [("x", "x", ""), ("y", "y", "")]
    assert all(header == "" for header, _, _ in columns[:-2])


def test_header_with_an_empty_last_name_keeps_its_names_in_place(tmp_path: Path) -> None:
    (tmp_path / "run.csv").write_text("t,x,\n0,1,5\n1,2,5\n2,4,5\n")
    assert [header for header, _, _ in spelled(tmp_path, "run.csv")] == ["t", "x", ""]


def test_real_gnuplot_file_with_a_comment_header() -> None:
    """Janert's Cavendish data (`#t (s)<TAB> Angle (mrad)<TAB>Error (mrad)`)."""
    table = one(REAL, "gnuplot_cavendish.data")
    assert [(c.name, c.unit) for c in table.summary.columns] == [
        ("t", "s"), ("Angle", "mrad"), ("Error", "mrad")
    ]  # fmt: skip
    assert table.summary.column("Error").uncertainty_of == "Angle"


def test_comment_units_row_names_units_pint_knows(tmp_path: Path) -> None:
    """NOAA NDBC's standard meteorological layout: names and units in two comment rows,
    `MM` for a missing value; `nmi` and `ft` are read by pint, `degT` is left as no unit."""
    (tmp_path / "41010.txt").write_text(
        "#YY  MM DD hh mm WDIR WSPD GST  WVHT   DPD   APD MWD   PRES  ATMP  WTMP  DEWP  VIS  TIDE\n"
        "#yr  mo dy hr mn degT m/s  m/s     m   sec   sec degT   hPa  degC  degC  degC  nmi    ft\n"
        "2024 06 15 12 00 270  5.1  6.2   1.5   8.0   7.0 250 1015.0  25.0  23.4  18.0  5.0  0.3\n"
        "2024 06 15 11 00 265  4.8  5.9   1.4   7.5   6.8 245 1014.5  24.8  23.1  17.8  5.0  0.4\n"
        "2024 06 15 10 00 260  4.6  5.5   1.4   7.5   6.8  MM 1014.1  24.5  23.0  17.6  4.0  0.6\n"
    )
    units = {name: unit for _, name, unit in spelled(tmp_path, "41010.txt")}
    assert (units["WDIR"], units["WSPD"], units["PRES"], units["ATMP"]) == ("", "m/s", "hPa", "°C")
    assert (units["VIS"], units["TIDE"]) == ("nmi", "ft")


def test_units_written_where_the_names_would_be_give_unnamed_columns_units() -> None:
    """A Siglent SDS1104X-E export's head (quoted in its converter's README): settings, then
    `Second,Volt`; `Horizontal Scale, 0.000010000` above it is a setting, not the names."""
    table = one(REAL, "siglent_sds1104xe_readme.csv")
    assert [(c.header, c.unit) for c in table.summary.columns] == [("", "s"), ("", "V")]
    assert table.frame.iloc[0].tolist() == [-7e-05, -0.194]


def test_a_header_of_unit_symbols_is_names(tmp_path: Path) -> None:
    (tmp_path / "cooling.csv").write_text("T,V\n300,1.0\n310,1.2\n320,1.5\n")
    assert spelled(tmp_path, "cooling.csv") == [("T", "T", ""), ("V", "V", "")]


def test_header_one_short_of_data_whose_first_column_is_empty_keeps_its_names(
    tmp_path: Path,
) -> None:
    """Quantum Design MultiVu's rows: an empty Comment first, and a last cell with a comma
    of its own (a Python tuple, unquoted), so each row writes one field more than the
    header; R's row names are never empty, so the names stay over their columns."""
    (tmp_path / "run.dat").write_text(
        '"Comment","Time Stamp (sec)","Field","Resistance"\n'
        ",1711665466.9,-1000.0,(50.0, 'Call was successful')\n"
        ",1711665467.9,-988.0,(50.1, 'Call was successful')\n"
        ",1711665468.9,-970.0,(50.2, 'Call was successful')\n"
    )
    table = one(tmp_path, "run.dat")
    columns = {c.header: c.unit for c in table.summary.columns}
    assert columns["Time Stamp (sec)"] == "s"
    assert table.summary.column(table.summary.x).header == "Time Stamp (sec)"
    assert table.frame[table.summary.column("Field").key].iloc[0] == -1000.0


def test_vernier_format_2_long_names_over_short_names_over_units(tmp_path: Path) -> None:
    """Vernier Format 2, LoggerPro's text format, as Vernier's own sketch prints it
    (VernierST/arduino, VernierAnalogSensor/VernierAnalogSensor.ino at 0ce088e): a title,
    "Data Set", the long names, the short names, the units spelled out, tab-separated."""
    (tmp_path / "force.txt").write_text(
        "Vernier Format 2\nHand Dynamometer Readings taken using Ardunio\nData Set\n"
        "Time\tForce\nt\tF\nseconds\tnewtons\n0.00\t1.25\n0.50\t3.71\n1.00\t6.02\n1.50\t8.44\n"
    )
    assert spelled(tmp_path, "force.txt") == [("Time", "Time", "s"), ("Force", "Force", "N")]


def test_vernier_units_of_temperature_spelled_out(tmp_path: Path) -> None:
    """Vernier's thermistor sketch writes `degrees C` under `Temperature`."""
    (tmp_path / "temp.txt").write_text(
        "Vernier Format 2\nData Set\nTime\tTemperature\nseconds\tdegrees C\n"
        "0\t21.5\n0.5\t21.6\n1\t21.8\n"
    )
    assert spelled(tmp_path, "temp.txt")[1] == ("Temperature", "Temperature", "°C")


def test_names_units_and_a_row_of_comments(tmp_path: Path) -> None:
    """An Origin worksheet's label rows exported without their labels: Long Name, Units,
    Comments; the comments name nothing and are never joined to the units."""
    (tmp_path / "sheet.txt").write_text(
        "Time\tVoltage\ns\tmV\nrun 1\tsample B\n0\t12.1\n1\t12.9\n2\t13.6\n3\t14.2\n"
    )
    assert spelled(tmp_path, "sheet.txt") == [("Time", "Time", "s"), ("Voltage", "Voltage", "mV")]


def test_a_preamble_line_over_names_and_units_is_not_their_long_names(tmp_path: Path) -> None:
    (tmp_path / "run.csv").write_text("Keithley,2400\nVoltage,Current\nV,A\n0,0.1\n1,0.2\n2,0.3\n")
    assert spelled(tmp_path, "run.csv") == [
        ("Voltage", "Voltage", "V"),
        ("Current", "Current", "A"),
    ]


def test_a_units_row_over_the_names_under_a_title_line(tmp_path: Path) -> None:
    """A spreadsheet's export as a lab keeps it: a title line of fewer cells (a setting in
    it), an empty row, the units in brackets (one with an explanation before it), then the
    names right over the data; `dL` and `dp` the uncertainties of the columns before them
    (L's name begins with it, p is a pressure)."""
    (tmp_path / "boyle.csv").write_text(
        "\ufeffRaumtemperatur um 14:24,23.8 °C,,\n,,,\n"
        "(in cm),(in cm),(in Bar),(Endbereich des Manometers in Bar)\n"
        "Laenge,dL,Druck,dp\n6,0.1,2.36,0.06\n7,0.1,2.05,0.06\n8,0.1,1.81,0.06\n9,0.1,1.61,0.06\n"
    )
    columns = one(tmp_path, "boyle.csv").summary.columns
    assert [(c.name, c.unit) for c in columns] == [
        ("Laenge", "cm"), ("dL", "cm"), ("Druck", "bar"), ("dp", "bar")
    ]  # fmt: skip
    assert {c.key: c.uncertainty_of for c in columns} == {
        "Laenge": None, "dL": "Laenge", "Druck": None, "dp": "Druck"
    }  # fmt: skip
