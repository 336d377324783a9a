"""`labscribe batch --server` and the halts of its threads: a folder whose explorer
collapses under --on-collapse ask waits for a human on the server, and `batch --resume`
answers it as `labscribe resume` would (SPEC section 4): with a nudge the explorer goes on,
without one the thread drafts with what was found."""

from __future__ import annotations

import json
import uuid
import warnings
from pathlib import Path

from clirun import labscribe, read_events, read_record
from langgraph_dev import LanggraphDev
from langgraph_sdk import get_sync_client
from pydantic import TypeAdapter
from scripted import latex
from scripted_server import ScriptedEndpoint, text_reply
from server_batch_cases import (
    MARKER,
    NUDGE,
    OPTIONS,
    OUTPUTS,
    SERVER_TESTS,
    course_of,
    entries_by_folder,
    explorer,
    flags,
    most_at_once,
    runs_of,
)

from labscribe.guards.human import DRAFT_CHOSEN

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from langgraph.prebuilt.interrupt import HumanInterrupt

pytestmark = SERVER_TESTS


def test_a_class_on_the_server_halts_one_for_a_human_and_resume_with_a_nudge_finishes_it(
    langgraph_server: LanggraphDev, data: Path, tmp_path: Path
) -> None:
    course = course_of(data, tmp_path, ["ada", "ben", "cai", "stuck"], {"stuck": MARKER})
    out = tmp_path / "reports"
    client = get_sync_client(url=langgraph_server.url)
    scripts = {
        "explorer": [explorer()],
        "writer": [text_reply(latex("Served batch."))],
        "writer-2": [text_reply(latex("Written by another model."))],
    }
    with ScriptedEndpoint(scripts) as endpoint:
        early = labscribe("batch", str(course), "--out", str(out), "--nudge", NUDGE)
        assert early.returncode == 2 and "--nudge is for --resume" in early.stderr
        first = labscribe(
            "batch", str(course), "--out", str(out), "--server", langgraph_server.url,
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


def test_a_bare_batch_resume_drafts_the_collapsed_thread_with_what_was_found(
    langgraph_server: LanggraphDev, data: Path, tmp_path: Path
) -> None:
    """Without a nudge, `batch --resume` answers a collapse's interrupt with `ignore`, the
    answer it allows: the thread drafts, and its explorer is not asked again."""
    course = course_of(data, tmp_path, ["ada", "stuck"], {"stuck": MARKER})
    out = tmp_path / "reports"
    scripts = {"explorer": [explorer()], "writer": [text_reply(latex("Drafted as found."))]}
    with ScriptedEndpoint(scripts) as endpoint:
        first = labscribe(
            "batch", str(course), "--out", str(out), "--server", langgraph_server.url,
            "--on-collapse", "ask", *OPTIONS, *flags(endpoint),
        )  # fmt: skip
        assert first.returncode == 3, first.stderr
        asked = endpoint.calls_to("explorer")
        again = labscribe("batch", "--resume", "--out", str(out))
        assert again.returncode == 0, again.stderr
        assert endpoint.calls_to("explorer") == asked
    stuck = Path(entries_by_folder(out)["stuck"]["out"])
    assert (stuck / "report.tex").read_text() == latex("Drafted as found.")
    record = read_record(stuck)
    assert record["status"] == "completed"
    assert record["model_calls"]["explore"] == 5
    assert record["exploration"]["reason"].startswith(DRAFT_CHOSEN)
    assert record["guard"]["halt"]["tool"] == "list_dir"
    resumed = get_sync_client(url=langgraph_server.url).threads.get_state(
        entries_by_folder(out)["stuck"]["thread_id"]
    )
    assert resumed["interrupts"] == [] and resumed["next"] == []
