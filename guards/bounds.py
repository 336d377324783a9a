"""Bounds, checked before anything is spent or kept, independent of the loop ladder: what a
run may spend (tokens, tool iterations, graph steps, a tool's compute), and what may enter its
checkpointed state: tool-call arguments, repaired tolerantly from broken JSON and kept within
their bounds (the errors the model reads are in `messages`), and text made valid, whoever
wrote it (`valid_text`).
"""

from __future__ import annotations

import json
import math
import re
import string
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import json_repair
from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from labscribe.guards.messages import (
    ARGUMENT_INTEGER_TOO_LARGE,
    ARGUMENT_STRING_TOO_LONG,
    ARGUMENTS_KEPT,
    ARGUMENTS_NOT_AN_OBJECT,
    ARGUMENTS_TOO_DEEP,
    ARGUMENTS_TOO_LARGE,
    CUT_TO_FIT,
    ITERATION_BUDGET_EXCEEDED,
    TOKEN_BUDGET_EXCEEDED,
)
from labscribe.guards.statuses import Termination

DEFAULT_MAX_TOOL_ITERS = 20


class Budget(BaseModel):
    """How much exploration may spend. None means no limit of that kind."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    max_tool_iters: int | None = Field(
        default=DEFAULT_MAX_TOOL_ITERS,
        description="Explore model calls allowed; on exhaustion drafting proceeds.",
    )
    max_tokens: int | None = Field(
        default=None,
        description="Input plus output tokens the explore model may spend in all.",
    )

    @field_validator("max_tool_iters", "max_tokens")
    @classmethod
    def _at_least_one(cls, value: int | None, info: ValidationInfo) -> int | None:
        if value is not None and value < 1:
            raise ValueError(f"{info.field_name} must be at least 1, got {value}")
        return value


class Usage(BaseModel):
    """What model calls spent (pydantic-ai's RunUsage): calls, and input and output tokens.
    Usages add up; the state keeps them per stage as plain counters (`dump`), so a
    checkpoint or a server's JSON holds no class of ours."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    calls: int = 0
    input: int = 0
    output: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            calls=self.calls + other.calls,
            input=self.input + other.input,
            output=self.output + other.output,
        )

    @property
    def tokens(self) -> int:
        return self.input + self.output

    def dump(self) -> dict[str, int]:
        return self.model_dump()


def usage_by_stage(counters: Mapping[str, Mapping[str, int]] | None) -> dict[str, Usage]:
    """The state's per-stage counters as usages."""
    return {stage: Usage.model_validate(dict(c)) for stage, c in (counters or {}).items()}


@dataclass(frozen=True)
class Exceeded:
    termination: Termination
    message: str


def check_before_request(budget: Budget, used: Usage) -> Exceeded | None:
    """Whether one more explore model call would break the budget, named with the observed value."""
    model_calls, tokens = used.calls, used.tokens
    if budget.max_tool_iters is not None and model_calls >= budget.max_tool_iters:
        return Exceeded(
            Termination.ITERATION_BUDGET,
            ITERATION_BUDGET_EXCEEDED.format(limit=budget.max_tool_iters, calls=model_calls),
        )
    if budget.max_tokens is not None and tokens >= budget.max_tokens:
        return Exceeded(
            Termination.TOKEN_BUDGET,
            TOKEN_BUDGET_EXCEEDED.format(limit=budget.max_tokens, tokens=tokens),
        )
    return None


# Counted on the UTF-8 bytes, where a character beyond ASCII is bytes from 0x80 up.
_HIGH_BYTES = bytes(range(0x80, 0x100))
_NOT_WORD_BYTES = bytes(sorted(set(range(0x100)) - set(string.ascii_letters.encode() + b" ")))


