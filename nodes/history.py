"""Fitting the explorer's history into its model's context window, deterministically.

State keeps the whole history; only the request is fitted. First the oldest tool results
are cut to a short head with a note saying what was elided; if that is not enough, the
oldest rounds are folded into one record of what was called and how it went, so the model
never loses track of what it already tried. The newest round is never folded.
"""

from __future__ import annotations

import json

from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, ToolMessage

from labscribe.guards.budgets import estimate_tokens
from labscribe.nodes.prompts import (
    BRIEF_CUT_NOTE,
    ELIDED_NOTE,
    RECORD_CALL,
    RECORD_HEADER,
    RECORD_NOTE,
)

HEAD_CHARS = 240  # what stays of an elided result: enough to recall what the file was
RECORD_LINE_CHARS = 160
BRIEF_MIN_CHARS = 600  # of the brief: the folder's summary and the analysis's first lines
MESSAGE_OVERHEAD = 8  # role markers and separators a chat template adds per message


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
