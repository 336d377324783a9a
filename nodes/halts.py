"""Every halt passes here: one record in state, one node that pauses, one answer.

A halt has one shape (guards.statuses.halt_record) whatever stops the run, and one place in
state, `halted`: {"stage" it stopped, "halt" (the record), "answered" (by a human)}.
- A collapse the loop guards caught in the explore loop (guards/guard.py) halts "explore".
- An endpoint that failed for good halts its stage: `ask` raises EndpointDown, and the
  stage's wrapper (`halting`) puts the halt in force.

Conditional edges read it (graph/routing.py). A collapse goes straight to drafting, or, with
on_collapse="ask", to `await_human`; an endpoint's halt always goes to `await_human`, since
nothing sound can be drafted from a dead endpoint. `await_human` pauses on the one interrupt,
and `answer_halt` turns the answer into one state update: a nudge restarts the explorer's
attempt and waits in `pending_nudge` for the stage that runs next (the explorer after a
collapse; the stage an endpoint halted, which runs again).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from langchain_core.messages import HumanMessage
from langgraph.runtime import Runtime
from langgraph.types import interrupt

from labscribe.guards.guard_state import GuardState
from labscribe.guards.human import (
    DRAFT_CHOSEN,
    HumanAnswer,
    fitted_nudge,
    halt_request,
    read_answer,
)
from labscribe.guards.statuses import Termination, of_endpoint
from labscribe.nodes.runtime.context import Context
from labscribe.nodes.runtime.models import EndpointDown, context_window
from labscribe.nodes.runtime.state import State, emit, exploration_ended

Node = Callable[..., dict[str, Any]]


def halting(stage: str, node: Node) -> Node:
    """`node`, whose endpoint failure halts the thread at `stage` instead of failing it.
    The stage run again after its halt was answered ends the halt and spends its nudge."""
    takes_runtime = len(inspect.signature(node).parameters) > 1

    def run(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
        try:
            update = node(state, runtime) if takes_runtime else node(state)
        except EndpointDown as down:
            emit({"event": "halt", "stage": stage, **down.record})
            return in_force(stage, down.record)
        if (state.get("halted") or {}).get("stage") == stage:
            return {"halted": None, "pending_nudge": None} | update
        return update

    run.__name__ = run.__qualname__ = getattr(node, "__name__", stage)
    run.__doc__ = node.__doc__
    return run


def in_force(stage: str, record: dict[str, Any]) -> dict[str, Any]:
    """The state update that puts the halt `record` in force at `stage`."""
    return {"halted": {"stage": stage, "halt": record, "answered": False}}


def await_human(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """Pause a halted thread for a human (a HumanInterrupt, as Agent Inbox shows it), and
    answer the halt with what the human said (`answer_halt`)."""
    halted = state.get("halted")
    if not halted:  # nothing in force (a thread paused by an older labscribe): go on
        return {}
    guard = GuardState.load(state.get("guard"))
    request = halt_request(
        halted["halt"], folder=state["folder"], tool_calls=state.get("tool_calls", 0),
        warned=guard.warned, blocked=guard.blocked,
    )  # fmt: skip
    answer = read_answer(interrupt(request))
    return answer_halt(state, answer, context_window(runtime.context, "explore"))


def answer_halt(state: State, answer: HumanAnswer, window: int) -> dict[str, Any]:
    """A human's answer to the halt in force, as one state update.

    After an endpoint's halt, `accept` (or a nudge) runs the halted stage again. After a
    collapse, a nudge (`{"type": "response", "args": text}`, or `{"nudge": text}`) clears the
    halt and starts a new attempt; `ignore`, or any answer without a nudge (an `accept` the
    collapse does not allow), drafts with what was found, as on_collapse="draft" would. A
    nudge over what the `window` allows is cut to it: whoever answered (Agent Inbox, a client
    of the server) is not there to be refused."""
    halted = state["halted"]
    record = halted["halt"]
    nudge = fitted_nudge(answer.nudge, window) if answer.nudge is not None else None
    if of_endpoint(record):
        explorer_nudged = nudge is not None and halted["stage"] == "explore"
        restart = take_nudge(state, nudge) if explorer_nudged else {"pending_nudge": nudge}
        return {"halted": halted | {"answered": True}} | restart
    if nudge is None:  # the halt stays, answered: the collapse route takes the run to drafting
        termination = Termination(record.get("termination", Termination.REPEATED_CALL))
        ending = exploration_ended(termination, f"{DRAFT_CHOSEN}: {record.get('reason')}")
        return {"halted": halted | {"answered": True}} | ending
    return {"halted": None} | take_nudge(state, nudge)  # its record stays in guard.halts


def take_nudge(state: State | dict[str, Any], nudge: str) -> dict[str, Any]:
    """A human's nudge for the explorer: a new attempt (the ladder from its first rung, the
    warning included) and the nudge queued to join its next request."""
    guard = GuardState.load(state.get("guard"))
    guard.restart_attempt()
    return {"guard": guard.dump(), "pending_nudge": nudge}


def nudged(state: State) -> list[HumanMessage]:
    """The nudge a human gave on resuming the stage that runs now, as the message that
    joins its request (none when there is none)."""
    halted = state.get("halted") or {}
    nudge = state.get("pending_nudge") if halted.get("answered") else None
    return [HumanMessage(nudge)] if nudge else []
