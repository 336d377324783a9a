"""The one way anything is written below OUT/: never through a link found there.

OUT may exist before the run, and what is in it is not the run's: `events.jsonl` may be a
link to `~/.bashrc`, `figures/` or `build/` a link into the data folder. Following such a
link would append to the file it names, or put figures and TeX's output into the material.
So every file is created fresh (O_EXCL, O_NOFOLLOW) and renamed into place, which replaces a
link rather than writing through it; a log is opened without following a link, and a link
in its place is removed first; a folder found as a link is replaced by a real one.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import stat
import threading
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

_NEW = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
_APPEND = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC


def out_folder(path: Path) -> Path:
    """`path` made a real folder: created with its parents, and a link in its place removed
    first, so nothing written into it lands where the link pointed. A file there raises
    FileExistsError: it is the user's, not a folder to write into."""
    try:
        found = path.lstat()
    except FileNotFoundError:
        path.mkdir(parents=True, exist_ok=True)
        return path
    if stat.S_ISLNK(found.st_mode):
        path.unlink()
        path.mkdir()
    elif not stat.S_ISDIR(found.st_mode):
        raise FileExistsError(errno.EEXIST, "not a folder", str(path))
    return path


def fresh_folder(path: Path) -> Path:
    """`path` made an empty real folder, whatever was there: a link, a file, an earlier run's
    folder (removed without following a link in it)."""
    try:
        found = path.lstat()
    except FileNotFoundError:
        pass
    else:
        if stat.S_ISDIR(found.st_mode):
            shutil.rmtree(path)
        else:
            path.unlink()
    path.mkdir(parents=True)
    return path


def write_whole(path: Path, data: str | bytes) -> Path:
    """Replace `path` whole or not at all: a full disk never leaves half a file, and a link
    at `path` is replaced, not written through. Text that is not valid UTF-8 (a lone
    surrogate) is written as a backslash escape, never refused."""
    raw = data.encode("utf-8", "backslashreplace") if isinstance(data, str) else data
    return _replace(path, lambda handle: handle.write(raw))


def copy_whole(source: Path, target: Path) -> Path:
    """`source` copied to `target` as `write_whole` writes it."""
    with source.open("rb") as reading:
        return _replace(target, lambda handle: shutil.copyfileobj(reading, handle))


def copy_files(source: Path, target: Path) -> None:
    """Every regular file directly in `source` copied into the folder `target`; a link in
    `source` is not followed, so it copies nothing from where it points."""
    for entry in os.scandir(source):
        if entry.is_file(follow_symlinks=False):
            copy_whole(Path(entry.path), target / entry.name)


def open_log(path: Path) -> int:
    """`path` opened to append to, created if missing; a link there is removed and a fresh
    file made, so the log never appends to what the link names."""
    try:
        return os.open(path, _APPEND, 0o666)
    except OSError as exc:
        if exc.errno != errno.ELOOP:
            raise
    path.unlink()
    return os.open(path, _NEW, 0o666)


def _replace(path: Path, fill: Callable[[BinaryIO], object]) -> Path:
    """`path` replaced by a fresh file that `fill` writes, renamed into place."""
    # A name of this writer's own: two processes saving one file (two batch clients on one
    # manifest) must never replace each other's half-written copy.
    partial = path.with_name(f".{path.name}.{os.getpid()}-{threading.get_ident()}.partial")
    try:
        with os.fdopen(os.open(partial, _NEW, 0o666), "wb") as handle:
            fill(handle)
        os.replace(partial, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(partial)
    return path
