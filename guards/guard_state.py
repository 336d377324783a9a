"""The explorer's guard state: counters, the halt history and the read cache, as plain data.

It lives in the graph state as a dict (checkpointed, visible in Studio); nodes load it
with `GuardState.load`, hand it to the guards' one entry (guards/guard.py, which alone
changes it), and store `dump()` back. Everything but the tallies, the halt history and the
cache belongs to one attempt: a human's nudge on resume starts a new one
(`restart_attempt`).
"""

from __future__ import annotations

import copy
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from labscribe.guards.progress import Seen


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
