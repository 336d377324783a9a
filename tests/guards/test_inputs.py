from pathlib import Path

from labscribe.guards.inputs import folder_problem, out_problem


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
    assert "is a file, not a folder" in (out_problem(file) or "")


def test_out_problem_none_for_a_new_folder_under_a_writable_one(tmp_path: Path) -> None:
    assert out_problem(tmp_path / "new" / "deeper") is None


def test_out_problem_under_a_file(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("x")
    assert "is not writable" in (out_problem(tmp_path / "f" / "out") or "")
