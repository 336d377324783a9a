"""Reading delimited tables as labs write them: decimal commas, encodings, units rows,
blocks and groups, uncertainty columns, the independent variable. What reading refuses or
bounds: test_table_bounds.py."""

from pathlib import Path

import pytest
from table_cases import one_table, units

from labscribe.tools.formats.tables import read_data
from labscribe.tools.tool import Folder

REAL = Path(__file__).parents[2] / "data" / "real"


def test_read_tables_reads_european_decimal_commas(tmp_path: Path) -> None:
    (tmp_path / "decay.csv").write_text("t [s];U [V]\n0,0;4,56\n0,5;2,75\n1,0;1,67\n1,5;1,01\n")
    table = one_table(tmp_path, "decay.csv")
    assert (table.summary.delimiter, table.summary.decimal) == ("semicolon", ",")
    assert table.frame["U"].tolist() == [4.56, 2.75, 1.67, 1.01]
    assert units(table) == [("t", "s"), ("U", "V")]


@pytest.mark.parametrize(
    ("cells", "values"),
    [
        (['"10,91"', '"21,6"', "61", '"0,5"'], [10.91, 21.6, 61.0, 0.5]),  # decimal commas
        (['"1,000"', '"12,500"', "300", '"2,000.5"'], [1000.0, 12500.0, 300.0, 2000.5]),
        (['"0,450"', '"1,000"', "2", "3"], [0.45, 1.0, 2.0, 3.0]),  # no thousand after a 0
    ],
)
def test_read_tables_reads_the_commas_a_quoted_column_writes(
    tmp_path: Path, cells: list[str], values: list[float]
) -> None:
    """A comma-separated file keeps commas inside quotes: each column's are decimal commas
    or thousands as the whole column writes them (tests/data/real/conventions/
    ohm_resistencias_quoted_commas.csv is a real file of the first kind)."""
    rows = "\n".join(f"{i},{cell}" for i, cell in enumerate(cells))
    (tmp_path / "quoted.csv").write_text(f"n,y\n{rows}\n")
    table = one_table(tmp_path, "quoted.csv")
    assert table.summary.delimiter == "comma"
    assert table.frame["y"].tolist() == values


def test_read_data_reads_rows_labelled_f1_f2_in_long_format_a_table_per_group() -> None:
    """A row per resonance (MIPT lab 1.4.8, tests/data/real/labtables/
    mipt_148_resonance_long.csv): the harmonic written `f1` … `f7` is its number, and the
    material in words parts the rows into a table each."""
    folder = Folder(Path(__file__).parents[2] / "data" / "real" / "labtables")
    tables = read_data(folder, "mipt_148_resonance_long.csv").tables
    assert [t.summary.title for t in tables] == [
        "Материал: Медный", "Материал: Стальной", "Материал: Дюралюминиевый"
    ]  # fmt: skip
    assert [t.frame.iloc[:, 0].tolist() for t in tables] == [
        [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0],
        [1.0, 2.0, 3.0, 4.0, 5.0],
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("labels", "numbers"),
    [
        (["f1", "f2", "f3", "f4"], [1.0, 2.0, 3.0, 4.0]),
        (["S_10", "S_11", "S_12", "S_13"], [10.0, 11.0, 12.0, 13.0]),
        (["A1", "B1", "A2", "B2"], None),  # two prefixes: labels, not numbers
        (["C26", "C26", "C26", "C26"], None),  # one unit code throughout (UN/ECE's ms)
        (["m1", "m2", "m3", "m5"], None),  # bodies named, not counted (Catania's incline)
    ],
)
def test_read_tables_reads_labels_under_one_prefix_as_their_numbers(
    tmp_path: Path, labels: list[str], numbers: list[float] | None
) -> None:
    rows = "\n".join(f"{label},{0.5 * i},{i * i}" for i, label in enumerate(labels))
    (tmp_path / "coded.csv").write_text(f"label,x,y\n{rows}\n")
    table = one_table(tmp_path, "coded.csv")
    if numbers is None:
        assert [c.name for c in table.summary.columns] == ["x", "y"]
    else:
        assert table.frame["label"].tolist() == numbers


