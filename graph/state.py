"""The graph's state. The input is narrower than the state: a folder and where to write."""

from __future__ import annotations

import operator
from typing import Annotated, Any, NotRequired

from langchain_core.messages import AIMessage, AnyMessage, ToolMessage
from langgraph.graph.message import add_messages
from typing_extensions import TypedDict


def add_counts(left: dict[str, int] | None, right: dict[str, int] | None) -> dict[str, int]:
    """Reducer: sum per-key counters (model calls per role, tokens in and out)."""
    total = dict(left or {})
    for key, value in (right or {}).items():
        total[key] = total.get(key, 0) + value
    return total


class InputState(TypedDict):
    folder: str
    """Absolute path of the data folder."""
    out: NotRequired[str | None]
    """Where the CLI writes report.tex and the rest; recorded for resume."""


class State(InputState, total=False):
    options: dict[str, Any]
    """The run's configuration, without secrets, as the prepare step recorded it."""
    plan: list[str]
    """Milestones, computed from the configuration before the run."""
    stages: Annotated[list[str], operator.add]
    """Milestones reached, in order."""
    scan: dict[str, Any]
    messages: Annotated[list[AnyMessage], add_messages]
    """The explorer's whole history: the scan summary, replies, tool results, nudges."""
    guard: dict[str, Any]
    """The explorer's GuardState: ladder counts, warn/block tallies, halt record, cache."""
    pending_nudge: str | None
    """A human's nudge, added to the explorer's history before its next turn."""
    exploration: dict[str, Any] | None
    """How exploration ended: {"termination", "reason"}; None while it runs."""
    findings: dict[str, Any] | None
    report: str | None
    """The LaTeX source of the report."""
    degraded: Annotated[list[str], operator.add]
    model_calls: Annotated[dict[str, int], add_counts]
    tool_calls: Annotated[int, operator.add]
    tokens: Annotated[dict[str, int], add_counts]


def pending_calls(messages: list[AnyMessage]) -> list[dict[str, Any]]:
    """Tool calls of the newest model reply that no tool message answers yet, in order.

    Invalid calls (arguments that were not JSON) are included, marked `invalid`, because
    every call the model made must get its tool message.
    """
    for position in range(len(messages) - 1, -1, -1):
        reply = messages[position]
        if isinstance(reply, AIMessage):
            break
    else:
        return []
    answered = {m.tool_call_id for m in messages[position + 1 :] if isinstance(m, ToolMessage)}
    calls = [*reply.tool_calls, *({**call, "invalid": True} for call in reply.invalid_tool_calls)]
    return [call for call in calls if call["id"] not in answered]
