import pytest
from pydantic import ValidationError

from labscribe.guards.failures import (
    FAILURE_HALT_REASON,
    FAILURE_NUDGE,
    FailurePolicy,
    judge_streak,
)
from labscribe.guards.guard_state import GuardState
from labscribe.guards.verdicts import Allow, Halt, Warn

POLICY = FailurePolicy()


def test_failures_nudge_at_3_and_halt_at_5() -> None:
    state = GuardState()
    verdicts = [state.record_outcome(POLICY, ok=False) for _ in range(5)]
    assert verdicts == [
        Allow(),
        Allow(),
        Warn(FAILURE_NUDGE.format(streak=3)),
        Allow(),
        Halt(FAILURE_HALT_REASON.format(streak=5)),
    ]


def test_failures_success_resets_the_streak() -> None:
    state = GuardState()
    for _ in range(4):
        state.record_outcome(POLICY, ok=False)
    state.record_outcome(POLICY, ok=True)
    assert [state.record_outcome(POLICY, ok=False) for _ in range(4)][-1] == Allow()
    assert state.failure_streak == 4


def test_failures_none_never_halts() -> None:
    policy = FailurePolicy(nudge_after=None, halt_after=None)
    assert all(judge_streak(policy, n) == Allow() for n in range(1, 50))


def test_failure_policy_rejects_nudge_not_below_halt() -> None:
    with pytest.raises(ValidationError, match="nudge_after must be below halt_after"):
        FailurePolicy(nudge_after=5, halt_after=5)
