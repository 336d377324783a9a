"""How an invocation ended, read from the thread's last checkpoint or the exception it raised."""

from __future__ import annotations

import sqlite3
import traceback
from dataclasses import dataclass
from typing import Any, Literal

from langgraph.types import StateSnapshot

from labscribe.guards.statuses import RunStatus, classify_model_error, of_endpoint
from labscribe.nodes.runtime.models import NO_MODEL, endpoint_halt
from labscribe.nodes.runtime.outputs import RunOutcome, resume_line
from labscribe.nodes.runtime.state import halt_in_force


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
