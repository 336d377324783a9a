"""Checkpointers: SQLite by default (a file, nothing to start)."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.sqlite import SqliteSaver

from labscribe.graph.models import ConfigError


def default_db() -> Path:
    """`LABSCRIBE_DB`, else `~/.labscribe/checkpoints.sqlite`: where threads live between runs."""
    return Path(os.environ.get("LABSCRIBE_DB") or Path.home() / ".labscribe" / "checkpoints.sqlite")


@contextmanager
def open_checkpointer(db: str | os.PathLike[str] | None = None) -> Iterator[BaseCheckpointSaver]:
    """A checkpointer for `db` (a SQLite path), set up and closed with the block."""
    target = str(db or default_db())
    if target.startswith(("postgres://", "postgresql://")):
        raise ConfigError(
            "PostgreSQL checkpoints are not available in this version; pass a SQLite file path "
            "to --db"
        )
    path = Path(target).expanduser()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        connection = sqlite3.connect(path, check_same_thread=False)
    except (OSError, sqlite3.Error) as exc:
        raise ConfigError(f"cannot open the checkpoint database {str(path)!r}: {exc}") from exc
    try:
        saver = SqliteSaver(connection)
        saver.setup()
        yield saver
    finally:
        connection.close()


def thread_ids(saver: BaseCheckpointSaver) -> list[str]:
    """Every thread the checkpointer holds, newest checkpoint first."""
    seen: dict[str, None] = {}
    for checkpoint in saver.list(None):
        seen.setdefault(checkpoint.config["configurable"]["thread_id"], None)
    return list(seen)
