from pathlib import Path

import pytest
from path_cases import resolve_inside

from labscribe.guards.guard_state import (
    Meaning,
    answer_key,
    call_key,
    identify,
    normalise_code,
    without_window,
)
from labscribe.guards.paths import canonical_path

READ = Meaning(paths=("path",), window=("offset", "limit"))
FIGURE = Meaning(code=("code",), ignored=("name", "caption"))


@pytest.fixture
def root(tmp_path: Path) -> Path:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "sweep.csv").write_text("f,V\n1,2\n")
    (tmp_path / "data" / "sweep.csv.bak").write_text("old\n")
    return tmp_path


@pytest.mark.parametrize(
    "spelling",
    [
        "data/sweep.csv",
        "./data/sweep.csv",
        "data//sweep.csv",
        "data/./sweep.csv",
        "data/sweep.csv  ",
        " data/sweep.csv\n",
        "`data/sweep.csv`",
        '"data/sweep.csv"',
        "data\\sweep.csv",
        "data/../data/sweep.csv",
    ],
)
def test_one_file_spelled_many_ways_is_one_path(root: Path, spelling: str) -> None:
    assert canonical_path(root, spelling) == "data/sweep.csv"
    assert resolve_inside(root, spelling) == (root / "data" / "sweep.csv").resolve()


@pytest.mark.parametrize("spelling", [".", "./", "", "data/..", "data/../.", None])
def test_one_folder_spelled_many_ways_is_one_path(root: Path, spelling: str | None) -> None:
    assert canonical_path(root, spelling) == "."


def test_files_that_share_a_prefix_stay_different(root: Path) -> None:
    assert canonical_path(root, "data/sweep.csv.bak") != canonical_path(root, "data/sweep.csv")


def test_a_symlink_is_the_file_it_points_to(root: Path) -> None:
    (root / "link.csv").symlink_to(root / "data" / "sweep.csv")
    assert canonical_path(root, "link.csv") == "data/sweep.csv"


def test_missing_paths_are_normalised_as_written_and_never_equal_a_real_file(root: Path) -> None:
    spellings = ["data/run_1.xlsx", "./data/run_1.xlsx", "data//run_1.xlsx ", "data\\run_1.xlsx"]
    assert {canonical_path(root, s) for s in spellings} == {"!data/run_1.xlsx"}
    assert canonical_path(root, "../secret.txt") == "!../secret.txt"
    assert canonical_path(root, "data/run_2.xlsx") != canonical_path(root, "data/run_1.xlsx")


def test_a_path_outside_is_not_rescued_by_stripping(root: Path) -> None:
    (root / "outside.txt").write_text("secret\n")
    assert resolve_inside(root / "data", "../outside.txt ") is None
    assert resolve_inside(root / "data", "`../outside.txt`") is None


def test_identity_resolves_paths_and_drops_descriptions(root: Path) -> None:
    one = identify(READ, root, {"path": "./data//sweep.csv", "offset": 0, "limit": 200})
    assert one == {"path": "data/sweep.csv", "offset": 0, "limit": 200}
    caption = identify(FIGURE, root, {"code": "plot()", "name": "f1", "caption": "A"})
    assert caption == identify(FIGURE, root, {"code": "plot()", "name": "f2", "caption": "B"})


def read_key(root: Path, lines: tuple[int, int] | None, shown: str = "same", **args) -> str:
    target = call_key("read_file", without_window(READ, identify(READ, root, args)))
    return answer_key("read_file", target, lines, shown)


def test_a_read_is_the_window_it_returned(root: Path) -> None:
    asked = {read_key(root, (1, 70), path="data/sweep.csv", limit=n) for n in (200, 400, 800)}
    assert len(asked) == 1
    assert read_key(root, (71, 140), path="data/sweep.csv") not in asked
    assert read_key(root, (1, 70), "changed", path="data/sweep.csv") not in asked


def test_a_read_without_a_window_is_its_arguments_and_its_answer(root: Path) -> None:
    assert read_key(root, None, path="missing.csv") == read_key(root, None, path="./missing.csv")
    assert read_key(root, None, path="missing.csv") != read_key(root, None, path="other.csv")


CODE = """\
import matplotlib.pyplot as plt
import pandas as pd
df = pd.read_csv("data/sweep.csv")
plt.plot(df["f"], df["V"])
plt.xlabel("f (Hz)")
"""


@pytest.mark.parametrize(
    "variant",
    [
        CODE.replace('plt.xlabel("f (Hz)")', 'plt.xlabel("f (Hz)")  # the frequency axis'),
        "# resonance plot\n\n" + CODE.replace("\n", "\n\n"),
        CODE.replace('df["f"], df["V"]', 'df["f"] ,  df["V"]'),
        CODE.replace('"data/sweep.csv"', "'data/sweep.csv'"),
        CODE.replace("plt.plot(", "plt.plot(\n    ").replace(', df["V"])', ',\n    df["V"],\n)'),
    ],
)
def test_figure_code_is_compared_without_comments_or_layout(variant: str) -> None:
    assert normalise_code(variant) == normalise_code(CODE)


def test_figure_code_changed_only_by_what_it_never_uses_is_the_same_code() -> None:
    # issue 27: a slow figure asked again with a comment and an unused constant added
    padded = '"""Resonance."""\nSLOW = 20  # seconds\n' + CODE + '"the sweep"\nUNUSED: int = 3\n'
    assert normalise_code(padded) == normalise_code(CODE)
    used = CODE.replace('df["V"])', 'df["V"] * SCALE)').replace(
        "import pandas", "SCALE = 2\nimport pandas"
    )
    assert normalise_code(used) != normalise_code(CODE)  # a constant it reads changes it


def test_figure_code_that_does_something_else_stays_different() -> None:
    other = CODE.replace('df["V"]', 'df["V"] * 2')
    assert normalise_code(other) != normalise_code(CODE)


def test_code_that_does_not_parse_is_still_compared_without_comments() -> None:
    broken = "plt.plot(x,   y  # draw\nplt.show("
    assert normalise_code(broken) == normalise_code("plt.plot(x, y\n\nplt.show(")
    assert normalise_code("def f(:\n  pass") != normalise_code("def g(:\n  pass")
