"""The explorer's guard state: counters, the halt history and the read cache, as plain data.

It lives in the graph state as a dict (checkpointed, visible in Studio); nodes load it
with `GuardState.load`, hand it to the guards' one entry (guards/guard.py, which alone
changes it), and store `dump()` back. Everything but the tallies, the halt history and the
cache belongs to one attempt: a human's nudge on resume starts a new one
(`restart_attempt`).

Part of it is what the explorer was shown, which decides progress: whether an answer showed
the explorer anything it had not seen in this attempt.

A collapsing model rarely repeats one call to the letter. It asks for the file it has under
another spelling, grows a `limit` the character cap ignores, shifts a window by a line,
polls a file rewritten with the same bytes, or redraws a figure under a new name. Each such
call looks new; its answer is not. So every answer is summarised as what it shows (`Shown`),
and `Seen` remembers those summaries for the attempt: an answer whose content was seen
before, or a window of a file whose lines were mostly shown already, adds nothing. A failed
call shows its error's kind (`failed`): a failure like one already met teaches nothing, so
failures that take turns (a bad call, a path outside the folder, a guessed name, again and
again) add nothing either, whatever their kinds, while debugging whose errors change does.
"""

from __future__ import annotations

import copy
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from labscribe.guards.identity import digest


class ProgressPolicy(BaseModel):
    """What counts as progress, and how progress tempers the counting of identical calls."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    # A quarter: paging and reads of new places show at least that much new text; a window
    # shifted by a line or two, or the head of a file read again, shows almost none.
    min_new_share: float = Field(
        default=0.25,
        gt=0,
        le=1,
        description="Share of a window's lines that must be new for a read to be progress.",
    )
    # Two: an identical call after two productive calls is a look back at something the
    # model needs again, answered from the cache; a re-read after every single productive
    # step is a model that cannot move on, and climbs the ladder.
    reread_spacing: int | None = Field(
        default=2,
        ge=1,
        description="Productive calls between two identical calls that make the second an "
        "occasional re-read, whose count starts again; None: identical calls always climb.",
    )


@dataclass(frozen=True)
class Shown:
    """What one answer showed the explorer."""

    target: str
    """What it is about: a tool and its canonical request, without the window."""
    digest: str
    """Digest of exactly what was shown."""
    lines: tuple[int, int] | None = None
    """For a window of a file: the first and last line shown, 1-based."""
    version: str | None = None
    """The file's version when the window was read: line numbers compare within one."""


@dataclass(kw_only=True)
class Seen:
    """What the explorer was shown in this attempt, as small plain data."""

    answers: dict[str, int] = field(default_factory=dict)
    """Digest of each (target, content) pair shown, to how many times it was shown."""
    lines: dict[str, list[list[int]]] = field(default_factory=dict)
    """Per target and version, the line ranges shown, merged, sorted."""

    @classmethod
    def load(cls, data: dict[str, Any] | None) -> Seen:
        return cls(**(data or {}))

    def dump(self) -> dict[str, Any]:
        return asdict(self)

    def take(self, shown: Shown) -> float:
        """Remember `shown`; the share of it the explorer had not seen: 0.0 to 1.0."""
        answer = _answer_key(shown)
        before = self.answers.get(answer, 0)
        self.answers[answer] = before + 1
        if shown.lines is None:
            return 0.0 if before else 1.0
        spans = self.lines.setdefault(_lines_key(shown), [])
        first, last = shown.lines
        covered = sum(max(0, min(last, end) - max(first, start) + 1) for start, end in spans)
        spans[:] = _merged([*spans, [first, last]])
        return 0.0 if before else 1.0 - covered / (last - first + 1)


def failed(kind: str) -> Shown:
    """What a failed call showed: the kind of its error (`failures.failure_kind`)."""
    return Shown(FAILED, digest(kind))


FAILED = "!failed"
"""The target every failure is shown under; no call's target starts with `!`."""


def _answer_key(shown: Shown) -> str:
    return digest(f"{shown.target}\n{shown.digest}")


def _lines_key(shown: Shown) -> str:
    return digest(f"{shown.target}\n{shown.version}")


def _merged(spans: list[list[int]]) -> list[list[int]]:
    merged: list[list[int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1] + 1:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return merged


@dataclass(kw_only=True)
class GuardState:
    counts: dict[str, list[int]] = field(default_factory=dict)
    """Per call key: [identical calls so far, productive calls when it was last made]."""
    recent: list[str] = field(default_factory=list)
    """Call keys of the latest counted calls, oldest first: what the cycle check reads."""
    seen: Seen = field(default_factory=Seen)
    """What the explorer was shown in this attempt."""
    productive: int = 0
    """Calls in this attempt that showed something new."""
    idle: int = 0
    """Counted calls in a row that showed nothing new."""
    nudged: bool = False
    """Whether the closing nudge was given in this attempt: once, since it costs context."""
    failure_streak: int = 0
    """Failures of one kind in a row."""
    failure_kind: str | None = None
    """The kind the streak counts (`failures.failure_kind`)."""
    empty_replies: int = 0
    """Replies in a row with neither text nor a tool call."""
    warned: int = 0
    blocked: int = 0
    halts: list[dict[str, Any]] = field(default_factory=list)
    """Every halt the guards called in this thread, in the one shape every halt has. The halt
    in force is the thread's (`halted` in the graph state, nodes/halts.py)."""
    cache: dict[str, str] = field(default_factory=dict)
    """Cache key of a successful read-only call to the id of the tool message holding it."""

    @classmethod
    def load(cls, data: dict[str, Any] | None) -> GuardState:
        """A copy of the dict in the graph state (what the guards change is theirs), including
        a thread checkpointed by an older labscribe: fields it lacks start fresh, fields it had
        that are gone are dropped."""
        known = {f.name for f in fields(cls)}
        values = {key: copy.deepcopy(value) for key, value in (data or {}).items() if key in known}
        values["seen"] = Seen.load(values.get("seen"))
        values["counts"] = {
            key: count if isinstance(count, list) else [count, 0]
            for key, count in (values.get("counts") or {}).items()
        }
        return cls(**values)

    def dump(self) -> dict[str, Any]:
        return asdict(self)

    def restart_attempt(self) -> None:
        """A human nudged the thread: a new attempt, from the ladder's first rung, warning
        included. The tallies, the halt history and the read cache stay."""
        fresh = GuardState(warned=self.warned, blocked=self.blocked, halts=self.halts)
        fresh.cache = self.cache
        self.__dict__.update(fresh.__dict__)
