"""A human's nudge on resume: bounded by the explore model's window, sent as valid text, and
refused in one clear message when no model would read it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clirun import endpoint_flags, labscribe
from langgraph.types import Command
from scripted import ScriptedChatModel, call, latex, reply
from scripted_server import ScriptedEndpoint, text_reply, tool_reply

from labscribe.graph.builder import build_graph
from labscribe.graph.checkpoint import open_checkpointer
from labscribe.graph.resume import resume_thread
from labscribe.graph.runner import BadInput, run_folder, thread_config
from labscribe.guards.bounds import estimate_tokens
from labscribe.nodes.runtime.context import Context
from labscribe.nodes.runtime.models import Models

FINISH = ("finish_exploration", {"experiment": "RLC", "goal": "f0", "key_findings": ["5 kHz"]})
WRITER = [text_reply(latex("Nudged report."))]
REPEATS = [tool_reply(("list_dir", {"path": "."}))] * 5  # halts the explorer (--on-collapse ask)


def halted(data: Path, out: Path, server: ScriptedEndpoint) -> None:
    """Thread 't' halted for a human after a collapse, with a 16k-token explore window."""
    done = labscribe("run", str(data), "--out", str(out), "--thread", "t", "--on-collapse",
                     "ask", "--context-tokens", "16384", *endpoint_flags(server))  # fmt: skip
    assert done.returncode == 3, done.stderr


def humans(out: Path) -> list[str]:
    history = json.loads((out / "history.json").read_text())
    return [m["data"]["content"] for m in history if m["type"] == "human"]


def test_cli_resume_refuses_a_nudge_over_its_window_and_sends_nothing(
    data: Path, tmp_path: Path
) -> None:
    nudge = "Read sweep.csv and finish. " * 4_500  # about 120 KB
    with ScriptedEndpoint({"explorer": [*REPEATS, tool_reply(FINISH)], "writer": WRITER}) as server:
        halted(data, tmp_path / "out", server)
        done = labscribe("resume", "t", "--nudge", nudge)
        assert server.calls_to("explorer") == 5
    assert done.returncode == 2, done.stderr
    assert done.stderr == (
        f"labscribe: the nudge is about {estimate_tokens(nudge.strip())} tokens, over the 4096 a "
        "nudge may take (a quarter of the explore model's 16384-token context window): "
        "shorten it\n"
    )
    status = json.loads(labscribe("status", "t").stdout)
    assert status["state"] == "interrupted"  # nothing spent: the thread waits as it was


def test_cli_resume_sends_a_nudge_that_is_not_utf8_as_valid_text(
    data: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    with ScriptedEndpoint({"explorer": [*REPEATS, tool_reply(FINISH)], "writer": WRITER}) as server:
        halted(data, out, server)
        # A byte that is not UTF-8 on the command line reaches Python as a lone surrogate.
        done = labscribe("resume", "t", "--nudge", "Read sweep.csv \udcff then finish.")
        assert done.returncode == 0, done.stderr
        assert server.requests[-2]["messages"][-1] == {
            "role": "user", "content": "Read sweep.csv \ufffd then finish."}  # fmt: skip
    assert humans(out)[-1] == "Read sweep.csv \ufffd then finish."


@pytest.mark.parametrize("how", ["finished", "from draft"])
def test_cli_resume_refuses_a_nudge_no_model_would_read(
    data: Path, tmp_path: Path, how: str
) -> None:
    out = tmp_path / "out"
    with ScriptedEndpoint({"explorer": [tool_reply(FINISH)], "writer": WRITER * 2}) as server:
        first = labscribe("run", str(data), "--out", str(out), "--thread", "t",
                          *endpoint_flags(server))  # fmt: skip
        assert first.returncode == 0, first.stderr
        before = (out / "run.json").read_bytes()
        again = ["--from", "draft"] if how == "from draft" else []
        done = labscribe("resume", "t", *again, "--nudge", "Use the notes.")
        assert server.calls_to("writer") == 1
    assert done.returncode == 2, done.stderr
    assert (
        done.stderr
        == {
            "finished": "labscribe: thread 't' is finished, so no explorer will read a nudge: drop "
            "--nudge to write its outputs again, or draft again with --from draft\n",
            "from draft": "labscribe: a nudge cannot be used with --from draft: drafting again "
            "reuses the exploration, and no explorer runs to read it; drop --nudge\n",
        }[how]
    )
    assert (out / "run.json").read_bytes() == before


def test_resume_thread_refuses_a_nudge_over_the_window(data: Path, tmp_path: Path) -> None:
    explorer = ScriptedChatModel(
        replies=[reply(call("list_dir"))] * 5 + [reply(call(*FINISH[:1], **FINISH[1]))]
    )
    models = Models(explore=explorer, write=ScriptedChatModel(replies=[reply(content=latex())]))
    context = Context(models=models, on_collapse="ask", reflect=0, compile=False, figures=False)
    first = run_folder(data, out=tmp_path / "out", thread_id="t", context=context)
    assert first.record["status"] == "halted"
    nudge = "x" * 2_000_000
    with pytest.raises(BadInput, match=r"the nudge is about 666667 tokens, over the 8192 a"):
        resume_thread("t", nudge=nudge, models=models)
    assert len(explorer.requests) == 5


def test_batch_resume_refuses_a_nudge_over_the_window_before_any_run(
    data: Path, tmp_path: Path
) -> None:
    out = tmp_path / "batch"
    first = labscribe("batch", str(data), "--out", str(out), "--no-model", "--no-compile",
                      "--no-figures", "--context-tokens", "16384")  # fmt: skip
    assert first.returncode == 0, first.stderr
    manifest = (out / "batch.json").read_bytes()
    nudge = "Read sweep.csv and finish. " * 4_500
    done = labscribe("batch", "--out", str(out), "--resume", "--nudge", nudge)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("labscribe: the nudge is about ")
    assert "over the 4096 a nudge may take" in done.stderr
    assert (out / "batch.json").read_bytes() == manifest


def test_an_answer_over_the_window_from_agent_inbox_is_cut_to_it(
    data: Path, tmp_path: Path
) -> None:
    explorer = ScriptedChatModel(
        replies=[reply(call("list_dir"))] * 5 + [reply(call(*FINISH[:1], **FINISH[1]))]
    )
    models = Models(explore=explorer, write=ScriptedChatModel(replies=[reply(content=latex())]))
    context = Context(models=models, on_collapse="ask", reflect=0, compile=False, figures=False,
                      context_tokens=16384)  # fmt: skip
    assert run_folder(data, out=tmp_path / "out", thread_id="t", context=context).exit_code == 3
    answer = [{"type": "response", "args": "Read notes.md \udcff. " * 200_000}]
    with open_checkpointer() as saver:
        graph = build_graph(checkpointer=saver)
        graph.invoke(Command(resume=answer), thread_config("t", context), context=context)
    nudge = explorer.requests[-1][-1].text
    assert nudge.startswith("Read notes.md \ufffd. Read notes.md \ufffd.")
    assert nudge.endswith(" [the rest of this nudge was cut: a nudge may take 4096 tokens]")
    assert estimate_tokens(nudge) <= 4096