def test_a_code_held_over_a_run_of_rows_names_a_group_not_a_number(tmp_path: Path) -> None:
    """`m1` on forty rows, then `m2` (Catania's inclined plane, tests/data/real/repeats/
    catania_incline_times.csv): each body's rows are a table, the code its title."""
    labels = ["m1"] * 3 + ["m2"] * 3 + ["m3"] * 3
    rows = "\n".join(f"{label},{0.5 * i},{i * i}" for i, label in enumerate(labels))
    (tmp_path / "coded.csv").write_text(f"mass,x,y\n{rows}\n")
    tables = read_data(Folder(tmp_path), "coded.csv").tables
    assert [t.summary.title for t in tables] == ["mass: m1", "mass: m2", "mass: m3"]


def test_a_label_on_the_first_row_of_each_block_names_its_series(tmp_path: Path) -> None:
    """`1ra serie` on the first of its rows, blanks below, then `2da serie` (an e/m lab's
    sheet, tests/data/real/workbooks/unlp_em_voltajes_corrientes.xlsx): two series, the
    labels not read as settings beside the data; a `#DIV/0!` in the first row is no header."""
    rows = ["1ra serie,123.8,1.17,#DIV/0!", ",123.8,1.5,0.03", ",123.7,1.42,0.033",
            ",123.7,1.32,0.036", "2da serie,196.3,1.79,0.0345", ",196.5,1.71,0.037",
            ",196.5,1.63,0.038", ",194.8,1.58,0.0395"]  # fmt: skip
    (tmp_path / "series.csv").write_text(",V [V],I [A],R [m]\n" + "\n".join(rows) + "\n")
    tables = read_data(Folder(tmp_path), "series.csv").tables
    assert [t.summary.title for t in tables] == ["1ra serie", "2da serie"]
    assert [c.name for c in tables[0].summary.columns] == ["V", "I", "R"]
    assert tables[0].frame["V"].tolist() == [123.8, 123.8, 123.7, 123.7]


def test_read_tables_reads_decimal_commas_between_blanks(tmp_path: Path) -> None:
    (tmp_path / "run.dat").write_text("x y\n1,5 2,25\n2,5 6,25\n3,5 12,25\n")
    table = one_table(tmp_path, "run.dat")
    assert (table.summary.delimiter, table.summary.decimal) == ("whitespace", ",")
    assert table.frame["y"].tolist() == [2.25, 6.25, 12.25]


def test_read_tables_reads_gbk_headers(tmp_path: Path) -> None:
    text = "时间(s),电压（V）\r\n0,1.0\r\n1,2.0\r\n2,3.1\r\n3,3.9\r\n"
    (tmp_path / "记录.csv").write_bytes(text.encode("gbk"))
    table = one_table(tmp_path, "记录.csv")
    assert table.summary.encoding == "gb18030"
    assert units(table) == [("时间", "s"), ("电压", "V")]
    assert table.summary.x == "时间"


def test_read_tables_reads_a_utf16_tsv(tmp_path: Path) -> None:
    text = "freq_Hz\tV_R_Vpp\n100\t1.0\n200\t2.0\n300\t2.9\n"
    (tmp_path / "sweep.tsv").write_bytes(text.encode("utf-16"))
    table = one_table(tmp_path, "sweep.tsv")
    assert (table.summary.encoding, table.summary.delimiter) == ("utf-16", "tab")
    assert units(table) == [("freq", "Hz"), ("V_R", "Vpp")]
    assert table.frame["V_R"].tolist() == [1.0, 2.0, 2.9]


def test_read_tables_takes_units_from_a_units_row(tmp_path: Path) -> None:
    (tmp_path / "scope.csv").write_text(
        "f,V_R,phase\nHz,V,deg\n1000,0.1,80\n2000,0.4,60\n3000,1,0\n"
    )
    assert units(one_table(tmp_path, "scope.csv")) == [("f", "Hz"), ("V_R", "V"), ("phase", "deg")]


