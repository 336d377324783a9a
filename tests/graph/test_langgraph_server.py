"""The real `langgraph dev` server, serving the repository's langgraph.json, driven through
langgraph-sdk over HTTP; the models are a scripted OpenAI-compatible endpoint."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from scripted import latex
from scripted_server import ScriptedEndpoint, text_reply, tool_reply

langgraph_sdk = pytest.importorskip(
    "langgraph_sdk",
    reason="the Studio tests need labscribe[studio] (.ci/setup --test installs it)",
)

REPO = Path(__file__).resolve().parents[2]
LANGGRAPH = Path(sys.executable).parent / "langgraph"
LISTENING = re.compile(r"API: \S*http://127\.0\.0\.1:(\d+)")
FINISH = ("finish_exploration", {"experiment": "RLC", "goal": "f0", "key_findings": ["5 kHz"]})
AGAIN = tool_reply(("list_dir", {"path": "."}))
NUDGE = "Stop listing the folder. Call finish_exploration with what you know."


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`langgraph dev` offline in a temporary directory (its `.langgraph_api/` state lands
    there). It moves to another port when the one asked for is busy, so the port is read
    from what it prints."""
    if os.environ.get("CI") is None and not LANGGRAPH.exists():
        pytest.skip("langgraph-cli is not installed here (.ci/setup --test installs it)")
    where = tmp_path_factory.mktemp("langgraph-dev")
    log = where / "server.log"
    env = os.environ | {
        "LANGGRAPH_CLI_NO_ANALYTICS": "1",
        "LANGSMITH_TRACING": "false",
        "LANGCHAIN_TRACING_V2": "false",
        "NO_COLOR": "1",
    }
    command = [
        str(LANGGRAPH), "dev", "--config", str(_config_in(where)), "--no-browser",
        "--no-reload", "--host", "127.0.0.1", "--port", str(_free_port()),
    ]  # fmt: skip
    with log.open("w") as sink:
        server = subprocess.Popen(
            command, cwd=where, env=env, stdout=sink, stderr=subprocess.STDOUT
        )
    try:
        deadline = time.monotonic() + 90
        while not (found := LISTENING.search(log.read_text())):
            assert server.poll() is None, f"langgraph dev exited:\n{log.read_text()}"
            assert time.monotonic() < deadline, f"langgraph dev did not start:\n{log.read_text()}"
            time.sleep(0.2)
        url = f"http://127.0.0.1:{found.group(1)}"
        while not _answers(url):  # it prints the address before it listens
            assert server.poll() is None, f"langgraph dev exited:\n{log.read_text()}"
            assert time.monotonic() < deadline, f"langgraph dev did not answer:\n{log.read_text()}"
            time.sleep(0.2)
        yield url
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()


def _config_in(where: Path) -> Path:
    """The repository's langgraph.json, with its paths made absolute: `langgraph dev` reads
    them relative to where it runs, and it runs in `where`."""
    config = json.loads((REPO / "langgraph.json").read_text())
    config["dependencies"] = [str(REPO / path) for path in config["dependencies"]]
    config["graphs"] = {name: str(REPO / spec) for name, spec in config["graphs"].items()}
    target = where / "langgraph.json"
    target.write_text(json.dumps(config))
    return target


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/ok", timeout=5) as response:
            return response.status == 200
    except OSError:
        return False


def _context(endpoint: ScriptedEndpoint, **settings: object) -> dict[str, object]:
    return {
        "base_url": endpoint.url, "api_key": "test-key",
        "explore_model": "explorer", "write_model": "writer",
        "reflect": 0, "compile": False, "figures": False,
    } | settings  # fmt: skip


def test_the_served_graph_shows_its_context_as_a_form_and_its_input(server_url: str) -> None:
    client = langgraph_sdk.get_sync_client(url=server_url)
    (assistant,) = client.assistants.search(graph_id="labscribe")
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
        assert interrupt["value"]["halt"]["tool"] == "list_dir"
        values = halted["values"]
        assert values["plan"] == ["scan", "explore", "gap", "draft", "bib"]
        assert values["stages"] == ["scan"]
        guard = values["guard"]
        assert (guard["warned"], guard["blocked"]) == (1, 1)
        assert guard["halt"]["termination"] == "repeated_call"
        assert values["options"]["on_collapse"] == "ask"

        done = client.runs.wait(thread_id, assistant_id, command={"resume": {"nudge": NUDGE}})
        assert endpoint.calls_to("explorer") == 6
        assert endpoint.calls_to("writer") == 1
    assert done["report"] == latex("Served report.")
    assert done["stages"] == ["scan", "explore", "draft", "bib"]
    assert done["guard"]["halt"] is None
    assert [h["tool"] for h in done["guard"]["halts"]] == ["list_dir"]
    humans = [m["content"] for m in done["messages"] if m["type"] == "human"]
    assert humans[-1] == NUDGE
    assert client.threads.get(thread_id)["status"] == "idle"

    history = client.threads.get_history(thread_id, limit=200)
    assert history[0]["next"] == []
    assert any(snapshot["next"] == ["await_human"] for snapshot in history)
    assert len(history) > 15  # every super-step was checkpointed by the server
