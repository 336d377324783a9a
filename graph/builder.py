"""Assemble the graph from the stage list."""

from __future__ import annotations

from itertools import pairwise

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from labscribe.graph.pipeline import STAGES, prepare
from labscribe.graph.routing import route_explorer, route_human, route_reflection, route_stage
from labscribe.nodes.explore import explore_collapsed, explore_done
from labscribe.nodes.halts import await_human, halting
from labscribe.nodes.publish import publish
from labscribe.nodes.runtime.context import Context
from labscribe.nodes.runtime.state import InputState, State
from labscribe.nodes.tool_call import call_tool

EXPLORE_LOOP = ("explore", "call_tool", "await_human")


def build_graph(*, checkpointer: BaseCheckpointSaver | None = None) -> CompiledStateGraph:
    """The labscribe graph, compiled with `checkpointer` (None for LangGraph Studio/server).

    `prepare` leads into the stages in order, and `publish` follows them (the files a
    server's client cannot read from state); the explore loop leaves through
    `route_explorer`: into `explore_done`, which leads to the next stage, or, when it
    collapsed, into `explore_collapsed`, which leads straight to `draft`. Reflect repeats
    through `route_reflection`. A stage whose endpoint failed waits in `await_human`, and
    runs again once a human answers (nodes/halts.py).
    """
    builder = StateGraph(State, context_schema=Context, input_schema=InputState)
    builder.add_node("prepare", prepare)
    for stage in STAGES:
        builder.add_node(stage.name, halting(stage.name, stage.node))
    builder.add_node("call_tool", call_tool)
    builder.add_node("await_human", await_human)
    builder.add_node("explore_done", explore_done)
    builder.add_node("explore_collapsed", explore_collapsed)
    builder.add_node("publish", publish)

    chain = ["prepare", *(stage.name for stage in STAGES), "publish"]
    builder.add_edge(START, chain[0])
    after = dict(pairwise(chain))
    builder.add_edge("prepare", after["prepare"])
    for here, there in after.items():
        if here not in ("prepare", "explore", "reflect"):
            builder.add_conditional_edges(
                here, route_stage, {"next": there, "await_human": "await_human"}
            )
    routes = {"call_tool": "call_tool", "explore": "explore", "await_human": "await_human"}
    routes |= {"leave": "explore_done", "collapse": "explore_collapsed"}
    for node in ("explore", "call_tool"):
        builder.add_conditional_edges(node, route_explorer, routes)
    retries = {stage.name: stage.name for stage in STAGES}
    builder.add_conditional_edges("await_human", route_human, routes | retries)
    builder.add_edge("explore_done", after["explore"])
    builder.add_edge("explore_collapsed", "draft")
    builder.add_conditional_edges(
        "reflect",
        route_reflection,
        {"reflect": "reflect", "await_human": "await_human", "leave": after["reflect"]},
    )
    builder.add_edge(chain[-1], END)
    return builder.compile(checkpointer=checkpointer, name="labscribe")
