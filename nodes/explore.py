"""explore: the guarded tool loop.

Small nodes share the stage: `explore` takes one model turn, `call_tool` answers one pending
tool call per step (so every completed call is checkpointed and never runs twice on resume),
and `explore_done` closes the stage (a halted thread waits in nodes/halts.await_human).

Each request carries the explorer's history fitted into its model's context window,
deterministically (`fit_history`). State keeps the whole history; only the request is
fitted. First the oldest tool results are cut to a short head with a note saying what was
elided; if that is not enough, the oldest rounds are folded into one record of what was
called and how it went, so the model never loses track of what it already tried. The newest
round is never folded.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, SystemMessage, ToolMessage
from langgraph.runtime import Runtime

from labscribe.guards.bounds import (
    Usage,
    argument_problem,
    check_before_request,
    estimate_tokens,
    kept_args,
    repair_json_object,
    usage_by_stage,
    within_tokens,
)
from labscribe.guards.guard import Reply, judge
from labscribe.guards.guard_state import GuardState
from labscribe.guards.messages import EMPTY_REPLY_NUDGE
from labscribe.guards.statuses import Termination
from labscribe.nodes.halts import in_force
from labscribe.nodes.prompts import (
    BRIEF_CUT_NOTE,
    ELIDED_NOTE,
    EXPLORER_SYSTEM,
    RECORD_CALL,
    RECORD_HEADER,
    RECORD_NOTE,
)
from labscribe.nodes.runtime.context import Context
from labscribe.nodes.runtime.models import (
    ask,
    chat_model,
    context_window,
    idle_reason,
    role_of,
    spent,
)
from labscribe.nodes.runtime.state import (
    State,
    emit,
    exploration_ended,
    halt_in_force,
    milestone,
    skipped,
)
from labscribe.nodes.tool_call import error_answer
from labscribe.tools import EXPLORE_TOOLS

TOOL_SCHEMAS = [tool.openai_schema() for tool in EXPLORE_TOOLS]
TOOL_SCHEMA_TOKENS = estimate_tokens(json.dumps(TOOL_SCHEMAS))
COLLAPSE_SKIPS = "skipped: the exploration collapsed, so drafting came next"
REPLY_TOKENS = 1_024  # room kept free for the explorer's reply: a few calls or findings
HEAD_CHARS = 240  # what stays of an elided result: enough to recall what the file was
RECORD_LINE_CHARS = 160
BRIEF_MIN_CHARS = 600  # of the brief: the folder's summary and the analysis's first lines
MESSAGE_OVERHEAD = 8  # role markers and separators a chat template adds per message


def explore(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """One explorer turn: budget check, then one model call whose reply lands in state."""
    ctx = runtime.context
    if reason := idle_reason(ctx, "explore"):
        ending = exploration_ended(
            Termination.SKIPPED, f"{Termination.SKIPPED.description}: {reason}"
        )
        return ending | skipped(state, ["explore"], reason)
    guard = GuardState.load(state.get("guard"))
    new: list[AnyMessage] = []
    if nudge := state.get("pending_nudge"):  # its new attempt began with it (take_nudge)
        new.append(HumanMessage(nudge))
    exceeded = check_before_request(ctx.budget, _explore_usage(state))
    if exceeded:
        emit(
            {"event": "guard", "stage": "explore", "verdict": "budget", "detail": exceeded.message}
        )
        ending = exploration_ended(exceeded.termination, exceeded.message)
        return {"messages": new, "guard": guard.dump(), "pending_nudge": None} | ending

    model = chat_model(ctx, role_of("explore")).bind_tools(TOOL_SCHEMAS)
    system = SystemMessage(EXPLORER_SYSTEM.format(max_tool_iters=ctx.max_tool_iters))
    room = context_window(ctx, "explore") - size_of(system) - TOOL_SCHEMA_TOKENS - REPLY_TOKENS
    request = [system, *fit_history([*state["messages"], *new], room)]
    reply = _bounded(_with_repaired_calls(ask(model, request, "explore")), room // 4)
    new.append(reply)
    guard, ending = _read_reply(reply, guard, ctx, new)
    return (
        {"messages": new, "guard": guard.dump(), "pending_nudge": None}
        | spent("explore", reply)
        | ending
    )


def _read_reply(
    reply: AIMessage, guard: GuardState, ctx: Context, new: list[AnyMessage]
) -> tuple[GuardState, dict[str, Any]]:
    """What the reply means for the loop, as the guards judge it (too many calls, a reply
    cut off, empty replies in a row); answers for calls that will not run go to `new`."""
    calls = _calls_of(reply)
    answer = reply.text.strip()
    cut_off = reply.response_metadata.get("finish_reason") == "length"
    event = Reply(tuple(call["id"] for call in calls), bool(answer), cut_off)
    judged = judge(guard, event, ctx.guard_policy)
    by_id = {call["id"]: call for call in calls}
    new += [error_answer(by_id[i], text) for i, text in judged.refuse]
    if judged.ended is not None:
        return judged.state, exploration_ended(judged.ended, judged.ended.description)
    if calls:
        return judged.state, {}
    if answer:
        findings = {"experiment": "", "goal": "", "key_findings": [answer]}
        ending = exploration_ended(Termination.FINAL_ANSWER, Termination.FINAL_ANSWER.description)
        return judged.state, {"findings": findings} | ending
    new.append(HumanMessage(EMPTY_REPLY_NUDGE))
    if judged.halt is None:
        return judged.state, {}
    emit({"event": "halt", "stage": "explore", **judged.halt})
    return judged.state, in_force("explore", judged.halt)


def explore_done(state: State) -> dict[str, Any]:
    """Close the stage: record how exploration ended and announce it (a skipped stage was
    announced as such)."""
    update, ending = _closing(state)
    if "explore" in (state.get("skipped") or {}):
        return update
    return update | milestone(state, "explore", _summary(state, ending))


def explore_collapsed(state: State) -> dict[str, Any]:
    """Close a collapsed exploration: record the halt as its ending, and announce the stages
    up to draft (figures, gap) as skipped, since a collapsed run goes straight to drafting."""
    update, ending = _closing(state)
    announced = milestone(state, "explore", _summary(state, ending))
    plan = state.get("plan") or []
    between = plan[plan.index("explore") + 1 : plan.index("draft")] if "draft" in plan else []
    return update | announced | skipped(state, between, COLLAPSE_SKIPS)


def _closing(state: State) -> tuple[dict[str, Any], dict[str, Any]]:
    """The state update that records how exploration ended (a halt that drafts counts), and
    that ending."""
    ending = state.get("exploration")
    if ending is not None:
        return {}, ending
    halt = halt_in_force(state) or {}
    termination = Termination(halt.get("termination", Termination.REPEATED_CALL))
    update = exploration_ended(termination, f"{termination.description}: {halt.get('reason')}")
    return update, update["exploration"]


def _explore_usage(state: State) -> Usage:
    return usage_by_stage(state.get("usage")).get("explore", Usage())


def _summary(state: State, ending: dict[str, Any]) -> str:
    calls = _explore_usage(state).calls
    return f"{ending['reason']} ({calls} model calls, {state.get('tool_calls', 0)} tool calls)"


def _with_repaired_calls(reply: AIMessage) -> AIMessage:
    """Move invalid calls whose JSON can be repaired into tool_calls, and calls whose
    arguments cannot enter the checkpointed state (`argument_problem`) into invalid ones;
    give every call an id, since each tool message must name the call it answers (some
    servers send calls without ids)."""
    calls, still_invalid = [], []
    for call in reply.tool_calls:
        problem = argument_problem(call.get("args"))
        if problem is None:
            calls.append(call)
        else:
            args = kept_args(call.get("args"))
            still_invalid.append(
                {**call, "type": "invalid_tool_call", "args": args, "error": problem}
            )
    for call in reply.invalid_tool_calls:
        args = repair_json_object(call.get("args"))
        if args is None or not call.get("name") or argument_problem(args):
            still_invalid.append({**call, "args": kept_args(call.get("args"))})
        else:
            calls.append(
                {"name": call["name"], "args": args, "id": call.get("id"), "type": "tool_call"}
            )
    return reply.model_copy(
        update={
            "tool_calls": [_with_id(call) for call in calls],
            "invalid_tool_calls": [_with_id(call) for call in still_invalid],
        }
    )


def _bounded(reply: AIMessage, tokens: int) -> AIMessage:
    """`reply` with its text cut to `tokens`: the newest round is never folded, so a
    megabyte written beside a call would overflow every request after it."""
    text = reply.text
    kept = within_tokens(text, tokens, "your reply")
    return reply if kept is text else reply.model_copy(update={"content": kept})


def _with_id(call: Any) -> Any:
    return call if call.get("id") else {**call, "id": f"call_{uuid.uuid4().hex[:16]}"}


def _calls_of(reply: AIMessage) -> list[dict[str, Any]]:
    return [*reply.tool_calls, *reply.invalid_tool_calls]


def size_of(message: AnyMessage) -> int:
    calls = json.dumps(getattr(message, "tool_calls", None) or [], ensure_ascii=False)
    return estimate_tokens(message.text) + estimate_tokens(calls) + MESSAGE_OVERHEAD


def fit_history(history: list[AnyMessage], room: int) -> list[AnyMessage]:
    """`history` (brief first) fitted into `room` estimated tokens."""
    brief, rounds = history[:1], _rounds(history[1:])
    total = sum(size_of(m) for m in history)
    for block in rounds:
        for index, message in enumerate(block):
            if total <= room:
                return brief + [m for b in rounds for m in b]
            if isinstance(message, ToolMessage) and len(message.text) > HEAD_CHARS:
                short = _elided(message)
                total += size_of(short) - size_of(message)
                block[index] = short
    folded: list[list[AnyMessage]] = []
    while total > room and len(rounds) > 1:
        folded.append(rounds.pop(0))
        record = _record(folded)
        total = sum(size_of(m) for m in [*brief, record, *(m for b in rounds for m in b)])
    kept = [m for b in rounds for m in b]
    rest = ([_record(folded)] if folded else []) + kept
    return _shortened_brief(brief, room - sum(size_of(m) for m in rest)) + rest


def _shortened_brief(brief: list[AnyMessage], room: int) -> list[AnyMessage]:
    """The brief, its end cut (the analysis digest's last sections) while it does not fit
    `room` and is longer than BRIEF_MIN_CHARS: a window too small for the whole brief."""
    if not brief:
        return brief
    message = brief[0]
    text = message.text
    while size_of(message) > room and len(text) > BRIEF_MIN_CHARS:
        text = text[: max(BRIEF_MIN_CHARS, len(text) * 3 // 4)]
        message = message.model_copy(update={"content": text + BRIEF_CUT_NOTE})
    return [message]


def _rounds(messages: list[AnyMessage]) -> list[list[AnyMessage]]:
    """Messages grouped as a model reply and what answers it (tool results, nudges)."""
    rounds: list[list[AnyMessage]] = []
    for message in messages:
        if isinstance(message, AIMessage) or not rounds:
            rounds.append([])
        rounds[-1].append(message)
    return rounds


def _elided(message: ToolMessage) -> ToolMessage:
    hidden = len(message.text) - HEAD_CHARS
    content = message.text[:HEAD_CHARS] + ELIDED_NOTE.format(hidden=hidden)
    return message.model_copy(update={"content": content})


def _record(rounds: list[list[AnyMessage]]) -> HumanMessage:
    results = {m.tool_call_id: m for block in rounds for m in block if isinstance(m, ToolMessage)}
    lines = [RECORD_HEADER]
    for block in rounds:
        for message in block:
            if isinstance(message, AIMessage):
                for call in message.tool_calls:
                    result = results.get(call["id"])
                    outcome = "error" if result is not None and result.status == "error" else "ok"
                    head = (result.text if result is not None else "").replace("\n", " ")
                    args = json.dumps(call["args"], ensure_ascii=False, sort_keys=True)
                    line = RECORD_CALL.format(
                        tool=call["name"], args=args, outcome=outcome, head=head
                    )
                    lines.append(line[:RECORD_LINE_CHARS])
            elif isinstance(message, HumanMessage):
                lines.append(RECORD_NOTE.format(text=message.text)[:RECORD_LINE_CHARS])
    return HumanMessage("\n".join(lines))
