import time

import pytest
from pydantic import ValidationError

from labscribe.guards.bounds import (
    Budget,
    ComputeBudget,
    Usage,
    check_before_request,
    estimate_tokens,
    graph_step_bound,
    usage_by_stage,
    within_tokens,
)
from labscribe.guards.statuses import Termination


def test_budget_allows_calls_below_the_limit() -> None:
    assert check_before_request(Budget(max_tool_iters=20), Usage(calls=19, input=0)) is None


def test_budget_refuses_the_call_past_the_limit_naming_limit_and_value() -> None:
    exceeded = check_before_request(Budget(max_tool_iters=20), Usage(calls=20, input=0))
    assert exceeded is not None
    assert exceeded.termination is Termination.ITERATION_BUDGET
    assert exceeded.message == "Exceeded the max_tool_iters limit of 20 (model_calls=20)"


def test_budget_token_limit_is_independent() -> None:
    budget = Budget(max_tool_iters=None, max_tokens=500)
    exceeded = check_before_request(budget, Usage(calls=1000, input=501))
    assert exceeded is not None
    assert exceeded.message == "Exceeded the max_tokens limit of 500 (tokens=501)"


def test_budget_rejects_zero() -> None:
    with pytest.raises(ValidationError):
        Budget(max_tool_iters=0)


def test_estimate_tokens_counts_cjk_denser_than_ascii() -> None:
    assert estimate_tokens("共振频率" * 10) > estimate_tokens("abcd" * 10)


def test_graph_step_bound_grows_with_the_budget() -> None:
    assert graph_step_bound(40) > graph_step_bound(20) > 20


def test_within_tokens_keeps_what_fits_and_cuts_the_rest_with_a_note() -> None:
    short = "f0 = 5.02 kHz"
    assert within_tokens(short, 100, "the findings") is short
    for text in ["the resonance is near five kilohertz " * 30_000, "中文" * 40_000, "9" * 10**6]:
        kept = within_tokens(text, 1_000, "the findings")
        assert estimate_tokens(kept) <= 1_000
        assert kept.startswith(text[:50]) and "[labscribe: the findings cut to fit" in kept
        assert f"of {len(text):,} characters" in kept
    assert "cut to fit" in within_tokens("word " * 100, -5, "the gaps")


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_compute_budget_is_spent_by_cpu_time_whatever_the_wall_clock() -> None:
    cpu, wall = Clock(), Clock()
    budget = ComputeBudget(20, 120, cpu_clock=cpu, wall_clock=wall)
    wall.now += 100  # waited while other work ran
    cpu.now += 19.9
    assert not budget.spent()
    cpu.now += 0.2
    assert budget.spent()


def test_compute_budget_stops_a_starved_thread_at_its_wall_ceiling() -> None:
    cpu, wall = Clock(), Clock()
    budget = ComputeBudget(20, 120, cpu_clock=cpu, wall_clock=wall)
    cpu.now += 1
    wall.now += 120.1
    assert budget.spent()


def test_compute_budget_counts_only_its_own_thread() -> None:
    budget = ComputeBudget(0.05, 60)
    time.sleep(0.2)  # no CPU spent by this thread
    assert not budget.spent()
    started = time.thread_time()
    while time.thread_time() - started < 0.1:  # this thread's CPU, well past the budget
        sum(range(10_000))
    assert budget.spent()


def test_usages_add_up_and_read_back_from_the_states_counters() -> None:
    first, second = Usage(calls=1, input=100, output=20), Usage(calls=2, input=50, output=5)
    assert first + second == Usage(calls=3, input=150, output=25)
    assert (first + second).tokens == 175
    assert usage_by_stage({"explore": first.dump(), "draft": {"calls": 1}}) == {
        "explore": first,
        "draft": Usage(calls=1),
    }
    with pytest.raises(ValidationError):  # a counter of another name is no usage
        usage_by_stage({"explore": {"calls": 1, "tokens": 3}})
