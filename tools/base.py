"""The folder every explore tool acts on, how a file in it is opened and versioned, and
the error channel a tool answers the model with."""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import os
import stat
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from labscribe.guards.paths import (
    is_inside,
    opened_path,
    real_path,
    relative_to,
    resolve_under,
)
from labscribe.tools.messages import (
    CANNOT_READ,
    FOLDER_CHANGED_ERROR,
    IS_A_DIRECTORY,
    NO_SUCH_FILE,
    NOT_A_DIRECTORY,
    NOT_A_FILE,
    PATH_OUTSIDE_ERROR,
    PERMISSION_DENIED,
)


class ToolError(Exception):
    """A failure the model can fix: returned to it as an error tool result, never raised on."""


def folder_identity(root: Path | str) -> tuple[int, int]:
    """Which folder `root` names now: its (st_dev, st_ino). OSError if it names none."""
    info = os.stat(root)
    return info.st_dev, info.st_ino


@dataclass(frozen=True)
class Folder:
    """The data folder the explorer may read. Nothing outside `root` is reachable."""

    root: Path
    figures: Path | None = None
    """Where make_figure saves PNGs (OUT/figures); None when figures cannot be kept."""
    vision: Callable[[bytes, str], str] | None = None
    """Reads an image with a vision-capable model; None: read_image runs OCR."""
    analysis: Mapping[str, Any] = field(default_factory=dict)
    """The analysis so far (tools.analysis.folder.Analysis as JSON, with the explorer's fits and
    derived quantities): what `derive` computes with, handed only to a tool that reads it
    (`Tool.reads_analysis`)."""
    identity: tuple[int, int] | None = None
    """The folder's `folder_identity` when the run started; None: as `root` names it now.
    Every access opens the folder and checks it, so a folder moved, replaced or swapped for
    a link to somewhere else after the run started is refused, never read."""
    resolved: Mapping[str, Path] = field(default_factory=dict)
    """Where a prepared call's paths resolved, by how the call spelled them (`Tool.prepare`):
    its version and its run read them without resolving them again. Whatever they open is
    still checked as opened (`open`)."""

    def __post_init__(self) -> None:
        if self.identity is None:
            with contextlib.suppress(OSError):  # a missing folder: every access says so
                object.__setattr__(self, "identity", folder_identity(self.root))

    def resolve(self, requested: str | None) -> Path:
        """The real path of `requested` inside the folder, or a ToolError the model reads."""
        if requested in self.resolved:
            return self.resolved[requested]
        target = resolve_under(self.base(), requested)
        if target is None:
            raise ToolError(PATH_OUTSIDE_ERROR.format(path=requested))
        return target

    def resolving(self, requested: Iterable[Any]) -> Folder:
        """This folder, remembering where each of the paths `requested` resolves inside it."""
        found = {}
        for path in requested:
            if isinstance(path, str):
                with contextlib.suppress(ToolError):  # the call's run says why, as it reads
                    found[path] = self.resolve(path)
        return dataclasses.replace(self, resolved={**self.resolved, **found})

    def relative(self, path: Path) -> str:
        """`path` as the model should name it: relative to the folder, POSIX separators."""
        return relative_to(Path(self.base()), path)

    def base(self) -> str:
        """The folder's real path, once it is checked to be the run's folder."""
        fd = self._opened_root()
        try:
            return self._base_of(fd)
        finally:
            os.close(fd)

    def open(self, path: Path, *, directory: bool = False) -> int:
        """A descriptor for `path` (which the path guard resolved), or a ToolError.

        Opened beneath the folder as opened and checked (`openat`), then checked as opened:
        it must lie inside the folder, so a symlink that a second writer (a sync client, a
        shared drive) swapped in after the path guard's check is refused, not read, and so
        is the folder itself moved or swapped for another.
        """
        root = self._opened_root()
        try:
            base = self._base_of(root)
            inside = is_inside(base, str(path))
            name = relative_to(Path(base), path) if inside else path.name
            beneath = os.path.relpath(path, base) if inside else str(path)
            fd = open_regular(Path(beneath), name, directory=directory, dir_fd=root)
        finally:
            os.close(root)
        try:
            real = opened_path(fd)
            if real is None:  # no /proc: the descriptor must be the file the path names now
                opened, here = os.fstat(fd), os.stat(path)
                same = (here.st_ino, here.st_dev) == (opened.st_ino, opened.st_dev)
                real = str(path) if same else ""
            if not is_inside(base, real):
                raise ToolError(PATH_OUTSIDE_ERROR.format(path=name))
        except BaseException:
            os.close(fd)
            raise
        return fd

    def _base_of(self, root: int) -> str:
        """The real path of the folder open as `root`; without /proc, as `root` names it."""
        return opened_path(root) or real_path(str(self.root))

    def _opened_root(self) -> int:
        """The folder opened (O_PATH) and checked to be the one the run started with."""
        try:
            fd = os.open(self.root, os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC)
        except OSError as exc:
            raise ToolError(FOLDER_CHANGED_ERROR.format(root=self.root)) from exc
        info = os.fstat(fd)
        if self.identity is not None and (info.st_dev, info.st_ino) != tuple(self.identity):
            os.close(fd)
            raise ToolError(FOLDER_CHANGED_ERROR.format(root=self.root))
        return fd