def test_read_tables_takes_bracketed_units_from_a_units_row(tmp_path: Path) -> None:
    (tmp_path / "scan.dat").write_text("x y\n[mm] [V]\n1 2\n2 4\n3 6\n")
    assert units(one_table(tmp_path, "scan.dat")) == [("x", "mm"), ("y", "V")]


def test_read_tables_skips_comments_and_an_instrument_preamble(tmp_path: Path) -> None:
    (tmp_path / "export.csv").write_text(
        "Instrument: Rigol DS1054Z\nDate: 2024-03-14\n# averaged 16x\n% exported by UltraScope\n"
        "// channel 2\n\ntime,CH2\n0,0.5\n1,0.7\n2,0.9\n3,1.1\n"
    )
    table = one_table(tmp_path, "export.csv")
    assert [c.key for c in table.summary.columns] == ["time", "CH2"]
    assert table.summary.rows == 4


def test_read_tables_splits_two_blocks_with_their_titles(tmp_path: Path) -> None:
    (tmp_path / "two.dat").write_text(
        "[Block 1]\nt [s] x [m]\n0 0\n1 1\n2 4\n3 9\n\n[Block 2]\nt [s] x [m]\n0 0\n1 2\n2 8\n"
    )
    tables = read_data(Folder(tmp_path), "two.dat").tables
    assert [(t.summary.id, t.summary.title, t.summary.rows) for t in tables] == [
        ("two.dat#1", "Block 1", 4),
        ("two.dat#2", "Block 2", 3),
    ]
    assert units(tables[1]) == [("t", "s"), ("x", "m")]


def test_read_tables_gives_a_block_without_a_header_the_previous_one(tmp_path: Path) -> None:
    (tmp_path / "runs.csv").write_text("I_mA,voltage_V\n1,2\n2,4\n3,6\n\n1,3\n2,6\n3,9\n")
    second = read_data(Folder(tmp_path), "runs.csv").tables[1]
    assert units(second) == [("I", "mA"), ("voltage", "V")]
    assert second.frame["voltage"].tolist() == [3.0, 6.0, 9.0]


def test_read_tables_pairs_an_uncertainty_column(tmp_path: Path) -> None:
    (tmp_path / "err.csv").write_text(
        "t,V,dV,I,I_err\n0,1,0.1,2,0.2\n1,2,0.1,3,0.2\n2,3,0.1,4,0.2\n"
    )
    columns = one_table(tmp_path, "err.csv").summary.columns
    assert {c.key: c.uncertainty_of for c in columns} == {
        "t": None, "V": None, "dV": "V", "I": None, "I_err": "I",
    }  # fmt: skip


def test_read_tables_pairs_an_uncertainty_column_written_with_a_dot(tmp_path: Path) -> None:
    """`d.m(g)` beside `m(g)`, as R's read.csv names `d m`: the mass's uncertainty."""
    (tmp_path / "MvsH.csv").write_text(
        "m(g);d.m(g);h(cm)\n0;0.1;39.2\n7.3;0.1;38.3\n17.9;0.1;36.9\n"
    )
    columns = one_table(tmp_path, "MvsH.csv").summary.columns
    assert {c.key: c.uncertainty_of for c in columns} == {"m": None, "d.m": "m", "h": None}


def test_read_tables_records_where_each_column_peaks(tmp_path: Path) -> None:
    (tmp_path / "peak.csv").write_text("f,A\n1,0.1\n2,0.9\n3,0.4\n")
    assert one_table(tmp_path, "peak.csv").summary.column("A").x_at_maximum == 2.0


def test_independent_variable_is_a_monotonic_first_column(tmp_path: Path) -> None:
    (tmp_path / "iv.csv").write_text("current_mA,voltage_V\n1,2.1\n2,4.0\n3,6.2\n4,7.9\n")
    assert one_table(tmp_path, "iv.csv").summary.x == "current"


def test_independent_variable_is_not_a_sample_counter(tmp_path: Path) -> None:
    (tmp_path / "log.csv").write_text("n,time_s,T_K\n1,0.0,300\n2,0.5,310\n3,1.0,305\n4,1.5,320\n")
    assert one_table(tmp_path, "log.csv").summary.x == "time"


