"""What every table reader shares: the refusal of a file without a table, what a reader
returns before it becomes tables, and the bounded read of a file through the path guard."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from labscribe.tools.base import ToolError, cannot_read
from labscribe.tools.formats.cell_grid import Found
from labscribe.tools.formats.parameters import ParameterRow
from labscribe.tools.tool import Folder


class NoTable(ToolError):
    """The file was read, but holds no numeric table (only, perhaps, `metadata`: the
    settings of an export whose run recorded nothing)."""

    def __init__(self, message: str, metadata: list[ParameterRow] | None = None) -> None:
        super().__init__(message)
        self.metadata = metadata or []


@dataclass(frozen=True)
class Read:
    """What a reader found in a file, before it becomes tables."""

    found: list[Found]
    metadata: list[ParameterRow]
    encoding: str = ""
    delimiter: str = ""
    decimal: str = "."
    reader: str = "text"
    notes: list[str] = field(default_factory=list)
    blocks: int = 0
    unread: list[str] = field(default_factory=list)
    """What the file holds beyond the bounds, named: the sheets past MAX_SHEETS."""


def file_prefix(folder: Folder, rel: str, limit: int) -> tuple[bytes, int]:
    """The first `limit` bytes of the file `rel` names, and its size."""
    target = folder.resolve(rel)
    try:
        with os.fdopen(folder.open(target), "rb") as raw:
            size = os.fstat(raw.fileno()).st_size
            # read() sizes its buffer by the request: ask for no more than the file holds
            return raw.read(min(size, limit)), size
    except OSError as exc:
        raise cannot_read(rel, exc) from exc
