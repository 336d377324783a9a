"""One halt path: every kind of halt is put to a human the same way, and a nudge given on the
resume reaches the model that runs next, whatever stopped the thread."""

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
from labscribe.graph.runner import run_folder, thread_config
from labscribe.guards.human import DRAFT_CHOSEN
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


def scripts(kind: str) -> tuple[list, list | None, str, str]:
    """(explorer replies, writer replies, the termination the halt records, who reads on),
    fresh for each test: an endpoint fails once per script."""
    return {
        "repeated call": lambda: ([reply(call("list_dir"))] * 5 + [reply(FINISH)], None,
                                  "repeated_call", "explore"),
        "tool failures": lambda: ([reply(call("read_file", path=f"missing_{n}.csv"))
                                   for n in range(5)] + [reply(FINISH)], None, "tool_failures",
                                  "explore"),
        "empty replies": lambda: ([reply()] * 3 + [reply(FINISH)], None, "empty_replies",
                                  "explore"),
        "endpoint, exploring": lambda: ([failing_once(reply(FINISH))], None, "unavailable",
                                        "explore"),
        "endpoint, drafting": lambda: ([reply(FINISH)], [failing_once(reply(content=latex()))],
                                       "unavailable", "write"),
    }[kind]()  # fmt: skip


KINDS = ["repeated call", "tool failures", "empty replies", "endpoint, exploring",
         "endpoint, drafting"]  # fmt: skip
COLLAPSES = [kind for kind in KINDS if not kind.startswith("endpoint")]
ENDPOINT_HALTS = [kind for kind in KINDS if kind.startswith("endpoint")]


def halted(kind: str, data: Path, tmp_path: Path) -> Models:
    """Thread `t`, halted by `kind` and paused for a human; the models that ran it."""
    explore_replies, write_replies, termination, reader = scripts(kind)
    explorer = ScriptedChatModel(replies=explore_replies, by_turn=reader == "explore")
    writer = ScriptedChatModel(replies=write_replies or [reply(content=latex())])
    models = Models(explore=explorer, write=writer)
    context = Context(models=models, on_collapse="ask", reflect=0, compile=False, figures=False)
    first = run_folder(data, out=tmp_path / "out", thread_id="t", context=context)
    assert (first.record["status"], first.exit_code) == ("halted", 3)
    assert first.record["guard"]["halt"]["termination"] == termination
    assert set(first.record["guard"]["halt"]) == {"termination", "kind", "reason", "tool", "args"}
    return models


@pytest.mark.parametrize("kind", KINDS)
def test_a_nudge_reaches_the_model_after_each_kind_of_halt(
    kind: str, data: Path, tmp_path: Path
) -> None:
    models = halted(kind, data, tmp_path)
    second = resume_thread("t", nudge=NUDGE, models=models)
    assert second.record["status"] in ("completed", "degraded")
    model = models.explore if scripts(kind)[3] == "explore" else models.write
    assert any(message.text == NUDGE for message in model.requests[-1])


@pytest.mark.parametrize("kind", COLLAPSES)
def test_a_resume_without_a_nudge_drafts_what_a_collapse_found(
    kind: str, data: Path, tmp_path: Path
) -> None:
    """SPEC section 4: the answer a collapse's interrupt allows, `ignore`; its explorer is
    not asked again."""
    models = halted(kind, data, tmp_path)
    explored = len(models.explore.requests)
    second = resume_thread("t", models=models)
    assert second.record["status"] == "completed"
    assert len(models.explore.requests) == explored
    assert second.record["exploration"]["reason"].startswith(DRAFT_CHOSEN)
    assert len(models.write.requests) == 1


@pytest.mark.parametrize("kind", ENDPOINT_HALTS)
def test_a_resume_without_a_nudge_sends_the_failed_request_again(
    kind: str, data: Path, tmp_path: Path
) -> None:
    """SPEC section 4: the answer an endpoint's halt allows, `accept`: the same request."""
    models = halted(kind, data, tmp_path)
    failed = models.explore if scripts(kind)[3] == "explore" else models.write
    sent = len(failed.requests)
    second = resume_thread("t", models=models)
    assert second.record["status"] == "completed"
    again, before = failed.requests[sent], failed.requests[sent - 1]
    assert [m.content for m in again] == [m.content for m in before]


def test_cli_resume_without_a_nudge_drafts_after_a_collapse(data: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    scripts = {
        "explorer": [tool_reply(("list_dir", {"path": "."}))] * 6,
        "writer": [text_reply(latex("Drafted."))],
    }
    with ScriptedEndpoint(scripts) as server:
        first = labscribe(
            "run", str(data), "--out", str(out), "--thread", "t", "--on-collapse", "ask",
            "--reflect", "0", "--no-compile", *endpoint_flags(server),
        )  # fmt: skip
        assert first.returncode == 3, first.stderr
        done = labscribe("resume", "t")
        assert done.returncode == 0, done.stderr
        assert server.calls_to("explorer") == 5
    record = json.loads((out / "run.json").read_text())
    assert record["status"] == "completed"
    assert record["exploration"]["reason"].startswith(DRAFT_CHOSEN)
    assert (out / "report.tex").read_text() == latex("Drafted.")


def test_an_accept_a_collapse_does_not_allow_drafts_as_ignore_would(
    data: Path, tmp_path: Path
) -> None:
    """A client of the server may answer a collapse with `accept`, which its interrupt does not
    allow: the thread drafts, rather than exploring on at the rung that halted it."""
    models = halted("repeated call", data, tmp_path)
    context = Context(models=models, on_collapse="ask", reflect=0, compile=False, figures=False)
    with open_checkpointer() as saver:
        graph = build_graph(checkpointer=saver)
        answer = [{"type": "accept", "args": None}]
        graph.invoke(Command(resume=answer), thread_config("t", context), context=context)
        values = graph.get_state(thread_config("t", context)).values
    assert len(models.explore.requests) == 5
    assert values["exploration"]["reason"].startswith(DRAFT_CHOSEN)
    assert values["report"] == latex()
