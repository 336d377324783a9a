"""A task asked for every case names the data files the report did not fit
(tools.assignment.coverage): past the limits on files and tables, or after the analysis time ran
out."""

from pathlib import Path

import pytest

from labscribe.tools.analysis.folder import analyse
from labscribe.tools.assignment.checklist import checklist
from labscribe.tools.assignment.coverage import natural_order, not_covered
from labscribe.tools.tool import Folder


@pytest.mark.parametrize(
    "task",
    [
        "Fit a sine to each capture.",
        "Bestäm l = λ/I för varje spänning U genom regression.",
        "각 주파수에서 CH1, CH2 파형을 정현파로 피팅하라.",
        "Bestimmen Sie für jede Spannung die Dämpfung.",
        "Pour chaque tension, ajustez une exponentielle.",
        "对每组数据拟合直线。",
    ],
)
def test_a_task_for_every_case_names_the_files_not_fitted(task: str) -> None:
    left = not_covered(task, ["9_v.txt", "10_v.txt", "7_v.txt"])
    assert left.startswith("3 of the folder's data files are not fitted in this report")
    assert "(7_v.txt, 9_v.txt, 10_v.txt: see what was left out)" in left


@pytest.mark.parametrize(
    "task",
    [
        "Fit a line to the calibration run.",
        "위상차(각도)를 구하라.",  # 각도 is an angle, not "each"
        "Plot U against t.",
    ],
)
def test_a_task_for_one_case_is_left_as_it_is(task: str) -> None:
    assert not_covered(task, ["9_v.txt"]) == ""


def test_nothing_is_left_where_every_file_was_fitted() -> None:
    assert not_covered("Fit a sine to each capture.", []) == ""


def test_numbers_in_names_sort_as_numbers() -> None:
    names = ["10_v.txt", "1_v.txt", "9_v.txt", "F0012.csv", "F0002.csv"]
    assert sorted(names, key=natural_order) == [
        "1_v.txt", "9_v.txt", "10_v.txt", "F0002.csv", "F0012.csv"
    ]  # fmt: skip


def test_files_reached_after_the_time_ran_out_are_not_fitted(tmp_path: Path) -> None:
    (tmp_path / "assignment.md").write_text(
        "# Cooling\n\n## Tasks\n1. Fit a straight line to each run.\n"
    )
    for run in (1, 2, 3):
        rows = "\n".join(f"{t},{20 + run * t + (t % 3) * 0.1}" for t in range(12))
        (tmp_path / f"run{run}.csv").write_text("t,T\n" + rows + "\n")
    analysis = analyse(Folder(tmp_path), budget_seconds=0.0)
    assert sorted(analysis.not_fitted) == ["run1.csv", "run2.csv", "run3.csv"]
    (row,) = checklist(analysis)
    assert row.left == "all of it", row  # nothing was read: never "checking"
