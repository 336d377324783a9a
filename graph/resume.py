"""Resume a thread from its last checkpoint: what the thread recorded, what changed, and the
one command that continues it, locally or on a LangGraph server (`resume_command`).

A halted thread waits in `await_human` (nodes/halts.py), and the command answers it; a
crashed or cancelled thread runs its pending tasks again; a finished thread writes its
outputs again, or drafts again (`--from draft`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from langgraph.graph.state import CompiledStateGraph
from langgraph.types import Command, StateSnapshot

from labscribe.graph.builder import EXPLORE_LOOP, build_graph
from labscribe.graph.checkpoint import hold_thread, open_checkpointer
from labscribe.graph.pipeline import plan_for
from labscribe.graph.runner import (
    BadInput,
    EventSink,
    RunResult,
    ThreadView,
    drive,
    pending_halt,
    settle,
    thread_config,
    thread_state,
)
from labscribe.guards.bounds import valid_text
from labscribe.guards.human import nudge_problem, resume_answer
from labscribe.guards.paths import out_problem
from labscribe.nodes.halts import take_nudge
from labscribe.nodes.runtime.context import Context
from labscribe.nodes.runtime.models import Models, check_models, context_window
from labscribe.nodes.runtime.outputs import export_outputs, resume_line
from labscribe.tools.sandbox.latex import toolchain_problem

NUDGE_UNUSED = (
    "the thread is past exploration (next: {next}), so no explorer will read the nudge; "
    "resuming without it"
)
NUDGE_REFUSED = {
    "draft": "a nudge cannot be used with --from draft: drafting again reuses the "
    "exploration, and no explorer runs to read it; drop --nudge",
    "finished": "thread {thread_id!r} is finished, so no explorer will read a nudge: drop "
    "--nudge to write its outputs again, or draft again with --from draft",
}


def resume_command(
    view: ThreadView, nudge: str | None, context: Context | None = None
) -> tuple[dict[str, Any] | None, list[str]]:
    """How a thread continues from where it stands: the fields of the Command (`resume`,
    `update`) that continue it, or None to run its pending tasks as they are; and notices
    for the user. Locally this is `Command(**fields)`; on a server, a run's `command`.

    A halted thread gets the human's answer (Agent Inbox's HumanResponse): the nudge, or
    without one what its halt allows (a collapse drafts, an endpoint's request is sent
    again). A crashed or cancelled thread takes a nudge while it explores. A `context`
    whose settings differ from the thread's record replaces it, with the plan recomputed.
    """
    update: dict[str, Any] = {}
    notices: list[str] = []
    command: dict[str, Any] = {}
    if thread_state(view) == "interrupted":
        command["resume"] = resume_answer(nudge, pending_halt(view))
    elif nudge and not set(view.pending) & {*EXPLORE_LOOP, "scan"}:
        notices.append(NUDGE_UNUSED.format(next=", ".join(view.pending) or "the end"))
    elif nudge:
        update |= take_nudge(view.values, nudge)
    if context is not None:
        update |= setting_changes(context, view.values)
    if update:
        command["update"] = update
    return command or None, notices


def setting_changes(context: Context, values: dict[str, Any]) -> dict[str, Any]:
    """The state update that makes `context` the thread's record: its options, and the plan
    they give (a stage switched on or off, reflect rounds added or dropped); none when
    nothing changed."""
    if context.options() == values.get("options"):
        return {}
    return {"options": context.options(), "plan": plan_for(context, toolchain_problem() is None)}


def resume_thread(
    thread_id: str,
    *,
    nudge: str | None = None,
    db: str | Path | None = None,
    out: str | Path | None = None,
    settings: dict[str, Any] | None = None,
    models: Models | None = None,
    from_stage: Literal["draft"] | None = None,
    on_event: EventSink | None = None,
) -> RunResult:
    """Continue a halted, interrupted, crashed or cancelled thread from its last checkpoint;
    write a finished thread's outputs again (to `out`, when given); or, with
    `from_stage="draft"`, draft a finished thread again from its exploration.

    The run's recorded options apply again, with `settings` (Context fields) on top: a
    re-draft with another write model passes `{"write_model": ...}` (or `models`); a
    changed stage setting (reflect, figures, compile) recomputes the plan. A `nudge` joins
    the request of the model that runs next. Raises BadInput, having done nothing, for
    settings that cannot run, a nudge no model would read or whose model's window it would
    not fit, and ThreadBusy while another worker runs the thread.
    """
    with open_checkpointer(db, existing=True) as saver, hold_thread(db, thread_id):
        graph = build_graph(checkpointer=saver)
        snapshot = graph.get_state({"configurable": {"thread_id": thread_id}})
        if not snapshot.values:
            raise BadInput(f"no thread {thread_id!r} in the checkpoint database")
        try:
            options = snapshot.values.get("options", {})
            context = Context.from_options(options, **(settings or {}), models=models)
        except (ValueError, TypeError) as exc:
            raise BadInput(f"cannot resume {thread_id!r} with these settings: {exc}") from exc
        where = thread_state(snapshot)
        nudge = checked_nudge(nudge, context)
        if nudge and (from_stage is not None or where == "finished"):
            refused = NUDGE_REFUSED["draft" if from_stage is not None else "finished"]
            raise BadInput(refused.format(thread_id=thread_id))
        recorded = Path(snapshot.values["out"])
        out_dir = Path(out).expanduser().absolute() if out else recorded
        if problem := out_problem(out_dir, snapshot.values["folder"]):
            raise BadInput(problem)
        if from_stage is not None:
            return _redraft(graph, snapshot, where, context, out_dir, on_event)
        if where == "finished":
            record = export_outputs(
                out_dir, thread_id, snapshot.values, settle(thread_id, snapshot)
            )
            return RunResult(thread_id, out_dir, record)
        if out_dir != recorded:
            raise BadInput(
                f"--out applies to a finished thread; {thread_id!r} is not finished and "
                f"continues in its own output folder {str(recorded)!r}"
            )
        check_models(context)
        command, notices = resume_command(ThreadView.of(snapshot), nudge, context)
        payload = Command(**command) if command else None
        config = thread_config(thread_id, context)
        return drive(graph, payload, config, context, out_dir, on_event, notices)


def checked_nudge(nudge: str | None, context: Context) -> str | None:
    """`nudge` as text a model can be sent (valid code points, stripped), or None for none;
    BadInput when the explore model's window in `context` has no room for it."""
    nudge = valid_text(nudge or "").strip() or None
    if nudge and (problem := nudge_problem(nudge, context_window(context, "explore"))):
        raise BadInput(problem)
    return nudge


