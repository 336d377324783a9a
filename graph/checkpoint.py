"""Where threads live: SQLite by default (a file, nothing to start), PostgreSQL by URL.

Two workers must never drive one thread at once, or both would write checkpoints on the
same parent. `hold_thread` takes a lease that the operating system or the database server
drops by itself when its holder dies: a PostgreSQL advisory lock on the lease's own
connection, or an flock on a file beside the SQLite database.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import socket
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.sqlite import SqliteSaver

from labscribe.nodes.runtime.settings import POSTGRES_SCHEMES, SETTING, ConfigError, checkpoint_db

if TYPE_CHECKING:
    import psycopg

SETUP_LOCK = 0x6C61627363726962  # any constant: serialises schema setup across workers
_DB = SETTING["db"]
NO_DATABASE = f"no checkpoint database at {{path}}: check {_DB.flag} (or {_DB.variable})"
BUSY_SECONDS = 30
"""How long a checkpoint write waits on another worker's write to the same SQLite file."""
PROBE_SECONDS = 2
"""How long the probe at the start waits for a lock: a worker's checkpoint write holds one
for milliseconds, so a lock still held after this is another program's open transaction
(an sqlite3 shell, a viewer), which would fail the run's first checkpoint after work done."""


class ThreadBusy(RuntimeError):
    """Another worker holds the thread's lease."""


def is_postgres(target: str) -> bool:
    """Whether a database `checkpoint_db` resolved is a PostgreSQL server's URL."""
    return target.startswith(POSTGRES_SCHEMES)


@contextmanager
def open_checkpointer(
    db: str | os.PathLike[str] | None = None, *, existing: bool = False, reads_only: bool = False
) -> Iterator[BaseCheckpointSaver]:
    """A checkpointer for `db` (a SQLite path or a PostgreSQL URL), set up and closed with
    the block. Setting up creates the tables on first use. With `existing` (commands that
    read or continue threads), a SQLite file that is not there is refused, never created:
    a mistyped --db must not leave an empty database and a lease folder behind. A path that
    cannot serve is ConfigError before anything is made (nodes/runtime/settings.py).

    A SQLite file another program keeps locked is refused at once, before any work: for
    writing, unless `reads_only` (commands that only read, which a writer's lock on a
    database in WAL mode does not stop)."""
    target = checkpoint_db(db, existing=existing)
    if is_postgres(target):
        with _postgres_checkpointer(target) as saver:
            yield saver
        return
    if existing and not Path(target).expanduser().is_file():
        raise ConfigError(NO_DATABASE.format(path=str(Path(target).expanduser().absolute())))
    with _sqlite_connection(target) as connection:
        saver = SqliteSaver(connection)
        try:
            _probe(connection, write=not reads_only)
            saver.setup()
        except sqlite3.Error as exc:
            raise ConfigError(_sqlite_problem(target, exc)) from exc
        yield saver


@contextmanager
def hold_thread(db: str | os.PathLike[str] | None, thread_id: str) -> Iterator[None]:
    """Hold `thread_id`'s lease for the block; raise ThreadBusy if another worker has it."""
    target = checkpoint_db(db, existing=True)  # the lease is taken once the database is open
    lease = _postgres_lease if is_postgres(target) else _file_lease
    with lease(target, thread_id):
        yield


def thread_ids(saver: BaseCheckpointSaver) -> list[str]:
    """Every thread the checkpointer holds, newest checkpoint first."""
    seen: dict[str, None] = {}
    for checkpoint in saver.list(None):
        seen.setdefault(checkpoint.config["configurable"]["thread_id"], None)
    return list(seen)


def holder_name() -> str:
    return f"labscribe pid {os.getpid()} on {socket.gethostname()}"


def _busy(thread_id: str, holder: str) -> ThreadBusy:
    return ThreadBusy(
        f"thread {thread_id!r} is being run by another worker ({holder}); a thread runs in "
        f"one worker at a time: wait for it to end, then resume it"
    )


def _sqlite_problem(target: str, exc: sqlite3.Error) -> str:
    """One line on why the SQLite database cannot serve, and what to do."""
    text = str(exc)
    if "not a database" in text or "malformed" in text:
        advice = "it is not a labscribe checkpoint database, or it is damaged: move it aside"
    elif "full" in text:
        advice = "its disk is full: free some space"
    elif "locked" in text:
        advice = (
            f"another program holds a lock on it (still after {PROBE_SECONDS} s), such as an "
            "open sqlite3 shell or viewer: close it"
        )
    elif "readonly" in text or "read-only" in text:
        advice = "it is read-only here: check its permissions"
    else:
        advice = "check the file and its folder"
    return f"cannot use the checkpoint database {target!r} ({text}): {advice}, or pass another --db"


