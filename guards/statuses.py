"""Every way a run or its exploration can end, with the words users read about it."""

from __future__ import annotations

from enum import StrEnum
from typing import Any


class RunStatus(StrEnum):
    """`run.json`'s `status`: the contract other tools read."""

    COMPLETED = "completed"
    DEGRADED = "degraded"
    HALTED = "halted"
    FAILED = "failed"
    CANCELLED = "cancelled"


class HaltKind(StrEnum):
    """Why a halt pauses or not: a collapse follows `on_collapse`; infrastructure always pauses."""

    COLLAPSE = "collapse"
    INFRASTRUCTURE = "infrastructure"


class Termination(StrEnum):
    """Why exploration stopped (or the run halted). Each value names one cause."""

    FINISHED = "finished"  # the model called finish_exploration
    FINAL_ANSWER = "final_answer"  # the model answered in text with no tool call
    ITERATION_BUDGET = "iteration_budget"
    TOKEN_BUDGET = "token_budget"
    LENGTH = "length"  # finish_reason == "length" on an explore turn
    REPEATED_CALL = "repeated_call"  # identical calls, or a cycle of them, halted a collapse
    NO_PROGRESS = "no_progress"  # calls in a row that showed nothing new
    TOOL_FAILURES = "tool_failures"  # consecutive tool calls failing the same way
    EMPTY_REPLIES = "empty_replies"  # replies in a row with neither text nor a tool call
    AUTHENTICATION = "authentication"
    UNAVAILABLE = "unavailable"  # outage or rate limit that outlived the retries
    TIMEOUT = "timeout"  # a request that never answered, after retries
    CANCELLED = "cancelled"  # Ctrl-C or a cancel from the server
    SKIPPED = "skipped"  # no model explores in this run (--no-model, or one measured idle)

    @property
    def halt_kind(self) -> HaltKind | None:
        """The halt this termination is, or None when exploration simply moves on."""
        if self in _COLLAPSES:
            return HaltKind.COLLAPSE
        if self in _INFRASTRUCTURE:
            return HaltKind.INFRASTRUCTURE
        return None

    @property
    def description(self) -> str:
        return _DESCRIPTIONS[self]


_COLLAPSES = frozenset(
    {
        Termination.REPEATED_CALL,
        Termination.NO_PROGRESS,
        Termination.TOOL_FAILURES,
        Termination.EMPTY_REPLIES,
    }
)
_INFRASTRUCTURE = frozenset(
    {Termination.AUTHENTICATION, Termination.UNAVAILABLE, Termination.TIMEOUT}
)

_DESCRIPTIONS: dict[Termination, str] = {
    Termination.FINISHED: "the explorer called finish_exploration",
    Termination.FINAL_ANSWER: "the explorer answered without calling a tool",
    Termination.ITERATION_BUDGET: "the exploration reached its model-call budget",
    Termination.TOKEN_BUDGET: "the exploration reached its token budget",
    Termination.LENGTH: "the explorer's reply was cut off (finish_reason=length)",
    Termination.REPEATED_CALL: "the explorer kept repeating the same tool call",
    Termination.NO_PROGRESS: "the explorer's calls kept showing it nothing new",
    Termination.TOOL_FAILURES: "the explorer's tool calls kept failing the same way",
    Termination.EMPTY_REPLIES: "the explorer kept replying with nothing",
    Termination.AUTHENTICATION: "the model endpoint refused the credentials (authentication)",
    Termination.UNAVAILABLE: "the model endpoint was unavailable after retries",
    Termination.TIMEOUT: "the model endpoint did not answer in time, after retries",
    Termination.CANCELLED: "the run was cancelled",
    Termination.SKIPPED: "exploration was skipped",
}


def halt_record(
    termination: Termination, reason: str, *, tool: str | None = None, args: Any = None
) -> dict[str, Any]:
    """The one shape of every halt, whatever stops the run: a collapse the loop guards
    caught, an endpoint that failed in any stage. In state (`guard.halt`, `guard.halts`), in
    the interrupt a human answers, and in run.json."""
    kind = termination.halt_kind
    return {
        "termination": termination.value,
        "kind": kind.value if kind else None,
        "reason": reason,
        "tool": tool,
        "args": args,
    }


def classify_model_error(exc: BaseException) -> Termination | None:
    """The infrastructure termination an exception from a model call means, if any.

    Read by duck typing (`status_code`, exception names) so this module needs no client
    library: openai's AuthenticationError is 401, PermissionDeniedError 403, and so on.
    Anything unrecognised returns None and propagates as a bug.
    """
    status = getattr(exc, "status_code", None)
    if status is None:
        status = getattr(getattr(exc, "response", None), "status_code", None)
    if status in (401, 403):
        return Termination.AUTHENTICATION
    if status == 429 or (isinstance(status, int) and 500 <= status < 600):
        return Termination.UNAVAILABLE
    names = {cls.__name__ for cls in type(exc).__mro__}
    if names & {"APITimeoutError", "TimeoutException", "TimeoutError", "ReadTimeout"}:
        return Termination.TIMEOUT
    if names & {"APIConnectionError", "ConnectError", "ConnectionError"}:
        return Termination.UNAVAILABLE
    return None
