"""A scripted chat model: the test double for the model's decisions, and nothing else.

It supports `bind_tools` (recording what was bound), serves its replies in order, gives each
reply fresh message and tool-call ids (as a real endpoint does), and records every request.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field

Reply = AIMessage | Callable[[list[BaseMessage]], AIMessage]
_ids = itertools.count(1)


def call(tool: str, /, **args: Any) -> dict[str, Any]:
    """A tool call as a reply carries it; its id is filled in when the reply is served."""
    return {"name": tool, "args": args, "id": None, "type": "tool_call"}


def reply(
    *calls: dict[str, Any],
    content: str = "",
    finish_reason: str | None = None,
    invalid: Sequence[dict[str, Any]] = (),
) -> AIMessage:
    """A model reply: text and/or tool calls, with the finish reason an endpoint would give."""
    reason = finish_reason or ("tool_calls" if calls or invalid else "stop")
    return AIMessage(
        content=content,
        tool_calls=list(calls),
        invalid_tool_calls=[{"type": "invalid_tool_call", **bad} for bad in invalid],
        response_metadata={"finish_reason": reason},
        usage_metadata={"input_tokens": 100, "output_tokens": 20, "total_tokens": 120},
    )


FILLER = (
    "\\section{Introduction} A series RLC circuit was driven with a sinusoidal voltage and the "
    "voltage across the resistor was recorded over a frequency sweep, to find the resonance "
    "frequency, the bandwidth and the quality factor, and to compare them with theory."
)


def latex(body: str = "Results.") -> str:
    """A complete LaTeX document around `body`, long enough to pass the output checks."""
    return f"\\documentclass{{article}}\n\\begin{{document}}\n{FILLER}\n{body}\n\\end{{document}}\n"


class ScriptedChatModel(BaseChatModel):
    replies: list[Any]
    """Served in order; the last one repeats forever."""
    by_turn: bool = False
    """Pick the reply by the number of AI messages already in the request, so a new process
    resuming a thread continues the script where the old one stopped."""
    requests: list[list[BaseMessage]] = Field(default_factory=list)
    bound_tools: list[Any] = Field(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> ScriptedChatModel:
        self.bound_tools = list(tools)
        return self

    def _generate(self, messages: list[BaseMessage], stop: Any = None, **kwargs: Any) -> ChatResult:
        self.requests.append(list(messages))
        turn = sum(isinstance(m, AIMessage) for m in messages) if self.by_turn else None
        index = len(self.requests) - 1 if turn is None else turn
        item = self.replies[min(index, len(self.replies) - 1)]
        message = item(messages) if callable(item) else item
        return ChatResult(generations=[ChatGeneration(message=_fresh(message))])


def _fresh(message: AIMessage) -> AIMessage:
    n = next(_ids)
    calls = [{**c, "id": f"call-{n}-{i}"} for i, c in enumerate(message.tool_calls)]
    invalid = [{**c, "id": f"bad-{n}-{i}"} for i, c in enumerate(message.invalid_tool_calls)]
    return message.model_copy(
        update={"id": f"scripted-{n}", "tool_calls": calls, "invalid_tool_calls": invalid}
    )
