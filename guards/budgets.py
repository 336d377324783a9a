"""Budgets: hard bounds checked before spending, independent of the loop ladder."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field

from labscribe.guards.statuses import Termination


class Budget(BaseModel):
    """How much exploration may spend. None means no limit of that kind."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    max_tool_iters: int | None = Field(
        default=20,
        ge=1,
        description="Explore model calls allowed; on exhaustion drafting proceeds.",
    )
    max_tokens: int | None = Field(
        default=None,
        ge=1,
        description="Input plus output tokens the explore model may spend in all.",
    )


@dataclass(frozen=True)
class Exceeded:
    termination: Termination
    message: str


def check_before_request(budget: Budget, *, model_calls: int, tokens: int) -> Exceeded | None:
    """Whether one more explore model call would break the budget, named with the observed value."""
    if budget.max_tool_iters is not None and model_calls >= budget.max_tool_iters:
        return Exceeded(
            Termination.ITERATION_BUDGET,
            f"Exceeded the max_tool_iters limit of {budget.max_tool_iters} "
            f"(model_calls={model_calls})",
        )
    if budget.max_tokens is not None and tokens >= budget.max_tokens:
        return Exceeded(
            Termination.TOKEN_BUDGET,
            f"Exceeded the max_tokens limit of {budget.max_tokens} (tokens={tokens})",
        )
    return None


def estimate_tokens(text: str) -> int:
    """A tokenizer-free upper estimate: UTF-8 bytes / 3 (ASCII runs ~4 bytes a token, CJK ~3)."""
    return len(text.encode("utf-8", "replace")) // 3 + 1


def rounds_that_fit(fixed: int, rounds: Sequence[int], window: int) -> int:
    """How many of the newest `rounds` (token sizes, oldest first) fit beside `fixed` tokens.

    A round is a model reply with the tool results that answer it; rounds are kept or
    dropped whole so the history never holds a call without its result. The newest
    round is always kept, even when it alone overflows: without it the model has no turn.
    """
    room = window - fixed
    kept = 0
    for size in reversed(rounds):
        if kept and size > room:
            break
        room -= size
        kept += 1
    return kept


# A reply may ask for several calls at once; beyond this many the rest are answered
# "not executed". It also bounds the graph's steps per explore turn (1 + this).
MAX_CALLS_PER_REPLY = 12
TOO_MANY_CALLS = (
    "at most {limit} tool calls run per reply; ask for this one again in your next reply"
)


def graph_step_bound(max_tool_iters: int) -> int:
    """Super-steps one invocation can take: every turn plus every call it may answer, with room."""
    return 16 + (max_tool_iters + 1) * (1 + MAX_CALLS_PER_REPLY)
