"""Many folders at once: each is its own thread, run by its own `labscribe` process.

A process per folder keeps one folder's crash, hang or Ctrl-C from touching the others, and
lets the checkpoint database (SQLite, or PostgreSQL for workers on several machines) be the
only thing they share. The batch itself is a manifest, `OUT/batch.json`: which folder is
which thread and where its report goes, and how each run ended. `--resume` reads it back,
asks the checkpoint database where each unfinished thread stands, and resumes those threads
or starts them again.
"""

from __future__ import annotations

import json
import locale
import os
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor, as_completed
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any, TextIO

from pydantic import BaseModel, Field

from labscribe.graph.builder import build_graph
from labscribe.graph.checkpoint import open_checkpointer
from labscribe.graph.forked import FORKS, start_command
from labscribe.graph.runner import BadInput, new_thread_id, sqlite_problem, thread_state
from labscribe.guards.paths import out_problem
from labscribe.guards.statuses import RunStatus
from labscribe.nodes.runtime.outputs import write_whole
from labscribe.nodes.runtime.settings import ENVIRONMENT

MANIFEST = "batch.json"
WRITTEN = (RunStatus.COMPLETED.value, RunStatus.DEGRADED.value)


class BatchEntry(BaseModel):
    folder: str
    thread_id: str
    out: str
    status: str = "pending"
    """A run.json status, or `pending` before it starts and `running` while it runs."""
    reason: str = "not started"
    exit_code: int | None = None
    model_calls: dict[str, int] = Field(default_factory=dict)
    tokens: dict[str, int] = Field(default_factory=dict)
    seconds: float | None = None
    """Wall time of the last attempt."""

    @property
    def written(self) -> bool:
        return self.status in WRITTEN


