"""A time of day over three columns (`h;m;s;T`, as a kettle's logger writes it; `t;m;s;T`
in the same lab's second file) is one clock: time since the first row, on past midnight;
columns that only look alike (a mass, a distance) stay as they are."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from labscribe.tools.analysis.folder import analyse
from labscribe.tools.assignment.checklist import checklist
from labscribe.tools.formats.tables import read_data
from labscribe.tools.tool import Folder


def logger(path: Path, header: str, start: int, temperatures: np.ndarray) -> None:
    """A row every 2 s from `start` seconds after midnight, wrapping at 24 h."""
    moments = (start + 2 * np.arange(len(temperatures))) % 86_400
    rows = [f"{m // 3600};{m % 3600 // 60};{m % 60};{t:.2f}"
            for m, t in zip(moments, temperatures, strict=True)]  # fmt: skip
    path.write_text(header + "\n" + "\n".join(rows) + "\n")


@pytest.mark.parametrize(("header", "start"), [('"“h”";"“m”";"“s”";"“T”"', 1305),
                                               ("t;m;s;T", 86_340)])  # fmt: skip
def test_hours_minutes_and_seconds_are_one_clock(tmp_path: Path, header: str, start: int) -> None:
    logger(tmp_path / "pava.csv", header, start, np.linspace(80, 60, 90))
    [table] = read_data(Folder(tmp_path), "pava.csv").tables
    columns = table.summary.columns
    assert [(c.name, c.unit) for c in columns] == [("time", "s"), ("T", "")]
    assert table.summary.x == columns[0].key
    assert np.allclose(table.frame[columns[0].key], 2 * np.arange(90))  # past midnight too


def test_columns_that_count_on_without_turning_are_no_clock(tmp_path: Path) -> None:
    rows = "\n".join(f"{i};{2 * i};{3 * i};{i * 0.5:.1f}" for i in range(12))
    (tmp_path / "a.csv").write_text(f"n;m;s;F\n{rows}\n")
    [table] = read_data(Folder(tmp_path), "a.csv").tables
    assert [c.name for c in table.summary.columns] == ["n", "m", "s", "F"]


def test_the_maximum_of_each_file_when_the_task_asks_for_each(tmp_path: Path) -> None:
    """ "Para cada pava, determinar la temperatura máxima": each logger's largest T, in °C as
    the handout says, at its time since the first row."""
    rise = np.concatenate([np.linspace(70, 95.5, 30), np.linspace(95, 60, 60)])
    logger(tmp_path / "desnuda.csv", "h;m;s;T", 1305, rise)
    logger(tmp_path / "vestida.csv", "t;m;s;T", 0, rise[5:] - 1)
    (tmp_path / "enunciado.md").write_text(
        "# Enfriamiento de una pava\n\nColumnas: hora, minuto, segundo y temperatura `T` en "
        "°C.\n\n## Consignas\n1. Para cada pava, determinar la temperatura máxima registrada y "
        "el tiempo en que se alcanza.\n"
    )
    [first] = checklist(analyse(Folder(tmp_path)))
    assert first.given == [
        "The largest T in the data is 95.5 °C at time = 58 s (row 30) (desnuda.csv)",
        "The largest T in the data is 94.5 °C at time = 48 s (row 25) (vestida.csv)",
    ]
