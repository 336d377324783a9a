"""The read cache's key: a call's identity and the version of what it reads.

An answer is served from the cache only under the same key, so the key must change with
every change a fresh answer would show, and only then.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from labscribe.guards.guard_state import call_key
from labscribe.tools import Folder
from labscribe.tools.explorer.files import LIST_DIR, READ_FILE


def key(folder: Folder, tool, **args) -> str | None:
    prepared = tool.prepare(folder, args)
    version = prepared.version
    return None if version is None else call_key(tool.name, prepared.identity, version)


@pytest.fixture
def folder(tmp_path: Path) -> Folder:
    (tmp_path / "raw").mkdir()
    (tmp_path / "raw" / "a.csv").write_text("t,v\n1,2\n")
    return Folder(tmp_path)


def restore_mtime_after(change: Callable[[Path], object]) -> Callable[[Path], object]:
    def run(path: Path) -> None:
        before = path.stat()
        change(path)
        os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))

    return run


FILE_CHANGES = {
    "appended": lambda p: p.open("a").write("3,4\n"),
    "same size, mtime put back": restore_mtime_after(lambda p: p.write_text("t,v\n9,9\n")),
    "replaced by rename": lambda p: (p.with_suffix(".new").write_text("x\n"),
                                     os.replace(p.with_suffix(".new"), p)),
    "permissions": lambda p: p.chmod(0o600),
}  # fmt: skip


@pytest.mark.parametrize("change", FILE_CHANGES)
def test_cache_key_of_a_read_changes_with_the_file(folder: Folder, change: str) -> None:
    before = key(folder, READ_FILE, path="raw/a.csv")
    FILE_CHANGES[change](folder.root / "raw" / "a.csv")
    assert key(folder, READ_FILE, path="raw/a.csv") not in (before, None)


DIR_CHANGES = {
    "a file inside grew": lambda d: (d / "a.csv").write_text("t,v\n" + "1,2\n" * 400),
    "a file added": lambda d: (d / "b.csv").write_text("x\n"),
    "a file removed": lambda d: (d / "a.csv").unlink(),
}


@pytest.mark.parametrize("change", DIR_CHANGES)
def test_cache_key_of_a_listing_changes_with_what_it_shows(folder: Folder, change: str) -> None:
    before = key(folder, LIST_DIR, path="raw")
    DIR_CHANGES[change](folder.root / "raw")
    assert key(folder, LIST_DIR, path="raw") not in (before, None)


def test_cache_key_is_the_same_for_every_spelling_of_an_unchanged_target(folder: Folder) -> None:
    reads = {key(folder, READ_FILE, path=p) for p in ("raw/a.csv", "./raw//a.csv", "raw/a.csv ")}
    listings = {key(folder, LIST_DIR, path=p) for p in ("raw", "raw/", "./raw/../raw")}
    assert len(reads) == len(listings) == 1


def test_a_missing_target_has_no_cache_key(folder: Folder) -> None:
    assert key(folder, READ_FILE, path="raw/missing.csv") is None
    assert key(folder, LIST_DIR, path="nowhere") is None
