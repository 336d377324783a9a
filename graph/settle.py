"""How an invocation ended, read from the thread's last checkpoint or the exception it raised."""

from __future__ import annotations

import sqlite3
import traceback
from typing import Any, Literal

from langgraph.types import StateSnapshot

from labscribe.graph.models import infrastructure_halt
from labscribe.graph.outputs import RunOutcome
from labscribe.guards.statuses import HaltKind, RunStatus, classify_model_error

RESUME_HINT = "resume with: labscribe resume {thread_id} [--nudge TEXT]"


def thread_state(snapshot: StateSnapshot) -> Literal["interrupted", "resumable", "finished"]:
    """Where a thread stands. A task that finished before a crash but was never committed
    leaves `next` empty and its writes pending: the thread is still resumable."""
    if snapshot.interrupts:
        return "interrupted"
    return "resumable" if snapshot.next or snapshot.tasks else "finished"


def pending_halt(snapshot: StateSnapshot) -> dict[str, Any] | None:
    """The halt a paused thread waits on: the interrupt's record (a collapse waiting for a
    human, or an endpoint that failed), else the guard's."""
    for pending in snapshot.interrupts:
        value = pending.value
        if isinstance(value, dict) and isinstance(value.get("halt"), dict):
            return value["halt"]
    return (snapshot.values.get("guard") or {}).get("halt")


def settle(thread_id: str, snapshot: StateSnapshot) -> RunOutcome:
    """The outcome of an invocation that returned normally, read from its last checkpoint."""
    values = snapshot.values
    if snapshot.interrupts:
        halt = pending_halt(snapshot) or {}
        hint = RESUME_HINT.format(thread_id=thread_id)
        said = halt.get("reason", "paused")
        # An endpoint's failure names itself; a collapse is the explorer's halt.
        reason = said if halt.get("kind") == HaltKind.INFRASTRUCTURE else f"halted: {said}"
        return RunOutcome(RunStatus.HALTED, f"{reason}; {hint}", halt=halt or None)
    if thread_state(snapshot) != "finished" or not values.get("report"):
        pending = ", ".join(task.name for task in snapshot.tasks) or "the end"
        return RunOutcome(RunStatus.FAILED, f"stopped before {pending}")
    reason = (values.get("exploration") or {}).get("reason", "exploration ended")
    halts = (values.get("guard") or {}).get("halts") or []
    if halts:
        reason = f"drafted after a halt ({halts[-1]['reason']}); {reason}"
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
    hint = RESUME_HINT.format(thread_id=thread_id)
    termination = classify_model_error(exc)
    if termination is not None:
        halt = infrastructure_halt(termination, exc)
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
