"""Halts and resumes in-process: infrastructure faults pause resumably, nothing is lost."""

import json
from pathlib import Path

from scripted import ScriptedChatModel, call, reply

from labscribe.graph.resume import resume_thread
from labscribe.graph.runner import run_folder
from labscribe.nodes.runtime.context import Context
from labscribe.nodes.runtime.models import Models

FINISH = call("finish_exploration", experiment="RLC", goal="f0", key_findings=["5 kHz"])


class AuthenticationError(Exception):
    status_code = 401


class OutOfDisk(Exception):
    pass


def failing_once(exc: Exception, then):
    state = {"raised": False}

    def respond(messages):
        if not state["raised"]:
            state["raised"] = True
            raise exc
        return then

    return respond


def test_authentication_failure_halts_resumably_and_resume_completes(
    data: Path, tmp_path: Path, writer
) -> None:
    explorer = ScriptedChatModel(
        replies=[
            reply(call("read_file", path="notes.md")),
            failing_once(AuthenticationError("401 invalid api key"), reply(FINISH)),
        ],
        by_turn=True,
    )
    models = Models(explore=explorer, write=writer)
    out = tmp_path / "out"
    first = run_folder(data, out=out, thread_id="t-auth", context=Context(models=models))
    assert first.exit_code == 3
    assert first.record["status"] == "halted"
    halt = first.record["guard"]["halt"]
    assert halt["kind"] == "infrastructure"
    assert halt["termination"] == "authentication"
    assert "401 invalid api key" in first.record["reason"]
    assert not (out / "report.tex").exists()

    second = resume_thread("t-auth", models=models)
    assert second.exit_code == 0
    assert second.record["status"] == "completed"
    assert second.record["model_calls"]["explore"] == 2
    assert second.record["tool_calls"] == 2
    history = json.loads((out / "history.json").read_text())
    assert [m["type"] for m in history] == ["human", "ai", "tool", "ai", "tool"]


def test_resume_with_a_nudge_after_a_crash_reaches_the_explorer(
    data: Path, tmp_path: Path, writer
) -> None:
    explorer = ScriptedChatModel(
        replies=[
            reply(call("list_dir")),
            failing_once(OutOfDisk("boom"), reply(FINISH)),
        ],
        by_turn=True,
    )
    models = Models(explore=explorer, write=writer)
    first = run_folder(
        data, out=tmp_path / "out", thread_id="t-crash", context=Context(models=models)
    )
    assert first.record["status"] == "failed"
    assert first.exit_code == 1
    assert first.record["reason"] == "OutOfDisk: boom"
    assert "OutOfDisk" in first.record["traceback"]

    second = resume_thread("t-crash", nudge="Look at sweep.csv first.", models=models)
    assert second.record["status"] == "completed"
    assert explorer.requests[-1][-1].text == "Look at sweep.csv first."


def test_resume_after_the_nudge_restarts_the_ladder(data: Path, tmp_path: Path, writer) -> None:
    same = reply(call("list_dir"))
    explorer = ScriptedChatModel(replies=[same] * 5 + [same] * 2 + [reply(FINISH)], by_turn=True)
    models = Models(explore=explorer, write=writer)
    context = Context(models=models, on_collapse="ask")
    first = run_folder(data, out=tmp_path / "out", thread_id="t-ask", context=context)
    assert first.record["status"] == "halted"
    second = resume_thread("t-ask", nudge="Try once more, then finish.", models=models)
    assert second.record["status"] == "completed"
    # Two more identical list_dir calls after the nudge ran: the counts started over.
    guard = second.record["guard"]
    assert guard["blocked"] == 1
    assert guard["halt"]["reason"] == "list_dir was called 5 times with identical arguments"
