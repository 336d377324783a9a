"""The loop guards' one entry, on plain data: each event's judgement, in microseconds."""

from __future__ import annotations

from labscribe.guards.bounds import MAX_CALLS_PER_REPLY
from labscribe.guards.detectors import (
    Allow,
    Block,
    FailurePolicy,
    Halt,
    LadderPolicy,
    ToolClass,
    Warn,
)
from labscribe.guards.guard import Answered, Asked, Call, Policy, Reply, Result, judge
from labscribe.guards.guard_state import GuardState
from labscribe.guards.messages import NOT_EXECUTED, TOO_MANY_CALLS
from labscribe.guards.statuses import Termination

CLASSES = {"read_file": ToolClass.READ_ONLY, "make_figure": ToolClass.MUTATING,
           "finish_exploration": ToolClass.TERMINAL}  # fmt: skip
POLICY = Policy(LadderPolicy(), FailurePolicy(), CLASSES)


def read(n: int, path: str = "a.csv", text: str = "same") -> tuple[Call, Result]:
    call = Call(f"c{n}", "read_file", {"path": path}, key=f"read_file|{path}",
                target=f"read_file|{path}", cache_key=f"read_file|{path}|v1")  # fmt: skip
    return call, Result(True, None, call.shown(text, None))


def test_judge_refuses_a_repeated_figure_before_it_is_drawn() -> None:
    state = GuardState()
    figure = Call("f", "make_figure", {"code": "plot()"}, key="make_figure|k")
    verdicts = []
    for _ in range(3):
        asked = judge(state, Asked(figure), POLICY)
        verdicts.append((type(asked.verdict).__name__, asked.run))
        state = asked.state
        if asked.run:
            done = Answered(figure, Result(True, None, None), asked.verdict)
            state = judge(state, done, POLICY).state
    assert verdicts == [("Allow", True), ("Warn", True), ("Block", False)]


def test_judge_answers_an_identical_read_from_the_cache_and_counts_it() -> None:
    state = GuardState()
    verdicts = []
    for n in range(5):
        call, result = read(n)
        asked = judge(state, Asked(call), POLICY)
        assert asked.cached == (None if n == 0 else "c0")
        answered = judge(asked.state, Answered(call, result, asked.verdict), POLICY)
        verdicts.append(answered.verdict)
        state = answered.state
    assert [type(v) for v in verdicts] == [Allow, Allow, Warn, Block, Halt]  # SPEC's rungs
    assert state.halts[-1] == {"termination": "repeated_call", "kind": "collapse",
                          "reason": "read_file was called 5 times with identical arguments",
                          "tool": "read_file", "args": {"path": "a.csv"}}  # fmt: skip


def test_judge_halts_a_streak_of_one_failure_and_shows_its_answer() -> None:
    state = GuardState()
    for n in range(5):
        call = Call(f"c{n}", "read_file", {"path": f"x{n}.csv"}, key=f"k{n}", target=f"t{n}")
        error = f"Error: cannot read x{n}.csv: no such file"
        judged = judge(state, Answered(call, Result(False, error, None)), POLICY)
        state = judged.state
    assert judged.run and judged.halt is not None
    assert judged.halt["termination"] == Termination.TOOL_FAILURES.value


def test_judge_reads_a_reply_with_too_many_calls_or_cut_off() -> None:
    ids = tuple(f"c{n}" for n in range(MAX_CALLS_PER_REPLY + 2))
    judged = judge(GuardState(), Reply(ids, text=False, cut_off=False), POLICY)
    assert judged.refuse == tuple(
        (i, TOO_MANY_CALLS.format(limit=MAX_CALLS_PER_REPLY)) for i in ids[-2:]
    )
    cut = judge(GuardState(), Reply(("a",), text=True, cut_off=True), POLICY)
    assert cut.ended is Termination.LENGTH
    assert cut.refuse == (("a", NOT_EXECUTED.format(why="your reply was cut off")),)


def test_judge_halts_on_the_third_empty_reply_in_the_halts_one_shape() -> None:
    state = GuardState()
    for _ in range(3):
        judged = judge(state, Reply((), text=False, cut_off=False), POLICY)
        state = judged.state
    assert isinstance(judged.verdict, Halt)
    assert judged.halt == {"termination": "empty_replies", "kind": "collapse",
                           "reason": "3 replies in a row had neither text nor a tool call",
                           "tool": None, "args": None}  # fmt: skip
    assert state.halts == [judged.halt]


def test_judge_runs_a_terminal_call_uncounted_and_answers_a_refused_one() -> None:
    finish = Call("f", "finish_exploration", {})
    for _ in range(6):
        asked = judge(GuardState(), Asked(finish), POLICY)
        assert asked.run and asked.verdict is None
    refused = Call("r", "nope", {}, refused="Error: 'nope' is not a valid tool")
    answered = judge(GuardState(), Answered(refused, Result(False, refused.refused)), POLICY)
    assert answered.verdict == Allow() and answered.state.failure_streak == 1  # its first failure
    assert isinstance(judge(GuardState(), Asked(refused), POLICY).verdict, type(None))
    assert not isinstance(answered.verdict, Block)
