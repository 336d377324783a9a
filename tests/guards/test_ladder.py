import json

import pytest
from pydantic import ValidationError

from labscribe.guards.detectors import Block, Halt, LadderPolicy, Rungs, ToolClass, Warn
from labscribe.guards.guard import count_identical, record_halt, record_shown, settle
from labscribe.guards.guard_state import GuardState, Shown, call_key
from labscribe.guards.messages import BLOCK_ERROR, HALT_REASON, WARN_NUDGE
from labscribe.guards.statuses import Termination

POLICY = LadderPolicy()
READ_ONLY, MUTATING, TERMINAL = ToolClass.READ_ONLY, ToolClass.MUTATING, ToolClass.TERMINAL
DECLARED = {"list_dir": READ_ONLY, "make_figure": MUTATING, "finish_exploration": TERMINAL}


def judged(state: GuardState, key: str, tool_class: ToolClass = READ_ONLY) -> str:
    """One call through the ladder as the guarded call settles it, by verdict name."""
    return type(settle(state, count_identical(state, POLICY, key, tool_class))).__name__


def climb_identical(tool: str, tool_class: ToolClass, times: int) -> list[str]:
    state = GuardState()
    key = call_key(tool, {"path": "a.csv"})
    return [judged(state, key, tool_class) for _ in range(times)]


def test_ladder_read_only_warns_3rd_blocks_4th_halts_5th() -> None:
    assert climb_identical("read_file", READ_ONLY, 5) == ["Allow", "Allow", "Warn", "Block", "Halt"]


def test_ladder_mutating_warns_2nd_blocks_3rd_halts_4th() -> None:
    assert climb_identical("make_figure", MUTATING, 4) == ["Allow", "Warn", "Block", "Halt"]


def test_ladder_never_counts_the_terminal_tool() -> None:
    assert set(climb_identical("finish_exploration", TERMINAL, 10)) == {"Allow"}


def test_ladder_never_punishes_paging() -> None:
    state = GuardState()
    keys = [call_key("read_file", {"path": "big.csv", "offset": 100 * n}) for n in range(10)]
    assert [judged(state, key) for key in keys] == ["Allow"] * 10
    assert (state.warned, state.blocked) == (0, 0)


def test_ladder_nudges_once_per_attempt() -> None:
    state = GuardState()
    first = [judged(state, call_key("read_file", {"path": "a"})) for _ in range(3)]
    second = [judged(state, call_key("read_file", {"path": "b"})) for _ in range(3)]
    assert first[2] == "Warn" and second[2] == "Allow"
    assert state.warned == 1


def test_ladder_block_and_halt_messages_name_tool_and_count() -> None:
    state = GuardState()
    key = call_key("list_dir", {"path": "."})
    verdicts = [settle(state, count_identical(state, POLICY, key, READ_ONLY)) for _ in range(5)]
    assert verdicts[2] == Warn(WARN_NUDGE.format(tool="list_dir", count=3))
    assert verdicts[3] == Block(BLOCK_ERROR.format(tool="list_dir", count_before=3))
    assert verdicts[4] == Halt(
        HALT_REASON.format(tool="list_dir", count=5), Termination.REPEATED_CALL
    )
    assert state.blocked == 1


def test_ladder_an_occasional_re_read_between_productive_calls_starts_its_count_again() -> None:
    state = GuardState()
    notes = call_key("read_file", {"path": "notes.md"})
    got = []
    for _ in range(6):
        got.append(judged(state, notes))
        state.productive += 2  # two productive calls before the next look back
    assert got == ["Allow"] * 6


def test_ladder_a_re_read_after_every_single_productive_step_still_climbs() -> None:
    state = GuardState()
    notes = call_key("read_file", {"path": "notes.md"})
    got = []
    for _ in range(5):
        got.append(judged(state, notes))
        state.productive += 1
    assert got == ["Allow", "Allow", "Warn", "Block", "Halt"]


