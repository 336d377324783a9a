"""What every tool answers the model with, an `Answer` or a ToolError that says why (an OS
failure in words the model reads), and a file in the folder opened checked: a regular
file (or a folder), never a FIFO or a device. The folder itself is tools/tool's `Folder`."""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from labscribe.tools.messages import (
    CANNOT_READ,
    IS_A_DIRECTORY,
    NO_SUCH_FILE,
    NOT_A_DIRECTORY,
    NOT_A_FILE,
    PERMISSION_DENIED,
)


@dataclass(frozen=True)
class Answer:
    """What a tool shows the model, and, for a window of a file, which lines it showed."""

    text: str
    lines: tuple[int, int] | None = None
    """First and last line shown, 1-based: how the loop guards tell windows apart."""
    compared: int | None = None
    """How many leading characters of `text` say what was shown, when the rest only echoes
    the request (a continuation note naming the `limit` asked for); None: all of it."""
    record: dict[str, Any] | None = None
    """What the call adds to the run's state (a figure kept, a fit, a derived quantity)."""
    shows: str | None = None
    """What the answer showed, where its text names something else: a figure by its
    picture, not by the free file name each run gets (`slow-2.png`); None: the text."""


class ToolError(Exception):
    """A failure the model can fix: returned to it as an error tool result, never raised on."""


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