def _redraft(
    graph: CompiledStateGraph,
    snapshot: StateSnapshot,
    where: str,
    context: Context,
    out: Path,
    on_event: EventSink | None,
) -> RunResult:
    """Draft a finished thread again: fork it at the checkpoint before its (last) draft, so
    scan and exploration are reused, not repeated, and the first draft's checkpoints stay
    in the thread's history."""
    thread_id = snapshot.config["configurable"]["thread_id"]
    if where != "finished":
        raise BadInput(
            f"--from draft drafts a finished thread again; {thread_id!r} is {where}: "
            f"resume it first ({resume_line(thread_id)})"
        )
    history = graph.get_state_history({"configurable": {"thread_id": thread_id}})
    before = next((past for past in history if past.next == ("draft",)), None)
    if before is None:
        raise BadInput(f"thread {thread_id!r} never reached drafting: there is no draft to redo")
    check_models(context)
    point = before.config
    changes = setting_changes(context, before.values)
    if Path(before.values.get("out") or "") != out:  # the new draft's outputs go elsewhere
        changes["out"] = str(out)
    if changes:
        point = graph.update_state(point, changes)
    fork = thread_config(thread_id, context)
    fork["configurable"] |= {"checkpoint_id": point["configurable"]["checkpoint_id"]}
    return drive(graph, None, fork, context, out, on_event)
