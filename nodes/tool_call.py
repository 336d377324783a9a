"""call_tool: one pending tool call, guarded, answered and checkpointed per graph step.

`answer_call` does one call end to end, as LangGraph's ToolNode does in `_run_one`: the tool
prepares the call once (`Tool.prepare`: its arguments validated, what it asks, the version
of what it reads), the loop guards judge it when it is asked and again when it has answered
(guards/guard.py), the tool runs on the same prepared call between unless they refuse it or
the read cache answers it, and what they decided becomes the tool message and the state
update. Every pending call gets
its tool message, so the protocol stays valid whatever the guards decide.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from langchain_core.messages import AnyMessage, ToolMessage
from langgraph.runtime import Runtime

from labscribe.guards.detectors import Block, Halt, ToolClass
from labscribe.guards.guard import Answered as GuardAnswered
from labscribe.guards.guard import Asked, Call, Judgement, Result, judge
from labscribe.guards.guard_state import GuardState, call_key, without_window
from labscribe.guards.messages import HALTED, NOT_EXECUTED
from labscribe.guards.statuses import Termination
from labscribe.nodes.halts import in_force
from labscribe.nodes.material import analysis_of
from labscribe.nodes.prompts import (
    CALL_FAILED,
    FINISHED_ALREADY,
    HALTED_ALREADY,
    INVALID_ARGS_ERROR,
    INVALID_TOOL_NAME_ERROR,
)
from labscribe.nodes.runtime.context import Context
from labscribe.nodes.runtime.models import vision_reader
from labscribe.nodes.runtime.state import (
    State,
    data_folder,
    emit,
    exploration_ended,
    figures_dir,
    pending_calls,
)
from labscribe.tools import TOOLS_BY_NAME, Folder, Outcome
from labscribe.tools.tool import Prepared, Tool


@dataclass(frozen=True)
class Answered:
    """What became of one call."""

    message: ToolMessage
    judgement: Judgement
    update: dict[str, Any] = field(default_factory=dict)
    """State the call adds: the findings, a figure, a fit."""
    closes: str | None = None
    """Why the reply's other calls will not run: "halted" or "finished"."""
    cached: bool = False