def test_independent_variable_by_name_when_nothing_is_monotonic(tmp_path: Path) -> None:
    (tmp_path / "scatter.csv").write_text("signal,temperature\n5,20\n3,25\n4,21\n6,24\n")
    assert one_table(tmp_path, "scatter.csv").summary.x == "temperature"


def test_read_tables_adds_the_ratio_of_each_response_to_its_input(tmp_path: Path) -> None:
    rows = "\n".join(f"{f},{5 - f / 100},{(5 - f / 100) / (1 + f)},{f / 10}" for f in range(1, 9))
    (tmp_path / "filter.csv").write_text(f"f [Hz],U_in [V],U_out [V],phase [deg]\n{rows}\n")
    table = one_table(tmp_path, "filter.csv")
    ratio = table.summary.column("U_out/U_in")
    assert (ratio.name, ratio.unit, ratio.ratio_of) == ("U_out/U_in", "", ("U_out", "U_in"))
    assert table.frame["U_out/U_in"].tolist() == pytest.approx([1 / (1 + f) for f in range(1, 9)])


@pytest.mark.parametrize(
    "header",
    [
        "t [s],min [V],max [V]",  # a column named "min" drives nothing
        "f [Hz],V_in [V],V_out [mV]",  # units differ: no ratio of unlike scales
        "f [Hz],V_out [V],I [A]",  # no input column
    ],
)
def test_read_tables_adds_no_ratio_without_a_matching_input(tmp_path: Path, header: str) -> None:
    rows = "\n".join(f"{i},{i + 1},{2 * i + 3}" for i in range(1, 9))
    (tmp_path / "t.csv").write_text(f"{header}\n{rows}\n")
    assert all(c.ratio_of is None for c in one_table(tmp_path, "t.csv").summary.columns)


def test_read_data_splits_runs_side_by_side_of_different_lengths(tmp_path: Path) -> None:
    # PASCO Capstone's export: `;`, decimal commas, runs of different lengths side by side,
    # so once run 1 ends its rows start with `;` (no comment there)
    lines = ['"Time (s) Run #1";"Position (m) Run #1";"Time (s) Run #2";"Position (m) Run #2"']
    lines += [f"{t / 10:.1f};{0.5 * t:.2f};{t / 10:.1f};{0.4 * t:.2f}".replace(".", ",")
              for t in range(4)]  # fmt: skip
    lines += [f";;{t / 10:.1f};{0.4 * t:.2f}".replace(".", ",") for t in range(4, 9)]
    (tmp_path / "capstone.csv").write_text("\n".join(lines) + "\n")
    first, second = read_data(Folder(tmp_path), "capstone.csv").tables
    assert (first.summary.title, first.summary.rows) == ("run 1", 4)
    assert (second.summary.title, second.summary.rows) == ("run 2", 9)
    assert [(c.name, c.unit) for c in second.summary.columns] == [("Time", "s"), ("Position", "m")]
    assert second.frame["Position"].iloc[-1] == pytest.approx(3.2)


def test_read_data_keeps_a_results_block_above_the_data_as_settings(tmp_path: Path) -> None:
    # a tensile test export (Instron Bluehill): the specimen's results, then the raw data
    text = (
        '"Results Table 1"\n"Specimen label","Maximum Load","Tensile strain at Break"\n'
        '"","(kN)","(%)"\n"S1","12.37","18.2"\n\n'
        '"Time","Extension","Load"\n"(s)","(mm)","(kN)"\n'
        + "".join(f'"{t * 0.1:.1f}","{t * 0.02:.3f}","{t * 0.5:.2f}"\n' for t in range(8))
    )
    (tmp_path / "Specimen_RawData_1.csv").write_text(text)
    data = read_data(Folder(tmp_path), "Specimen_RawData_1.csv")
    [table] = data.tables
    assert [(c.name, c.unit) for c in table.summary.columns] == [
        ("Time", "s"), ("Extension", "mm"), ("Load", "kN")
    ]  # fmt: skip
    results = {row.name: (row.number, row.unit) for row in data.metadata}
    assert results["Maximum Load"] == (12.37, "kN")
    assert results["Tensile strain at Break"] == (18.2, "%")


