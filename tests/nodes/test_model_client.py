"""The model client over real HTTP, asked many times in one process, as a LangGraph server
that runs a whole class asks it, or an application that invokes the graph in a loop."""

from __future__ import annotations

from langchain_core.messages import HumanMessage
from scripted_server import ScriptedEndpoint, text_reply

from labscribe.nodes.runtime.context import Context
from labscribe.nodes.runtime.models import ROLES, chat_model

ASKED = 150
"""More requests than httpx's connection pool holds (100): each connection a reply was read
through must go back to the pool, or the 101st request waits for one until it times out."""


def test_one_client_asks_more_times_than_its_connection_pool_holds() -> None:
    scripts = {"explorer": [text_reply("noted")], "writer": [text_reply("written")]}
    with ScriptedEndpoint(scripts) as endpoint:
        context = Context(
            base_url=endpoint.url,
            explore_model="explorer",
            write_model="writer",
            request_timeout=5,
            max_retries=0,
        )
        for role in ROLES:  # the explorer's replies come whole, the writer's stream
            model = chat_model(context, role)
            replies = {model.invoke([HumanMessage(f"turn {n}")]).text for n in range(ASKED)}
            assert replies == {"noted" if role == "explore" else "written"}
    assert endpoint.calls_to("explorer") == endpoint.calls_to("writer") == ASKED
