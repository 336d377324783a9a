"""Lines of 200,000 characters where the analysis matches patterns on untrusted text: a
header cell, a settings line, a task, cells in engineering notation. Each pattern runs in
linear time, so such a folder is analysed as any other. The analysis runs in a worker forked
under a wall-clock bound (tools/worker.py, as a run reads untrusted files): a quadratic
pattern would take hours."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from labscribe.tools.analysis.folder import analyse
from labscribe.tools.formulas.formula_notation import formula_in
from labscribe.tools.tool import Folder
from labscribe.tools.worker import Bounds, in_worker

LONG = 200_000
BOUNDS = Bounds(memory=4 << 30, cpu_seconds=120, wall_seconds=120, max_answer=64 << 20)


def bounded(work: Callable[[], str]) -> str:
    """`work()` in a forked worker, killed at two minutes."""
    return in_worker(lambda: work().encode(), BOUNDS).answer.decode()


def analysed(folder: Path) -> dict:
    return json.loads(
        bounded(lambda: analyse(Folder(folder), budget_seconds=1e9).model_dump_json())
    )


def test_analyse_reads_run_labels_after_a_long_blank(tmp_path: Path) -> None:
    blank = " " * LONG
    rows = "\n".join(f"{i},{2 * i},{i},{3 * i}" for i in range(10))
    header = f"t{blank}(s) run 1,x (m) run 1,t{blank}(s) run 2,x (m) run 2"
    (tmp_path / "runs.csv").write_text(f"{header}\n{rows}\n")
    tables = analysed(tmp_path)["tables"]
    assert [(t["title"], [c["name"] for c in t["columns"]]) for t in tables] == [
        ("run 1", ["t", "x"]), ("run 2", ["t", "x"])
    ]  # fmt: skip


def test_analyse_reads_settings_beside_a_line_with_a_long_blank(tmp_path: Path) -> None:
    blank = " " * LONG
    (tmp_path / "params.ini").write_text(
        f"[amplifier]\ngain = 20 ; set by hand\nwired by{blank}hand\n"
    )
    rows = analysed(tmp_path)["parameters"]
    assert [(r["name"], r["value"], r["comment"]) for r in rows] == [("gain", "20", "set by hand")]


def test_formula_in_reads_a_sentence_of_one_long_word() -> None:
    """Tasks are cut to 600 characters before this reads them; the pattern is linear anyway."""
    assert bounded(lambda: repr(formula_in("T" * LONG))) == "None"


def test_analyse_refuses_long_cells_as_engineering_notation(tmp_path: Path) -> None:
    short = "".join(f"{i},{i + 1}.5m\n" for i in range(400))
    long = "".join(f"{i},{'1' * LONG}x\n" for i in range(400, 403))
    (tmp_path / "volts.csv").write_text(f"t (s),U\n{short}{long}")
    table = analysed(tmp_path)["tables"][0]
    assert table["rows"] == 400  # the rows of long cells hold one number: no data rows
    assert next(c for c in table["columns"] if c["name"] == "U")["maximum"] == 0.4005


def test_analyse_reads_a_handout_of_long_lines(tmp_path: Path) -> None:
    """A handout's line of commas, blanks, markers or colons: its tasks are still read."""
    long = "\n\n".join(
        ["Tasks:\n1. From a, determine g.", ", " * (LONG // 2), "(a) " * (LONG // 4),
         "Aim: " + ":" * LONG, "- x" + " " * LONG + "y", "Q1. " + "a, " * (LONG // 3)]
    )  # fmt: skip
    for name in ("handout.txt", "handout.md", "handout.tex"):
        folder = tmp_path / name.replace(".", "_")
        folder.mkdir()
        (folder / name).write_text(long)
        assert "From a, determine g." in analysed(folder)["tasks"], name
