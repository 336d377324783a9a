"""The detectors the loop guards' one entry asks (guards/guard.py), each with its policy: the
ladder of identical calls, cycles, and failures in a row; and what each answers (`Verdict`):
allow, warn, block, or halt with one of the endings in statuses.py. Guards decide; the node
that asked turns the answer into an update.

The ladder (`climb`): identical calls are warned, then blocked, then halted. Counting is per
call identity within an attempt (`guard_state.py`), so paging and any other call that asks for
something new starts at one. Read-only calls tolerate more repeats than mutating or costly
ones, and the terminal call is never counted. Each tool declares its class where it is
defined; configuration may move a tool between read-only and mutating, never into or out of
terminal.

Cycles (`judge_cycle`). The ladder counts each identical call on its own, so in an A-B cycle
every call climbs at half speed and the 5th identical A comes at the 9th call. Here the
recent calls are read as a sequence: when its tail is the same block of 2 to `max_period`
different calls repeated, the model is going round in a circle. A read's key carries what it
returned, so re-reading files that change (a poll, a log being written) is never a cycle.

Failures in a row (`judge_streak`, `judge_silence`): the same failure repeated nudges, then
halts; so do empty replies. Debugging fails too, but each error differs from the last: new
code, a new mistake. What marks a collapse is the same failure again and again, often on
ever-changing bad paths or guessed names. So failures are compared by kind (`failure_kind`:
the error with the paths the call named, other paths and numbers normalised), and a streak
counts only failures of one kind in a row. A failure of a kind already seen in the attempt
also shows nothing new, whatever came between, so failures that take turns climb the
progress rule (guard_state.py). Debugging stays bounded by the mutating ladder and the
budget.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from labscribe.guards.guard_state import ProgressPolicy, tool_of
from labscribe.guards.messages import (
    BLOCK_ERROR,
    CYCLE_HALT_REASON,
    CYCLE_NUDGE,
    EMPTY_REPLIES_HALT_REASON,
    FAILURE_HALT_REASON,
    FAILURE_NUDGE,
    HALT_REASON,
    WARN_NUDGE,
)
from labscribe.guards.paths import WRAPPERS
from labscribe.guards.statuses import Termination


@dataclass(frozen=True)
class Allow:
    """Run the call as asked."""


@dataclass(frozen=True)
class Warn:
    """Run the call, and close its result with `nudge`."""

    nudge: str


@dataclass(frozen=True)
class Block:
    """Do not show the call's answer; answer it with `message` as an error result."""

    message: str


@dataclass(frozen=True)
class Halt:
    """Stop exploring: the loop has collapsed. `reason` says why, for people."""

    reason: str
    cause: Termination


Verdict = Allow | Warn | Block | Halt

_SEVERITY = {Allow: 0, Warn: 1, Block: 2, Halt: 3}


def most_severe(*verdicts: Verdict) -> Verdict:
    """The strictest of `verdicts`; among equals the first, so callers list the most telling
    detector first (an identical call says more than a run of calls that added nothing)."""
    return max(verdicts, key=lambda verdict: _SEVERITY[type(verdict)], default=Allow())


