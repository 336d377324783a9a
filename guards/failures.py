"""Consecutive tool failures: a reflective nudge, then a halt."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, model_validator

from labscribe.guards.verdicts import Allow, Halt, Verdict, Warn

# On a small model the waste is rarely one identical call: it is a stream of calls on
# ever-changing bad paths that all fail. Only a streak counter over failures sees that.
FAILURE_NUDGE = (
    "[labscribe] Your last {streak} tool calls or replies all failed. Stop and reflect before the "
    'next one: call list_dir(path=".") to see the real file names, use paths exactly '
    "as it prints them, or call finish_exploration with what you have."
)
FAILURE_HALT_REASON = "{streak} tool calls or replies in a row failed"


class FailurePolicy(BaseModel):
    """When a streak of failing tool calls nudges and when it halts. None: never."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    nudge_after: int | None = Field(
        default=3, ge=1, description="Failures in a row that earn a reflective nudge."
    )
    halt_after: int | None = Field(
        default=5, ge=1, description="Failures in a row that halt exploration as a collapse."
    )

    @model_validator(mode="after")
    def _ordered(self) -> FailurePolicy:
        if None not in (self.nudge_after, self.halt_after) and self.nudge_after >= self.halt_after:
            raise ValueError("nudge_after must be below halt_after")
        return self


def judge_streak(policy: FailurePolicy, streak: int) -> Verdict:
    """The verdict after the `streak`-th failure in a row (0 after a success)."""
    if policy.halt_after is not None and streak >= policy.halt_after:
        return Halt(FAILURE_HALT_REASON.format(streak=streak))
    if policy.nudge_after is not None and streak == policy.nudge_after:
        return Warn(FAILURE_NUDGE.format(streak=streak))
    return Allow()
