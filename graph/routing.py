"""Routing: pure functions of the state, named for the decision they make."""

from __future__ import annotations

from typing import Literal

from labscribe.graph.state import State, pending_calls

ExplorerRoute = Literal["call_tool", "explore", "await_human", "leave"]


def route_explorer(state: State) -> ExplorerRoute:
    """Where the explore loop goes next.

    A collapse halt leaves for drafting with what was found, or pauses for a human when the
    run was started with on_collapse="ask". Otherwise pending calls are answered one per
    step, a finished exploration leaves, and anything else is the explorer's turn.
    """
    if (state.get("guard") or {}).get("halt"):
        return "await_human" if state["options"]["on_collapse"] == "ask" else "leave"
    if pending_calls(state["messages"]):
        return "call_tool"
    if state.get("exploration"):
        return "leave"
    return "explore"


ReflectionRoute = Literal["reflect", "leave"]


def route_reflection(state: State) -> ReflectionRoute:
    """Another critique-and-revise round while rounds remain and the last did not converge."""
    done = state.get("reflection") or {"rounds": 0, "converged": False}
    if done["converged"] or done["rounds"] >= state["options"]["reflect"]:
        return "leave"
    return "reflect"
