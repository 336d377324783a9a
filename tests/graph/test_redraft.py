"""Draft a finished thread again with another write model: a fork at the checkpoint before
drafting, so exploration is not repeated and the first draft stays in the history."""

from __future__ import annotations

from pathlib import Path

import pytest
from clirun import endpoint_flags, labscribe, read_record
from scripted import ScriptedChatModel, call, latex, reply
from scripted_server import ScriptedEndpoint, text_reply, tool_reply

from labscribe.graph import Context, Models, build_graph
from labscribe.graph.checkpoint import open_checkpointer
from labscribe.graph.resume import resume_thread
from labscribe.graph.runner import BadInput, run_folder

FINISH = call("finish_exploration", experiment="RLC", goal="f0", key_findings=["f0"])


def test_a_degraded_thread_drafts_again_with_another_model_and_keeps_its_history(
    data: Path, tmp_path: Path
) -> None:
    explorer = ScriptedChatModel(replies=[reply(call("read_file", path="notes.md")), reply(FINISH)])
    weak = ScriptedChatModel(replies=[reply(content="no LaTeX here")])
    context = Context(models=Models(explore=explorer, write=weak), reflect=0, compile=False,
                      figures=False)  # fmt: skip
    first = run_folder(data, out=tmp_path / "out", thread_id="t", context=context)
    assert first.record["status"] == "degraded"
    explored = len(explorer.requests)

    strong = ScriptedChatModel(replies=[reply(content=latex("The second draft."))])
    second = resume_thread(
        "t", models=Models(explore=explorer, write=strong), from_stage="draft",
        out=tmp_path / "second",
    )  # fmt: skip
    assert second.record["status"] == "completed"
    assert (tmp_path / "second" / "report.tex").read_text() == latex("The second draft.")
    assert len(explorer.requests) == explored  # exploration was not repeated
    assert "Resonance near 5 kHz" in strong.requests[0][-1].text  # it drafted from what was read
    assert second.record["tool_calls"] == first.record["tool_calls"]
    assert (tmp_path / "out" / "report.tex").read_text() != latex("The second draft.")
    with open_checkpointer(None) as saver:
        history = list(build_graph(checkpointer=saver).get_state_history(
            {"configurable": {"thread_id": "t"}}))  # fmt: skip
    reports = {snapshot.values.get("report") for snapshot in history}
    assert latex("The second draft.") in reports
    assert any(r and "no LaTeX" not in r and "second draft" not in r for r in reports)


def test_redraft_refuses_a_thread_that_is_not_finished(data: Path, tmp_path: Path, writer) -> None:
    loop = reply(call("list_dir"))
    explorer = ScriptedChatModel(replies=[loop] * 10)
    context = Context(models=Models(explore=explorer, write=writer), on_collapse="ask",
                      reflect=0, compile=False, figures=False)  # fmt: skip
    assert (
        run_folder(data, out=tmp_path / "out", thread_id="h", context=context).record["status"]
        == "halted"
    )
    with pytest.raises(BadInput, match="--from draft drafts a finished thread again"):
        resume_thread("h", from_stage="draft", models=Models(explore=explorer, write=writer))


def test_the_cli_drafts_again_with_another_write_model(data: Path, tmp_path: Path) -> None:
    out, db = tmp_path / "out", str(tmp_path / "db.sqlite")
    finish = ("finish_exploration", {"experiment": "x", "goal": "y", "key_findings": ["z"]})
    script = {"explorer": [tool_reply(finish)], "writer": [text_reply("not a report")] * 4,
              "better": [text_reply(latex("Better model."))]}  # fmt: skip
    with ScriptedEndpoint(script) as server:
        first = labscribe("run", str(data), "--out", str(out), "--thread", "c", "--db", db,
                          *endpoint_flags(server))  # fmt: skip
        assert first.returncode == 0 and read_record(out)["status"] == "degraded"
        again = labscribe("resume", "c", "--db", db, "--from", "draft", "--write-model", "better")
    assert again.returncode == 0, again.stderr
    assert (out / "report.tex").read_text() == latex("Better model.")
    assert read_record(out)["status"] == "completed"
    assert [r["model"] for r in server.requests].count("explorer") == 1
