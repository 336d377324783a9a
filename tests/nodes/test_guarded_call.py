"""The guarded call on its own: one pending call, the guard state, the real tools.

The read cache's promise is checked here: after each kind of change to what a call reads,
the answer the guarded call gives is exactly what a fresh call returns now.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from itertools import count
from pathlib import Path

import pytest
from PIL import Image, ImageDraw, ImageFont

from labscribe.guards import paths
from labscribe.guards.guard_state import GuardState
from labscribe.nodes.runtime.context import Context
from labscribe.nodes.tool_call import answer_call
from labscribe.tools import TOOLS_BY_NAME, Folder
from labscribe.tools.explorer import files

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
_ids = count(1)


class Explorer:
    """Calls as the explore loop makes them: one guard state, one growing history."""

    def __init__(self, root: Path) -> None:
        self.folder = Folder(root)
        self.guard = GuardState()
        self.history: list = []
        self.ctx = Context()

    def ask(self, tool: str, **args: object):
        call = {"name": tool, "args": args, "id": f"call-{next(_ids)}"}
        answered = answer_call(call, TOOLS_BY_NAME.get(tool), self.guard, self.ctx, self.folder,
                               self.history)  # fmt: skip
        self.guard = answered.judgement.state
        self.history.append(answered.message)
        return answered

    def fresh(self, tool: str, **args: object) -> str:
        return TOOLS_BY_NAME[tool].invoke(self.folder, dict(args)).content


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    (folder / "raw").mkdir(parents=True)
    (folder / "raw" / "sweep.csv").write_text("f,V\n1,2.00\n2,3.00\n")
    (folder / "raw" / "other.csv").write_text("t,x\n9,9.00\n")
    (folder / "notes.md").write_text("Resonance near 5 kHz.\n")
    return folder


def rewrite_keeping_size_and_mtime(path: Path, text: str) -> None:
    before = path.stat()
    assert len(text.encode()) == before.st_size
    path.write_text(text)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))


def swap_in_by_rename(path: Path, text: str) -> None:
    new = path.with_name(path.name + ".new")
    new.write_text(text)
    os.replace(new, path)


READ = ("read_file", {"path": "raw/sweep.csv"})
LIST = ("list_dir", {"path": "raw"})
Change = Callable[[Path], object]
FILE_CHANGES: dict[str, Change] = {
    "appended": lambda root: (root / "raw" / "sweep.csv").open("a").write("3,4.00\n"),
    "rewritten, same size, mtime put back": lambda root: rewrite_keeping_size_and_mtime(
        root / "raw" / "sweep.csv", "f,V\n1,9.99\n2,3.00\n"
    ),
    "replaced by rename": lambda root: swap_in_by_rename(
        root / "raw" / "sweep.csv", "f,V\n7,7.77\n"
    ),
    "truncated": lambda root: (root / "raw" / "sweep.csv").write_text(""),
    "deleted": lambda root: (root / "raw" / "sweep.csv").unlink(),
    "became a folder": lambda root: (
        (root / "raw" / "sweep.csv").unlink(),
        (root / "raw" / "sweep.csv").mkdir(),
    ),
    "made unreadable": lambda root: (root / "raw" / "sweep.csv").chmod(0),
}


def test_a_read_through_a_retargeted_symlink_is_what_a_fresh_read_returns(root: Path) -> None:
    link = root / "current.csv"
    link.symlink_to(root / "raw" / "sweep.csv")
    explorer = Explorer(root)
    explorer.ask("read_file", path="current.csv")
    link.unlink()
    link.symlink_to(root / "raw" / "other.csv")
    again = explorer.ask("read_file", path="current.csv")
    assert again.message.text == explorer.fresh("read_file", path="current.csv")
    assert "9.00" in again.message.text


LISTING_CHANGES: dict[str, Change] = {
    "a file inside grew": lambda root: (root / "raw" / "sweep.csv").write_text("x" * 5000),
    "a file was added": lambda root: (root / "raw" / "new.csv").write_text("a\n"),
    "a file was removed": lambda root: (root / "raw" / "other.csv").unlink(),
    "a file was renamed": lambda root: (root / "raw" / "other.csv").rename(root / "raw" / "b.csv"),
    "a file became a folder": lambda root: (
        (root / "raw" / "other.csv").unlink(),
        (root / "raw" / "other.csv").mkdir(),
    ),
    "a link now points outside": lambda root: (root / "raw" / "out.csv").symlink_to(
        root.parent / "elsewhere.csv"
    ),
}


CHANGES = {f"read_file: {k}": (READ, f) for k, f in FILE_CHANGES.items()} | {
    f"list_dir: {k}": (LIST, f) for k, f in LISTING_CHANGES.items()
}


@pytest.mark.parametrize("change", CHANGES, ids=list(CHANGES))
def test_a_cached_answer_is_what_a_fresh_call_returns_after_the_target(
    root: Path, change: str
) -> None:
    (tool, args), make_change = CHANGES[change]
    (root.parent / "elsewhere.csv").write_text("outside\n")
    explorer = Explorer(root)
    explorer.ask(tool, **args)
    make_change(root)
    again = explorer.ask(tool, **args)
    assert again.message.text == explorer.fresh(tool, **args)
    assert not again.cached


def test_an_unchanged_target_is_answered_from_the_cache_exactly(root: Path) -> None:
    explorer = Explorer(root)
    first = explorer.ask("read_file", path="raw/sweep.csv")
    again = explorer.ask("read_file", path="./raw//sweep.csv ")
    listing = [explorer.ask("list_dir", path=p) for p in ("raw", "./raw/")]
    assert again.cached and again.message.text == first.message.text
    assert again.message.text == explorer.fresh("read_file", path="raw/sweep.csv")
    assert [a.cached for a in listing] == [False, True]
    assert listing[1].message.text == explorer.fresh("list_dir", path="raw")


def test_a_cached_answer_carries_no_nudge_of_the_call_it_came_from(root: Path) -> None:
    explorer = Explorer(root)
    answers = [explorer.ask("read_file", path="notes.md") for _ in range(3)]
    assert "[labscribe]" in answers[2].message.text  # the 3rd identical read is warned
    explorer.ask("read_file", path="raw/sweep.csv")
    explorer.ask("read_file", path="raw/other.csv")
    later = explorer.ask("read_file", path="notes.md")  # a look back after two new reads
    assert later.cached
    assert later.message.text == explorer.fresh("read_file", path="notes.md")


def _picture(path: Path, text: str) -> None:
    image = Image.new("RGB", (480, 160), "white")
    ImageDraw.Draw(image).text((30, 50), text, fill="black", font=ImageFont.truetype(FONT, 48))
    image.save(path)


@pytest.mark.skipif(
    not Path(FONT).exists() and not os.environ.get("CI"),
    reason="needs the DejaVu font (.ci/run installs fonts-dejavu-core)",
)
def test_a_cached_image_reading_is_what_a_fresh_reading_returns_after_a_rewrite(
    root: Path,
) -> None:
    image = root / "scope.png"
    _picture(image, "R = 47.0 ohm")
    explorer = Explorer(root)
    first = explorer.ask("read_image", path="scope.png")
    before = image.stat()
    _picture(image, "R = 82.5 ohm")
    os.utime(image, ns=(before.st_atime_ns, before.st_mtime_ns))
    again = explorer.ask("read_image", path="scope.png")
    assert again.message.text == explorer.fresh("read_image", path="scope.png")
    assert "47.0" in first.message.text and "82.5" in again.message.text


@pytest.mark.parametrize(("tool", "args"), [READ, LIST], ids=["read_file", "list_dir"])
def test_a_guarded_call_resolves_its_path_once_and_lists_once(
    root: Path, monkeypatch: pytest.MonkeyPatch, tool: str, args: dict[str, str]
) -> None:
    """Its identity, its version and its run read the one resolution its preparation made;
    a listing, which is its own version, is made once."""
    resolved: list[object] = []
    listed: list[object] = []
    real_inside, first_names = paths._real_inside, files._first_names
    monkeypatch.setattr(paths, "_real_inside", lambda *a: resolved.append(a[1]) or real_inside(*a))
    monkeypatch.setattr(files, "_first_names", lambda *a: listed.append(a) or first_names(*a))
    answered = Explorer(root).ask(tool, **args)
    assert answered.message.text == Explorer(root).fresh(tool, **args)
    assert resolved == [args["path"], args["path"]]  # the guarded call's, then the fresh one's
    assert len(listed) == (2 if tool == "list_dir" else 0)
