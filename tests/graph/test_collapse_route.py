"""A collapse goes straight to drafting, by an edge of its own: figures and gap, which would
spend the write model on a collapsed run, are passed and marked skipped."""

from __future__ import annotations

import json
from pathlib import Path

from scripted import ScriptedChatModel, call, latex, reply

from labscribe.graph.builder import build_graph

LOOP = reply(call("read_file", path="notes.md"))


def events(result) -> list[dict]:
    return [json.loads(line) for line in (result.out / "events.jsonl").read_text().splitlines()]


def test_the_graph_draws_the_collapse_as_its_own_edge_into_draft() -> None:
    edges = {(e.source, e.target, e.data) for e in build_graph().get_graph().edges}
    assert ("explore_collapsed", "draft", None) in edges
    for node in ("explore", "call_tool", "await_human"):
        assert (node, "explore_collapsed", "collapse") in edges
        assert (node, "explore_done", "leave") in edges
    assert ("explore_done", "figures", None) in edges
    assert not {(s, t) for s, t, _ in edges if s == "explore_collapsed"} - {
        ("explore_collapsed", "draft")
    }


def test_a_collapse_skips_figures_and_gap_and_still_reaches_100_percent(data: Path, run) -> None:
    writer = ScriptedChatModel(replies=[reply(content=latex("Drafted after the collapse."))])
    result = run(data, ScriptedChatModel(replies=[LOOP]), write=writer, figures=True)
    assert len(writer.requests) == 1  # the draft only: no figures request, no gap request
    assert result.record["plan"] == ["scan", "explore", "figures", "gap", "draft", "bib"]
    milestones = [e for e in events(result) if e["event"] == "milestone"]
    assert [(e["index"], e["stage"], e.get("skipped", False)) for e in milestones] == [
        (1, "scan", False),
        (2, "explore", False),
        (3, "figures", True),
        (4, "gap", True),
        (5, "draft", False),
        (6, "bib", False),
    ]
    assert milestones[2]["detail"] == "skipped: the exploration collapsed, so drafting came next"
    assert result.record["skipped"] == dict.fromkeys(("figures", "gap"), milestones[2]["detail"])
    end = events(result)[-1]
    assert (end["index"], end["total"]) == (6, 6)
    assert result.record["stages"] == ["scan", "explore", "draft", "bib"]
    assert result.record["exploration"]["termination"] == "repeated_call"
    assert result.record["status"] == "completed"


def test_a_finished_exploration_still_goes_through_figures_and_gap(data: Path, run) -> None:
    finish = call("finish_exploration", experiment="x", goal="y", key_findings=["z"],
                  requirements="a plot of the sweep")  # fmt: skip
    writer = ScriptedChatModel(
        replies=[reply(content="[]"), reply(content="NONE"), reply(content=latex("Report."))]
    )
    result = run(data, ScriptedChatModel(replies=[reply(finish)]), write=writer, figures=True)
    assert result.record["stages"] == ["scan", "explore", "figures", "gap", "draft", "bib"]
    assert len(writer.requests) == 3
