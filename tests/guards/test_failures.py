import pytest
from pydantic import ValidationError

from labscribe.guards.detectors import (
    MAX_KIND_CHARS,
    Allow,
    FailurePolicy,
    Halt,
    Warn,
    failure_kind,
    judge_silence,
    judge_streak,
)
from labscribe.guards.guard import record_outcome, record_reply
from labscribe.guards.guard_state import GuardState
from labscribe.guards.messages import EMPTY_REPLIES_HALT_REASON, FAILURE_HALT_REASON, FAILURE_NUDGE
from labscribe.guards.statuses import Termination
from labscribe.tools.messages import PATH_OUTSIDE_ERROR

POLICY = FailurePolicy()
MISSING = "Error: " + PATH_OUTSIDE_ERROR


def test_failures_of_one_kind_nudge_at_3_and_halt_at_5() -> None:
    state = GuardState()
    verdicts = [
        record_outcome(state, POLICY, failure_kind(MISSING.format(path=f"run_{n}.xlsx")))
        for n in range(5)
    ]
    assert verdicts == [
        Allow(),
        Allow(),
        Warn(FAILURE_NUDGE.format(streak=3)),
        Allow(),
        Halt(FAILURE_HALT_REASON.format(streak=5), Termination.TOOL_FAILURES),
    ]


def test_failures_success_resets_the_streak() -> None:
    state = GuardState()
    for _ in range(4):
        record_outcome(state, POLICY, failure_kind(MISSING.format(path="x.csv")))
    record_outcome(state, POLICY, None)
    assert [
        record_outcome(state, POLICY, failure_kind(MISSING.format(path="x.csv"))) for _ in range(4)
    ][-1] == (Allow())
    assert state.failure_streak == 4


def test_failures_that_change_are_debugging_and_never_halt() -> None:
    errors = [
        "Error: NameError: name 'xs' is not defined",
        "Error: KeyError: 'V_R (V)'",
        "Error: TypeError: unsupported operand type(s) for +: 'int' and 'str'",
        "Error: ZeroDivisionError: division by zero",
        "Error: AttributeError: 'Axes' object has no attribute 'plott'",
        "Error: ValueError: x and y must have same first dimension",
    ]
    state = GuardState()
    assert [record_outcome(state, POLICY, failure_kind(error)) for error in errors] == [Allow()] * 6
    assert state.failure_streak == 1


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (MISSING.format(path="data/run_1.xlsx"), MISSING.format(path="./raw/run_22.xlsx")),
        (MISSING.format(path="../secret-1.txt"), MISSING.format(path="../secret-2.txt")),
        (MISSING.format(path="raw-3"), MISSING.format(path="raw-14")),
        (
            "Error: cannot read data/a.csv: permission denied",
            "Error: cannot read b.csv: permission denied",
        ),
        ("Error: offset 900 is past the end of a.csv", "Error: offset 12 is past the end of b.csv"),
    ],
)
def test_failure_kind_normalises_paths_and_numbers(first: str, second: str) -> None:
    assert failure_kind(first) == failure_kind(second)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Error: NameError: name 'x' is not defined", "Error: NameError: name 'y' is not defined"),
        (MISSING.format(path="a.csv"), "Error: 'a.csv' is a folder; list it with list_dir"),
        ("Error: it doesn't parse 'a'", "Error: it doesn't parse 'b'"),
    ],
)
def test_failure_kind_keeps_what_is_not_a_path_or_number(first: str, second: str) -> None:
    assert failure_kind(first) != failure_kind(second)


def test_failures_none_never_halts() -> None:
    policy = FailurePolicy(nudge_after=None, halt_after=None)
    assert all(judge_streak(policy, n) == Allow() for n in range(1, 50))


def test_failure_policy_rejects_nudge_not_below_halt() -> None:
    with pytest.raises(ValidationError, match="nudge_after must be below halt_after"):
        FailurePolicy(nudge_after=5, halt_after=5)


def test_empty_replies_halt_at_the_third_in_a_row() -> None:
    state = GuardState()
    verdicts = [record_reply(state, POLICY, empty=True) for _ in range(3)]
    assert verdicts == [
        Allow(),
        Allow(),
        Halt(EMPTY_REPLIES_HALT_REASON.format(count=3), Termination.EMPTY_REPLIES),
    ]


def test_a_reply_with_text_or_a_call_ends_a_run_of_empty_replies() -> None:
    state = GuardState()
    pattern = [True, True, False, True, True, False, True]
    assert all(record_reply(state, POLICY, empty=e) == Allow() for e in pattern)
    assert state.empty_replies == 1


def test_empty_replies_none_never_halts() -> None:
    assert judge_silence(FailurePolicy(empty_replies=None), 100) == Allow()


@pytest.mark.parametrize(
    "error",
    [
        "Error: no file '" + "a" * 99_000,
        "Error: no such tool " + "a" * 99_000 + ".",
        "Error: " + "data/" * 20_000 + "x y",
    ],
)
def test_a_huge_error_is_judged_on_its_bounded_start(error: str) -> None:
    """A 99,000-character path or tool name: the kind comes from the first MAX_KIND_CHARS
    (before the bound and the token-start anchors, each of these took minutes)."""
    kind = failure_kind(error)
    assert len(kind) <= MAX_KIND_CHARS
    assert kind == failure_kind(error[:MAX_KIND_CHARS] + "something else entirely")
