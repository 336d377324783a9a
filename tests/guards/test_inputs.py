from pathlib import Path

import pytest

from labscribe.guards.paths import folder_problem, out_problem


def test_folder_problem_missing(tmp_path: Path) -> None:
    assert (
        folder_problem(tmp_path / "nope")
        == f"the data folder {str(tmp_path / 'nope')!r} does not exist"
    )


def test_folder_problem_file(tmp_path: Path) -> None:
    file = tmp_path / "a.csv"
    file.write_text("x")
    assert "is a file, not a folder" in (folder_problem(file) or "")


def test_folder_problem_empty(tmp_path: Path) -> None:
    assert "is empty" in (folder_problem(tmp_path) or "")


def test_folder_problem_none_for_a_folder_with_files(tmp_path: Path) -> None:
    (tmp_path / "a.csv").write_text("x")
    assert folder_problem(tmp_path) is None


def test_out_problem_file(tmp_path: Path) -> None:
    file = tmp_path / "out"
    file.write_text("x")
    assert "is a file, not a folder" in (out_problem(file, tmp_path / "data") or "")


def test_out_problem_none_for_a_new_folder_under_a_writable_one(tmp_path: Path) -> None:
    assert out_problem(tmp_path / "new" / "deeper", tmp_path / "data") is None


def test_out_problem_under_a_file(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("x")
    assert "is not writable" in (out_problem(tmp_path / "f" / "out", tmp_path / "data") or "")


@pytest.mark.parametrize("inside", [".", "reports", "reports/new/deeper", "sub/../reports"])
def test_out_problem_refuses_the_data_folder_and_any_folder_inside_it(
    tmp_path: Path, inside: str
) -> None:
    data = tmp_path / "data"
    (data / "sub").mkdir(parents=True)
    problem = out_problem(data / inside, data) or ""
    assert "is the data folder or inside it" in problem


def test_out_problem_sees_through_a_link_into_the_data_folder(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (tmp_path / "alias").symlink_to(data)
    assert "inside it" in (out_problem(tmp_path / "alias" / "out", data) or "")
    assert out_problem(tmp_path / "data-reports", data) is None  # a sibling that shares a prefix