def estimate_tokens(text: str) -> int:
    """A tokenizer-free estimate that errs high, so a history it admits fits the real window.

    Letters and spaces run about four to a token in English BPE vocabularies; digits and
    punctuation are often a token each (small models split numbers digit by digit); a
    byte-level vocabulary may spend a token per UTF-8 byte of CJK text. Checked against
    SmolLM2's tokenizer on the example folder in the tests.
    """
    encoded = text.encode("utf-8")
    narrow = len(encoded.translate(None, _HIGH_BYTES))  # ASCII characters
    words = len(encoded.translate(None, _NOT_WORD_BYTES))  # ASCII letters and spaces
    return words // 3 + (narrow - words) + (len(encoded) - narrow) + 1


def within_tokens(text: str, tokens: int, what: str) -> str:
    """`text` if it fits `tokens` estimated tokens; else its longest start that fits with a
    note saying what was cut (`what`) and how much. A megabyte costs no more than the room:
    no start longer than three characters a token can fit."""
    tokens = max(tokens, 0)
    if len(text) <= 3 * tokens + 3 and estimate_tokens(text) <= tokens:
        return text
    note = CUT_TO_FIT.format(what=what, kept="{kept:,}", total=f"{len(text):,}")
    room = max(0, tokens - estimate_tokens(note.format(kept=len(text))))
    low, high = 0, min(len(text), 3 * room + 3)
    while low < high:  # the longest start whose estimate fits the room
        middle = (low + high + 1) // 2
        low, high = (middle, high) if estimate_tokens(text[:middle]) <= room else (low, middle - 1)
    return text[:low] + note.format(kept=low)


# A reply may ask for several calls at once; beyond this many the rest are answered
# "not executed". It also bounds the graph's steps per explore turn (1 + this).
MAX_CALLS_PER_REPLY = 12


def graph_step_bound(max_tool_iters: int) -> int:
    """Super-steps one invocation can take: every turn plus every call it may answer, with room."""
    return 16 + (max_tool_iters + 1) * (1 + MAX_CALLS_PER_REPLY)


# A thread starved by other work may stretch its CPU budget this many times on the wall clock.
STARVED_FACTOR = 6


@dataclass
class ComputeBudget:
    """A bound on work counted in the CPU time of the thread that does it, not the wall
    clock: a machine busy with other work slows the analysis down without costing the report
    its fits, so a folder gets the same report on a loaded lab server as on an idle laptop.
    The wall-clock ceiling keeps a starved thread bounded all the same. Made and checked on
    the one thread whose work it bounds."""

    cpu_seconds: float
    wall_seconds: float
    cpu_clock: Callable[[], float] = time.thread_time
    wall_clock: Callable[[], float] = time.monotonic
    _cpu_start: float = field(init=False)
    _wall_start: float = field(init=False)
    _charged: float = field(init=False, default=0.0)

    def __post_init__(self) -> None:
        self._cpu_start, self._wall_start = self.cpu_clock(), self.wall_clock()

    def charge(self, cpu_seconds: float) -> None:
        """Count CPU time spent for this work in another process (a decoding worker)."""
        self._charged += cpu_seconds

    @classmethod
    def of_cpu(cls, seconds: float) -> ComputeBudget:
        """`seconds` of this thread's CPU time, at most STARVED_FACTOR times that waited."""
        return cls(seconds, seconds * STARVED_FACTOR)

    def spent(self) -> bool:
        """Whether no new work may start: either bound has passed."""
        return (
            self.cpu_clock() - self._cpu_start + self._charged > self.cpu_seconds
            or self.wall_clock() - self._wall_start > self.wall_seconds
        )


UNBOUNDED = ComputeBudget(math.inf, math.inf)


# json-repair spends about 0.1 ms per bracket it opens: a reply of brackets alone (a broken or
# hostile endpoint) would hold the run for seconds. No tool's arguments need this many.
MAX_REPAIRED_BRACKETS = 4_096
# Lone surrogates: what a string may hold and UTF-8 text may not.
_NOT_TEXT = re.compile("[\ud800-\udfff]")


