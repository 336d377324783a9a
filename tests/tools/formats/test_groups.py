"""A column of words splits a table into named groups (tools.formats.groups, tools.formats.grid).
The data are R's datasets::Puromycin as R's write.csv writes it (conc, rate, state: treated /
untreated; Treloar 1974, in Bates & Watts, Nonlinear Regression Analysis, 1988, appendix
A1.3): tests/data/real/groups/Puromycin.csv, SOURCES.md."""

from __future__ import annotations

from pathlib import Path

from labscribe.tools.formats.tables import read_data
from labscribe.tools.tool import Folder

CONC = [0.02, 0.02, 0.06, 0.06, 0.11, 0.11, 0.22, 0.22, 0.56, 0.56, 1.10, 1.10]
TREATED = [76, 47, 97, 107, 123, 139, 159, 152, 191, 201, 207, 200]
UNTREATED = [67, 51, 84, 86, 98, 115, 131, 124, 144, 158, 160]


def puromycin_csv() -> str:
    """Puromycin as R's write.csv writes it: row names, conc, rate, state (the values as
    R's help page and Bates & Watts print them)."""
    rows = [(c, r, "treated") for c, r in zip(CONC, TREATED, strict=True)]
    rows += [(c, r, "untreated") for c, r in zip(CONC, UNTREATED, strict=False)]
    lines = [f'"{i}",{c},{r},"{s}"' for i, (c, r, s) in enumerate(rows, 1)]
    return '"","conc","rate","state"\n' + "\n".join(lines) + "\n"


REAL = Path(__file__).parents[2] / "data" / "real" / "groups"


def test_the_real_file_is_puromycin() -> None:
    assert (REAL / "Puromycin.csv").read_text() == puromycin_csv()


def test_a_column_of_words_splits_the_table_into_named_groups() -> None:
    tables = read_data(Folder(REAL), "Puromycin.csv").tables
    assert [(t.summary.title, t.summary.rows) for t in tables] == [
        ("state: treated", 12),
        ("state: untreated", 11),
    ]
    assert [c.name for c in tables[1].summary.columns] == ["conc", "rate"]
    assert tables[1].frame["rate"].tolist() == UNTREATED


def test_a_comment_on_each_row_splits_nothing(tmp_path: Path) -> None:
    rows = [f"{c},{r},reading {i}" for i, (c, r) in enumerate(zip(CONC, TREATED, strict=True))]
    (tmp_path / "t.csv").write_text("conc,rate,comment\n" + "\n".join(rows) + "\n")
    [table] = read_data(Folder(tmp_path), "t.csv").tables
    assert table.summary.rows == 12
    assert table.summary.title == ""
