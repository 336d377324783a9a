import pytest
from pydantic import ValidationError

from labscribe.guards.detectors import Allow, Block, Halt, LadderPolicy, Warn
from labscribe.guards.guard import record_shown, settle
from labscribe.guards.guard_state import GuardState, ProgressPolicy, Seen, Shown
from labscribe.guards.messages import NO_PROGRESS_BLOCK, NO_PROGRESS_HALT_REASON, NO_PROGRESS_NUDGE
from labscribe.guards.statuses import Termination

POLICY = LadderPolicy()


def window(first: int, last: int, version: str = "v1", target: str = "read_file|sweep") -> Shown:
    return Shown(target, f"{target}:{version}:{first}-{last}", lines=(first, last), version=version)


def run(shown: list[Shown | None], policy: LadderPolicy = POLICY) -> list[str]:
    state = GuardState()
    verdicts = [settle(state, record_shown(state, policy, "read_file", s)) for s in shown]
    return [type(verdict).__name__ for verdict in verdicts]


def test_seen_a_new_answer_is_all_new_and_the_same_answer_again_adds_nothing() -> None:
    seen = Seen()
    listing = Shown("list_dir|.", "abc")
    assert seen.take(listing) == 1.0
    assert seen.take(listing) == 0.0
    assert seen.take(Shown("list_dir|.", "abd")) == 1.0  # the listing changed


@pytest.mark.parametrize(
    ("first", "last", "new"), [(2, 101, 0.01), (51, 150, 0.5), (101, 200, 1.0), (1, 100, 0.0)]
)
def test_seen_counts_the_lines_of_a_window_not_shown_before(first, last, new) -> None:
    seen = Seen()
    seen.take(window(1, 100))
    assert seen.take(window(first, last)) == pytest.approx(new)


def test_seen_lines_of_another_version_of_the_file_are_new() -> None:
    seen = Seen()
    seen.take(window(1, 100, "v1"))
    assert seen.take(window(2, 101, "v2")) == 1.0


def test_seen_merges_the_windows_it_was_shown() -> None:
    seen = Seen()
    for first in (1, 51, 101):
        seen.take(window(first, first + 49))
    assert seen.lines == {next(iter(seen.lines)): [[1, 150]]}
    assert seen.take(window(20, 120)) == 0.0


def test_paging_is_progress_every_call() -> None:
    assert run([window(1 + 200 * n, 200 * (n + 1)) for n in range(10)]) == ["Allow"] * 10


def test_a_window_shifted_by_one_line_per_call_warns_blocks_and_halts() -> None:
    shifted = [window(1 + n, 100 + n) for n in range(5)]
    assert run(shifted) == ["Allow", "Allow", "Warn", "Block", "Halt"]


def test_answers_seen_before_in_any_order_are_no_progress_whatever_the_calls() -> None:
    a, b = Shown("list_dir|.", "x"), Shown("read_file|notes", "y")
    assert run([a, b, a, b, a, b]) == ["Allow", "Allow", "Allow", "Warn", "Block", "Halt"]


def test_a_productive_call_ends_a_run_of_calls_that_added_nothing() -> None:
    a = Shown("list_dir|.", "x")
    fresh = [Shown("read_file|n", f"page {n}") for n in range(3)]
    assert (
        run([a, a, a, fresh[0], a, a, fresh[1], a, a]) == ["Allow", "Allow", "Warn"] + ["Allow"] * 6
    )


def test_a_refused_call_shows_nothing() -> None:
    assert run([window(1, 10), None, None, None]) == ["Allow", "Allow", "Warn", "Block"]


def test_no_progress_messages_count_the_run() -> None:
    state = GuardState()
    a = Shown("list_dir|.", "x")
    got = [record_shown(state, POLICY, "list_dir", a) for _ in range(5)]
    assert got == [
        Allow(),
        Allow(),
        Warn(NO_PROGRESS_NUDGE.format(streak=2)),
        Block(NO_PROGRESS_BLOCK.format(tool="list_dir", streak_before=2)),
        Halt(NO_PROGRESS_HALT_REASON.format(streak=4), Termination.NO_PROGRESS),
    ]


def test_no_progress_follows_the_read_only_rungs_one_call_earlier() -> None:
    policy = LadderPolicy(read_only={"warn": 4, "block": 6, "halt": 8})
    a = Shown("list_dir|.", "x")
    got = run([a] * 8, policy)
    assert got.index("Warn") == 3 and got.index("Block") == 5 and got[-1] == "Halt"


def test_progress_detection_can_be_switched_off() -> None:
    assert run([Shown("list_dir|.", "x")] * 10, LadderPolicy(progress=None)) == ["Allow"] * 10


def test_progress_policy_bounds_the_new_share() -> None:
    with pytest.raises(ValidationError):
        ProgressPolicy(min_new_share=0)
    with pytest.raises(ValidationError):
        ProgressPolicy(min_new_share=1.5)


def test_restart_attempt_forgets_what_was_seen() -> None:
    state = GuardState()
    a = Shown("list_dir|.", "x")
    for _ in range(4):
        record_shown(state, POLICY, "list_dir", a)
    state.restart_attempt()
    assert [type(record_shown(state, POLICY, "list_dir", a)).__name__ for _ in range(3)] == [
        "Allow",
        "Allow",
        "Warn",
    ]
