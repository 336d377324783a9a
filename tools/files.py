"""The folder-reading tools: list_dir and read_file."""

from __future__ import annotations

import os
from pathlib import Path

from pydantic import BaseModel, Field

from labscribe.guards.fingerprint import digest
from labscribe.guards.identity import Meaning
from labscribe.guards.ladder import ToolClass
from labscribe.tools.base import Answer, Folder, Tool, ToolError, file_version, human_size
from labscribe.tools.reading import READ_CHARS, read_part

LIST_LIMIT = 200  # entries shown per listing; a folder with more is summarised, not dumped


class ListDirArgs(BaseModel):
    path: str = Field(default=".", description="Folder to list, relative to the data folder.")


class ReadFileArgs(BaseModel):
    path: str = Field(description="File to read, relative to the data folder.")
    offset: int = Field(default=0, description="First line to read (0-based).")
    limit: int = Field(default=200, description="How many lines to read.")


def list_dir(folder: Folder, args: ListDirArgs) -> str:
    return "\n".join(_listing(folder, args.path))


def _listing(folder: Folder, requested: str) -> list[str]:
    """The lines of a listing: a header, then one line per entry shown (name, kind, size)."""
    target = folder.resolve(requested)
    if not target.is_dir():
        raise ToolError(f"{requested!r} is a file, not a folder; read it with read_file")
    try:
        entries = sorted(os.scandir(target), key=lambda entry: entry.name)
    except OSError as exc:
        raise ToolError(f"cannot list {requested!r}: {exc.strerror or exc}") from exc
    shown = [_describe(folder, Path(entry.path)) for entry in entries[:LIST_LIMIT]]
    header = f"{folder.relative(target)}: {len(entries)} entries"
    if len(entries) > LIST_LIMIT:
        shown.append(f"... {len(entries) - LIST_LIMIT} more entries not shown")
    return [header, *shown] if shown else [f"{header} (empty folder)"]


def _describe(folder: Folder, path: Path) -> str:
    real = folder.root.resolve()
    resolved = path.resolve()
    name = path.name
    if resolved != real and real not in resolved.parents:
        return f"{name} -> link outside the data folder (not readable)"
    if resolved.is_dir():
        return f"{name}/"
    try:
        return f"{name}  ({human_size(resolved.stat().st_size)})"
    except OSError:
        return f"{name}  (unreadable)"


def read_file(folder: Folder, args: ReadFileArgs) -> Answer:
    target = folder.resolve(args.path)
    if target.is_dir():
        raise ToolError(f"{args.path!r} is a folder; list it with list_dir")
    return read_part(target, args.offset, args.limit, display_name=folder.relative(target))


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
    # A folder's own mtime misses a file inside it that grew: the version is the listing.
    version=lambda folder, args: digest("\n".join(_listing(folder, args.path))),
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
    version=lambda folder, args: file_version(folder.resolve(args.path)),
)
