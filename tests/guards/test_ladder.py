import pytest
from pydantic import ValidationError

from labscribe.guards.guard_state import GuardState, call_key
from labscribe.guards.ladder import BLOCK_ERROR, HALT_REASON, WARN_NUDGE, LadderPolicy, Rungs
from labscribe.guards.verdicts import Allow, Block, Halt, Warn

POLICY = LadderPolicy()


def climb_identical(tool: str, times: int, args: dict | None = None) -> list[str]:
    state = GuardState()
    key = call_key(tool, args or {"path": "a.csv"})
    return [type(state.review(POLICY, key, tool)).__name__ for _ in range(times)]


def test_ladder_read_only_warns_3rd_blocks_4th_halts_5th() -> None:
    assert climb_identical("read_file", 5) == ["Allow", "Allow", "Warn", "Block", "Halt"]


def test_ladder_mutating_warns_2nd_blocks_3rd_halts_4th() -> None:
    assert climb_identical("make_figure", 4, {"code": "x", "name": "f"}) == [
        "Allow",
        "Warn",
        "Block",
        "Halt",
    ]


def test_ladder_never_counts_the_terminal_tool() -> None:
    assert set(climb_identical("finish_exploration", 10)) == {"Allow"}


def test_ladder_never_punishes_paging() -> None:
    state = GuardState()
    verdicts = [
        state.review(
            POLICY, call_key("read_file", {"path": "big.csv", "offset": 100 * n}), "read_file"
        )
        for n in range(10)
    ]
    assert verdicts == [Allow()] * 10
    assert (state.warned, state.blocked) == (0, 0)


def test_ladder_nudges_once_per_run() -> None:
    state = GuardState()
    first = [
        state.review(POLICY, call_key("read_file", {"path": "a"}), "read_file") for _ in range(3)
    ]
    second = [
        state.review(POLICY, call_key("read_file", {"path": "b"}), "read_file") for _ in range(3)
    ]
    assert first[2] == Warn(WARN_NUDGE.format(tool="read_file", count=3))
    assert second[2] == Allow()
    assert state.warned == 1


def test_ladder_block_and_halt_messages_name_tool_and_count() -> None:
    state = GuardState()
    key = call_key("list_dir", {"path": "."})
    verdicts = [state.review(POLICY, key, "list_dir") for _ in range(5)]
    assert verdicts[3] == Block(BLOCK_ERROR.format(tool="list_dir", count_before=3))
    assert verdicts[4] == Halt(HALT_REASON.format(tool="list_dir", count=5))
    assert state.blocked == 1


def test_ladder_changed_target_is_a_new_call() -> None:
    state = GuardState()
    args = {"path": "log.txt"}
    before = [
        state.review(POLICY, call_key("read_file", args, "10:1"), "read_file") for _ in range(4)
    ]
    after = state.review(POLICY, call_key("read_file", args, "20:2"), "read_file")
    assert isinstance(before[-1], Block)
    assert after == Allow()


def test_ladder_restart_attempt_clears_counts_but_keeps_halt_history() -> None:
    state = GuardState()
    key = call_key("list_dir", {"path": "."})
    for _ in range(5):
        state.review(POLICY, key, "list_dir")
    from labscribe.guards.statuses import Termination

    state.record_halt(Termination.REPEATED_CALL, "loop", tool="list_dir", args={"path": "."})
    state.restart_attempt()
    assert state.halt is None
    assert [h["reason"] for h in state.halts] == ["loop"]
    assert state.review(POLICY, key, "list_dir") == Allow()


def test_ladder_unknown_tool_counts_as_read_only() -> None:
    assert climb_identical("some_new_tool", 5)[-1] == "Halt"


@pytest.mark.parametrize(("warn", "block", "halt"), [(4, 3, 5), (3, 3, 5), (3, 5, 4)])
def test_rungs_must_rise(warn: int, block: int, halt: int) -> None:
    with pytest.raises(ValidationError, match="ladder rungs must rise"):
        Rungs(warn=warn, block=block, halt=halt)


def test_rungs_none_switches_a_rung_off() -> None:
    policy = LadderPolicy(read_only=Rungs(warn=None, block=None, halt=3))
    state = GuardState()
    key = call_key("read_file", {"path": "a"})
    assert [type(state.review(policy, key, "read_file")).__name__ for _ in range(3)] == [
        "Allow",
        "Allow",
        "Halt",
    ]


def test_guard_state_round_trips_through_plain_data() -> None:
    state = GuardState()
    state.review(POLICY, call_key("read_file", {"path": "a"}), "read_file")
    assert GuardState.load(state.dump()) == state
