"""The folder-reading tools: list_dir and read_file."""

from __future__ import annotations

import heapq
import os
from collections.abc import Iterable, Iterator
from pathlib import Path

from pydantic import BaseModel, Field

from labscribe.guards.detectors import ToolClass
from labscribe.guards.guard_state import Meaning, digest
from labscribe.guards.paths import is_inside, printable, real_path
from labscribe.tools.base import Answer, ToolError, human_size, os_reason
from labscribe.tools.explorer.reading import READ_CHARS, read_part
from labscribe.tools.messages import CANNOT_LIST, FILE_NOT_FOLDER, FOLDER_NOT_FILE
from labscribe.tools.tool import Folder, Tool, Versioned, path_version

LIST_LIMIT = 200  # entries shown per listing; a folder with more is summarised, not dumped


class ListDirArgs(BaseModel):
    path: str = Field(default=".", description="Folder to list, relative to the data folder.")


# Beyond any file's line count; below sys.maxsize, which line iteration cannot pass.
MAX_LINE_NUMBER = 10**15


class ReadFileArgs(BaseModel):
    path: str = Field(description="File to read, relative to the data folder.")
    offset: int = Field(default=0, le=MAX_LINE_NUMBER, description="First line to read (0-based).")
    limit: int = Field(default=200, le=MAX_LINE_NUMBER, description="How many lines to read.")


def list_dir(folder: Folder, args: ListDirArgs) -> str:
    return "\n".join(_listing(folder, args.path))


def _listed(listing: str) -> Versioned:
    """A folder's own mtime misses a file inside it that grew: the version is the listing,
    and the listing is the answer."""
    return Versioned(digest(listing), listing)


def _listing(folder: Folder, requested: str) -> list[str]:
    """The lines of a listing: a header, then one line per entry shown (name, kind, size)."""
    target = folder.resolve(requested)
    if not target.is_dir():
        raise ToolError(FILE_NOT_FOLDER.format(path=requested))
    fd = folder.open(target, directory=True)
    try:
        with os.scandir(fd) as found:
            names, total = _first_names(found, LIST_LIMIT)
    except OSError as exc:
        raise ToolError(CANNOT_LIST.format(path=requested, reason=os_reason(exc))) from exc
    finally:
        os.close(fd)
    base = folder.base()
    shown = [_describe(base, target / name) for name in names]
    header = f"{folder.relative(target)}: {total} entries"
    if total > LIST_LIMIT:
        shown.append(f"... {total - LIST_LIMIT} more entries not shown")
    return [header, *shown] if shown else [f"{header} (empty folder)"]


def _first_names(entries: Iterable[os.DirEntry[str]], limit: int) -> tuple[list[str], int]:
    """The first `limit` names in order, and how many there are: a folder of a million files
    costs the listing `limit` names of memory, not a million."""
    total = 0

    def names() -> Iterator[str]:
        nonlocal total
        for entry in entries:
            total += 1
            yield entry.name

    first = heapq.nsmallest(limit, names())
    return first, total


def _describe(base: str, path: Path) -> str:
    """One entry as a listing shows it; `base` is the data folder's real path."""
    name = printable(path.name)
    try:
        real = real_path(str(path))
    except OSError:  # a dangling link, or one that points at itself
        return f"{name} -> broken link (not readable)"
    if not is_inside(base, real):
        return f"{name} -> link outside the data folder (not readable)"
    if os.path.isdir(real):
        return f"{name}/"
    try:
        return f"{name}  ({human_size(os.stat(real).st_size)})"
    except OSError:
        return f"{name}  (unreadable)"


def read_file(folder: Folder, args: ReadFileArgs) -> Answer:
    target = folder.resolve(args.path)
    if target.is_dir():
        raise ToolError(FOLDER_NOT_FILE.format(path=args.path))
    name = folder.relative(target)
    return read_part(target, args.offset, args.limit, display_name=name, fd=folder.open(target))


LIST_DIR = Tool(
    name="list_dir",
    description=(
        "List the files and folders at `path` inside the data folder, with sizes. "
        "Start with list_dir(path='.')."
    ),
    args_schema=ListDirArgs,
    run=list_dir,
    tool_class=ToolClass.READ_ONLY,
    meaning=Meaning(paths=("path",)),
    version=lambda folder, args: _listed(list_dir(folder, args)),
)

READ_FILE = Tool(
    name="read_file",
    description=(
        f"Read a text, CSV or PDF file inside the data folder, `limit` lines from line "
        f"`offset`, at most {READ_CHARS} characters per call. Long files are read in pages: "
        "the result says which offset to continue from."
    ),
    args_schema=ReadFileArgs,
    run=read_file,
    tool_class=ToolClass.READ_ONLY,
    meaning=Meaning(paths=("path",), window=("offset", "limit")),
    version=path_version,
)
