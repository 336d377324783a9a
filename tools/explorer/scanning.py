"""The zero-model scan: a deterministic walk that buckets the folder's files by extension."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from labscribe.guards.paths import is_inside, printable, real_path
from labscribe.tools.base import human_size
from labscribe.tools.formats.tables import TABLE_SUFFIXES, file_suffix

SETTINGS_SUFFIXES = frozenset(
    {".json", ".ini", ".cfg", ".conf", ".yaml", ".yml", ".toml", ".log", ".par", ".xml"}
)
BUCKETS: dict[str, frozenset[str]] = {
    "documents": frozenset(
        {".pdf", ".md", ".txt", ".tex", ".doc", ".docx", ".odt", ".rtf", ".html", ".htm"}
    ),
    "images": frozenset(
        {".png", ".jpg", ".jpeg", ".gif", ".bmp", ".tif", ".tiff", ".webp", ".svg"}
    ),
    # every format the analysis reads a table from (tools.formats.tables), and settings files
    "data": (TABLE_SUFFIXES - {".txt"}) | SETTINGS_SUFFIXES,
}
OTHER = "other"
LISTED_PER_BUCKET = 40  # the summary names this many files per bucket; counts cover all


class Bucket(BaseModel):
    count: int = 0
    bytes: int = 0
    files: list[str] = Field(default_factory=list)


class ScanResult(BaseModel):
    root: str
    buckets: dict[str, Bucket]
    skipped: list[str] = Field(default_factory=list)
    """Entries not walked: links out of the folder, unreadable folders."""

    @classmethod
    def unwalked(cls, root: str, why: str) -> ScanResult:
        """The scan of a folder that could not be walked at all, saying why."""
        return cls(root=root, buckets=_empty_buckets(), skipped=[why])

    @property
    def total_files(self) -> int:
        return sum(bucket.count for bucket in self.buckets.values())

    @property
    def total_bytes(self) -> int:
        return sum(bucket.bytes for bucket in self.buckets.values())

    def summary(self) -> str:
        """A compact text the explorer and the first progress event show."""
        lines = [f"{self.total_files} files, {human_size(self.total_bytes)} in all"]
        for name, bucket in self.buckets.items():
            if not bucket.count:
                continue
            shown = ", ".join(bucket.files)
            more = bucket.count - len(bucket.files)
            tail = f", … {more} more" if more > 0 else ""
            lines.append(f"{name}: {bucket.count} ({human_size(bucket.bytes)}): {shown}{tail}")
        if self.skipped:
            lines.append(f"not walked: {', '.join(self.skipped)}")
        return "\n".join(lines)


def _empty_buckets() -> dict[str, Bucket]:
    return {name: Bucket() for name in (*BUCKETS, OTHER)}


def with_tables(scan: dict[str, Any], tables: set[str]) -> dict[str, Any]:
    """`scan` (a ScanResult's dump) with the files the analysis read a table from (paths
    in `tables`) listed under data: a stopwatch's `times.txt` is data, though its suffix is
    a document's, and so is a file without a suffix that held a table. The scan itself
    reads no file; this is for the report's inventory."""
    buckets = {name: dict(bucket) for name, bucket in (scan.get("buckets") or {}).items()}
    moved = []
    for name in ("documents", OTHER):  # `times.txt`, a logger's `resonanz` without a suffix
        bucket = buckets.get(name)
        if not bucket or not tables:
            continue
        here = [rel for rel in bucket.get("files", []) if rel in tables]
        bucket["files"] = [rel for rel in bucket["files"] if rel not in tables]
        bucket["count"] = bucket.get("count", 0) - len(here)
        moved += here
    if not moved:
        return scan
    data = buckets.setdefault("data", {"count": 0, "bytes": 0, "files": []})
    data["files"] = [*data.get("files", []), *moved]
    data["count"] = data.get("count", 0) + len(moved)
    return {**scan, "buckets": buckets}


def bucket_of(path: str) -> str:
    suffix = file_suffix(path)
    return next((name for name, exts in BUCKETS.items() if suffix in exts), OTHER)


def scan_folder(root: Path) -> ScanResult:
    """Walk `root` without following links out of it; never reads file contents."""
    base = root.resolve()
    buckets = _empty_buckets()
    skipped: list[str] = []
    for rel, size in _walk(base, base, skipped):
        bucket = buckets[bucket_of(rel)]
        bucket.count += 1
        bucket.bytes += size
        if len(bucket.files) < LISTED_PER_BUCKET:
            bucket.files.append(rel)
    return ScanResult(root=str(base), buckets=buckets, skipped=skipped)


def files_with_suffix(root: Path, suffixes: frozenset[str], limit: int = 200) -> list[str]:
    """The first `limit` files under `root` (in walk order) whose suffix is in `suffixes`."""
    base = root.resolve()
    found = []
    for rel, _size in _walk(base, base, []):
        if file_suffix(rel) in suffixes:
            found.append(rel)
            if len(found) == limit:
                break
    return found


def _walk(base: Path, folder: Path, skipped: list[str]) -> Iterator[tuple[str, int]]:
    """(relative path, size) of every regular file below `folder`, in name order; the
    relative paths are `printable`, so a name that is not UTF-8 never breaks what shows it.
    Depth first with a stack of its own, not recursion: a tree thousands of levels deep
    would exhaust Python's."""
    real_base = str(base)
    stack = [iter(_entries(base, folder, skipped))]
    while stack:
        entry = next(stack[-1], None)
        if entry is None:
            stack.pop()
            continue
        rel = _relative(base, Path(entry.path))
        if entry.is_symlink():
            try:
                target = real_path(entry.path)
            except OSError:  # dangling, or a link to itself
                skipped.append(f"{rel} (broken link)")
                continue
            if not is_inside(real_base, target):
                skipped.append(f"{rel} (link outside the folder)")
                continue
            if os.path.isdir(target):  # a link back inside would walk the same files twice
                skipped.append(f"{rel}/ (link to a folder inside)")
                continue
        try:
            if entry.is_dir():
                stack.append(iter(_entries(base, Path(entry.path), skipped)))
            elif entry.is_file():
                yield rel, entry.stat().st_size
        except OSError:
            skipped.append(f"{rel} (unreadable)")


def _entries(base: Path, folder: Path, skipped: list[str]) -> list[os.DirEntry[str]]:
    """`folder`'s entries in name order; none, with a note, when it cannot be listed."""
    try:
        with os.scandir(folder) as found:
            return sorted(found, key=lambda entry: entry.name)
    except OSError:
        skipped.append(f"{_relative(base, folder)}/ (unreadable)")
        return []


def _relative(base: Path, path: Path) -> str:
    return printable(path.relative_to(base).as_posix())
