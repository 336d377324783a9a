"""The real `langgraph dev` server, serving the repository's langgraph.json, driven through
langgraph-sdk over HTTP; the models are a scripted OpenAI-compatible endpoint."""

from __future__ import annotations

import json
from pathlib import Path

import langgraph_sdk
import pytest
from langgraph_dev import LanggraphDev
from scripted import latex
from scripted_server import Choose, ScriptedEndpoint, text_reply, tool_reply

from labscribe.guards.human import DRAFT_CHOSEN

# one `langgraph dev` serves them all (conftest.langgraph_server): one xdist worker runs them
pytestmark = pytest.mark.xdist_group("langgraph_server")

FINISH = ("finish_exploration", {"experiment": "RLC", "goal": "f0", "key_findings": ["5 kHz"]})
AGAIN = tool_reply(("list_dir", {"path": "."}))
NUDGE = "Stop listing the folder. Call finish_exploration with what you know."


@pytest.fixture
def server_url(langgraph_server: LanggraphDev) -> str:
    return langgraph_server.url


def _context(endpoint: ScriptedEndpoint, **settings: object) -> dict[str, object]:
    return {
        "base_url": endpoint.url, "api_key": "test-key",
        "explore_model": "explorer", "write_model": "writer",
        "reflect": 0, "compile": False, "figures": False,
    } | settings  # fmt: skip


def test_the_served_graph_shows_its_context_as_a_form_and_its_input(server_url: str) -> None:
    client = langgraph_sdk.get_sync_client(url=server_url)
    # the graph's own assistant; other tests on this server add theirs
    (assistant,) = client.assistants.search(graph_id="labscribe", metadata={"created_by": "system"})
    schemas = client.assistants.get_schemas(assistant["assistant_id"])
    form = schemas["context_schema"]["properties"]
    assert {"base_url", "api_key", "explore_model", "write_model", "on_collapse"} <= set(form)
    assert {"max_tool_iters", "reflect", "figures", "compile"} <= set(form)
    assert form["on_collapse"]["enum"] == ["draft", "ask"]
    assert form["max_tool_iters"]["default"] == 20
    assert schemas["input_schema"]["required"] == ["folder"]


def test_a_halted_thread_is_interrupted_and_a_nudge_through_the_api_completes_it(
    server_url: str, data: Path
) -> None:
    client = langgraph_sdk.get_sync_client(url=server_url)
    script = [AGAIN] * 5 + [tool_reply(FINISH)]
    writer = [text_reply(latex("Served report."))]
    with ScriptedEndpoint({"explorer": script, "writer": writer}) as endpoint:
        assistant = client.assistants.create(
            "labscribe", context=_context(endpoint, on_collapse="ask"), name="ask-a-human"
        )
        thread = client.threads.create()
        thread_id, assistant_id = thread["thread_id"], assistant["assistant_id"]
        parts = list(
            client.runs.stream(
                thread_id, assistant_id, input={"folder": str(data)}, stream_mode="custom"
            )
        )
        events = [part.data for part in parts if part.event == "custom"]
        assert [e["stage"] for e in events if e["event"] == "milestone"] == ["scan"]
        assert [e["guard"] for e in events if e["event"] == "tool"] == [
            "allow", "allow", "warn", "block", "halt",
        ]  # fmt: skip

        assert client.threads.get(thread_id)["status"] == "interrupted"
        halted = client.threads.get_state(thread_id)
        assert halted["next"] == ["await_human"]
        (interrupt,) = halted["interrupts"]
        (request,) = interrupt["value"]  # a HumanInterrupt, as Agent Inbox reads it
        assert request["action_request"] == {"action": "list_dir", "args": {"path": "."}}
        values = halted["values"]
        assert values["plan"] == ["scan", "explore", "gap", "draft", "bib"]
        assert values["stages"] == ["scan"]
        guard = values["guard"]
        assert (guard["warned"], guard["blocked"]) == (1, 1)
        assert values["halted"]["halt"]["termination"] == "repeated_call"
        assert values["options"]["on_collapse"] == "ask"

        done = client.runs.wait(thread_id, assistant_id, command={"resume": {"nudge": NUDGE}})
        assert endpoint.calls_to("explorer") == 6
        assert endpoint.calls_to("writer") == 1
    assert done["report"] == latex("Served report.")
    assert done["stages"] == ["scan", "explore", "draft", "bib"]
    assert done["halted"] is None
    assert [h["tool"] for h in done["guard"]["halts"]] == ["list_dir"]
    humans = [m["content"] for m in done["messages"] if m["type"] == "human"]
    assert humans[-1] == NUDGE
    assert client.threads.get(thread_id)["status"] == "idle"

    history = client.threads.get_history(thread_id, limit=200)
    assert history[0]["next"] == []
    assert any(snapshot["next"] == ["await_human"] for snapshot in history)
    assert len(history) > 15  # every super-step was checkpointed by the server


def _halted_thread(client, endpoint: ScriptedEndpoint, folder: Path) -> tuple[str, str]:
    """A thread whose explorer collapsed under on_collapse="ask": (thread id, assistant id)."""
    assistant = client.assistants.create("labscribe", context=_context(endpoint, on_collapse="ask"))
    thread_id = client.threads.create()["thread_id"]
    client.runs.wait(thread_id, assistant["assistant_id"], input={"folder": str(folder)})
    assert client.threads.get(thread_id)["status"] == "interrupted"
    return thread_id, assistant["assistant_id"]


def test_agent_inbox_answers_a_halt_a_response_explores_on_and_ignore_drafts(
    server_url: str, data: Path
) -> None:
    client = langgraph_sdk.get_sync_client(url=server_url)
    explorer = Choose(lambda body: tool_reply(FINISH) if NUDGE in json.dumps(body) else AGAIN)
    scripts = {"explorer": [explorer], "writer": [text_reply(latex("Inbox report."))]}
    with ScriptedEndpoint(scripts) as endpoint:
        responded, assistant_id = _halted_thread(client, endpoint, data)
        (pending,) = client.threads.get_state(responded)["interrupts"]
        (request,) = pending["value"]
        assert request["config"]["allow_respond"] and request["config"]["allow_ignore"]
        assert request["description"].startswith("## Exploration halted")
        # Agent Inbox sends its answer as a list of one HumanResponse.
        answer = [{"type": "response", "args": NUDGE}]
        done = client.runs.wait(responded, assistant_id, command={"resume": answer})
        assert done["report"] == latex("Inbox report.")
        assert [m["content"] for m in done["messages"] if m["type"] == "human"][-1] == NUDGE
        assert done["exploration"]["termination"] == "finished"
        assert done["halted"] is None

        ignored, assistant_id = _halted_thread(client, endpoint, data)
        asked = endpoint.calls_to("explorer")
        done = client.runs.wait(
            ignored, assistant_id, command={"resume": {"type": "ignore", "args": None}}
        )
        assert endpoint.calls_to("explorer") == asked  # no more exploring
    assert done["report"] == latex("Inbox report.")
    assert done["exploration"]["reason"].startswith(DRAFT_CHOSEN)
    assert done["stages"] == ["scan", "explore", "draft", "bib"]  # straight to drafting
    assert "gap" in done["skipped"]
    assert done["halted"]["halt"]["tool"] == "list_dir"  # drafted after the halt, as it says
    assert client.threads.get(ignored)["status"] == "idle"
