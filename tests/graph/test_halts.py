"""One halt path: every kind of halt is put to a human the same way, and a nudge given on the
resume reaches the model that runs next, whatever stopped the thread."""

from __future__ import annotations

from pathlib import Path

import pytest
from scripted import ScriptedChatModel, call, latex, reply

from labscribe.graph.resume import resume_thread
from labscribe.graph.runner import run_folder
from labscribe.nodes.runtime.context import Context
from labscribe.nodes.runtime.models import Models

FINISH = call("finish_exploration", experiment="RLC", goal="f0", key_findings=["5 kHz"])
NUDGE = "Read notes.md, then finish."


class Unavailable(Exception):
    status_code = 503


def failing_once(then: object):
    raised = {"done": False}

    def respond(messages: list) -> object:
        if not raised["done"]:
            raised["done"] = True
            raise Unavailable("503 service unavailable")
        return then

    return respond


# kind: (explorer replies, writer replies, the termination the halt records, who reads on)
KINDS = {
    "repeated call": ([reply(call("list_dir"))] * 5 + [reply(FINISH)], None, "repeated_call",
                      "explore"),
    "tool failures": ([reply(call("read_file", path=f"missing_{n}.csv")) for n in range(5)]
                      + [reply(FINISH)], None, "tool_failures", "explore"),
    "empty replies": ([reply()] * 3 + [reply(FINISH)], None, "empty_replies", "explore"),
    "endpoint, exploring": ([failing_once(reply(FINISH))], None, "unavailable", "explore"),
    "endpoint, drafting": ([reply(FINISH)], [failing_once(reply(content=latex()))],
                           "unavailable", "write"),
}  # fmt: skip


@pytest.mark.parametrize("kind", KINDS)
def test_a_nudge_reaches_the_model_after_each_kind_of_halt(
    kind: str, data: Path, tmp_path: Path
) -> None:
    explore_replies, write_replies, termination, reader = KINDS[kind]
    explorer = ScriptedChatModel(replies=explore_replies, by_turn=reader == "explore")
    writer = ScriptedChatModel(replies=write_replies or [reply(content=latex())])
    models = Models(explore=explorer, write=writer)
    context = Context(models=models, on_collapse="ask", reflect=0, compile=False, figures=False)
    first = run_folder(data, out=tmp_path / "out", thread_id="t", context=context)
    assert (first.record["status"], first.exit_code) == ("halted", 3)
    assert first.record["guard"]["halt"]["termination"] == termination
    assert set(first.record["guard"]["halt"]) == {"termination", "kind", "reason", "tool", "args"}

    second = resume_thread("t", nudge=NUDGE, models=models)
    assert second.record["status"] in ("completed", "degraded")
    model = explorer if reader == "explore" else writer
    assert any(message.text == NUDGE for message in model.requests[-1])