def test_read_data_reads_a_windows_1250_export_with_its_header_results(tmp_path: Path) -> None:
    # a Zwick-style export from a Polish lab: cp1250, `;`, decimal commas, results above
    text = (
        "Próbka;PA6-03\nFmax;4,812;kN\nWydłużenie przy zerwaniu;23,5;%\n\n"
        "Czas [s];Wydłużenie [mm];Obciążenie [kN]\n"
        + "".join(f"{t}.0;{t * 0.1:.1f};{t * 0.3:.2f}\n".replace(".", ",") for t in range(6))
    )
    (tmp_path / "zwick.txt").write_bytes(text.encode("cp1250"))
    data = read_data(Folder(tmp_path), "zwick.txt")
    [table] = data.tables
    assert table.summary.encoding == "cp1250"
    assert [c.name for c in table.summary.columns] == ["Czas", "Wydłużenie", "Obciążenie"]
    settings = {row.key: row for row in data.metadata}
    assert (settings["Fmax"].number, settings["Fmax"].unit) == (4.812, "kN")
    assert settings["Próbka"].value == "PA6-03"


def test_read_data_reads_engineering_notation_and_elapsed_times(tmp_path: Path) -> None:
    text = "elapsed;U\n" + "".join(
        f"0h {m}m{s:02d}s;{v}m\n"
        for m, s, v in [(0, 5, 12.5), (0, 35, 11.0), (1, 5, 9.8), (1, 35, 8.9)]
    )
    (tmp_path / "log.csv").write_text(text)
    [table] = read_data(Folder(tmp_path), "log.csv").tables
    assert table.frame["elapsed"].tolist() == [5.0, 35.0, 65.0, 95.0]
    assert table.summary.column("elapsed").unit == "s"
    assert table.frame["U"].tolist() == pytest.approx([0.0125, 0.011, 0.0098, 0.0089])


def test_a_row_with_a_reading_missing_stays_a_row_of_its_table() -> None:
    # a CASSY Lab export (tests/data/real/cassy): 28 of its 95 rows leave the angle empty
    [table] = read_data(Folder(REAL / "cassy"), "pohl_torsion_7_v.txt").tables
    assert table.summary.rows == 95
    angles = table.frame[table.summary.columns[1].key]
    assert int(angles.isna().sum()) == 28


def test_a_lone_number_after_a_table_is_no_row_of_it(tmp_path: Path) -> None:
    (tmp_path / "d.txt").write_text("1\t2\n2\t4\n3\t6\n4\t8\n\n42\n")
    [table] = read_data(Folder(tmp_path), "d.txt").tables
    assert table.summary.rows == 4


def test_a_record_wider_than_the_data_above_it_names_no_column() -> None:
    # an Oslo NaI spectrum: `H 2 1024 "date" 60 1.02` over channel and counts
    [table] = read_data(Folder(REAL / "spectra"), "oslo_fys2150_cs.txt").tables
    assert [c.header for c in table.summary.columns] == ["", ""]
    assert table.summary.rows == 1024


def test_a_reading_number_that_no_column_follows_is_no_variable() -> None:
    # 100 Geiger counts beside their reading's number 1 to 100: the counts follow nothing
    [table] = read_data(Folder(REAL / "counting"), "oslo_fys2150_gm_100pulser.csv").tables
    assert [c.key for c in table.summary.columns] == ["column 2"]
    assert any("only numbers the rows" in note for note in table.summary.notes)


def test_an_order_that_a_column_rises_with_stays_the_variable(tmp_path: Path) -> None:
    (tmp_path / "maxima.csv").write_text("1,17.1\n2,34.0\n3,51.9\n4,69.6\n5,88.4\n6,107.7\n")
    [table] = read_data(Folder(tmp_path), "maxima.csv").tables
    assert table.summary.x == "column 1" and len(table.summary.columns) == 2
