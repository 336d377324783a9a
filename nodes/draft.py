"""draft: the write model turns the findings into a complete LaTeX report, or a fallback does."""

from __future__ import annotations

import json
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, SystemMessage, ToolMessage
from langgraph.runtime import Runtime

from labscribe.graph.context import Context
from labscribe.graph.models import chat_model, role_of, spent
from labscribe.graph.progress import milestone
from labscribe.graph.state import State
from labscribe.guards.output import latex_problems, tidy_latex
from labscribe.nodes.fallback import fallback_report
from labscribe.nodes.prompts import CONTINUE, DRAFT_RETRY, WRITER_BRIEF, WRITER_SYSTEM

STRENGTHENED_RETRIES = 3  # the retries after the first attempt; then the fallback writes
CONTINUATIONS = 4  # a reply cut at the length limit is continued at most this often
MATERIAL_CHARS = 24_000  # excerpts of what the explorer read, handed to the writer
EXCERPT_CHARS = 4_000


def draft(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    model = chat_model(runtime.context, role_of("draft"))
    conversation: list[AnyMessage] = [SystemMessage(WRITER_SYSTEM), HumanMessage(brief(state))]
    replies: list[AIMessage] = []
    for _attempt in range(1 + STRENGTHENED_RETRIES):
        text, parts = complete(model, conversation)
        replies += parts
        document = tidy_latex(text)
        problems = latex_problems(document)
        if not problems:
            update = {"report": document}
            detail = f"draft written ({len(document)} characters)"
            break
        retry = DRAFT_RETRY.format(problems="; ".join(problems))
        conversation += [AIMessage(text), HumanMessage(retry)]
    else:
        reason = f"drafting failed {1 + STRENGTHENED_RETRIES} times ({'; '.join(problems)})"
        update = {"report": fallback_report(state), "degraded": [reason]}
        detail = f"fallback report assembled: {reason}"
    return update | spent("draft", *replies) | milestone(state, "draft", detail)


def complete(model: BaseChatModel, conversation: list[AnyMessage]) -> tuple[str, list[AIMessage]]:
    """The model's whole reply, continued while it stops at the length limit, and its parts."""
    parts: list[AIMessage] = []
    messages = list(conversation)
    for _continuation in range(1 + CONTINUATIONS):
        reply = model.invoke(messages)
        parts.append(reply)
        if reply.response_metadata.get("finish_reason") != "length":
            break
        messages += [AIMessage(reply.text), HumanMessage(CONTINUE)]
    return "".join(part.text for part in parts), parts


def brief(state: State) -> str:
    ending = (state.get("exploration") or {}).get("reason", "not recorded")
    findings = json.dumps(state.get("findings") or {}, ensure_ascii=False, indent=2)
    return WRITER_BRIEF.format(
        ending=ending, findings=findings, material=gathered_material(state.get("messages", []))
    )


def gathered_material(messages: list[AnyMessage], budget: int = MATERIAL_CHARS) -> str:
    """What the explorer's successful tool calls returned, newest reads last, within `budget`."""
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
    text = "\n\n".join(excerpts)
    return text[-budget:] if text else "(nothing was read)"
