"""Run a folder with a checkpointer, and drive any invocation of a thread (graph/resume.py
resumes one); leave the outputs in OUT/. How an invocation ended is read from the thread's
last checkpoint or the exception it raised (`settle`)."""

from __future__ import annotations

import re
import sqlite3
import traceback
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from langgraph.graph.state import CompiledStateGraph
from langgraph.types import RunnableConfig, StateSnapshot

from labscribe.graph.builder import build_graph
from labscribe.graph.checkpoint import hold_thread, is_postgres, open_checkpointer
from labscribe.guards.bounds import graph_step_bound
from labscribe.guards.paths import db_problem, folder_problem, out_problem
from labscribe.guards.statuses import RunStatus, Termination, classify_model_error, of_endpoint
from labscribe.nodes.runtime.context import Context
from labscribe.nodes.runtime.models import NO_MODEL, check_models, endpoint_halt
from labscribe.nodes.runtime.outputs import (
    OutputsUnwritten,
    RunOutcome,
    end_event,
    resume_line,
    write_outputs,
)
from labscribe.nodes.runtime.settings import checkpoint_db
from labscribe.nodes.runtime.state import EventLog, halt_in_force
from labscribe.tools.sandbox import children

EventSink = Callable[[dict[str, Any]], None]
MAX_SLUG = 64
"""Of a folder's name in its thread id, which names its default OUT/: a folder's name may
take the 255 bytes a file name has, and the id adds a suffix."""
EXIT_CODES = {
    RunStatus.COMPLETED: 0,
    RunStatus.DEGRADED: 0,
    RunStatus.HALTED: 3,
    RunStatus.CANCELLED: 3,
    RunStatus.FAILED: 1,
}


class BadInput(ValueError):
    """Input that cannot run (SPEC section 8): reported before anything is written."""


@dataclass(frozen=True)
class RunResult:
    thread_id: str
    out: Path
    record: dict[str, Any]
    """The contents of run.json."""

    @property
    def status(self) -> RunStatus:
        return RunStatus(self.record["status"])

    @property
    def exit_code(self) -> int:
        return EXIT_CODES[self.status]


def run_folder(
    folder: str | Path,
    *,
    out: str | Path | None = None,
    thread_id: str | None = None,
    db: str | Path | None = None,
    context: Context | None = None,
    on_event: EventSink | None = None,
) -> RunResult:
    """Explore `folder` and write its report to `out`, checkpointing every step in `db`.

    Raises BadInput or ConfigError, having written nothing, when the input cannot run, and
    ThreadBusy when another worker is running the thread. Every other ending (completed,
    degraded, halted, cancelled, failed) is in the result.
    """
    context = context or Context()
    if problem := folder_problem(folder):
        raise BadInput(problem)
    check_models(context)
    thread_id = thread_id or new_thread_id(Path(folder))
    out_dir = Path(out or Path.cwd() / "labscribe-out" / thread_id).expanduser().absolute()
    if problem := out_problem(out_dir, folder) or sqlite_problem(db, folder):
        raise BadInput(problem)
    with open_checkpointer(db) as saver, hold_thread(db, thread_id):
        graph = build_graph(checkpointer=saver)
        config = thread_config(thread_id, context)
        if graph.get_state(config).values:
            raise BadInput(f"thread {thread_id!r} already exists: use {resume_line(thread_id)}")
        payload = {"folder": str(Path(folder).expanduser().resolve()), "out": str(out_dir)}
        return drive(graph, payload, config, context, out_dir, on_event)


def new_thread_id(folder: Path) -> str:
    slug = re.sub(r"[^A-Za-z0-9]+", "-", folder.expanduser().resolve().name).strip("-").lower()
    slug = slug[:MAX_SLUG].rstrip("-")
    return f"{slug or 'run'}-{uuid.uuid4().hex[:8]}"


def sqlite_problem(db: str | Path | None, folder: str | Path) -> str | None:
    """Why a run on `folder` cannot keep its checkpoints in `db` (LABSCRIBE_DB or the
    default when None); a PostgreSQL server is never inside a folder. A path that cannot
    hold a new database is ConfigError."""
    target = checkpoint_db(db, existing=False)
    return None if is_postgres(target) else db_problem(target, folder)


def thread_config(thread_id: str, context: Context) -> RunnableConfig:
    return {
        "configurable": {"thread_id": thread_id},
        "recursion_limit": graph_step_bound(context.max_tool_iters),
        # Each invocation its own run id: its events count their `elapsed` from its start.
        "run_id": uuid.uuid4(),
    }


def drive(
    graph: CompiledStateGraph,
    payload: Any,
    config: RunnableConfig,
    context: Context,
    out: Path,
    on_event: EventSink | None,
    notices: list[str] = (),  # type: ignore[assignment]
) -> RunResult:
    thread_id = config["configurable"]["thread_id"]
    latest: RunnableConfig = {"configurable": {"thread_id": thread_id}}  # not a fork's point
    children.CANCELLED.clear()
    log = EventLog(out / "events.jsonl", thread_id, on_event)
    for notice in notices:
        log.append({"event": "notice", "stage": "resume", "detail": notice})
    try:
        # durability="sync": each step's checkpoint is on disk before the next step runs,
        # so a kill at any moment never loses a completed tool call.
        for event in graph.stream(
            payload, config, context=context, stream_mode="custom", durability="sync"
        ):
            log.append(event)
        outcome = settle(thread_id, graph.get_state(latest))
    except KeyboardInterrupt:  # Ctrl-C, or SIGTERM (the CLI turns it into this)
        children.stop_all()
        hint = resume_hint(thread_id)
        outcome = RunOutcome(RunStatus.CANCELLED, f"{Termination.CANCELLED.description}; {hint}")
    except Exception as exc:
        outcome = failure(thread_id, exc)
    values = graph.get_state(latest).values
    try:
        record = write_outputs(out, thread_id, values, outcome)
    except OutputsUnwritten as exc:
        log.close()
        raise exc.with_hint(thread_id) from exc
    log.append(end_event(values, outcome))
    log.close()
    return RunResult(thread_id, out, record)