class CyclePolicy(BaseModel):
    """When a repeated cycle of different calls warns and halts. None: never."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    # Two rounds of the same A-B is already a smell; paging or comparing two files always
    # moves a window or sees a changed file, so it never repeats a block of keys.
    warn: int | None = Field(default=2, ge=2, description="Full rounds of a cycle that warn.")
    # Three identical rounds (6 calls for A-B) is where published detectors stop an
    # alternation too; by then the nudge has been ignored for a whole round.
    halt: int | None = Field(default=3, ge=2, description="Full rounds of a cycle that halt.")
    max_period: int = Field(
        default=3, ge=2, le=8, description="Longest cycle looked for, in calls."
    )

    @property
    def memory(self) -> int:
        """How many recent call keys the detector needs to see."""
        return self.max_period * max(self.warn or 0, self.halt or 0, 2)


def repeated_cycle(keys: Sequence[str], max_period: int) -> tuple[int, int]:
    """(period, full rounds) of the shortest cycle of distinct keys the sequence ends with.

    (0, 0) when it ends with none: a period-1 "cycle" is an identical repeat, which is the
    ladder's business, and a block that repeats a key inside itself is not a cycle.
    """
    for period in range(2, max_period + 1):
        block = keys[-period:]
        if len(block) < period or len(set(block)) < period:
            continue
        rounds = 1
        while keys[-period * (rounds + 1) : len(keys) - period * rounds] == block:
            rounds += 1
        if rounds >= 2:
            return period, rounds
    return 0, 0


def judge_cycle(policy: CyclePolicy, keys: Sequence[str]) -> Verdict:
    """The verdict on the newest call, given the recent call keys, oldest first."""
    period, rounds = repeated_cycle(keys, policy.max_period)
    if not period:
        return Allow()
    calls = " -> ".join(tool_of(key) for key in keys[-period:])
    if policy.halt is not None and rounds >= policy.halt:
        reason = CYCLE_HALT_REASON.format(period=period, calls=calls, repeats=rounds)
        return Halt(reason, Termination.REPEATED_CALL)
    if policy.warn is not None and rounds == policy.warn:
        length = period * rounds
        return Warn(CYCLE_NUDGE.format(length=length, period=period, repeats=rounds, calls=calls))
    return Allow()


# Quotes that open after a non-word character: an apostrophe ("doesn't") opens nothing.
_QUOTED = re.compile(r"(?<!\w)'[^'\n]*'(?!\w)|\"[^\"\n]*\"")
_PATH_LIKE = re.compile(r"[/\\]|\.[A-Za-z][A-Za-z0-9]{0,5}$|^<path>$")  # <path>: a named one
# A token with a separator (`data/run_3.csv`), or a file name with an extension (`b.csv`).
# Both start where a token starts: tried from inside a long token, each would scan to its
# end and back from every position, quadratic in the token's length.
_UNQUOTED_PATH = re.compile(
    r"(?<![\w.~-])(?:[\w.~-]*[/\\])+[\w.~-]*"
    r"|(?<![\w.~-])[\w~-][\w.~-]*\.[A-Za-z][A-Za-z0-9]{0,5}\b"
)
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
MAX_KIND_CHARS = 2000
"""Of an error, what its kind is judged on: errors that share their first 2000 characters
are one failure, and a 99,000-character path in a model's call costs no more than that."""


class FailurePolicy(BaseModel):
    """When a streak of one failure nudges and halts, and when empty replies halt. None: never."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    nudge_after: int | None = Field(
        default=3, ge=1, description="Failures of one kind in a row that earn a reflective nudge."
    )
    halt_after: int | None = Field(
        default=5, ge=1, description="Failures of one kind in a row that halt exploration."
    )
    # Three: an empty reply is answered with a nudge; two nudges in a row ignored is a model
    # talking to itself, where peers (OpenHands' monologue rule) stop too.
    empty_replies: int | None = Field(
        default=3,
        ge=1,
        description="Replies in a row with neither text nor a tool call that halt exploration.",
    )

    @model_validator(mode="after")
    def _ordered(self) -> FailurePolicy:
        if None not in (self.nudge_after, self.halt_after) and self.nudge_after >= self.halt_after:
            raise ValueError("nudge_after must be below halt_after")
        return self


def failure_kind(error: str, named: Iterable[str] = ()) -> str:
    """`error` with its paths and numbers normalised: what two failures share when they are
    the same failure on other files or lines. `named` are the paths the call named, as it
    spelled them: a guessed folder `system` is a path there, though nothing marks it as one
    (no separator, no extension) when the error quotes it."""
    kind = error[:MAX_KIND_CHARS]
    spelled = {n.strip(WRAPPERS) for n in named if isinstance(n, str) and len(n) < MAX_KIND_CHARS}
    for name in sorted(spelled - {"", "."}, key=len, reverse=True):  # `data/x` before `x`
        kind = re.sub(rf"(?<![\w.~/-]){re.escape(name)}(?![\w.~/-])", "<path>", kind)
    kind = _QUOTED.sub(_path_or_same, kind)
    kind = _UNQUOTED_PATH.sub("<path>", kind)
    return _NUMBER.sub("<n>", kind)


def _path_or_same(quoted: re.Match[str]) -> str:
    return "<path>" if _PATH_LIKE.search(quoted.group()[1:-1]) else quoted.group()


def judge_streak(policy: FailurePolicy, streak: int) -> Verdict:
    """The verdict after the `streak`-th failure of one kind in a row (0 after a success)."""
    if policy.halt_after is not None and streak >= policy.halt_after:
        return Halt(FAILURE_HALT_REASON.format(streak=streak), Termination.TOOL_FAILURES)
    if policy.nudge_after is not None and streak == policy.nudge_after:
        return Warn(FAILURE_NUDGE.format(streak=streak))
    return Allow()


def judge_silence(policy: FailurePolicy, empty_replies: int) -> Verdict:
    """The verdict after the `empty_replies`-th reply in a row with neither text nor a call."""
    if policy.empty_replies is not None and empty_replies >= policy.empty_replies:
        reason = EMPTY_REPLIES_HALT_REASON.format(count=empty_replies)
        return Halt(reason, Termination.EMPTY_REPLIES)
    return Allow()


class ToolClass(StrEnum):
    READ_ONLY = "read-only"
    MUTATING = "mutating"  # mutating or costly: repeats waste money or change things
    TERMINAL = "terminal"  # ends the loop; repeating it is never a collapse


Rung = Literal["warn", "block", "halt"]


class Rungs(BaseModel):
    """On which identical call (1-based) each rung of the ladder applies. None: never."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    warn: int | None = Field(ge=2, description="This identical call runs, with a closing nudge.")
    block: int | None = Field(ge=2, description="This identical call is answered, not executed.")
    halt: int | None = Field(ge=2, description="This identical call halts exploration.")

    @model_validator(mode="after")
    def _ordered(self) -> Rungs:
        steps = [n for n in (self.warn, self.block, self.halt) if n is not None]
        if steps != sorted(set(steps)):
            raise ValueError(f"ladder rungs must rise warn < block < halt, got {self!r}")
        return self

    def rung(self, count: int) -> Rung | None:
        """The highest rung the `count`-th call has reached, or None below the first."""
        if self.halt is not None and count >= self.halt:
            return "halt"
        if self.block is not None and count >= self.block:
            return "block"
        if self.warn is not None and count >= self.warn:
            return "warn"
        return None


