"""Threads across processes, on SQLite and on PostgreSQL: a run killed mid-exploration is
resumed by another process, and a second worker is refused while the first runs."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

from clirun import endpoint_flags, labscribe, read_events, read_record, start
from scripted import ScriptedChatModel, call, latex, reply
from scripted_server import Hang, ScriptedEndpoint, text_reply, tool_reply

from labscribe.graph.checkpoint import ThreadBusy, hold_thread, open_checkpointer, thread_ids
from labscribe.graph.resume import resume_thread
from labscribe.nodes.runtime.models import Models

FINISH = ("finish_exploration", {"experiment": "RLC", "goal": "f0", "key_findings": ["5 kHz"]})
WRITER = [text_reply(latex("Worker report."))]


def test_killed_run_resumes_in_another_process_and_a_second_worker_is_refused(
    data: Path, tmp_path: Path, db: str
) -> None:
    hang = Hang(then=tool_reply(FINISH))
    script = [
        tool_reply(("list_dir", {"path": "."})),
        tool_reply(("read_file", {"path": "notes.md"}), ("read_file", {"path": "params.ini"})),
        hang,
    ]
    out = tmp_path / "out"
    with ScriptedEndpoint({"explorer": script, "writer": WRITER}) as server:
        first = start("run", str(data), "--out", str(out), "--thread", "t-kill", "--db", db,
                      *endpoint_flags(server))  # fmt: skip
        assert hang.reached.wait(timeout=60), "the run never reached the third explore turn"

        second = labscribe("resume", "t-kill", "--db", db)
        assert second.returncode == 2, second.stderr
        assert "'t-kill' is being run by another worker" in second.stderr
        assert f"labscribe pid {first.pid}" in second.stderr
        duplicate = labscribe("run", str(data), "--out", str(tmp_path / "dup"), "--thread",
                              "t-kill", "--db", db, *endpoint_flags(server))  # fmt: skip
        assert duplicate.returncode == 2
        assert "being run by another worker" in duplicate.stderr
        assert not (tmp_path / "dup").exists()

        os.kill(first.pid, signal.SIGKILL)
        first.wait(timeout=30)
        hang.release.set()
        before = [e for e in read_events(out) if e["event"] == "tool"]
        assert [e["tool"] for e in before] == ["list_dir", "read_file", "read_file"]

        resumed = labscribe("resume", "t-kill", "--db", db)
        assert resumed.returncode == 0, resumed.stderr
    record = read_record(out)
    assert record["status"] == "completed"
    tools = [e for e in read_events(out) if e["event"] == "tool"]
    call_ids = [e["call_id"] for e in tools]
    assert len(call_ids) == len(set(call_ids)) == 4  # no completed call ran twice
    assert [e["tool"] for e in tools] == [
        "list_dir",
        "read_file",
        "read_file",
        "finish_exploration",
    ]
    history = json.loads((out / "history.json").read_text())
    assert [m["data"]["tool_call_id"] for m in history if m["type"] == "tool"] == call_ids
    assert record["tool_calls"] == 4
    assert "t-kill\tfinished" in labscribe("threads", "--db", db).stdout


def test_python_api_runs_and_resumes_on_the_given_database(data: Path, run, db: str) -> None:
    again = reply(call("list_dir", path="."))
    finish = reply(call("finish_exploration", experiment="RLC", goal="f0", key_findings=["x"]))
    explorer = ScriptedChatModel(replies=[again] * 5 + [finish])
    halted = run(data, explorer, db=db, on_collapse="ask")
    assert halted.record["status"] == "halted"
    with open_checkpointer(db) as saver:
        assert thread_ids(saver) == [halted.thread_id]

    writer = ScriptedChatModel(replies=[reply(content=latex("Resumed."))])
    done = resume_thread(
        halted.thread_id, nudge="Finish now.", db=db, models=Models(explore=explorer, write=writer)
    )
    assert done.record["status"] == "completed"
    assert len(explorer.requests) == 6


def test_a_lease_is_refused_while_held_and_free_once_released(db: str) -> None:
    with hold_thread(db, "t-lease"):
        try:
            with hold_thread(db, "t-lease"):
                raise AssertionError("a second lease on a held thread was granted")
        except ThreadBusy as busy:
            assert f"labscribe pid {os.getpid()}" in str(busy)
        with hold_thread(db, "t-other"):
            pass  # other threads are not held up
    with hold_thread(db, "t-lease"):
        pass
