"""`labscribe batch --server`: a class of folders run as threads of a real `langgraph dev`,
submitted and followed through langgraph-sdk; the models are a scripted endpoint."""

from __future__ import annotations

import json
import os
import shutil
import signal
import threading
import uuid
import warnings
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from clirun import labscribe, read_events, read_record, start
from langgraph_dev import LANGGRAPH, LanggraphDev
from langgraph_sdk import get_sync_client
from pydantic import TypeAdapter
from scripted import latex
from scripted_server import Choose, Hang, ScriptedEndpoint, text_reply, tool_reply

from labscribe.graph.batch import Batch
from labscribe.graph.server_batch import _Follower

# one `langgraph dev` serves them all (conftest.langgraph_server): one xdist worker runs them
pytestmark = pytest.mark.xdist_group("langgraph_server")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from langgraph.prebuilt.interrupt import HumanInterrupt

pytestmark = pytest.mark.skipif(
    os.environ.get("CI") is None and not LANGGRAPH.exists(),
    reason="langgraph-cli is not installed here (.ci/setup --test installs it)",
)
FINISH = tool_reply(
    ("finish_exploration", {"experiment": "RLC", "goal": "f0", "key_findings": ["5 kHz"]})
)
LOOK = tool_reply(("list_dir", {"path": "."}))
NUDGE = "Stop listing the folder. Call finish_exploration with what you know."
MARKER = "collapse-me.txt"
SLOW = "slow.txt"
OPTIONS = ["--reflect", "0", "--no-compile", "--no-figures"]
OUTPUTS = {"report.tex", "history.json", "run.json", "events.jsonl", "figures"}  # no references


@pytest.fixture
def server(langgraph_server: LanggraphDev) -> LanggraphDev:
    return langgraph_server


def course_of(data: Path, root: Path, names: list[str], marked: dict[str, str]) -> Path:
    course = root / "course"
    for name in names:
        shutil.copytree(data, course / name)
    for name, marker in marked.items():
        (course / name / marker).write_text("the scripted endpoint knows this folder\n")
    return course


def explorer(hang: Hang | None = None, collapsing: dict[str, bool] | None = None) -> Choose:
    """Look once, then finish. The marked folder's explorer looks forever until a human's
    nudge (or while `collapsing["on"]`, when given); the slow folder's second turn waits on
    `hang`."""

    def pick(body: dict[str, Any]) -> Any:
        said = json.dumps(body["messages"])
        stuck = collapsing["on"] if collapsing is not None else NUDGE not in said
        if MARKER in said and stuck:
            return LOOK
        turns = sum(1 for m in body["messages"] if m["role"] == "assistant")
        if turns == 0:
            return LOOK
        return hang if hang is not None and SLOW in said else FINISH

    return Choose(pick)


def flags(endpoint: ScriptedEndpoint, key: str = "test-key") -> list[str]:
    return [
        "--base-url", endpoint.url, "--api-key", key,
        "--explore-model", "explorer", "--write-model", "writer",
    ]  # fmt: skip


def entries_by_folder(out: Path) -> dict[str, dict]:
    manifest = json.loads((out / "batch.json").read_text())
    return {Path(entry["folder"]).name: entry for entry in manifest["entries"]}


def runs_of(client: Any, thread_id: str) -> list[dict]:
    return client.runs.list(thread_id, limit=100)


def most_at_once(runs: list[dict]) -> int:
    """The most runs that were submitted and not yet ended at any one moment."""
    moments = []
    for run in runs:
        moments += [(datetime.fromisoformat(run["created_at"]), 1)]
        moments += [(datetime.fromisoformat(run["updated_at"]), -1)]
    most = now = 0
    for _, change in sorted(moments):
        now += change
        most = max(most, now)
    return most