# 3rd identical read warns: the answer is already in context, so a re-read is a smell.
# 5th identical read halts: paging uses different offsets, so a 5th identical call is
# never paging, and by then the nudge and a refused call have both been ignored.
READ_ONLY_RUNGS = Rungs(warn=3, block=4, halt=5)
# A repeated figure costs a sandbox run and writes a file: one repeat is already a smell.
MUTATING_RUNGS = Rungs(warn=2, block=3, halt=4)


class LadderPolicy(BaseModel):
    """Where each class's rungs are, which tools are re-classed, and the other detectors."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    tool_classes: dict[str, ToolClass] = Field(
        default_factory=dict,
        description="Re-class tools by name, read-only <-> mutating; every tool declares its "
        "own class, and the terminal tool cannot be re-classed.",
    )
    read_only: Rungs = Field(default=READ_ONLY_RUNGS, description="Rungs for read-only tools.")
    mutating: Rungs = Field(
        default=MUTATING_RUNGS, description="Rungs for mutating or costly tools."
    )
    cycles: CyclePolicy | None = Field(
        default_factory=CyclePolicy,
        description="Cycles of different calls (A-B-A-B) that warn and halt; None: off.",
    )
    progress: ProgressPolicy | None = Field(
        default_factory=ProgressPolicy,
        description="Runs of calls that add nothing new warn, block and halt on the read-only "
        "rungs, one call earlier than identical calls; None: off.",
    )

    @model_validator(mode="after")
    def _never_terminal(self) -> LadderPolicy:
        made_terminal = sorted(n for n, c in self.tool_classes.items() if c is ToolClass.TERMINAL)
        if made_terminal:
            raise ValueError(
                f"tool_classes cannot make a tool terminal ({', '.join(made_terminal)}): only "
                "finish_exploration ends exploration"
            )
        return self

    def rungs_for(self, tool_class: ToolClass) -> Rungs | None:
        """The rungs of a class, or None when its calls are never counted."""
        return {
            ToolClass.READ_ONLY: self.read_only,
            ToolClass.MUTATING: self.mutating,
            ToolClass.TERMINAL: None,
        }[tool_class]

    def classes(self, declared: Mapping[str, ToolClass]) -> dict[str, ToolClass]:
        """Every tool's class: as the tool declares it, re-classed by configuration.

        Raises ValueError naming the tool when configuration re-classes an unknown tool or
        a terminal one: counting finish_exploration would halt a run that is finishing.
        """
        unknown = sorted(set(self.tool_classes) - set(declared))
        if unknown:
            raise ValueError(
                f"tool_classes names no tool: {', '.join(unknown)}; the tools are "
                f"{', '.join(declared)}"
            )
        for name in self.tool_classes:
            if declared[name] is ToolClass.TERMINAL:
                raise ValueError(
                    f"tool_classes cannot re-class {name}: it is the terminal tool, which ends "
                    "exploration and is never counted"
                )
        return {**declared, **self.tool_classes}


def climb(rungs: Rungs, tool: str, count: int) -> Verdict:
    """The verdict for the `count`-th identical call of `tool` (1-based)."""
    rung = rungs.rung(count)
    if rung == "halt":
        return Halt(HALT_REASON.format(tool=tool, count=count), Termination.REPEATED_CALL)
    if rung == "block":
        return Block(BLOCK_ERROR.format(tool=tool, count_before=count - 1))
    if rung == "warn":
        return Warn(WARN_NUDGE.format(tool=tool, count=count))
    return Allow()