def test_ladder_restart_attempt_starts_again_at_the_first_rung_warning_included() -> None:
    state = GuardState()
    key = call_key("list_dir", {"path": "."})
    before = [judged(state, key) for _ in range(5)]
    record_halt(state, Halt("loop", Termination.REPEATED_CALL), tool="list_dir", args={"path": "."})
    state.restart_attempt()
    after = [judged(state, key) for _ in range(5)]
    assert before == after == ["Allow", "Allow", "Warn", "Block", "Halt"]
    assert [h["reason"] for h in state.halts] == ["loop"]
    assert (state.warned, state.blocked) == (2, 2)


def test_ladder_restart_attempt_keeps_the_read_cache() -> None:
    state = GuardState(cache={"read_file|x": "call-1"})
    state.restart_attempt()
    assert state.cache == {"read_file|x": "call-1"}


@pytest.mark.parametrize(("warn", "block", "halt"), [(4, 3, 5), (3, 3, 5), (3, 5, 4)])
def test_rungs_must_rise(warn: int, block: int, halt: int) -> None:
    with pytest.raises(ValidationError, match="ladder rungs must rise"):
        Rungs(warn=warn, block=block, halt=halt)


def test_rungs_none_switches_a_rung_off() -> None:
    policy = LadderPolicy(read_only=Rungs(warn=None, block=None, halt=3))
    state = GuardState()
    key = call_key("read_file", {"path": "a"})
    verdicts = [settle(state, count_identical(state, policy, key, READ_ONLY)) for _ in range(3)]
    got = [type(verdict).__name__ for verdict in verdicts]
    assert got == ["Allow", "Allow", "Halt"]


def test_ladder_classes_come_from_the_tools_and_configuration_re_classes_them() -> None:
    policy = LadderPolicy(tool_classes={"list_dir": MUTATING, "make_figure": READ_ONLY})
    assert policy.classes(DECLARED) == {
        "list_dir": MUTATING,
        "make_figure": READ_ONLY,
        "finish_exploration": TERMINAL,
    }
    assert LadderPolicy().classes(DECLARED) == DECLARED


def test_ladder_configuration_cannot_count_the_terminal_tool() -> None:
    policy = LadderPolicy(tool_classes={"finish_exploration": READ_ONLY})
    with pytest.raises(ValueError, match="cannot re-class finish_exploration: it is the terminal"):
        policy.classes(DECLARED)


def test_ladder_configuration_cannot_make_a_tool_terminal() -> None:
    with pytest.raises(ValidationError, match=r"cannot make a tool terminal \(list_dir\)"):
        LadderPolicy(tool_classes={"list_dir": TERMINAL})


def test_ladder_configuration_naming_no_tool_is_refused() -> None:
    with pytest.raises(ValueError, match="tool_classes names no tool: read_files"):
        LadderPolicy(tool_classes={"read_files": READ_ONLY}).classes(DECLARED)


def test_guard_state_round_trips_through_plain_data() -> None:
    state = GuardState()
    count_identical(state, POLICY, call_key("read_file", {"path": "a"}), READ_ONLY)
    record_shown(state, POLICY, "read_file", Shown("read_file|a", "d1", lines=(1, 20), version="v"))
    assert GuardState.load(state.dump()) == state
    assert GuardState.load(json.loads(json.dumps(state.dump()))) == state


def test_guard_state_loads_a_thread_checkpointed_by_an_older_labscribe() -> None:
    old = {"counts": {"read_file|{}": 4}, "nudged": True, "warned": 1, "blocked": 1,
           "failure_streak": 2, "halt": None, "halts": [], "cache": {}, "recent": [],
           "retired_field": 1}  # fmt: skip
    state = GuardState.load(old)
    assert state.counts == {"read_file|{}": [4, 0]}
    assert (state.warned, state.idle, state.seen.answers) == (1, 0, {})
    assert judged(state, "read_file|{}") == "Halt"
