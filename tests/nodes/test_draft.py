import json
from pathlib import Path

import pytest
from clirun import read_events
from scripted import ScriptedChatModel, call, latex, reply

from labscribe.guards.output import latex_problems
from labscribe.nodes.draft import STRENGTHENED_RETRIES
from labscribe.nodes.reflect import FALLBACK_NOT_REVISED

FINISH = call(
    "finish_exploration",
    experiment="Series RLC resonance",
    goal="Measure f0 & Q",
    key_findings=["f0 = 5.03 kHz (sweep.csv)", "Q ≈ 5.4, 50% duty_cycle"],
)

LEAKS = [
    '<｜DSML｜function_calls><｜DSML｜invoke name="read_file">',
    "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>read_file",
    '{"tool_calls": [{"name": "read_file"}]}',
    '<tool_call>{"name": "read_file"}</tool_call>',
]


@pytest.mark.parametrize("leak", LEAKS)
def test_draft_with_tool_markup_retries_3_times_then_degrades(data: Path, run, leak: str) -> None:
    writer = ScriptedChatModel(replies=[reply(content=latex(leak))])
    result = run(data, ScriptedChatModel(replies=[reply(FINISH)]), write=writer)
    assert len(writer.requests) == 1 + STRENGTHENED_RETRIES == 4
    assert "You have no tools" in writer.requests[1][-1].text
    assert result.record["status"] == "degraded"
    assert result.record["degraded"][0].startswith("drafting failed 4 times (it contains tool-call")
    report = (result.out / "report.tex").read_text()
    assert latex_problems(report) == []
    assert "Series RLC resonance" in report
    assert "Measure f0 \\& Q" in report
    assert result.exit_code == 0


def test_a_fallback_report_is_not_revised_and_its_rounds_are_skipped(data: Path, run) -> None:
    writer = ScriptedChatModel(replies=[reply(content="Sorry, I cannot write LaTeX.")])
    result = run(data, ScriptedChatModel(replies=[reply(FINISH)]), write=writer, reflect=2)
    assert len(writer.requests) == 1 + STRENGTHENED_RETRIES  # the drafts; no critic, no reviser
    assert result.record["status"] == "degraded"
    assert result.record["skipped"] == {"reflect": FALLBACK_NOT_REVISED}
    assert result.record["reflection"] == {"rounds": 2, "converged": True}
    events = read_events(result.out)
    rounds = [e for e in events if e["event"] == "milestone" and e["stage"] == "reflect"]
    assert [e["skipped"] for e in rounds] == [True, True]
    plan = result.record["plan"]
    assert [e["index"] for e in rounds] == [i for i, s in enumerate(plan, 1) if s == "reflect"]
    assert "reflect" not in result.record["stages"]
    assert events[-1]["event"] == "end" and events[-1]["index"] == events[-1]["total"]


def test_draft_retry_that_succeeds_is_not_degraded(data: Path, run) -> None:
    writer = ScriptedChatModel(
        replies=[reply(content="<think>hmm</think> no latex"), reply(content=latex("Good."))]
    )
    result = run(data, ScriptedChatModel(replies=[reply(FINISH)]), write=writer)
    assert len(writer.requests) == 2
    assert result.record["status"] == "completed"
    assert (result.out / "report.tex").read_text() == latex("Good.")


def test_draft_cut_at_length_is_continued_not_accepted(data: Path, run) -> None:
    whole = latex("A long body.")
    writer = ScriptedChatModel(
        replies=[reply(content=whole[:30], finish_reason="length"), reply(content=whole[30:])]
    )
    result = run(data, ScriptedChatModel(replies=[reply(FINISH)]), write=writer)
    assert len(writer.requests) == 2
    assert "Continue exactly where it stopped" in writer.requests[1][-1].text
    assert (result.out / "report.tex").read_text() == whole
    assert result.record["model_calls"]["write"] == 2


def test_draft_brief_carries_findings_and_material(data: Path, run, writer) -> None:
    explorer = ScriptedChatModel(replies=[reply(call("read_file", path="notes.md")), reply(FINISH)])
    run(data, explorer)
    brief = writer.requests[0][-1].text
    assert "f0 = 5.03 kHz (sweep.csv)" in brief
    assert "Resonance near 5 kHz." in brief
    assert "the explorer called finish_exploration" in brief


def test_history_json_is_the_whole_explorer_history(data: Path, run) -> None:
    explorer = ScriptedChatModel(replies=[reply(call("list_dir")), reply(FINISH)])
    result = run(data, explorer)
    history = json.loads((result.out / "history.json").read_text())
    assert [m["type"] for m in history] == ["human", "ai", "tool", "ai", "tool"]


def test_draft_looping_reply_is_not_continued(data: Path, run) -> None:
    loop = "\\documentclass{article}\n" + "\n".join(
        ["We read the data:", '"We read the data:'] * 80
    )
    writer = ScriptedChatModel(replies=[reply(content=loop, finish_reason="length")])
    result = run(data, ScriptedChatModel(replies=[reply(FINISH)]), write=writer)
    assert len(writer.requests) == 1 + STRENGTHENED_RETRIES  # no continuation of a loop
    assert result.record["status"] == "degraded"
    assert "it keeps repeating the same text" in result.record["degraded"][0]
