"""Cycle detection: A-B-A-B and A-B-C-A-B-C collapses, which the ladder sees late.

The ladder counts each identical call on its own, so in an A-B cycle every call climbs at
half speed and the 5th identical A comes at the 9th call. Here the recent calls are read as
a sequence: when its tail is the same block of 2 to `max_period` different calls repeated,
the model is going round in a circle. A read's key carries what it returned, so re-reading
files that change (a poll, a log being written) is never a cycle.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict, Field

from labscribe.guards.fingerprint import tool_of
from labscribe.guards.messages import CYCLE_HALT_REASON, CYCLE_NUDGE
from labscribe.guards.statuses import Termination
from labscribe.guards.verdicts import Allow, Halt, Verdict, Warn


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
