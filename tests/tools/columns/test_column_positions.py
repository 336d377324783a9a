"""The columns a handout names by their place (tools/columns/column_positions.py), as lab handouts
in several languages write it, and what names none."""

import pytest

from labscribe.tools.assignment.handout_latex import inline_math_text
from labscribe.tools.columns.column import Column
from labscribe.tools.columns.column_positions import column_positions, header_line_described


def headerless(count: int) -> list[Column]:
    return [Column(key=f"column {i}", header="", name=f"column {i}", count=5)
            for i in range(1, count + 1)]  # fmt: skip


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "kolumna 1: a_d [mm] - odczyt dolny\nkolumna 2: a_g [mm] - odczyt górny",
            [("a_d", "mm"), ("a_g", "mm")],
        ),
        ("Spalte 1: t in s, Spalte 2: U in V.", [("t", "s"), ("U", "V")]),
        (
            "Die Datei: Spalte 1 = $Z$, Spalte 2 = $I$ / µA (eine Zeile pro Spannungsstufe).",
            [("Z", ""), ("I", "µA")],
        ),
        (
            "The first column is the time t (s), the second the voltage U (V).",
            [("t", "s"), ("U", "V")],
        ),
        (
            "Первый столбец --- $B$ (Тл), второй --- $U_{34}$ (мВ), уже за вычетом $U_0$.",
            [("B", "T"), ("U_34", "mV")],
        ),
        (  # numbered after "Colonnes :", a unit with a remark, a slash in the words, and
            # a column that repeats another's name left unnamed
            "Fichier `data.csv`. Colonnes : 1 = longueur d'onde (m) ; 2 = courant d'obscurité "
            "/ offset (A) ; 3 = longueur d'onde (m, répétée) ; 4 = photocourant (A, compté "
            "négativement). Le balayage va de 400 nm à 800 nm.",
            [
                ("longueur d'onde", "m"),
                ("courant d'obscurité / offset", "A"),
                ("column 3", "m"),
                ("photocourant", "A"),
            ],
        ),
        (  # a list after "Kolumny:", parted by semicolons: a counter, words with a unit, and
            # a column worked out of others, left unnamed
            "Plik `data.csv` (bez nagłówka). Kolumny: Lp.; liczba zwojów N; prąd I [mA]; "
            "kąt wychylenia [°]; (B_i − B₀)² [(µT)²]. Dwie ostatnie kolumny to obliczenia.",
            [("Lp", ""), ("N", ""), ("I", "mA"), ("kąt wychylenia", "deg"), ("column 5", "")],
        ),
        (  # Swedish and Norwegian: a count of columns, each by its words and unit
            "Filerna har två kolumner: t [s] och vinkel [rad].",
            [("t", "s"), ("vinkel", "rad")],
        ),
        ("Filene har to kolonner: tid t [s], utslag [m].", [("t", "s"), ("utslag", "m")]),
        (  # "the first three rows ... are the header, then two columns": rows, then columns
            "Soubor `data.csv` je export. První tři řádky (začínající `#`) jsou "
            "hlavička, dále dva sloupce: čas t [s] a síla F [mN] (váhy byly vytárovány).",
            [("t", "s"), ("F", "mN")],
        ),
        (
            "Każdy plik zawiera dwie kolumny: $R_2$ [Ω] oraz położenie suwaka $a$ [mm].",
            [("R_2", "Ω"), ("a", "mm")],
        ),
        (
            "La première colonne donne $\\lambda$ (nm), la deuxième colonne l'intensité I (mV).",
            [("λ", "nm"), ("I", "mV")],
        ),
        (
            "colonna 1 = $\\nu$ (Hz), colonna 2 = guadagno $G = |V_o|/|V_i|$, colonna 3 = "
            "incertezza su $G$.",
            [("ν", "Hz"), ("G", ""), ("σ_G", "")],
        ),
        (
            "quattro colonne separate da spazi: lunghezza d'onda $\\lambda$ (m), sua "
            "incertezza $\\sigma_\\lambda$ (m), indice di rifrazione $n$ ricavato dalla "
            "deviazione minima e sua incertezza $\\sigma_n$.",
            [("λ", "m"), ("σ_λ", "m"), ("n", ""), ("σ_n", "")],
        ),
    ],
)
def test_columns_named_by_place(text: str, expected: list[tuple[str, str]]) -> None:
    columns = headerless(len(expected))
    # as the analysis reads a handout: its `$...$` as the text they print (tools.columns.roles)
    column_positions(columns, inline_math_text(text), "data.csv")
    assert [(c.name, c.unit) for c in columns] == expected