@dataclass(frozen=True)
class ThreadView:
    """What settling a thread reads of it, from a local checkpoint or from a server's API."""

    values: dict[str, Any]
    interrupts: list[Any]
    """The values of the interrupts the thread waits on."""
    pending: list[str]
    """Tasks still to run: the next nodes, and tasks whose writes were never committed."""

    @classmethod
    def of(cls, snapshot: StateSnapshot | ThreadView) -> ThreadView:
        if isinstance(snapshot, ThreadView):
            return snapshot
        pending = [task.name for task in snapshot.tasks] or list(snapshot.next)
        return cls(snapshot.values, [i.value for i in snapshot.interrupts], pending)

    @classmethod
    def served(cls, state: dict[str, Any]) -> ThreadView:
        """A LangGraph server's thread state (`threads.get_state`), as JSON."""
        tasks = [task["name"] for task in state.get("tasks") or []]
        interrupts = [i.get("value") for i in state.get("interrupts") or []]
        return cls(state.get("values") or {}, interrupts, tasks or list(state.get("next") or []))


DATA_ALONE = (
    "the report was written from the data alone, since no model endpoint is configured; to "
    "add one, set DEEPSEEK_API_KEY, or LABSCRIBE_BASE_URL with LABSCRIBE_EXPLORE_MODEL "
    "(docs/models.md)"
)
ASKED_DATA_ALONE = "the report was written from the data alone, as --no-model asks"


def thread_state(
    snapshot: StateSnapshot | ThreadView,
) -> Literal["interrupted", "resumable", "finished"]:
    """Where a thread stands. A task that finished before a crash but was never committed
    leaves `next` empty and its writes pending: the thread is still resumable."""
    view = ThreadView.of(snapshot)
    if view.interrupts:
        return "interrupted"
    return "resumable" if view.pending else "finished"


def pending_halt(snapshot: StateSnapshot | ThreadView) -> dict[str, Any] | None:
    """The halt in force in a thread (nodes/halts.py): what a paused one waits on."""
    return halt_in_force(ThreadView.of(snapshot).values)


def resume_hint(thread_id: str) -> str:
    return f"resume with: {resume_line(thread_id, '[--nudge TEXT]')}"


def settle(
    thread_id: str, snapshot: StateSnapshot | ThreadView, hint: str | None = None
) -> RunOutcome:
    """The outcome of an invocation that returned normally, read from its last checkpoint.
    `hint` says how to resume a halted thread (a server's threads resume another way)."""
    view = ThreadView.of(snapshot)
    values = view.values
    if view.interrupts:
        halt = pending_halt(view) or {}
        hint = hint or resume_hint(thread_id)
        said = halt.get("reason", "paused")
        # An endpoint's failure names itself; a collapse is the explorer's halt.
        reason = said if of_endpoint(halt) else f"halted: {said}"
        return RunOutcome(RunStatus.HALTED, f"{reason}; {hint}", halt=halt or None)
    if thread_state(view) != "finished" or not values.get("report"):
        pending = ", ".join(view.pending) or "the end"
        return RunOutcome(RunStatus.FAILED, f"stopped before {pending}")
    reason = (values.get("exploration") or {}).get("reason", "exploration ended")
    halts = (values.get("guard") or {}).get("halts") or []
    if halts:
        reason = f"drafted after a halt ({halts[-1]['reason']}); {reason}"
    unasked = (values.get("skipped") or {}).get("draft")
    if unasked and values.get("drafted_by") == "fallback":  # no model was asked to write
        reason = ASKED_DATA_ALONE if unasked == NO_MODEL else DATA_ALONE
    skipped = values.get("compile") or {}
    if skipped.get("status") == "skipped":
        reason = f"{reason}; no PDF: {skipped['reason']}"
    if values.get("degraded"):
        return RunOutcome(
            RunStatus.DEGRADED, f"{reason}; degraded: {'; '.join(values['degraded'])}"
        )
    return RunOutcome(RunStatus.COMPLETED, reason)


def failure(thread_id: str, exc: Exception) -> RunOutcome:
    """An exception out of the graph: an endpoint failure that escaped `models.ask` is a
    resumable halt; a checkpoint database that failed (full, damaged) says so; anything else
    is a failure, with its traceback for a bug report."""
    hint = resume_hint(thread_id)
    termination = classify_model_error(exc)
    if termination is not None:
        halt = endpoint_halt(termination, exc)
        return RunOutcome(RunStatus.HALTED, f"{halt['reason']}; {hint}", halt=halt)
    if _database_error(exc):
        reason = (
            f"the checkpoint database failed ({exc}); the thread keeps its last checkpoint: "
            f"fix the database (free space, or its permissions), then {hint}"
        )
        return RunOutcome(RunStatus.FAILED, reason)
    reason = f"{type(exc).__name__}: {exc}"
    return RunOutcome(RunStatus.FAILED, reason, traceback=traceback.format_exc())


def _database_error(exc: BaseException) -> bool:
    if isinstance(exc, sqlite3.Error):
        return True
    return any(cls.__module__.startswith("psycopg") for cls in type(exc).__mro__)