def repair_json_object(raw: str | None) -> dict[str, Any] | None:
    """Parse `raw` as a JSON object, repaired by json-repair when a model slipped (markdown
    fences, trailing commas, Python literals, single quotes, a reply cut short), strings
    left as they were written; None when what it holds is not an object."""
    if raw is None or not raw.strip():
        return {}
    if len(raw) > MAX_ARGUMENTS_CHARS:
        return None
    try:
        value = json.loads(raw)
    except ValueError:
        if raw.count("{") + raw.count("[") > MAX_REPAIRED_BRACKETS:
            return None
        try:
            value = json_repair.loads(raw)
        except (ValueError, RecursionError):
            return None
    except RecursionError:
        return None
    return value if isinstance(value, dict) else None


# What a call's arguments may hold and still be checkpointed: msgpack, the checkpoint
# format, takes integers of 64 bits and nesting to a limited depth; no tool argument needs
# more, or strings longer than a figure's code.
MAX_DEPTH = 16
MAX_INT = 2**63 - 1
MAX_STRING = 100_000
MAX_ARGUMENTS_CHARS = 2 * MAX_STRING
"""Of a call's arguments in all: a figure's code and its caption fit, an endless write does
not (a 5 MB argument kept in the history would overflow the window at the next request)."""
KEPT_ARGS_CHARS = 2_000
"""Of an invalid call's arguments: what the history keeps, to show the model its mistake."""


def argument_problem(args: Any) -> str | None:
    """Why `args` cannot be a tool call's arguments (not an object, too deep, a number or a
    string too large), or None when they can."""
    if not isinstance(args, dict):
        return ARGUMENTS_NOT_AN_OBJECT.format(kind=type(args).__name__)
    pending: list[tuple[Any, int]] = [(args, 1)]
    chars = 0
    while pending:
        value, depth = pending.pop()
        if isinstance(value, dict | list):
            if depth > MAX_DEPTH:
                return ARGUMENTS_TOO_DEEP.format(depth=MAX_DEPTH)
            children = value.values() if isinstance(value, dict) else value
            pending += [(child, depth + 1) for child in children]
            if isinstance(value, dict):
                pending += [(key, depth + 1) for key in value]
        elif isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_INT:
            return ARGUMENT_INTEGER_TOO_LARGE
        elif isinstance(value, str) and len(value) > MAX_STRING:
            return ARGUMENT_STRING_TOO_LONG.format(limit=MAX_STRING)
        elif isinstance(value, str):
            chars += len(value)
            if chars > MAX_ARGUMENTS_CHARS:
                return too_large(chars)
    return None


def too_large(chars: int) -> str:
    return ARGUMENTS_TOO_LARGE.format(chars=chars, limit=MAX_ARGUMENTS_CHARS)


def kept_args(args: Any) -> str | None:
    """An invalid call's arguments as the history keeps them: as text, their first
    KEPT_ARGS_CHARS characters and a note of how many more there were."""
    if args is None:
        return None
    text = args if isinstance(args, str) else json.dumps(args, default=repr, ensure_ascii=False)
    if len(text) <= KEPT_ARGS_CHARS:
        return text
    return text[:KEPT_ARGS_CHARS] + ARGUMENTS_KEPT.format(more=len(text) - KEPT_ARGS_CHARS)


def valid_text(value: Any, depth: int = 0) -> Any:
    """`value` with each code point that is not text in its strings (keys too) replaced by
    U+FFFD: a lone surrogate, as Python keeps a byte of a command line that is not UTF-8 or
    as JSON may escape one (`\\ud800`), cannot be sent or stored. Lists and dicts are
    walked MAX_DEPTH deep, as deep as a call's arguments may nest."""
    if isinstance(value, str):
        return _NOT_TEXT.sub("\ufffd", value)
    if depth > MAX_DEPTH:
        return value
    if isinstance(value, dict):
        return {valid_text(key): valid_text(item, depth + 1) for key, item in value.items()}
    if isinstance(value, list):
        return [valid_text(item, depth + 1) for item in value]
    return value
