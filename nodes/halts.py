"""Every halt put to a human passes here: one node pauses, one reader takes the answer.

A halt has one shape (guards.statuses.halt_record) whatever stops the run:
- a collapse the loop guards caught in the explore loop (guards/guard.py), kept in the
  guard state (`guard.halt`);
- an endpoint that failed for good in any stage: `ask` raises EndpointDown, and the stage's
  wrapper (`halting`) keeps the halt and the stage in `halted`.

Conditional edges read those two fields (graph/routing.py). A collapse goes straight to
drafting, or, with on_collapse="ask", to `await_human`; an endpoint's halt always goes to
`await_human`, since nothing sound can be drafted from a dead endpoint. `await_human` pauses
on the one interrupt and reads the answer with guards.human.read_answer. A nudge becomes
`pending_nudge`, read by the stage that runs next: the explorer's history after a collapse,
or the request of the stage the endpoint halted, which runs again.
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
from labscribe.guards.statuses import Termination
from labscribe.nodes.runtime.context import Context
from labscribe.nodes.runtime.models import EndpointDown, context_window
from labscribe.nodes.runtime.progress import emit
from labscribe.nodes.runtime.state import State, exploration_ended

Node = Callable[..., dict[str, Any]]


def halting(stage: str, node: Node) -> Node:
    """`node`, whose endpoint failure halts the thread at `stage` instead of failing it.
    A stage run again after a halt a human answered spends the halt and its nudge."""
    takes_runtime = len(inspect.signature(node).parameters) > 1

    def run(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
        try:
            update = node(state, runtime) if takes_runtime else node(state)
        except EndpointDown as down:
            emit({"event": "halt", "stage": stage, **down.record})
            return {"halted": {"stage": stage, "halt": down.record, "answered": False}}
        if state.get("halted"):
            return {"halted": None, "pending_nudge": None} | update
        return update

    run.__name__ = run.__qualname__ = getattr(node, "__name__", stage)
    run.__doc__ = node.__doc__
    return run


def await_human(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """Pause a halted thread for a human (a HumanInterrupt, as Agent Inbox shows it).

    After an endpoint's halt, `accept` (or a nudge) runs the halted stage again. After a
    collapse, a nudge (`{"type": "response", "args": text}`, or `{"nudge": text}`) goes to
    the explorer and starts a new attempt; `ignore` drafts with what was found, as
    on_collapse="draft" would. A nudge over what the window allows is cut to it: whoever
    answered (Agent Inbox, a client of the server) is not there to be refused."""

    def nudge_of(answer: HumanAnswer) -> str | None:
        if answer.nudge is None:
            return None
        return fitted_nudge(answer.nudge, context_window(runtime.context, "explore"))

    if halted := state.get("halted"):
        answer = read_answer(interrupt(halt_request(halted["halt"])))
        return {"halted": halted | {"answered": True}, "pending_nudge": nudge_of(answer)}
    guard = GuardState.load(state.get("guard"))
    halt = guard.halt or {}
    situation = {"warned": guard.warned, "blocked": guard.blocked}
    request = halt_request(
        halt, folder=state["folder"], tool_calls=state.get("tool_calls", 0), **situation
    )
    answer = read_answer(interrupt(request))
    if answer.draft:  # the halt stays, so the collapse route takes the run to drafting
        termination = Termination(halt.get("termination", Termination.REPEATED_CALL))
        return exploration_ended(termination, f"{DRAFT_CHOSEN}: {halt.get('reason')}")
    guard.halt = None  # the record stays in guard.halts and in the checkpoint history
    return {"guard": guard.dump(), "pending_nudge": nudge_of(answer)}


def nudged(state: State) -> list[HumanMessage]:
    """The nudge a human gave on resuming the stage that runs now, as the message that
    joins its request (none when there is none)."""
    halted = state.get("halted") or {}
    nudge = state.get("pending_nudge") if halted.get("answered") else None
    return [HumanMessage(nudge)] if nudge else []
