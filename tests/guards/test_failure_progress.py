"""The failure rule: a failed call whose error was already met in the attempt shows nothing
new, whatever its kind and whatever came between; errors that change are progress."""

from __future__ import annotations

from labscribe.guards.detectors import (
    Allow,
    Block,
    FailurePolicy,
    Halt,
    LadderPolicy,
    ToolClass,
    Warn,
    failure_kind,
)
from labscribe.guards.guard import Answered, Asked, Call, Policy, Result, judge
from labscribe.guards.guard_state import GuardState
from labscribe.guards.messages import NO_PROGRESS_BEFORE_RUN_BLOCK
from labscribe.tools.messages import PATH_OUTSIDE_ERROR

CLASSES = {"read_file": ToolClass.READ_ONLY, "list_dir": ToolClass.READ_ONLY,
           "make_figure": ToolClass.MUTATING}  # fmt: skip
POLICY = Policy(LadderPolicy(), FailurePolicy(), CLASSES)
MISSING = "Error: " + PATH_OUTSIDE_ERROR


def failing(state: GuardState, n: int, tool: str, path: str, error: str) -> object:
    call = Call(f"c{n}", tool, {"path": path}, key=f"{tool}|{path}", target=f"{tool}|{path}",
                named=(path,))  # fmt: skip
    return judge(state, Answered(call, Result(False, error, None)), POLICY)


def refused(state: GuardState, n: int, error: str) -> object:
    call = Call(f"r{n}", "exec", {"command": f"ls {n}"}, refused=error)
    return judge(state, Answered(call, Result(False, error, None)), POLICY)


def test_two_kinds_of_failure_taking_turns_warn_block_and_halt() -> None:
    state, verdicts = GuardState(), []
    for n in range(6):
        if n % 2:
            judged = failing(state, n, "read_file", f"../../etc/passwd-{n}",
                             MISSING.format(path=f"../../etc/passwd-{n}"))  # fmt: skip
        else:
            judged = refused(state, n, "Error: invalid arguments for read_file: Expecting value")
        verdicts.append(type(judged.verdict))
        state = judged.state
    assert verdicts == [Allow, Allow, Allow, Warn, Block, Halt]
    assert state.halts[-1]["termination"] == "no_progress"
    assert state.failure_streak == 1  # no two in a row were alike: the streak never saw them


def test_three_kinds_in_rotation_on_new_targets_every_time_halt() -> None:
    rotation = [  # (tool, path, error), each with the call's number in its path
        ("read_file", "data/missing-{n}.csv", MISSING.format(path="data/missing-{n}.csv")),
        ("read_file", "data/run_{n}.csv", "Error: data/run_{n}.csv is not an image (text file)"),
        ("list_dir", "notes-{n}.md", "Error: 'notes-{n}.md' is a file, not a folder"),
    ]
    state, verdicts = GuardState(), []
    for n in range(8):
        tool, path, error = rotation[n % 3]
        judged = failing(state, n, tool, path.format(n=n), error.format(n=n))
        verdicts.append(type(judged.verdict))
        state = judged.state
        if judged.halt:
            break
    assert verdicts == [Allow, Allow, Allow, Allow, Warn, Block, Halt]


def test_guessed_folder_names_are_one_failure_however_they_are_spelled() -> None:
    guesses = ["server/systems", "system", "src/systems", "sys", "srv"]
    kinds = {failure_kind(MISSING.format(path=g), named=(g,)) for g in guesses}
    assert len(kinds) == 1
    state, verdicts = GuardState(), []
    for n, guess in enumerate(guesses):
        judged = failing(state, n, "list_dir", guess, MISSING.format(path=guess))
        verdicts.append(type(judged.verdict))
        state = judged.state
    assert verdicts[:4] == [Allow, Allow, Warn, Block]
    assert state.halts[-1]["termination"] == "tool_failures"  # the 5th alike in a row


def test_names_that_are_not_the_call_s_paths_still_tell_errors_apart() -> None:
    def kind(name: str) -> str:
        return failure_kind(f"Error: NameError: name '{name}' is not defined", named=("a.csv",))

    assert kind("x") != kind("y")
    # a path the call named, quoted or not, inside a longer token it is not
    assert failure_kind("Error: cannot read sys: denied", named=("sys",)) == failure_kind(
        "Error: cannot read srv: denied", named=("srv",)
    )
    assert "system" in failure_kind("Error: no system found in sys", named=("sys",))


def test_debugging_whose_errors_change_is_never_punished() -> None:
    errors = [  # a figure debugged one mistake at a time, as pandas and matplotlib word them
        "Error: ModuleNotFoundError: No module named 'seaborn'",
        "Error: FileNotFoundError: [Errno 2] No such file or directory: 'data/a.csv'",
        "Error: KeyError: 'frequency'",
        "Error: ValueError: could not convert string to float: 'Hz'",
        "Error: IndexError: single positional indexer is out-of-bounds",
        "Error: ValueError: x and y must have same first dimension, but have shapes (40,) and (8,)",
        "Error: TypeError: 'str' object is not callable",
        "Error: figure code timed out after 30 s",
    ]
    state = GuardState()
    for n, error in enumerate(errors):
        figure = Call(f"f{n}", "make_figure", {"code": f"v{n}"}, key=f"make_figure|{n}")
        asked = judge(state, Asked(figure), POLICY)
        assert asked.run
        judged = judge(
            asked.state, Answered(figure, Result(False, error, None), asked.verdict), POLICY
        )
        assert judged.verdict == Allow() and judged.halt is None
        state = judged.state
    assert state.idle == 0


def test_a_costly_call_is_refused_before_it_runs_once_a_stall_would_refuse_it() -> None:
    state = GuardState()
    ran = []
    for n in range(8):  # a slow figure that times out, its code a little different each time
        figure = Call(f"f{n}", "make_figure", {"code": f"slow({n})"}, key=f"make_figure|{n}")
        asked = judge(state, Asked(figure), POLICY)
        state = asked.state
        if not asked.run:
            break
        ran.append(n)
        done = Result(False, f"Error: the figure code timed out after {30 + n} s", None)
        state = judge(state, Answered(figure, done, asked.verdict), POLICY).state
    assert ran == [0, 1, 2]
    assert asked.verdict == Block(
        NO_PROGRESS_BEFORE_RUN_BLOCK.format(tool="make_figure", streak_before=2)
    )
