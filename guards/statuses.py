"""Every way a run or its exploration can end, with the words users read about it: a run's
status, a halt's kind and record, and what a failed model call means.
"""

from __future__ import annotations

import re
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
    TIMEOUT = "timeout"  # a request that never answered, or not whole in time, after retries
    BAD_ANSWER = "bad_answer"  # an answer that is not a chat completion
    CONTEXT_EXCEEDED = "context_exceeded"  # the endpoint refused a request over its window
    MODEL_UNKNOWN = "model_unknown"  # the endpoint knows no model of that name (404)
    REFUSED = "refused"  # any other 4xx: the endpoint will not take the request as it is
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
    {
        Termination.AUTHENTICATION,
        Termination.UNAVAILABLE,
        Termination.TIMEOUT,
        Termination.BAD_ANSWER,
        Termination.CONTEXT_EXCEEDED,
        Termination.MODEL_UNKNOWN,
        Termination.REFUSED,
    }
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
    Termination.BAD_ANSWER: "the model endpoint's answer was not a chat completion (check "
    "--base-url: a proxy or login page answers like this)",
    Termination.CONTEXT_EXCEEDED: "the model endpoint refused a request larger than its "
    "context window: resume with --context-tokens (LABSCRIBE_CONTEXT_TOKENS) set to its window; "
    "if it already is, the window is too small for the explorer's prompt and tools, so use a "
    "model with a larger one (4096 tokens or more)",
    Termination.MODEL_UNKNOWN: "the model endpoint answered 404, no such model or no chat API "
    "there: resume with --explore-model / --write-model (LABSCRIBE_EXPLORE_MODEL, "
    "LABSCRIBE_WRITE_MODEL) set to a model it serves, or check --base-url (often ending /v1)",
    Termination.REFUSED: "the model endpoint refused the request (a model without tool "
    "calls, or a setting it does not take): check --base-url and the model names",
    Termination.CANCELLED: "the run was cancelled",
    Termination.SKIPPED: "exploration was skipped",
}


def of_endpoint(halt: dict[str, Any] | None) -> bool:
    """Whether the halt record `halt` is an endpoint's: it always pauses for a human, and its
    answer sends the failed request again (a collapse's drafts, or takes a nudge)."""
    return bool(halt) and halt.get("kind") == HaltKind.INFRASTRUCTURE


def halt_record(
    termination: Termination, reason: str, *, tool: str | None = None, args: Any = None
) -> dict[str, Any]:
    """The one shape of every halt, whatever stops the run: a collapse the loop guards
    caught, an endpoint that failed in any stage. In state (`halted`, `guard.halts`), in
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
    library: openai's AuthenticationError is 401, NotFoundError 404, and so on. An answer
    that was not a completion (`BadAnswer`) counts wherever it lies in the exception's
    chain: the client may have wrapped it in its own connection error after its retries.
    Anything unrecognised returns None and propagates as a bug.
    """
    answer = _in_chain(exc, "BadAnswer")
    if answer is not None:  # an error object in a 200: an outage if its code says one
        code = getattr(answer, "status_code", None)
        outage = code == 429 or (isinstance(code, int) and 500 <= code < 600)
        return Termination.UNAVAILABLE if outage else Termination.BAD_ANSWER
    status = getattr(exc, "status_code", None)
    if status is None:
        status = getattr(getattr(exc, "response", None), "status_code", None)
    if isinstance(status, int) and 300 <= status < 400:  # a redirect: a portal's login page
        return Termination.BAD_ANSWER
    if status in (401, 403):
        return Termination.AUTHENTICATION
    if status == 404:
        return Termination.MODEL_UNKNOWN
    if status in (400, 413) and _CONTEXT_WORDS.search(str(exc)):
        return Termination.CONTEXT_EXCEEDED
    if status == 429 or (isinstance(status, int) and 500 <= status < 600):
        return Termination.UNAVAILABLE
    if isinstance(status, int) and 400 <= status < 500:
        return Termination.REFUSED
    names = {cls.__name__ for cls in type(exc).__mro__}
    if names & {"APITimeoutError", "TimeoutException", "TimeoutError", "ReadTimeout"}:
        return Termination.TIMEOUT
    if names & {"APIConnectionError", "ConnectError", "ConnectionError", "TransportError"}:
        return Termination.UNAVAILABLE  # TransportError: a stream cut off halfway, among others
    if "APIError" in names and status is None:  # an error event inside a 200 stream
        body = getattr(exc, "body", None)
        code = body.get("code") if isinstance(body, dict) else None
        outage = code == 429 or (isinstance(code, int) and 500 <= code < 600)
        return Termination.UNAVAILABLE if outage else Termination.BAD_ANSWER
    return None


def fault_detail(exc: BaseException) -> str:
    """What a failed model call says of itself: the reply's own fault (an answer that was
    not a completion, a reply past its deadline) where the client wrapped it, its retries
    ending in "Request timed out." or "Connection error."."""
    own = _in_chain(exc, "BadAnswer", "ReplyDeadline")
    return str(own if own is not None else exc)


# How endpoints word a request over the window: OpenAI's context_length_exceeded, vLLM's
# "maximum context length", llama.cpp's "exceeds the available context size", Ollama's and
# Anthropic-compatible proxies' "prompt is too long" or "too many tokens".
_CONTEXT_WORDS = re.compile(
    r"context.?length|context.?(?:size|window)|maximum context|prompt is too long|"
    r"too many tokens|reduce the length",
    re.IGNORECASE,
)


def _in_chain(exc: BaseException, *names: str) -> BaseException | None:
    """The first exception of a class named in `names` in `exc`'s chain of causes, if any."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        if set(names) & {cls.__name__ for cls in type(current).__mro__}:
            return current
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return None