def test_a_class_on_the_server_halts_one_for_a_human_and_resume_with_a_nudge_finishes_it(
    server: LanggraphDev, data: Path, tmp_path: Path
) -> None:
    course = course_of(data, tmp_path, ["ada", "ben", "cai", "stuck"], {"stuck": MARKER})
    out = tmp_path / "reports"
    client = get_sync_client(url=server.url)
    scripts = {
        "explorer": [explorer()],
        "writer": [text_reply(latex("Served batch."))],
        "writer-2": [text_reply(latex("Written by another model."))],
    }
    with ScriptedEndpoint(scripts) as endpoint:
        early = labscribe("batch", str(course), "--out", str(out), "--nudge", NUDGE)
        assert early.returncode == 2 and "--nudge is for --resume" in early.stderr
        first = labscribe(
            "batch", str(course), "--out", str(out), "--server", server.url,
            "--concurrency", "2", "--on-collapse", "ask", *OPTIONS, *flags(endpoint),
        )  # fmt: skip
        assert first.returncode == 3, first.stderr  # halted and resumable, nothing failed
        entries = entries_by_folder(out)
        assert {name: e["status"] for name, e in entries.items()} == {
            "ada": "completed", "ben": "completed", "cai": "completed", "stuck": "halted",
        }  # fmt: skip
        assert f"labscribe batch --out {out} --resume" in entries["stuck"]["reason"]
        assert first.stdout.splitlines()[-1] == "3/4 reports written"
        assert entries["stuck"]["model_calls"]["explore"] == 5

        for name, entry in entries.items():
            thread = client.threads.get(entry["thread_id"])  # the server's own thread ids
            assert str(uuid.UUID(entry["thread_id"])) == entry["thread_id"]
            assert thread["metadata"]["folder"] == str(course / name)
            assert thread["metadata"]["labscribe_batch"] == str(out)
        stuck = entries["stuck"]["thread_id"]
        assert client.threads.get(stuck)["status"] == "interrupted"
        (pending,) = client.threads.get_state(stuck)["interrupts"]
        (request,) = TypeAdapter(list[HumanInterrupt]).validate_python(pending["value"])
        assert request["action_request"] == {"action": "list_dir", "args": {"path": "."}}

        for name in ("ada", "ben", "cai"):
            done = Path(entries[name]["out"])
            assert {p.name for p in done.iterdir()} == OUTPUTS
            assert (done / "report.tex").read_text() == latex("Served batch.")
            assert list((done / "figures").glob("data-*.png"))  # drawn on the server
            record = read_record(done)
            assert record["thread_id"] == entries[name]["thread_id"]
            assert record["status"] == "completed"
            assert read_events(done)[-1]["event"] == "end"
        halted = read_record(Path(entries["stuck"]["out"]))
        assert halted["status"] == "halted" and halted["guard"]["halt"]["tool"] == "list_dir"

        runs = [run for e in entries.values() for run in runs_of(client, e["thread_id"])]
        assert len(runs) == 4
        assert most_at_once(runs) <= 2  # --concurrency 2

        again = labscribe(
            "batch", "--resume", "--out", str(out), "--nudge", NUDGE, "--write-model", "writer-2"
        )
        assert again.returncode == 0, again.stderr
        assert (endpoint.calls_to("writer"), endpoint.calls_to("writer-2")) == (3, 1)
    entries = entries_by_folder(out)
    stuck_report = Path(entries["stuck"]["out"]) / "report.tex"
    assert stuck_report.read_text() == latex("Written by another model.")  # the new model
    assert {e["status"] for e in entries.values()} == {"completed"}
    assert again.stdout.splitlines()[-1] == "4/4 reports written"
    for name in ("ada", "ben", "cai"):  # finished threads are left alone
        assert len(runs_of(client, entries[name]["thread_id"])) == 1
    assert len(runs_of(client, stuck)) == 2
    resumed = Path(entries["stuck"]["out"])
    history = json.loads((resumed / "history.json").read_text())
    assert [m["data"]["content"] for m in history if m["type"] == "human"][-1] == NUDGE
    record = read_record(resumed)
    assert record["model_calls"]["explore"] == 6  # the same thread, continued
    assert [h["tool"] for h in (record["guard"]["halt"],)] == ["list_dir"]


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
