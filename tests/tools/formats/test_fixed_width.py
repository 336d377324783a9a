"""Fixed-width headers read by position (tools.formats.fixed_width): a units row that leaves a
column without a unit, names over two rows above a units row and a dashed rule, as
Mettler Toledo STARe and Hiden IGA exports print them (tests/data/real holds both)."""

from pathlib import Path

from labscribe.tools.formats.fixed_width import names_by_position
from labscribe.tools.formats.tables import read_data
from labscribe.tools.tool import Folder

REAL = Path(__file__).resolve().parents[2] / "data" / "real"


def spelled(folder: Path, name: str) -> list[list[tuple[str, str]]]:
    """Each table's columns, a column that only numbers the rows (tools.columns.counting) first
    and marked `#` in place of its unit."""
    return [[(c.name, "#") for c in table.summary.row_numbers]
            + [(c.name, c.unit) for c in table.summary.columns]
            for table in read_data(Folder(folder), name).tables]  # fmt: skip


def test_units_row_with_no_unit_under_its_first_column(tmp_path: Path) -> None:
    (tmp_path / "tga.txt").write_text(
        "Curve Values:\n"
        "          Index              t             Ts          Value\n"
        "                           [s]           [°C]           [mg]\n"
        "              0              0         36.625        12.8009\n"
        "              1              1         36.622        12.8008\n"
        "              2              2         36.678        12.8007\n"
    )
    assert spelled(tmp_path, "tga.txt") == [
        [("Index", "#"), ("t", "s"), ("Ts", "°C"), ("Value", "mg")]
    ]


def test_names_over_two_rows_above_units_and_a_rule(tmp_path: Path) -> None:
    (tmp_path / "iso.txt").write_text(
        "Species                       CO2\n"
        "\n"
        "Pressure   Gas        Total      %Wt      \n"
        "           Density    Weight              \n"
        "(mbar)     (g/cc)     (mg)       (% d.b.) \n"
        "-------------------------------------------\n"
        "0.7        0.000001   10.2172    -.12     \n"
        "19.9       0.000036   10.3009    0.70     \n"
        "39.9       0.000072   10.3669    1.35     \n"
        "-------------------------------------------\n"
    )
    assert spelled(tmp_path, "iso.txt") == [
        [("Pressure", "mbar"), ("Gas Density", "g/cc"), ("Total Weight", "mg"),
         ("%Wt", "% d.b.")]
    ]  # fmt: skip


def test_a_full_line_above_names_and_units_is_not_their_first_words(tmp_path: Path) -> None:
    """Over a units row, a line that names every column is no first row of the names."""
    (tmp_path / "run.txt").write_text(
        "Run   A1      B2\n"
        "Time  Voltage Current\n"
        "(s)   (V)     (mA)\n"
        "0     1.0     0.1\n"
        "1     2.0     0.2\n"
        "2     3.0     0.3\n"
    )
    assert spelled(tmp_path, "run.txt") == [[("Time", "s"), ("Voltage", "V"), ("Current", "mA")]]


def test_names_by_position_leaves_a_column_without_text_empty() -> None:
    data = ["     0     0    36.625", "     1     1    36.622"]
    assert names_by_position("           [s]      [°C]", data) == ["", "[s]", "[°C]"]


def test_real_mettler_and_hiden_exports() -> None:
    mettler = spelled(REAL / "thermal", "mettler_stare_tga_first30.txt")
    assert mettler == [[("Index", "#"), ("t", "s"), ("Ts", "°C"), ("Tr", "°C"), ("Value", "mg")]]
    hiden = spelled(REAL / "isotherm", "hiden_iga_Isotherm_67-CO2_20C-2bar.txt")
    wanted = [("Pressure", "mbar"), ("Gas Density", "g/cc"), ("Total Weight", "mg"),
              ("Sample", "°C"), ("%Wt", "% d.b.")]  # fmt: skip
    assert hiden == [wanted, wanted]


def test_a_sentence_above_the_names_leaves_them_read_by_position(tmp_path: Path) -> None:
    (tmp_path / "tga.txt").write_text(
        "Weight loss of the sample in nitrogen, first heating\n"
        "          Index              t          Value\n"
        "                           [s]           [mg]\n"
        "              0              0        12.8009\n"
        "              1              1        12.8008\n"
        "              2              2        12.8007\n"
    )
    assert spelled(tmp_path, "tga.txt") == [[("Index", "#"), ("t", "s"), ("Value", "mg")]]
