from pathlib import Path

import pytest

from labscribe.guards.detectors import CyclePolicy, LadderPolicy, ToolClass, repeated_cycle
from labscribe.guards.guard import count_identical, settle
from labscribe.guards.guard_state import GuardState, call_key
from labscribe.tools.explorer.files import READ_FILE
from labscribe.tools.tool import Folder

POLICY = LadderPolicy()


def judged(state: GuardState, key: str, policy: LadderPolicy = POLICY) -> str:
    return type(settle(state, count_identical(state, policy, key, ToolClass.READ_ONLY))).__name__


def verdicts(paths: list[str], policy: LadderPolicy = POLICY) -> list[str]:
    state = GuardState()
    return [judged(state, call_key("read_file", {"path": p}), policy) for p in paths]


@pytest.mark.parametrize(
    ("keys", "expected"),
    [
        ("ABAB", (2, 2)),
        ("ABABAB", (2, 3)),
        ("XABAB", (2, 2)),
        ("ABCABC", (3, 2)),
        ("ABCABCABC", (3, 3)),
        ("ABA", (0, 0)),
        ("AAAA", (0, 0)),  # an identical repeat is the ladder's, not a cycle
        ("AABAAB", (0, 0)),  # a block with a repeat inside is not a cycle of distinct calls
        ("ABCD", (0, 0)),
        ("", (0, 0)),
    ],
)
def test_repeated_cycle_finds_the_shortest_cycle_the_calls_end_with(keys, expected) -> None:
    assert repeated_cycle(list(keys), 3) == expected


def test_an_a_b_cycle_warns_after_two_rounds_and_halts_after_three() -> None:
    assert verdicts(["a", "b"] * 3) == ["Allow", "Allow", "Allow", "Warn", "Allow", "Halt"]


def test_an_a_b_c_cycle_halts_after_three_rounds() -> None:
    got = verdicts(["a", "b", "c"] * 3)
    assert got[5] == "Warn" and got[8] == "Halt"
    assert set(got[:5] + got[6:8]) == {"Allow"}


def test_comparing_two_files_page_by_page_is_no_cycle() -> None:
    state = GuardState()
    for page in range(8):
        for path in ("a.csv", "b.csv"):
            key = call_key("read_file", {"path": path, "offset": 200 * page})
            assert judged(state, key) == "Allow"


def test_a_cycle_over_files_that_change_is_no_cycle() -> None:
    state = GuardState()
    for n in range(6):
        path = "a.log" if n % 2 == 0 else "b.log"
        key = call_key("read_file", {"path": path}, f"content #{n}")  # what the read returned
        assert judged(state, key) == "Allow"


def test_cycle_detection_can_be_switched_off() -> None:
    off = LadderPolicy(cycles=None)
    assert verdicts(["a", "b"] * 4, off) == ["Allow"] * 4 + ["Warn", "Allow", "Block", "Block"]


def test_cycle_policy_rejects_a_halt_below_two_rounds() -> None:
    with pytest.raises(ValueError, match="greater than or equal to 2"):
        CyclePolicy(halt=1)


def test_identity_ignores_key_order_spelled_out_defaults_and_extra_fields(
    tmp_path: Path,
) -> None:
    folder = Folder(tmp_path)
    (tmp_path / "notes.md").write_text("notes\n")
    same = [
        {"path": "notes.md"},
        {"offset": 0, "path": "notes.md"},
        {"path": "notes.md", "offset": 0, "limit": 200},
        {"path": "notes.md", "reason": "check the resonance again"},
    ]
    keys = {call_key("read_file", READ_FILE.prepare(folder, args).identity) for args in same}
    assert len(keys) == 1
    other = READ_FILE.prepare(folder, {"path": "notes.md", "offset": 200}).identity
    assert call_key("read_file", other) not in keys
    assert READ_FILE.prepare(folder, {"offset": "x"}).identity == {"offset": "x"}  # as it came
