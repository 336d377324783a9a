"""Progress inside long stages: a streaming reply's tokens, counted as they come."""

from __future__ import annotations

from typing import Any

import pytest
from langgraph.graph import END, START, StateGraph
from typing_extensions import TypedDict

import labscribe.nodes.runtime.models as models
from labscribe.graph.cli import _progress


class Empty(TypedDict, total=False):
    done: bool


def test_a_streaming_reply_reports_its_tokens_as_progress_events(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(models, "PROGRESS_SECONDS", 0.0)

    def write(state: Empty) -> dict[str, Any]:
        counter = models.TokenProgress("draft")
        for token in ["\\documentclass", "{article}", "\n", "Results"]:
            counter.on_llm_new_token(token)
        return {"done": True}

    graph = StateGraph(Empty)
    graph.add_node("write", write)
    graph.add_edge(START, "write")
    graph.add_edge("write", END)
    events = list(graph.compile().stream({}, stream_mode="custom"))
    assert [(e["event"], e["stage"], e["tokens"]) for e in events] == [
        ("progress", "draft", n) for n in (1, 2, 3, 4)
    ]
    assert events[-1]["detail"] == "writing: 4 tokens so far"
    assert all("time" in e and "elapsed" in e for e in events)


def test_the_progress_bar_shows_progress_lines_off_a_terminal(capsys) -> None:
    show = _progress(as_json=False)
    show({"event": "milestone", "index": 4, "total": 8, "stage": "draft", "detail": "x"})
    show({"event": "progress", "stage": "draft", "detail": "writing: 120 tokens so far"})
    lines = capsys.readouterr().err.splitlines()
    assert lines[-1] == "  ~ draft: writing: 120 tokens so far"