def open_regular(
    path: Path, name: str, *, directory: bool = False, dir_fd: int | None = None
) -> int:
    """`path` (relative to `dir_fd` when given) opened for reading if it is a regular file
    (or, with `directory`, a folder); otherwise a ToolError that says what it is. It is opened
    without blocking and without a controlling terminal, since opening a FIFO or a device
    could block or never end."""
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC
    try:
        fd = os.open(path, flags | (os.O_DIRECTORY if directory else 0), dir_fd=dir_fd)
    except OSError as exc:
        raise cannot_read(name, exc) from exc
    mode = os.fstat(fd).st_mode
    if (stat.S_ISDIR if directory else stat.S_ISREG)(mode):
        os.set_blocking(fd, True)
        return fd
    os.close(fd)
    if stat.S_ISDIR(mode):
        raise cannot_read(name, IsADirectoryError())
    raise ToolError(CANNOT_READ.format(name=name, reason=NOT_A_FILE))


def version_in(folder: Folder, rel: str) -> str | None:
    """`file_version` of the file `rel` names in `folder`, or None if none is readable there."""
    try:
        return file_version(folder.resolve(rel))
    except (ToolError, OSError):
        return None


def file_version(path: Path) -> str:
    """Which file `path` is now and which state it is in (`stat_version`); raises OSError
    if it is gone."""
    return stat_version(path.stat())


def path_version(folder: Folder, args: Any) -> str:
    """The version of the file a call names by its `path` argument (`file_version`)."""
    return file_version(folder.resolve(args.path))


def stat_version(info: os.stat_result) -> str:
    """The version of the file `info` describes. The inode is in it: a same-size replacement
    renamed over the file with its mtime preserved (rsync -t, cp -p) is still a different
    file. So is the change time, which moves on every write and cannot be set back: a
    rewrite in place that keeps the size and restores the mtime is still a new version."""
    return f"{info.st_dev}:{info.st_ino}:{info.st_size}:{info.st_mtime_ns}:{info.st_ctime_ns}"


def os_reason(exc: OSError) -> str:
    """A short, model-readable reason for an OS-level failure."""
    if isinstance(exc, PermissionError):
        return PERMISSION_DENIED
    if isinstance(exc, FileNotFoundError):
        return NO_SUCH_FILE
    if isinstance(exc, IsADirectoryError):
        return IS_A_DIRECTORY
    if isinstance(exc, NotADirectoryError):
        return NOT_A_DIRECTORY
    if exc.errno in (errno.ENXIO, errno.ENODEV):  # what open(2) says of a socket
        return NOT_A_FILE
    return exc.strerror or type(exc).__name__


def cannot_read(name: str, exc: OSError) -> ToolError:
    """Why the file `name` cannot be read, as the model reads it."""
    return ToolError(CANNOT_READ.format(name=name, reason=os_reason(exc)))


def human_size(n: float) -> str:
    """`1234567` as `1.2 MB`: sizes as the model and users read them."""
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{int(n)} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    raise AssertionError("unreachable")
