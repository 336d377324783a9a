"""One tool call, guarded: the unit `call_tool` maps each pending call onto.

`answer_call` takes a pending call and the guard state and returns the tool message, the
loop guards' verdict and the state update, the way LangGraph's ToolNode keeps `_run_one`
apart from the node. The order of things is the policy of SPEC section 3:

- a mutating call is judged before it runs, on what it asks (its normalised code), so a
  refused figure is never drawn;
- a read-only call is judged on what it returns: it is answered from the cache when its
  target is unchanged, else read, and a refused read's answer is withheld;
- every counted call's answer is remembered as what it showed, for the progress check;
- failures the tool reports feed the streak of one failure; refusals do not.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from langchain_core.messages import AnyMessage, ToolMessage

from labscribe.graph.context import Context
from labscribe.guards.fingerprint import call_key, digest, tool_of
from labscribe.guards.guard_state import GuardState
from labscribe.guards.identity import answer_key, without_window
from labscribe.guards.ladder import ToolClass
from labscribe.guards.messages import INVALID_ARGS_ERROR, INVALID_TOOL_NAME_ERROR, NOT_EXECUTED
from labscribe.guards.progress import Shown
from labscribe.guards.verdicts import Allow, Block, Halt, Verdict, Warn
from labscribe.tools import TOOLS_BY_NAME, Folder, Outcome, Tool


@dataclass(frozen=True)
class Answered:
    """What became of one call."""

    message: ToolMessage
    verdict: Verdict | None
    """The loop guards' verdict; None for a call they never counted (invalid, terminal)."""
    update: dict[str, Any] = field(default_factory=dict)
    """State the call adds: the findings, the end of exploration, a figure."""
    closes: Literal["halted", "finished"] | None = None
    """Why the reply's other calls will not run."""
    cached: bool = False
    """Whether the answer came from the read cache instead of the tool."""


def answer_call(
    call: dict[str, Any],
    *,
    guard: GuardState,
    ctx: Context,
    folder: Folder,
    history: list[AnyMessage],
) -> Answered:
    """Answer `call`, asking the loop guards about it; `guard` is updated in place."""
    name, args = call["name"], call.get("args") or {}
    tool = TOOLS_BY_NAME.get(name)
    if call.get("invalid"):
        outcome: Outcome = Outcome(
            INVALID_ARGS_ERROR.format(name=name, problem=call.get("error")), ok=False
        )
        verdict: Verdict | None = None
        cached = False
    elif tool is None:
        available = ", ".join(TOOLS_BY_NAME)
        outcome = Outcome(INVALID_TOOL_NAME_ERROR.format(name=name, available=available), False)
        verdict, cached = None, False
    else:
        tool_class = ctx.tool_class(name)
        outcome, verdict, cached = _guarded(tool, tool_class, call, ctx, folder, guard, history)

    raw_chars = len(outcome.content)
    content, update = outcome.content, {}
    closes: Literal["halted", "finished"] | None = None
    if isinstance(verdict, Halt):
        guard.record_halt(verdict, tool=name, args=args)
        content, closes = NOT_EXECUTED.format(why=f"exploration halted, {verdict.reason}"), "halted"
    elif isinstance(verdict, Block):
        content = verdict.message
    else:
        if isinstance(verdict, Warn):
            content = f"{content}\n\n{verdict.nudge}"
        streak = guard.record_outcome(ctx.failures, None if outcome.ok else outcome.content)
        if isinstance(streak, Warn):
            content = f"{content}\n\n{streak.nudge}"
        elif isinstance(streak, Halt):
            guard.record_halt(streak, tool=name, args=args)
            closes = "halted"
        if outcome.ok and tool is not None and outcome.args is not None:
            if ctx.tool_class(name) is ToolClass.TERMINAL and closes is None:
                update["findings"] = outcome.args.model_dump()
                closes = "finished"
            if outcome.record is not None:
                update |= outcome.record
    shown_ok = outcome.ok and not isinstance(verdict, Block | Halt)
    message = ToolMessage(
        content,
        tool_call_id=call["id"],
        name=name or "unknown",
        status="success" if shown_ok else "error",
        # What the cache serves again: the tool's own answer, without the nudges after it.
        artifact={"chars": raw_chars, "lines": outcome.lines, "compared": outcome.compared}
        if shown_ok
        else None,
    )
    return Answered(message, verdict, update, closes, cached)


def _guarded(
    tool: Tool,
    tool_class: ToolClass,
    call: dict[str, Any],
    ctx: Context,
    folder: Folder,
    guard: GuardState,
    history: list[AnyMessage],
) -> tuple[Outcome, Verdict, bool]:
    """The call's outcome, the settled verdict on it, and whether the cache answered it."""
    args = call.get("args") or {}
    identity = tool.identity(folder, args)
    if tool_class is ToolClass.TERMINAL:
        return tool.invoke(folder, args, timeout=ctx.tool_timeout), Allow(), False
    if tool_class is ToolClass.MUTATING:
        key = call_key(tool.name, identity)
        ladder = guard.review(ctx.ladder, key, tool_class)
        if isinstance(ladder, Block | Halt):
            refused = guard.progress(ctx.ladder, tool.name, None)
            return Outcome("", ok=False), guard.settle(ladder, refused), False
        outcome = tool.invoke(folder, args, timeout=ctx.tool_timeout)
        # What a mutating call shows is what it did: the same code draws the same figure.
        return outcome, _settled(guard, ctx, ladder, outcome, Shown(key, key), key), False

    version = tool.version_of(folder, args)
    cache_key = call_key(tool.name, identity, version) if version is not None else None
    cached = _cached(guard.cache.get(cache_key or ""), history)
    outcome = cached or tool.invoke(folder, args, timeout=ctx.tool_timeout)
    if outcome.ok and cache_key is not None:
        guard.cache.setdefault(cache_key, call["id"])
    target = call_key(tool.name, without_window(tool.meaning, identity))
    shown = Shown(target, digest(outcome.shown), lines=outcome.lines, version=version)
    key = answer_key(tool.name, target, shown.lines, shown.digest)
    ladder = guard.review(ctx.ladder, key, tool_class)
    return outcome, _settled(guard, ctx, ladder, outcome, shown, key), cached is not None


def _settled(
    guard: GuardState, ctx: Context, ladder: Verdict, outcome: Outcome, shown: Shown, key: str
) -> Verdict:
    """The ladder's verdict on the call `key`, settled with the progress check's on what it
    showed. A failure is the failure streak's to judge, not progress's."""
    if not outcome.ok:
        return guard.settle(ladder)
    return guard.settle(ladder, guard.progress(ctx.ladder, tool_of(key), shown, key))


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


def not_executed(call: dict[str, Any], why: str) -> ToolMessage:
    """The answer to a call that will not run, so every call still gets its tool message."""
    return error_answer(call, NOT_EXECUTED.format(why=why))


def error_answer(call: dict[str, Any], text: str) -> ToolMessage:
    """`call` answered with the error `text`."""
    return ToolMessage(
        text,
        tool_call_id=call["id"],
        name=call.get("name") or "unknown",
        status="error",
    )
