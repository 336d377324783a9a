"""tools.columns.leading_rows: the start of a record a handout says to leave out, in the languages
handouts are written in, by a count of readings or a time from the first."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from labscribe.tools.columns.leading_rows import discard_leading
from labscribe.tools.formats.tables import Table, read_data
from labscribe.tools.tool import Folder


def _record(tmp_path: Path, name: str = "cooling.csv", rows: int = 60) -> Table:
    t = np.arange(rows) * 0.5
    lines = "\n".join(f"{a:g},{20 + 5 * np.exp(-a / 10):.4f}" for a in t)
    (tmp_path / name).write_text(f"t (s),T (°C)\n{lines}\n")
    return read_data(Folder(tmp_path), name).tables[0]


@pytest.mark.parametrize(
    ("sentence", "rows"),
    [
        ("Discard the initial part (the student dropped the first 10 readings).", 10),
        ("Die ersten 5 s verwerfen, solange der Fühler sich erwärmt.", 10),
        ("Scartare i primi 12 punti.", 12),
        ("Ignorer les 4 premiers points.", 4),
        ("Descartar los primeros 3 segundos.", 6),
        ("Os primeiros 8 pontos devem ser desprezados.", 8),
        ("We ignore the first 0.05 min of the run.", 6),
    ],
)
def test_the_rows_a_handout_leaves_out_go_before_the_analysis(
    tmp_path: Path, sentence: str, rows: int
) -> None:
    table = _record(tmp_path)
    (cut,), notes = discard_leading([table], sentence)
    assert cut.summary.rows == len(cut.frame) == 60 - rows
    assert cut.frame.iloc[0, 0] == pytest.approx(0.5 * rows)
    assert cut.summary.columns[0].minimum == pytest.approx(0.5 * rows)
    assert notes == [f"cooling.csv: its first {rows} rows, as the assignment says (“"
                     f"{notes[0].split('(“', 1)[1]}"]  # fmt: skip
    assert table.summary.rows == 60  # the table as read is left as it was


def test_nothing_is_cut_where_the_handout_says_nothing_or_too_much(tmp_path: Path) -> None:
    table = _record(tmp_path)
    assert discard_leading([table], "Plot the temperature against time.") == ([table], [])
    (kept,), notes = discard_leading([table], "Discard the first 58 readings.")
    assert kept is table and notes == []  # too few rows would be left to analyse


def test_of_several_tables_only_the_one_named_is_cut_and_none_unnamed(tmp_path: Path) -> None:
    first, second = _record(tmp_path, "run1.csv"), _record(tmp_path, "run2.csv")
    cut, notes = discard_leading([first, second], "Discard the first 10 readings of run2.csv.")
    assert [t.summary.rows for t in cut] == [60, 50] and notes[0].startswith("run2.csv: ")
    kept, notes = discard_leading([first, second], "Discard the first 10 readings.")
    assert kept == [first, second]
    assert notes == ["the assignment says to leave out the start of a record (“Discard the "
                     "first 10 readings”) but not of which of the folder's tables: all their "
                     "rows are analysed"]  # fmt: skip