@pytest.mark.parametrize(
    ("text", "count", "source"),
    [
        ("kolumna 1: a_d [mm]\nkolumna 2: a_g [mm]", 3, "data.csv"),  # three columns, two told
        ("`gestosc.csv` zawiera dwie kolumny: masa m [g] oraz objętość V [cm3].", 2, "data.csv"),
        ("The file has three columns: wavelength λ (nm), n and its uncertainty.", 3, "data.csv"),
        ("- `0-3A.txt`, …, `1-0A.txt`: first column B (T), second U (mV)", 2, "calibr.txt"),
    ],
)
def test_no_column_named_where_the_description_is_not_this_files(
    text: str, count: int, source: str
) -> None:
    columns = headerless(count)
    column_positions(columns, text, source)
    assert [c.name for c in columns] == [f"column {i}" for i in range(1, count + 1)]


@pytest.mark.parametrize(
    ("text", "source", "expected"),
    [
        (  # units listed in order in the line naming a run of files, no word for "column"
            "- `run_1.txt`, `run_2.txt`, …, `run_9.txt`: gedämpfte Schwingung bei I = 0,2, "
            "0,4 A;\n  t [s], Auslenkung [mm].\nLeere Felder kommen vor. Die Auslenkung (mm) "
            "geteilt durch den Radius r gibt den Winkel.",
            "run_4.txt",
            [("t", "s"), ("Auslenkung", "mm")],
        ),
        (  # a column described by words, no symbol, before its unit
            "- `free.txt`: column 1 time t [s], column 2 displacement of the weight [m] (free "
            "swing).",
            "free.txt",
            [("t", "s"), ("displacement of the weight", "m")],
        ),
    ],
)
def test_columns_named_in_a_line_that_lists_their_file(
    text: str, source: str, expected: list[tuple[str, str]]
) -> None:
    columns = headerless(len(expected))
    column_positions(columns, text, source)
    assert [(c.name, c.unit) for c in columns] == expected


def test_units_listed_for_other_files_or_another_count_name_no_column() -> None:
    text = "- `run_1.txt`, …, `run_9.txt`: t [s], Auslenkung [mm]."
    for source, count in (("calibration.txt", 2), ("run_4.txt", 3)):
        columns = headerless(count)
        column_positions(columns, text, source)
        assert [c.name for c in columns] == [f"column {i}" for i in range(1, count + 1)]


def test_a_run_of_files_named_alike_shares_its_description() -> None:
    columns = headerless(2)
    column_positions(columns, "- `0-3A.txt`, …, `1-0A.txt`: first column B (T), second U (mV)",
                     "0-7A.txt")  # fmt: skip
    assert [(c.name, c.unit) for c in columns] == [("B", "T"), ("U", "mV")]


def test_a_file_with_a_header_keeps_its_names() -> None:
    columns = [Column(key="x", header="x", name="x", count=5),
               Column(key="y", header="y", name="y", count=5)]  # fmt: skip
    column_positions(columns, "first column t (s), second column U (V)", "data.csv")
    assert [c.name for c in columns] == ["x", "y"]


def test_a_column_the_handout_calls_an_uncertainty_gives_it() -> None:
    columns = headerless(4)
    column_positions(columns, "quattro colonne: λ (m), sua incertezza σ_λ (m), n e sua "
                     "incertezza σ_n.", "d.txt")  # fmt: skip
    assert [c.uncertainty_of for c in columns] == [None, "column 1", None, "column 3"]


def test_a_quoted_header_line_with_what_each_column_is_names_them_in_order() -> None:
    """TU Dortmund V103 (tests/data/real/conventions/dortmund_v103_assignment.md)."""
    text = (
        "Dateiformat: `# x y z` = Position x [cm], Messuhr ohne Gewicht b₁ [mm], Messuhr mit "
        "Gewicht b₂ [mm]."
    )
    columns = [Column(key=k, header=k, name=k, count=5) for k in "xyz"]
    header_line_described(columns, text)
    assert [(c.name, c.unit) for c in columns] == [("x", "cm"), ("b_1", "mm"), ("b_2", "mm")]
    other = [Column(key=k, header=k, name=k, count=5) for k in ("t", "U")]
    header_line_described(other, text)  # another file's header: its columns stay
    assert [(c.name, c.unit) for c in other] == [("t", ""), ("U", "")]
