"""Routing: pure functions of the state and the run's context, named for the decision.

Every setting a router reads comes from the runtime context, as the nodes read it: a resume
that changes `on_collapse` or `reflect` changes the routes too.
"""

from __future__ import annotations

from typing import Literal

from langgraph.runtime import Runtime

from labscribe.guards.reflection import round_due
from labscribe.guards.statuses import of_endpoint
from labscribe.nodes.runtime.context import Context
from labscribe.nodes.runtime.state import State, pending_calls

ExplorerRoute = Literal["call_tool", "explore", "await_human", "collapse", "leave"]
StageRoute = Literal["await_human", "next"]


def endpoint_halted(state: State) -> bool:
    """An endpoint's halt no human has answered yet (nodes/halts.py)."""
    halted = state.get("halted")
    return bool(halted) and of_endpoint(halted["halt"]) and not halted["answered"]


def route_stage(state: State) -> StageRoute:
    """After a stage: a human first, when its endpoint halted it; else the next stage."""
    return "await_human" if endpoint_halted(state) else "next"


def route_explorer(state: State, runtime: Runtime[Context]) -> ExplorerRoute:
    """Where the explore loop goes next.

    An endpoint's halt waits for a human. A collapse goes straight to drafting with what was
    found ("collapse": past the stages that would spend the write model on a collapsed run),
    or pauses for a human when the run has on_collapse="ask" and no human has answered it
    yet (a nudge clears it; drafting answers it). Otherwise pending calls are answered one
    per step, a finished exploration leaves by the usual way, and anything else is the
    explorer's turn.
    """
    if endpoint_halted(state):
        return "await_human"
    halted = state.get("halted")
    if halted and not of_endpoint(halted["halt"]):
        asking = runtime.context.on_collapse == "ask" and not halted["answered"]
        return "await_human" if asking else "collapse"
    if pending_calls(state["messages"]):
        return "call_tool"
    if state.get("exploration"):
        return "leave"
    return "explore"


def route_human(state: State, runtime: Runtime[Context]) -> str:
    """After a human answered a halt: the stage an endpoint halted runs again; after a
    collapse, the explore loop goes on as `route_explorer` says."""
    halted = state.get("halted")
    if halted and of_endpoint(halted["halt"]):
        return halted["stage"]
    return route_explorer(state, runtime)


ReflectionRoute = Literal["reflect", "await_human", "leave"]


def route_reflection(state: State, runtime: Runtime[Context]) -> ReflectionRoute:
    """Another critique-and-revise round while rounds remain and the last did not converge
    (a human first, when the endpoint halted the round)."""
    if endpoint_halted(state):
        return "await_human"
    return "reflect" if round_due(state.get("reflection"), runtime.context.reflect) else "leave"
