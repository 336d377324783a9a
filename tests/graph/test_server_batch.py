"""`labscribe batch --server`: a class of folders run as threads of a real `langgraph dev`,
submitted and followed through langgraph-sdk; the models are a scripted endpoint. Its halts
and their answers: test_server_batch_halts.py."""

from __future__ import annotations

import json
import os
import signal
import socket
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest
from clirun import labscribe, read_events, read_record, start
from langgraph_dev import LanggraphDev
from langgraph_sdk import get_sync_client
from scripted import latex
from scripted_server import Hang, ScriptedEndpoint, text_reply
from server_batch_cases import (
    FINISH,
    MARKER,
    OPTIONS,
    SERVER_TESTS,
    SLOW,
    course_of,
    entries_by_folder,
    explorer,
    flags,
    runs_of,
)

from labscribe.graph.batch import Batch
from labscribe.graph.server_batch import CONNECT_RETRIES, _Follower, server_client

pytestmark = SERVER_TESTS


@pytest.fixture
def server(langgraph_server: LanggraphDev) -> LanggraphDev:
    return langgraph_server


def test_a_folder_run_on_the_server_leaves_the_same_files_as_the_cli(
    server: LanggraphDev, data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the PDF compiled. The endpoint and models come from the environment, as for
    `labscribe run`, and reach the assistant; the key travels with each run, never on it."""
    course = course_of(data, tmp_path, ["ada"], {})
    scripts = {"explorer": [explorer()], "writer": [text_reply(latex("Same report."))]}
    options = ["--reflect", "0", "--no-figures", "--api-key", "secret-key"]
    with ScriptedEndpoint(scripts) as endpoint:
        endpoint.required_key = "secret-key"
        monkeypatch.setenv("LABSCRIBE_BASE_URL", endpoint.url)
        monkeypatch.setenv("LABSCRIBE_EXPLORE_MODEL", "explorer")
        monkeypatch.setenv("LABSCRIBE_WRITE_MODEL", "writer")
        local = labscribe("run", str(course / "ada"), "--out", str(tmp_path / "cli"), *options)
        assert local.returncode == 0, local.stderr
        served = labscribe(
            "batch", str(course / "ada"), "--out", str(tmp_path / "served"),
            "--server", server.url, *options,
        )  # fmt: skip
        assert served.returncode == 0, served.stderr
    (entry,) = entries_by_folder(tmp_path / "served").values()
    cli, remote = tmp_path / "cli", Path(entry["out"])
    # build/ holds the compile's attempts (their logs), on the machine that compiled
    assert {p.name for p in remote.iterdir()} == {p.name for p in cli.iterdir()} - {"build"}
    assert (remote / "report.pdf").read_bytes()[:5] == b"%PDF-"
    assert (remote / "report.tex").read_text() == (cli / "report.tex").read_text()
    figures = sorted(p.name for p in (cli / "figures").iterdir())
    assert figures and sorted(p.name for p in (remote / "figures").iterdir()) == figures
    for name in figures:
        assert (remote / "figures" / name).read_bytes() == (cli / "figures" / name).read_bytes()
    assert _contents(remote / "history.json") == _contents(cli / "history.json")
    mine, theirs = read_record(remote), read_record(cli)
    assert mine.keys() == theirs.keys()
    same = ("status", "reason", "stages", "model_calls", "tool_calls", "guard", "tokens")
    assert {k: mine[k] for k in same} == {k: theirs[k] for k in same}
    assert mine["outputs"]["pdf"] == str(remote / "report.pdf")
    assert [e["stage"] for e in read_events(remote) if e["event"] == "milestone"] == [
        e["stage"] for e in read_events(cli) if e["event"] == "milestone"
    ]
    for out in (cli, remote):  # the end is stamped where the log opened, after every event
        *events, end = read_events(out)
        assert end["event"] == "end" and end["elapsed"] >= max(e["elapsed"] for e in events) > 0
    client = get_sync_client(url=server.url)
    batch = json.loads((tmp_path / "served" / "batch.json").read_text())
    context = client.assistants.get(batch["assistant_id"])["context"]
    assert context == {
        "base_url": endpoint.url, "explore_model": "explorer", "write_model": "writer",
        "reflect": 0, "figures": False,
    }  # fmt: skip


def _contents(history: Path) -> list[tuple[str, Any]]:
    """A history's messages without their ids (each process makes its own)."""
    return [(m["type"], m["data"]["content"]) for m in json.loads(history.read_text())]


def test_two_submissions_for_one_folder_never_run_its_thread_at_once(
    server: LanggraphDev, data: Path, tmp_path: Path
) -> None:
    course = course_of(data, tmp_path, ["slow"], {"slow": SLOW})
    out = tmp_path / "reports"
    hang = Hang(FINISH)
    client = get_sync_client(url=server.url)
    scripts = {"explorer": [explorer(hang)], "writer": [text_reply(latex("Once."))]}
    with ScriptedEndpoint(scripts) as endpoint:
        first = start(
            "batch", str(course), "--out", str(out), "--server", server.url, *OPTIONS,
            *flags(endpoint),
        )  # fmt: skip
        assert hang.reached.wait(60), "the run never reached its second explore turn"
        (entry,) = entries_by_folder(out).values()
        thread_id, batch = entry["thread_id"], Batch.load(out)
        # What labscribe relies on: the server refuses a second run on a busy thread...
        with pytest.raises(httpx.HTTPStatusError) as refused:
            client.runs.create(
                thread_id, batch.assistant_id, input=None, multitask_strategy="reject"
            )
        assert refused.value.response.status_code == 409
        # ...and a submission that loses that race follows the run already there.
        racing = _Follower(
            client, batch, batch.entries[0].model_copy(), api_key=None, nudge=None, running={}
        )
        racing._where = lambda: ("resumable", None)  # what it saw before the other began
        events: list[dict] = []
        race = threading.Thread(target=racing.run, args=(lambda e, event: events.append(event),))
        race.start()
        second = start("batch", "--resume", "--out", str(out), "--json")
        said = []
        for line in second.stdout:  # the second batch says when it has joined
            said.append(json.loads(line))
            if said[-1].get("detail", "").startswith("joined the run"):
                break
        assert any(e.get("detail", "").startswith("joined the run") for e in events)
        hang.release.set()
        race.join(timeout=120)
        first_out, second_out = first.communicate(timeout=120), second.communicate(timeout=120)
    assert first.returncode == 0, first_out[1]
    assert second.returncode == 0, second_out[1]
    assert len(runs_of(client, thread_id)) == 1
    said += [json.loads(line) for line in second_out[0].splitlines()]
    assert said[-1]["event"] == "batch" and said[-1]["exit_code"] == 0
    assert racing.entry.status == "completed"
    assert endpoint.calls_to("writer") == 1
    assert read_record(Path(entry["out"]))["status"] == "completed"


def test_a_server_restart_in_the_middle_of_the_batch_and_resume_finishes_it(
    data: Path, tmp_path: Path
) -> None:
    """The server goes away while one run waits on the model and stays away until the batch
    gives up; back up, it runs its queued run again, and --resume finishes the batch."""
    (tmp_path / "server").mkdir()
    served = LanggraphDev(tmp_path / "server")
    served.start()
    course = course_of(data, tmp_path, ["ada", "hung", "zed"], {"hung": SLOW})
    out = tmp_path / "reports"
    hang = Hang(FINISH)
    scripts = {"explorer": [explorer(hang)], "writer": [text_reply(latex("Restarted."))]}
    try:
        with ScriptedEndpoint(scripts) as endpoint:
            batch = start(
                "batch", str(course), "--out", str(out), "--server", served.url,
                "--concurrency", "1", *OPTIONS, *flags(endpoint),
            )  # fmt: skip
            assert hang.reached.wait(90), "the hung folder's run never asked the model"
            served.stop()
            hang.release.set()
            _, stderr = batch.communicate(timeout=240)
            assert batch.returncode == 1, stderr
            entries = entries_by_folder(out)
            assert entries["ada"]["status"] == "completed"
            for name in ("hung", "zed"):
                assert entries[name]["status"] == "failed"
                assert entries[name]["reason"].startswith(f"lost the server at {served.url}")
                assert f"labscribe batch --out {out} --resume" in entries[name]["reason"]

            served.start()
            again = labscribe("batch", "--resume", "--out", str(out), "--server", served.url)
            assert again.returncode == 0, again.stderr + served.log()[-3000:]
        entries = entries_by_folder(out)
        assert {e["status"] for e in entries.values()} == {"completed"}
        client = get_sync_client(url=served.url)
        hung = client.threads.get_state(entries["hung"]["thread_id"])["values"]
        assert hung["stages"] == ["scan", "explore", "draft", "bib"]  # scanned once
        assert read_record(Path(entries["zed"]["out"]))["status"] == "completed"
        assert len(runs_of(client, entries["ada"]["thread_id"])) == 1
    finally:
        served.stop()


def test_a_request_to_a_server_that_is_gone_tries_its_connection_twice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The SDK's own client tries a refused connection six times, inside each of its five
    reconnects to a dropped stream: about a minute before a batch says it lost the server.
    The batch's client keeps the SDK's headers (its key from the environment) and timeouts."""
    tried: list[tuple[str, int]] = []

    def refused(address: tuple[str, int], *args: Any, **kwargs: Any) -> socket.socket:
        tried.append(address)
        raise ConnectionRefusedError(111, "Connection refused")

    monkeypatch.setenv("LANGGRAPH_API_KEY", "lab-key")
    client = server_client("http://127.0.0.1:2024")
    monkeypatch.setattr(socket, "create_connection", refused)
    with pytest.raises(httpx.ConnectError):
        client.threads.get("a-thread")
    assert tried == [("127.0.0.1", 2024)] * (1 + CONNECT_RETRIES)
    assert client.http.client.headers["x-api-key"] == "lab-key"
    assert (
        client.http.client.timeout
        == get_sync_client(url="http://127.0.0.1:2024").http.client.timeout
    )


def test_ctrl_c_cancels_the_runs_on_the_server_and_resume_finishes_them(
    server: LanggraphDev, data: Path, tmp_path: Path
) -> None:
    course = course_of(data, tmp_path, ["ada", "ben"], {"ada": SLOW})
    out = tmp_path / "reports"
    hang = Hang(FINISH)
    client = get_sync_client(url=server.url)
    scripts = {"explorer": [explorer(hang)], "writer": [text_reply(latex("Cancelled."))]}
    with ScriptedEndpoint(scripts) as endpoint:
        batch = start(
            "batch", str(course), "--out", str(out), "--server", server.url,
            "--concurrency", "1", *OPTIONS, *flags(endpoint), new_session=True,
        )  # fmt: skip
        assert hang.reached.wait(60), "the first run never reached its second explore turn"
        os.killpg(batch.pid, signal.SIGINT)
        stdout, stderr = batch.communicate(timeout=120)
        hang.release.set()
        assert batch.returncode == 3, stderr
        entries = entries_by_folder(out)
        assert [entries[n]["status"] for n in ("ada", "ben")] == ["cancelled", "pending"]
        assert stdout.splitlines()[-1] == "0/2 reports written"
        (run,) = runs_of(client, entries["ada"]["thread_id"])
        assert run["status"] == "interrupted"  # cancelled on the server, not left running

        again = labscribe("batch", "--resume", "--out", str(out))
        assert again.returncode == 0, again.stderr
    entries = entries_by_folder(out)
    assert {e["status"] for e in entries.values()} == {"completed"}
    ada = read_record(Path(entries["ada"]["out"]))
    assert ada["tool_calls"] == 2  # continued from its checkpoint: its first call ran once


def test_a_server_that_lost_the_batch_gets_it_again_on_resume(
    server: LanggraphDev, data: Path, tmp_path: Path
) -> None:
    """The batch ran on a server whose state is gone (another `langgraph dev`, its folder
    wiped): --resume on the new one creates the assistant and the threads again. The first
    server has the model key in its environment and the batch sends none; the second has
    none, and the resume's --api-key travels with each run."""
    (tmp_path / "gone").mkdir()
    gone = LanggraphDev(tmp_path / "gone", env={"LABSCRIBE_API_KEY": "server-key"})
    course = course_of(data, tmp_path, ["ada", "stuck"], {"stuck": MARKER})
    out = tmp_path / "reports"
    collapsing = {"on": True}
    writer = [text_reply(latex("Again."))]
    scripts = {"explorer": [explorer(collapsing=collapsing)], "writer": writer}
    with ScriptedEndpoint(scripts) as endpoint:
        endpoint.required_key = "server-key"
        keyless = [flag for flag in flags(endpoint) if flag not in ("--api-key", "test-key")]
        try:
            first = labscribe(
                "batch", str(course), "--out", str(out), "--server", gone.start(),
                "--on-collapse", "ask", *OPTIONS, *keyless,
            )  # fmt: skip
        finally:
            gone.stop()
        assert first.returncode == 3, first.stderr
        assert entries_by_folder(out)["ada"]["status"] == "completed"  # with the server's key
        before = Batch.load(out)
        collapsing["on"] = False
        endpoint.required_key = "client-key"
        again = labscribe(
            "batch", "--resume", "--out", str(out), "--server", server.url,
            "--api-key", "client-key",
        )  # fmt: skip
        assert again.returncode == 0, again.stderr
    after = Batch.load(out)
    assert after.server == server.url and after.assistant_id != before.assistant_id
    assert [entry.status for entry in after.entries] == ["completed", "completed"]
    stuck = after.entries[1]  # run from the start on the new server; ada was written before
    client = get_sync_client(url=server.url)
    assert client.threads.get(stuck.thread_id)["metadata"]["folder"] == stuck.folder
    assert read_record(Path(stuck.out))["model_calls"]["explore"] == 2
    assert "api_key" not in client.assistants.get(after.assistant_id)["context"]


def test_a_run_that_fails_on_the_server_is_run_again_from_its_checkpoint(
    server: LanggraphDev, data: Path, tmp_path: Path
) -> None:
    course = course_of(data, tmp_path, ["ada"], {})
    (course / "broken").mkdir()  # empty: the run on the server refuses it
    out = tmp_path / "reports"
    client = get_sync_client(url=server.url)
    scripts = {"explorer": [explorer()], "writer": [text_reply(latex("Fixed."))]}
    with ScriptedEndpoint(scripts) as endpoint:
        first = labscribe(
            "batch", str(course), "--out", str(out), "--server", server.url, *OPTIONS,
            *flags(endpoint),
        )  # fmt: skip
        assert first.returncode == 1, first.stderr
        entries = entries_by_folder(out)
        assert entries["ada"]["status"] == "completed"
        broken = entries["broken"]
        assert broken["status"] == "failed"
        assert broken["reason"].startswith("the server's run failed: ValueError")
        assert "is empty" in broken["reason"]
        assert read_record(Path(broken["out"]))["status"] == "failed"

        (course / "broken" / "notes.md").write_text("Resonance near 5 kHz.\n")
        again = labscribe("batch", "--resume", "--out", str(out))
        assert again.returncode == 0, again.stderr
    assert entries_by_folder(out)["broken"]["status"] == "completed"
    statuses = [run["status"] for run in runs_of(client, broken["thread_id"])]
    assert sorted(statuses) == ["error", "success"]  # the same thread, run again
    assert len(runs_of(client, entries["ada"]["thread_id"])) == 1
