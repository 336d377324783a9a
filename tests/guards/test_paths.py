from pathlib import Path

import pytest
from path_cases import resolve_inside

from labscribe.guards.paths import canonical_path


@pytest.fixture
def root(tmp_path: Path) -> Path:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "a.csv").write_text("x\n")
    (tmp_path / "data" / "sub").mkdir()
    (tmp_path / "secret.txt").write_text("secret\n")
    return tmp_path / "data"


@pytest.mark.parametrize("requested", ["a.csv", "./a.csv", "sub/../a.csv", "sub"])
def test_resolve_inside_accepts_paths_inside(root: Path, requested: str) -> None:
    assert resolve_inside(root, requested) == (root / requested).resolve()


@pytest.mark.parametrize("requested", [None, "", "."])
def test_resolve_inside_treats_empty_as_root(root: Path, requested: str | None) -> None:
    assert resolve_inside(root, requested) == root.resolve()


@pytest.mark.parametrize(
    "requested", ["../secret.txt", "sub/../../secret.txt", "/etc/passwd", "missing.csv", "a\0b"]
)
def test_resolve_inside_refuses_outside_or_missing(root: Path, requested: str) -> None:
    assert resolve_inside(root, requested) is None


def test_resolve_inside_refuses_symlink_out_of_the_folder(root: Path) -> None:
    (root / "link.txt").symlink_to(root.parent / "secret.txt")
    assert resolve_inside(root, "link.txt") is None


def test_resolve_inside_follows_symlink_that_stays_inside(root: Path) -> None:
    (root / "alias.csv").symlink_to(root / "a.csv")
    assert resolve_inside(root, "alias.csv") == (root / "a.csv").resolve()


def test_resolve_inside_accepts_absolute_path_inside(root: Path) -> None:
    assert resolve_inside(root, str(root / "a.csv")) == (root / "a.csv").resolve()


@pytest.mark.parametrize("requested", ["A.csv", "./A.CSV", "SUB/../a.CSV", "Sub", " a.Csv "])
def test_a_spelling_that_differs_only_by_case_is_the_one_entry_it_matches(
    root: Path, requested: str
) -> None:
    assert resolve_inside(root, requested) == (root / requested.strip().lower()).resolve()


def test_case_is_never_guessed_between_two_entries_or_out_of_the_folder(root: Path) -> None:
    (root / "B.csv").write_text("1\n")
    (root / "b.CSV").write_text("2\n")
    (root / "out").symlink_to(root.parent)
    assert resolve_inside(root, "b.csv") is None  # two entries match: neither is meant
    assert resolve_inside(root, "../SECRET.txt") is None
    assert resolve_inside(root, "OUT/secret.txt") is None  # through a link out of the folder
    assert canonical_path(root, "B.csv") == "B.csv"
    assert canonical_path(root, "./NOTES.md") == "!NOTES.md"