class Batch(BaseModel):
    out: str
    db: str | None = None
    run_flags: list[str] = Field(default_factory=list)
    """Options for every `labscribe run` (on-collapse, max-tool-iters, reflect, ...)."""
    endpoint_flags: list[str] = Field(default_factory=list)
    """Endpoint and models for every run and resume; the API key travels in the environment."""
    server: str | None = None
    """A LangGraph server's URL: the runs are its threads (graph/server_batch.py)."""
    assistant_id: str | None = None
    """The server's assistant that carries the batch's configuration."""
    context: dict[str, Any] = Field(default_factory=dict)
    """That configuration: the runs' Context, without the API key."""
    entries: list[BatchEntry]

    @property
    def manifest(self) -> Path:
        return Path(self.out) / MANIFEST

    def save(self) -> None:
        self.manifest.parent.mkdir(parents=True, exist_ok=True)
        write_whole(self.manifest, self.model_dump_json(indent=2))

    @classmethod
    def load(cls, out: str | Path) -> Batch:
        path = Path(out).expanduser() / MANIFEST
        try:
            return cls.model_validate_json(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise BadInput(f"no batch to resume: {str(path)!r} does not exist") from None
        except ValueError as exc:
            raise BadInput(f"{str(path)!r} is not a labscribe batch manifest: {exc}") from exc

    @property
    def exit_code(self) -> int:
        """0 when every report was written, 1 when a run failed, else 3 (all resumable)."""
        if all(entry.written for entry in self.entries):
            return 0
        return 1 if any(e.status == RunStatus.FAILED.value for e in self.entries) else 3


def folders_of(paths: Iterable[str | Path]) -> list[Path]:
    """The folders a batch runs. One folder that holds only folders is a class of them."""
    folders = [Path(p).expanduser().absolute() for p in paths]
    if len(folders) == 1 and folders[0].is_dir():
        children = [c for c in folders[0].iterdir() if not c.name.startswith(".")]
        if children and all(c.is_dir() for c in children):
            return sorted(children)
    # A folder named twice is one run: two threads on one folder would race for its report.
    return list({folder.resolve(): folder for folder in folders}.values())


def plan_batch(
    folders: Iterable[str | Path],
    *,
    out: str | Path,
    db: str | None = None,
    run_flags: list[str] | None = None,
    endpoint_flags: list[str] | None = None,
    server: str | None = None,
    context: dict[str, Any] | None = None,
) -> Batch:
    """A new batch: a thread id and an output folder for each folder; nothing runs yet. On a
    server the thread ids are UUIDs (the server's own kind), and OUT/ names each folder's
    outputs by the folder."""
    base = Path(out).expanduser().absolute()
    if (base / MANIFEST).exists():
        raise BadInput(f"{str(base)!r} already holds a batch: add --resume, or pick another --out")
    entries = []
    for folder in folders_of(folders):
        name = new_thread_id(folder)
        # Refused before any run starts, as `labscribe run` refuses them: an OUT that lies
        # in a data folder (directly or through a link), checkpoints kept in one.
        if problem := out_problem(base / name, folder) or (
            None if server else sqlite_problem(db, folder)
        ):
            raise BadInput(problem)
        thread_id = str(uuid.uuid4()) if server else name
        entries.append(BatchEntry(folder=str(folder), thread_id=thread_id, out=str(base / name)))
    if not entries:
        raise BadInput("no folders to run")
    return Batch(
        out=str(base),
        db=db,
        run_flags=run_flags or [],
        endpoint_flags=endpoint_flags or [],
        server=server,
        context=context or {},
        entries=entries,
    )


EventSink = Callable[[BatchEntry, dict[str, Any]], None]
_RUNNING: set[BaseProcess] = set()
"""The `labscribe run` processes of the batch in flight."""


def run_batch(
    batch: Batch,
    *,
    concurrency: int | None = None,
    api_key: str | None = None,
    nudge: str | None = None,
    on_event: EventSink | None = None,
) -> Batch:
    """Run every entry whose report is not written yet, `concurrency` at a time (default: the
    cores this process may use); threads halted for a human are resumed with `nudge`. The
    manifest is saved as each run ends. Ctrl-C reaches the runs too: each checkpoints and
    ends `cancelled`; runs not started stay `pending`."""
    todo = [entry for entry in batch.entries if not entry.written]
    where = _thread_states(batch.db, [entry.thread_id for entry in todo])
    env = os.environ | ({ENVIRONMENT["api_key"]: api_key} if api_key else {})

    def attempt(entry: BatchEntry) -> None:
        state = where.get(entry.thread_id)
        if state == "finished":  # the batch was stopped before it saved this run's ending
            settle_entry(entry, _record_since(Path(entry.out) / "run.json", 0), [])
        else:
            _run_child(entry, _command(batch, entry, state, nudge), env, on_event)

    def cancel() -> None:
        # A Ctrl-C reached the children too; a SIGTERM to the batch reached only the batch.
        # Either way each run in flight is told to cancel: it checkpoints and ends cancelled.
        for child in list(_RUNNING):
            child.terminate()  # SIGTERM

    workers = concurrency or len(os.sched_getaffinity(0))
    return run_entries(batch, attempt, workers=workers, cancel=cancel)


def run_entries(
    batch: Batch,
    attempt: Callable[[BatchEntry], None],
    *,
    workers: int,
    cancel: Callable[[], None],
) -> Batch:
    """`attempt` every entry whose report is not written yet, `workers` at a time, saving the
    manifest as each ends. On Ctrl-C no more start, `cancel` tells those in flight to stop,
    and they are waited for, so each records how it ended."""
    saving, stopping = threading.Lock(), threading.Event()
    batch.save()

    def one(entry: BatchEntry) -> None:
        if stopping.is_set():
            return
        attempt(entry)
        with saving:
            batch.save()

    pool = ThreadPoolExecutor(max_workers=max(1, workers), thread_name_prefix="labscribe-batch")
    futures = [pool.submit(one, entry) for entry in batch.entries if not entry.written]
    try:
        for future in as_completed(futures):
            future.result()
    except KeyboardInterrupt:
        stopping.set()
        cancel()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        batch.save()
    return batch


def _thread_states(db: str | None, thread_ids: list[str]) -> dict[str, str]:
    """Where each thread stands in the checkpoint database; absent ones never started."""
    if not thread_ids:
        return {}
    with open_checkpointer(db) as saver:
        graph = build_graph(checkpointer=saver)
        snapshots = {t: graph.get_state({"configurable": {"thread_id": t}}) for t in thread_ids}
    return {t: thread_state(s) for t, s in snapshots.items() if s.values}


def _command(batch: Batch, entry: BatchEntry, where: str | None, nudge: str | None) -> list[str]:
    db = ["--db", batch.db] if batch.db else []
    if where is None:
        run = ["run", entry.folder, "--out", entry.out, "--thread", entry.thread_id]
        return [*run, "--json", *batch.run_flags, *batch.endpoint_flags, *db]
    hint = ["--nudge", nudge] if nudge and where == "interrupted" else []
    # The id last, after "--": an id that starts with "-" is not an option.
    return ["resume", "--json", *hint, *batch.endpoint_flags, *db, "--", entry.thread_id]


def _run_child(
    entry: BatchEntry, command: list[str], env: dict[str, str], on_event: EventSink | None
) -> None:
    started, wall_start = time.monotonic(), time.time()
    entry.status, entry.reason = "running", "running"
    (events, events_end), (said, said_end) = FORKS.Pipe(duplex=False), FORKS.Pipe(duplex=False)
    child = start_command(command, env, (events_end, said_end))
    events_end.close()
    said_end.close()
    _RUNNING.add(child)
    errors: deque[str] = deque(maxlen=20)
    with _text(events) as stdout, _text(said) as stderr:
        drain = threading.Thread(target=lambda: errors.extend(stderr), daemon=True)
        drain.start()
        for line in stdout:
            try:
                event = json.loads(line)
            except json.JSONDecodeError:
                continue
            if on_event and isinstance(event, dict):
                on_event(entry, event)
        child.join()
        drain.join()
    entry.exit_code = child.exitcode
    _RUNNING.discard(child)
    entry.seconds = round(time.monotonic() - started, 2)
    settle_entry(entry, _record_since(Path(entry.out) / "run.json", wall_start), list(errors))
    if on_event:
        on_event(entry, {"event": "finished", "status": entry.status, "reason": entry.reason})


def _text(end: Connection) -> TextIO:
    """The lines a child writes to a pipe, read as its terminal would show them."""
    reading = os.dup(end.fileno())
    end.close()
    return open(reading, encoding=locale.getpreferredencoding(False), errors="replace")


def settle_entry(entry: BatchEntry, record: dict[str, Any] | None, errors: list[str]) -> None:
    """Copy the run's ending from its run.json, or from what it said when it wrote none."""
    if record is not None:
        entry.status, entry.reason = record["status"], record["reason"]
        entry.model_calls, entry.tokens = record["model_calls"], record["tokens"]
        return
    said = [line.strip() for line in errors if line.strip()]
    entry.status = RunStatus.FAILED.value  # refused before writing: bad input, busy, a crash
    entry.reason = said[-1].removeprefix("labscribe: ") if said else f"exit {entry.exit_code}"


def _record_since(path: Path, since: float) -> dict[str, Any] | None:
    """run.json if this attempt wrote it (an older one belongs to an earlier attempt)."""
    try:
        if path.stat().st_mtime < since:
            return None
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def summary_table(batch: Batch) -> str:
    """One line per folder: status, model calls, tokens, time, reason."""
    header = ("folder", "status", "explore", "write", "tokens in", "tokens out", "time", "reason")
    rows = [header]
    for entry in batch.entries:
        seconds = f"{entry.seconds:.1f}s" if entry.seconds is not None else "-"
        rows.append(
            (
                Path(entry.folder).name,
                entry.status,
                str(entry.model_calls.get("explore", "-")),
                str(entry.model_calls.get("write", "-")),
                str(entry.tokens.get("input", "-")),
                str(entry.tokens.get("output", "-")),
                seconds,
                entry.reason.splitlines()[0][:80] if entry.reason else "",
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(header) - 1)]
    lines = [
        "  ".join([*(c.ljust(w) for c, w in zip(row[:-1], widths, strict=True)), row[-1]])
        for row in rows
    ]
    written = sum(entry.written for entry in batch.entries)
    return "\n".join([*lines, f"{written}/{len(batch.entries)} reports written"])