def call_tool(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """Answer the next pending tool call; its reply's others wait for the next step."""
    ctx = runtime.context
    pending, *rest = pending_calls(state["messages"])
    tool = TOOLS_BY_NAME.get(pending.get("name") or "")
    analysis = analysis_of(state).model_dump(mode="json") if tool and tool.reads_analysis else {}
    folder = data_folder(state, figures=figures_dir(state), vision=vision_reader(ctx),
                         analysis=analysis)  # fmt: skip
    guard = GuardState.load(state.get("guard"))
    try:
        answered = answer_call(pending, tool, guard, ctx, folder, state["messages"])
    except Exception as exc:  # never leave a call pending: a resume would run it again, forever
        message = error_answer(pending, CALL_FAILED.format(error=f"{type(exc).__name__}: {exc}"))
        answered = Answered(message, Judgement(guard))
    _announce(pending, answered)
    messages: list[AnyMessage] = [answered.message]
    if answered.closes:
        why = HALTED_ALREADY if answered.closes == "halted" else FINISHED_ALREADY
        messages += [not_executed(other, why) for other in rest]
    guard_after = answered.judgement.state.dump()
    halt = answered.judgement.halt
    update = answered.update | (in_force("explore", halt) if halt is not None else {})
    return update | {"messages": messages, "guard": guard_after, "tool_calls": 1}


def answer_call(
    pending: dict[str, Any],
    tool: Tool | None,
    guard: GuardState,
    ctx: Context,
    folder: Folder,
    history: list[AnyMessage],
) -> Answered:
    """`pending`, a call of `tool` (None: a name no tool has), judged when asked, run (or
    answered from the cache, or refused), judged on what it showed; the guard state after it
    is the judgement's."""
    valid = tool is not None and not pending.get("invalid")
    prepared = tool.prepare(folder, pending.get("args") or {}) if valid else None  # type: ignore[union-attr]
    call = guards_call(pending, tool, prepared)
    asked = judge(guard, Asked(call), ctx.guard_policy)
    if not asked.run:  # refused before it ran: a repeated figure is never drawn again
        return _answered(pending, tool, Outcome("", ok=False), asked, ctx, cached=False)
    cached = _cached(asked.cached, history)
    if call.refused is not None:
        outcome = Outcome(call.refused, ok=False)
    else:
        outcome = cached or tool.run_prepared(prepared, timeout=ctx.tool_timeout)  # type: ignore[union-attr,arg-type]
    result = Result(outcome.ok, None if outcome.ok else outcome.content,
                    call.shown(outcome.shown, outcome.lines))  # fmt: skip
    judgement = judge(asked.state, GuardAnswered(call, result, asked.verdict), ctx.guard_policy)
    return _answered(pending, tool, outcome, judgement, ctx, cached=cached is not None)


def guards_call(pending: dict[str, Any], tool: Tool | None, prepared: Prepared | None) -> Call:
    """How the loop guards know a pending call, read from the call prepared once: what it
    asks by meaning (guards/guard_state.py), what a read asks without its window, the key its
    answer is cached under while its target is unchanged, or why it cannot run (arguments
    that were not JSON, an unknown tool)."""
    name, args = pending.get("name") or "unknown", pending.get("args") or {}
    if pending.get("invalid"):
        problem = INVALID_ARGS_ERROR.format(name=name, problem=pending.get("error"))
        return Call(pending["id"], name, args, refused=problem)
    if tool is None or prepared is None:
        problem = INVALID_TOOL_NAME_ERROR.format(name=name, available=", ".join(TOOLS_BY_NAME))
        return Call(pending["id"], name, args, refused=problem)
    identity, version = prepared.identity, prepared.version
    named = tuple(args[n] for n in tool.meaning.paths if isinstance(args.get(n), str))
    return Call(
        pending["id"], name, args, named=named,
        key=call_key(name, identity),
        target=call_key(name, without_window(tool.meaning, identity)),
        cache_key=call_key(name, identity, version) if version is not None else None,
        version=version,
    )  # fmt: skip


def _answered(
    pending: dict[str, Any],
    tool: Any,
    outcome: Outcome,
    judgement: Judgement,
    ctx: Context,
    *,
    cached: bool,
) -> Answered:
    """The tool message and state update of what the guards decided."""
    verdict = judgement.verdict
    content, update, closes = outcome.content, {}, None
    if isinstance(verdict, Halt):
        content, closes = NOT_EXECUTED.format(why=HALTED.format(reason=verdict.reason)), "halted"
    elif isinstance(verdict, Block):
        content = verdict.message
    else:
        content = "\n\n".join([content, *judgement.nudges])
        closes = "halted" if judgement.halt else None  # the failure streak's halt
        # the terminal tool is declared so and cannot be re-classed (LadderPolicy.classes)
        terminal = tool is not None and tool.tool_class is ToolClass.TERMINAL
        if outcome.ok and outcome.args is not None and terminal and closes is None:
            update["findings"] = outcome.args.model_dump()
            update |= exploration_ended(Termination.FINISHED, Termination.FINISHED.description)
            closes = "finished"
        if outcome.ok and outcome.record is not None:
            update |= outcome.record
    shown_ok = outcome.ok and not isinstance(verdict, Block | Halt)
    message = ToolMessage(
        content,
        tool_call_id=pending["id"],
        name=pending.get("name") or "unknown",
        status="success" if shown_ok else "error",
        # What the cache serves again: the tool's own answer, without the nudges after it.
        artifact={"chars": len(outcome.content), "lines": outcome.lines,
                  "compared": outcome.compared} if shown_ok else None,
    )  # fmt: skip
    return Answered(message, judgement, update, closes, cached)


def _cached(call_id: str | None, history: list[AnyMessage]) -> Outcome | None:
    """The earlier answer of an identical read of an unchanged target, if still in history."""
    if not call_id:
        return None
    for message in history:
        if isinstance(message, ToolMessage) and message.tool_call_id == call_id:
            kept = message.artifact or {}
            lines = kept.get("lines")
            text = message.text[: kept.get("chars")]
            return Outcome(text, True, None, tuple(lines) if lines else None, kept.get("compared"))
    return None


def _announce(pending: dict[str, Any], answered: Answered) -> None:
    judgement = answered.judgement
    if judgement.halt is not None:
        emit({"event": "halt", "stage": "explore", **judgement.halt})
    verdict = judgement.verdict
    emit(
        {
            "event": "tool",
            "stage": "explore",
            "tool": pending.get("name"),
            "args": pending.get("args"),
            "call_id": pending["id"],
            "ok": answered.message.status == "success",
            "cached": answered.cached,
            # The loop guards' verdict on this call; a failure-streak halt is its own event.
            "guard": type(verdict).__name__.lower() if verdict is not None else None,
        }
    )


def not_executed(call: dict[str, Any], why: str) -> ToolMessage:
    """The answer to a call that will not run, so every call still gets its tool message."""
    return error_answer(call, NOT_EXECUTED.format(why=why))


def error_answer(call: dict[str, Any], text: str) -> ToolMessage:
    """`call` answered with the error `text`."""
    return ToolMessage(text[:2000], tool_call_id=call["id"], name=call.get("name") or "unknown",
                       status="error")  # fmt: skip
