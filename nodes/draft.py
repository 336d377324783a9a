"""draft: the write model turns the findings into a complete LaTeX report, or a fallback does."""

from __future__ import annotations

import json
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, SystemMessage, ToolMessage
from langgraph.runtime import Runtime

from labscribe.guards.bounds import estimate_tokens, within_tokens
from labscribe.guards.output import is_degenerate, tidy_latex
from labscribe.nodes.checks import report_problems
from labscribe.nodes.fallback import fallback_report
from labscribe.nodes.halts import nudged
from labscribe.nodes.material import (
    analysis_text,
    citation_keys,
    figure_list,
    findings_text,
    number_check,
)
from labscribe.nodes.prompts import (
    CONTINUE,
    DRAFT_RETRY,
    ECHO_CUT,
    ENDING_NOT_RECORDED,
    NO_FIGURES,
    NO_GAPS_FOUND,
    NOTHING_READ,
    WRITER_BRIEF,
    WRITER_SYSTEM,
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
from labscribe.nodes.runtime.state import State, data_folder, milestone
from labscribe.tools.analysis.analysis_digest import WRITER_DIGEST

STRENGTHENED_RETRIES = 3  # the retries after the first attempt; then the fallback writes
CONTINUATIONS = 4  # a reply cut at the length limit is continued at most this often
EXCERPT_CHARS = 4_000  # of one tool result, in the writer's brief
ECHO_CHARS = 1_500  # of a rejected or cut-off reply, shown back to the writer: enough to go on


def draft(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    ctx = runtime.context
    if reason := idle_reason(ctx, "draft"):
        update = fallback(state, reason, model_tried=False) | {"skipped": {"draft": reason}}
        return update | milestone(state, "draft", f"fallback report assembled: {reason}")
    model = chat_model(ctx, role_of("draft"))
    # A quarter of the window stays free for the reply; the brief gets the rest.
    room = context_window(ctx, role_of("draft")) * 3 // 4 - estimate_tokens(WRITER_SYSTEM)
    opening: list[AnyMessage] = [
        SystemMessage(WRITER_SYSTEM),
        HumanMessage(brief(state, room)),
        *nudged(state),
    ]
    conversation = opening
    replies: list[AIMessage] = []
    for _attempt in range(1 + STRENGTHENED_RETRIES):
        text, parts = complete(model, conversation, "draft")
        replies += parts
        document = tidy_latex(text)
        problems = report_problems(document, state, ctx)
        if not problems:
            numbers = number_check(state, document)
            update = {"report": document, "drafted_by": "model", "numbers": numbers}
            detail = f"draft written ({len(document)} characters)"
            break
        retry = DRAFT_RETRY.format(problems="; ".join(problems))
        conversation = [*opening, AIMessage(_echo(text)), HumanMessage(retry)]
    else:
        reason = f"drafting failed {1 + STRENGTHENED_RETRIES} times ({'; '.join(problems)})"
        update = fallback(state, reason)
        detail = f"fallback report assembled: {reason}"
    return update | spent("draft", *replies) | milestone(state, "draft", detail)


def fallback(state: State, reason: str, *, model_tried: bool = True) -> dict[str, Any]:
    """The report from the data (nodes/fallback.py), and why no model draft is in its place;
    `model_tried` False when no model was asked to draft."""
    report = fallback_report(state, reason, model_tried=model_tried)
    return {
        "report": report,
        "drafted_by": "fallback",
        "degraded": [reason] if model_tried else [],  # with no model asked, as promised
        "numbers": number_check(state, report),
    }


def complete(
    model: BaseChatModel, conversation: list[AnyMessage], stage: str
) -> tuple[str, list[AIMessage]]:
    """The model's whole reply, continued while it stops at the length limit (unless it is
    looping), and its parts.

    A continuation shows the model only the tail of what it wrote, so the request stays as
    small as the first one however long the reply grows.
    """
    parts: list[AIMessage] = []
    messages = list(conversation)
    for _continuation in range(1 + CONTINUATIONS):
        reply = ask(model, messages, stage)
        parts.append(reply)
        written = "".join(part.text for part in parts)
        if reply.response_metadata.get("finish_reason") != "length" or is_degenerate(written):
            break  # done, or looping: continuing a loop only buys more of it
        messages = [*conversation, AIMessage(written[-ECHO_CHARS:]), HumanMessage(CONTINUE)]
    return "".join(part.text for part in parts), parts


def brief(state: State, room: int) -> str:
    """The writer's brief within `room` estimated tokens: the newest material that fits."""
    gaps = "\n".join(f"- {gap}" for gap in state.get("gaps") or []) or NO_GAPS_FOUND
    ending = (state.get("exploration") or {}).get("reason", ENDING_NOT_RECORDED)
    parts = {  # what a model wrote takes a share of the room at most: the rest is material
        "ending": within_tokens(ending, room // 20, "how exploration ended"),
        "findings": findings_text(state, room // 3, indent=2),
        "gaps": within_tokens(gaps, room // 10, "the gaps"),
        "figures": figure_list(state) or NO_FIGURES,
        "analysis": analysis_text(state, WRITER_DIGEST),
        "citation_keys": citation_keys(data_folder(state)),
    }
    frame = WRITER_BRIEF.format(material="", **parts)
    material = gathered_material(state.get("messages", []), room - estimate_tokens(frame))
    return WRITER_BRIEF.format(material=material, **parts)


def gathered_material(messages: list[AnyMessage], room: int) -> str:
    """What the explorer's successful tool calls returned, oldest first, newest kept first."""
    requests = {
        call["id"]: call
        for message in messages
        if isinstance(message, AIMessage)
        for call in message.tool_calls
    }
    excerpts = []
    for message in messages:
        if not isinstance(message, ToolMessage) or message.status == "error":
            continue
        call = requests.get(message.tool_call_id)
        if call is None or call["name"] == "finish_exploration":
            continue
        args = json.dumps(call["args"], ensure_ascii=False, sort_keys=True)
        excerpts.append(f"### {call['name']} {args}\n{message.text[:EXCERPT_CHARS]}")
    kept: list[str] = []
    for excerpt in reversed(excerpts):
        cost = estimate_tokens(excerpt) + 1
        if cost > room:
            break
        kept.insert(0, excerpt)
        room -= cost
    return "\n\n".join(kept) if kept else NOTHING_READ


def _echo(text: str) -> str:
    return text if len(text) <= ECHO_CHARS else text[:ECHO_CHARS] + ECHO_CUT
