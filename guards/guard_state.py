"""The explorer's guard state: counters, the halt record and the read cache, as plain data.

It lives in the graph state as a dict (checkpointed, visible in Studio); nodes load it
with `GuardState.load`, ask it for verdicts, and store `dump()` back. Everything but the
tallies, the halt history and the cache belongs to one attempt: a human's nudge on resume
starts a new one (`restart_attempt`).
"""

from __future__ import annotations

import copy
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from labscribe.guards.cycles import judge_cycle
from labscribe.guards.failures import FailurePolicy, judge_silence, judge_streak
from labscribe.guards.fingerprint import tool_of
from labscribe.guards.ladder import LadderPolicy, ToolClass, climb
from labscribe.guards.messages import (
    NO_PROGRESS_BEFORE_RUN_BLOCK,
    NO_PROGRESS_BLOCK,
    NO_PROGRESS_HALT_REASON,
    NO_PROGRESS_NUDGE,
)
from labscribe.guards.progress import Seen, Shown
from labscribe.guards.statuses import Termination, halt_record
from labscribe.guards.verdicts import Allow, Block, Halt, Verdict, Warn, most_severe


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
    halt: dict[str, Any] | None = None
    """The halt in force: termination, kind, reason, tool, args. None while running."""
    halts: list[dict[str, Any]] = field(default_factory=list)
    """Every halt of this thread, kept after a resume clears `halt`."""
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

    def review(self, policy: LadderPolicy, key: str, tool_class: ToolClass) -> Verdict:
        """Count this call among identical ones; the ladder's and the cycle check's verdict.

        An identical call made after `reread_spacing` productive calls is an occasional
        re-read: its count starts again, so looking back now and then never climbs.
        """
        rungs = policy.rungs_for(tool_class)
        if rungs is None:
            return Allow()
        spacing = policy.progress.reread_spacing if policy.progress else None
        count, mark = self.counts.get(key, [0, self.productive])
        if count and spacing is not None and self.productive - mark >= spacing:
            count = 0
        count += 1
        self.counts[key] = [count, self.productive]
        verdict = climb(rungs, tool_of(key), count)
        if policy.cycles is not None and isinstance(verdict, Allow | Warn):
            self.recent = [*self.recent, key][-policy.cycles.memory :]
            verdict = most_severe(verdict, judge_cycle(policy.cycles, self.recent))
        return verdict

    def progress(
        self, policy: LadderPolicy, tool: str, shown: Shown | None, key: str | None = None
    ) -> Verdict:
        """Record what the counted call `key` showed (None: nothing, for it was not run); a
        verdict on the run of calls that added nothing, which climbs the read-only rungs one
        call earlier than identical calls do (the first of n identical calls is new, the
        other n - 1 are not).
        """
        if policy.progress is None:
            return Allow()
        new = self.seen.take(shown) if shown is not None else 0.0
        if new >= policy.progress.min_new_share:
            self.productive += 1
            self.idle = 0
            if key in self.counts:  # a productive call is not progress made since itself
                self.counts[key][1] = self.productive
            return Allow()
        self.idle += 1
        rung = policy.read_only.rung(self.idle + 1)
        if rung == "halt":
            reason = NO_PROGRESS_HALT_REASON.format(streak=self.idle)
            return Halt(reason, Termination.NO_PROGRESS)
        if rung == "block":
            block = NO_PROGRESS_BLOCK if shown is not None else NO_PROGRESS_BEFORE_RUN_BLOCK
            return Block(block.format(tool=tool, streak_before=self.idle - 1))
        if rung == "warn":
            return Warn(NO_PROGRESS_NUDGE.format(streak=self.idle))
        return Allow()

    def stalled(self, policy: LadderPolicy) -> bool:
        """Whether the next call that adds nothing would be refused. A costly call is then
        refused before it runs: whether it adds anything is known only once it has run."""
        rung = policy.read_only.rung(self.idle + 2) if policy.progress is not None else None
        return rung in ("block", "halt")

    def settle(self, *verdicts: Verdict) -> Verdict:
        """The one verdict a call gets from its detectors, most telling first; tallied.

        The closing nudge is given once per attempt: a warning after it simply runs.
        """
        verdict = most_severe(*verdicts)
        if isinstance(verdict, Warn):
            if self.nudged:
                return Allow()
            self.nudged = True
            self.warned += 1
        elif isinstance(verdict, Block):
            self.blocked += 1
        return verdict

    def record_outcome(self, policy: FailurePolicy, kind: str | None) -> Verdict:
        """Track the streak of one failure: `kind` is the failure's (`failures.failure_kind`),
        None a success."""
        if kind is None:
            self.failure_streak, self.failure_kind = 0, None
            return Allow()
        self.failure_streak = self.failure_streak + 1 if kind == self.failure_kind else 1
        self.failure_kind = kind
        return judge_streak(policy, self.failure_streak)

    def record_reply(self, policy: FailurePolicy, *, empty: bool) -> Verdict:
        """Track replies with neither text nor a tool call; any other reply ends the run."""
        self.empty_replies = self.empty_replies + 1 if empty else 0
        return judge_silence(policy, self.empty_replies)

    def record_halt(
        self, halt: Halt, *, tool: str | None = None, args: Any = None
    ) -> dict[str, Any]:
        """Put `halt` in force and in the history, in the one shape every halt has."""
        record = halt_record(halt.cause, halt.reason, tool=tool, args=args)
        self.halt = record
        self.halts.append(record)
        return record

    def restart_attempt(self) -> None:
        """A human nudged the thread: a new attempt, from the ladder's first rung, warning
        included. The tallies, the halt history and the read cache stay."""
        fresh = GuardState(warned=self.warned, blocked=self.blocked, halts=self.halts)
        fresh.cache = self.cache
        self.__dict__.update(fresh.__dict__)
