"""Run a folder, or resume a thread, with a checkpointer; leave the outputs in OUT/."""

from __future__ import annotations

import json
import re
import traceback
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from langgraph.graph.state import CompiledStateGraph
from langgraph.types import Command, RunnableConfig, StateSnapshot

from labscribe.graph.builder import build_graph
from labscribe.graph.checkpoint import hold_thread, open_checkpointer
from labscribe.graph.context import Context
from labscribe.graph.models import Models, check_models
from labscribe.graph.outputs import RunOutcome, write_outputs
from labscribe.guards.budgets import graph_step_bound
from labscribe.guards.inputs import folder_problem, out_problem
from labscribe.guards.statuses import RunStatus, Termination, classify_model_error

EventSink = Callable[[dict[str, Any]], None]
EXIT_CODES = {
    RunStatus.COMPLETED: 0,
    RunStatus.DEGRADED: 0,
    RunStatus.HALTED: 3,
    RunStatus.CANCELLED: 3,
    RunStatus.FAILED: 1,
}
RESUME_HINT = "resume with: labscribe resume {thread_id} [--nudge TEXT]"


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
    if problem := out_problem(out_dir):
        raise BadInput(problem)
    with open_checkpointer(db) as saver, hold_thread(db, thread_id):
        graph = build_graph(checkpointer=saver)
        config = thread_config(thread_id, context)
        if graph.get_state(config).values:
            raise BadInput(f"thread {thread_id!r} already exists: use labscribe resume {thread_id}")
        payload = {"folder": str(Path(folder).expanduser().resolve()), "out": str(out_dir)}
        return _drive(graph, payload, config, context, out_dir, on_event)


def resume_thread(
    thread_id: str,
    *,
    nudge: str | None = None,
    db: str | Path | None = None,
    settings: dict[str, Any] | None = None,
    models: Models | None = None,
    on_event: EventSink | None = None,
) -> RunResult:
    """Continue a halted, interrupted, crashed or cancelled thread from its last checkpoint.

    The run's recorded options apply again, with `settings` (Context fields) on top. A
    `nudge` joins the explorer's history before its next turn and restarts the ladder.
    Raises ThreadBusy, having done nothing, while another worker runs the thread.
    """
    with open_checkpointer(db) as saver, hold_thread(db, thread_id):
        graph = build_graph(checkpointer=saver)
        snapshot = graph.get_state({"configurable": {"thread_id": thread_id}})
        if not snapshot.values:
            raise BadInput(f"no thread {thread_id!r} in the checkpoint database")
        options = snapshot.values.get("options", {})
        context = Context.from_options(options, **(settings or {}), models=models)
        check_models(context)
        out_dir = Path(snapshot.values["out"])
        if problem := out_problem(out_dir):
            raise BadInput(problem)
        where = thread_state(snapshot)
        if where == "interrupted":
            payload: Any = Command(resume={"nudge": nudge})
        elif where == "resumable":
            payload = Command(update={"pending_nudge": nudge}) if nudge else None
        else:
            raise BadInput(f"thread {thread_id!r} has already finished; nothing to resume")
        return _drive(graph, payload, thread_config(thread_id, context), context, out_dir, on_event)


def thread_state(snapshot: StateSnapshot) -> Literal["interrupted", "resumable", "finished"]:
    """Where a thread stands. A task that finished before a crash but was never committed
    leaves `next` empty and its writes pending: the thread is still resumable."""
    if snapshot.interrupts:
        return "interrupted"
    return "resumable" if snapshot.next or snapshot.tasks else "finished"


def new_thread_id(folder: Path) -> str:
    slug = re.sub(r"[^A-Za-z0-9]+", "-", folder.expanduser().resolve().name).strip("-").lower()
    return f"{slug or 'run'}-{uuid.uuid4().hex[:8]}"


def thread_config(thread_id: str, context: Context) -> RunnableConfig:
    return {
        "configurable": {"thread_id": thread_id},
        "recursion_limit": graph_step_bound(context.max_tool_iters),
    }


def settle(thread_id: str, snapshot: StateSnapshot) -> RunOutcome:
    """The outcome of an invocation that returned normally, read from its last checkpoint."""
    values = snapshot.values
    if snapshot.interrupts:
        halt = (values.get("guard") or {}).get("halt") or {}
        hint = RESUME_HINT.format(thread_id=thread_id)
        return RunOutcome(RunStatus.HALTED, f"halted: {halt.get('reason', 'paused')}; {hint}")
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


def _drive(
    graph: CompiledStateGraph,
    payload: Any,
    config: RunnableConfig,
    context: Context,
    out: Path,
    on_event: EventSink | None,
) -> RunResult:
    thread_id = config["configurable"]["thread_id"]
    out.mkdir(parents=True, exist_ok=True)
    with (out / "events.jsonl").open("a", encoding="utf-8") as log:

        def publish(event: dict[str, Any]) -> None:
            log.write(
                json.dumps({"thread_id": thread_id, **event}, ensure_ascii=False, default=str)
            )
            log.write("\n")
            log.flush()
            if on_event:
                on_event(event)

        try:
            # durability="sync": each step's checkpoint is on disk before the next step runs,
            # so a kill at any moment never loses a completed tool call.
            for event in graph.stream(
                payload, config, context=context, stream_mode="custom", durability="sync"
            ):
                publish(event)
            outcome = settle(thread_id, graph.get_state(config))
        except KeyboardInterrupt:
            hint = RESUME_HINT.format(thread_id=thread_id)
            outcome = RunOutcome(
                RunStatus.CANCELLED, f"{Termination.CANCELLED.description}; {hint}"
            )
        except Exception as exc:
            outcome = _failure(thread_id, exc)
        values = graph.get_state(config).values
        record = write_outputs(out, thread_id, values, outcome)
        plan = values.get("plan", [])
        done = outcome.status in (RunStatus.COMPLETED, RunStatus.DEGRADED)
        publish(
            {
                "event": "end",
                "status": outcome.status.value,
                "reason": outcome.reason,
                "index": len(plan) if done else len(values.get("stages", [])),
                "total": len(plan),
                "stage": "end",
                "detail": outcome.reason,
            }
        )
    return RunResult(thread_id, out, record)


def _failure(thread_id: str, exc: Exception) -> RunOutcome:
    """An exception out of the graph: an infrastructure halt if it is one, else a failure."""
    termination = classify_model_error(exc)
    if termination is None:
        reason = f"{type(exc).__name__}: {exc}"
        return RunOutcome(RunStatus.FAILED, reason, traceback=traceback.format_exc())
    reason = f"{termination.description}: {exc}"
    halt = {
        "termination": termination.value,
        "kind": "infrastructure",
        "reason": reason,
        "tool": None,
        "args": None,
    }
    hint = RESUME_HINT.format(thread_id=thread_id)
    return RunOutcome(RunStatus.HALTED, f"{reason}; {hint}", halt=halt)
