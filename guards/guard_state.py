"""The explorer's guard state: counters, the halt record and the read cache, as plain data.

It lives in the graph state as a dict (checkpointed, visible in Studio); nodes load it
with `GuardState.load`, ask it for verdicts, and store `dump()` back.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from labscribe.guards.cycles import judge_cycle
from labscribe.guards.failures import FailurePolicy, judge_streak
from labscribe.guards.fingerprint import fingerprint
from labscribe.guards.ladder import LadderPolicy, climb
from labscribe.guards.statuses import Termination
from labscribe.guards.verdicts import Allow, Block, Verdict, Warn


def call_key(tool: str, args: Any, target_stamp: str | None = None) -> str:
    """The ladder's identity of a call: its fingerprint, plus its target's size and mtime.

    A read of a file that changed since the last read is a new call, not a repeat.
    """
    key = fingerprint(tool, args)
    return f"{key}@{target_stamp}" if target_stamp else key


@dataclass(kw_only=True)
class GuardState:
    counts: dict[str, int] = field(default_factory=dict)
    """Identical calls seen in this attempt, by call key."""
    nudged: bool = False
    """Whether the ladder's closing nudge was given: once per run, it costs context."""
    warned: int = 0
    blocked: int = 0
    failure_streak: int = 0
    halt: dict[str, Any] | None = None
    """The halt in force: termination, kind, reason, tool, args. None while running."""
    halts: list[dict[str, Any]] = field(default_factory=list)
    """Every halt of this thread, kept after a resume clears `halt`."""
    cache: dict[str, str] = field(default_factory=dict)
    """Call key of a successful read-only call to the id of the tool message holding its result."""
    recent: list[str] = field(default_factory=list)
    """Call keys of the latest counted calls, oldest first: what the cycle check reads."""

    @classmethod
    def load(cls, data: dict[str, Any] | None) -> GuardState:
        return cls(**(data or {}))

    def dump(self) -> dict[str, Any]:
        return asdict(self)

    def review(self, policy: LadderPolicy, key: str, tool: str) -> Verdict:
        """Count this call and answer where it stands on the ladder. Halts are recorded."""
        rungs = policy.rungs_for(tool)
        if rungs is None:
            return Allow()
        count = self.counts[key] = self.counts.get(key, 0) + 1
        verdict = climb(rungs, tool, count, nudge_available=not self.nudged)
        if policy.cycles is not None and isinstance(verdict, Allow | Warn):
            self.recent = [*self.recent, key][-policy.cycles.memory :]
            cycle = judge_cycle(policy.cycles, self.recent, nudge_available=not self.nudged)
            verdict = cycle if not isinstance(cycle, Allow) else verdict
        if isinstance(verdict, Warn):
            self.nudged = True
            self.warned += 1
        elif isinstance(verdict, Block):
            self.blocked += 1
        return verdict

    def record_outcome(self, policy: FailurePolicy, *, ok: bool) -> Verdict:
        """Track the failure streak; a success resets it."""
        self.failure_streak = 0 if ok else self.failure_streak + 1
        return judge_streak(policy, self.failure_streak) if not ok else Allow()

    def record_halt(
        self,
        termination: Termination,
        reason: str,
        *,
        tool: str | None = None,
        args: Any = None,
    ) -> dict[str, Any]:
        kind = termination.halt_kind
        record = {
            "termination": termination.value,
            "kind": kind.value if kind else None,
            "reason": reason,
            "tool": tool,
            "args": args,
        }
        self.halt = record
        self.halts.append(record)
        return record

    def restart_attempt(self) -> None:
        """A human nudged the thread: the ladder and the streak start over; history stays."""
        self.counts.clear()
        self.recent.clear()
        self.failure_streak = 0
        self.halt = None