@contextmanager
def _sqlite_connection(target: str) -> Iterator[sqlite3.Connection]:
    path = Path(target).expanduser()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        connection = sqlite3.connect(path, check_same_thread=False, timeout=BUSY_SECONDS)
    except (OSError, sqlite3.Error) as exc:
        raise ConfigError(f"cannot open the checkpoint database {str(path)!r}: {exc}") from exc
    try:
        yield connection
    finally:
        connection.close()


def _probe(connection: sqlite3.Connection, *, write: bool) -> None:
    """Take the lock a run (`write`) or a reading command needs, and let it go, waiting at
    most PROBE_SECONDS; raises sqlite3.OperationalError ("database is locked") past that."""
    connection.execute(f"PRAGMA busy_timeout = {PROBE_SECONDS * 1000}")
    try:
        if write:
            connection.execute("BEGIN IMMEDIATE")
            connection.rollback()
        else:
            connection.execute("SELECT count(*) FROM sqlite_master").fetchone()
    finally:
        connection.execute(f"PRAGMA busy_timeout = {BUSY_SECONDS * 1000}")


@contextmanager
def _file_lease(target: str, thread_id: str) -> Iterator[None]:
    # Beside the real file: the same database reached through a link takes the same lease.
    real = Path(os.path.realpath(Path(target).expanduser()))
    leases = real.with_name(real.name + ".leases")
    digest = hashlib.sha256(thread_id.encode()).hexdigest()[:24]
    try:
        leases.mkdir(parents=True, exist_ok=True)
        handle = (leases / f"{digest}.lock").open("a+", encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot take the thread's lease in {str(leases)!r}: {exc}") from exc
    with handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            raise _busy(thread_id, handle.read().strip() or "a live process") from None
        handle.truncate(0)
        handle.write(f"{holder_name()} since {datetime.now(UTC):%Y-%m-%d %H:%M:%S} UTC")
        handle.flush()
        try:
            yield
        finally:
            handle.truncate(0)
            fcntl.flock(handle, fcntl.LOCK_UN)


def _postgres_connect(url: str, **options: Any) -> psycopg.Connection[Any]:
    import psycopg  # only PostgreSQL users pay for the import

    try:
        return psycopg.connect(url, autocommit=True, connect_timeout=10, **options)
    except psycopg.Error as exc:
        raise ConfigError(f"cannot connect to the PostgreSQL checkpoint database: {exc}") from exc


@contextmanager
def _postgres_checkpointer(url: str) -> Iterator[BaseCheckpointSaver]:
    from langgraph.checkpoint.postgres import PostgresSaver
    from psycopg.rows import dict_row

    with _postgres_connect(url, prepare_threshold=0, row_factory=dict_row) as connection:
        saver = PostgresSaver(connection)
        # Workers of a batch start together on a fresh database: one migrates, the rest wait.
        connection.execute("SELECT pg_advisory_lock(%s)", (SETUP_LOCK,))
        try:
            saver.setup()
        finally:
            connection.execute("SELECT pg_advisory_unlock(%s)", (SETUP_LOCK,))
        yield saver


@contextmanager
def _postgres_lease(url: str, thread_id: str) -> Iterator[None]:
    key = int.from_bytes(hashlib.sha256(thread_id.encode()).digest()[:8], "big", signed=True)
    with _postgres_connect(url, application_name=holder_name()) as connection:
        taken = connection.execute("SELECT pg_try_advisory_lock(%s)", (key,)).fetchone()
        if not (taken and taken[0]):
            raise _busy(thread_id, _postgres_holder(connection, key))
        try:
            yield
        finally:
            connection.execute("SELECT pg_advisory_unlock(%s)", (key,))


def _postgres_holder(connection: psycopg.Connection[Any], key: int) -> str:
    """Who holds the advisory lock on `key` (a bigint lock is classid:objid, high:low)."""
    row = connection.execute(
        "SELECT a.application_name, a.client_addr, a.backend_start FROM pg_locks l "
        "JOIN pg_stat_activity a ON a.pid = l.pid "
        "WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1 "
        "AND ((l.classid::bigint << 32) | l.objid::bigint) = %s",
        (key,),
    ).fetchone()
    if row is None:
        return "a PostgreSQL session that has just ended"
    name, address, since = row
    where = f"from {address}" if address else "over a local socket"
    return f"{name or 'a PostgreSQL session'} {where}, since {since:%Y-%m-%d %H:%M:%S %Z}"
