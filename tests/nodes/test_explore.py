from pathlib import Path

from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from scripted import ScriptedChatModel, call, reply

from labscribe.guards.budgets import MAX_CALLS_PER_REPLY
from labscribe.nodes.explore import fit_history


def round_of(n: int, size: int) -> list:
    ai = AIMessage(content="", tool_calls=[{"name": "read_file", "args": {"n": n}, "id": f"c{n}"}])
    return [ai, ToolMessage("x" * size, tool_call_id=f"c{n}", name="read_file")]


def test_fit_history_keeps_the_brief_and_the_newest_whole_rounds() -> None:
    brief = HumanMessage("scan summary")
    history = [brief, *round_of(1, 9000), *round_of(2, 9000), *round_of(3, 9000)]
    kept = fit_history(history, window=2_000 + 2 * 3_100)
    assert kept[0] is brief
    assert [m.tool_call_id for m in kept if isinstance(m, ToolMessage)] == ["c2", "c3"]
    assert all(
        isinstance(a, AIMessage) and isinstance(t, ToolMessage)
        for a, t in zip(kept[1::2], kept[2::2], strict=True)
    )


def test_fit_history_keeps_everything_that_fits() -> None:
    history = [HumanMessage("brief"), *round_of(1, 10), *round_of(2, 10)]
    assert fit_history(history, window=100_000) == history


def test_explore_answers_calls_beyond_the_per_reply_limit_unexecuted(data: Path, run) -> None:
    (data / "long.txt").write_text("line\n" * 100)
    many = [call("read_file", path="long.txt", offset=n) for n in range(MAX_CALLS_PER_REPLY + 3)]
    finish = call("finish_exploration", experiment="x", goal="y", key_findings=["z"])
    result = run(data, ScriptedChatModel(replies=[reply(*many), reply(finish)]))
    assert result.record["tool_calls"] == MAX_CALLS_PER_REPLY + 1
    assert result.record["status"] == "completed"


def test_explore_gives_id_less_calls_an_id(data: Path, run) -> None:
    finish = call("finish_exploration", experiment="x", goal="y", key_findings=["z"])

    class DropsIds(ScriptedChatModel):
        def _generate(self, messages, stop=None, **kwargs):
            result = super()._generate(messages, stop, **kwargs)
            message = result.generations[0].message
            if len(self.requests) == 1:
                message.tool_calls[0]["id"] = ""
            return result

    explorer = DropsIds(replies=[reply(call("list_dir")), reply(finish)])
    result = run(data, explorer)
    assert result.record["status"] == "completed"
    answered = [m for m in explorer.requests[1] if isinstance(m, ToolMessage)]
    assert answered[0].status == "success"
    assert answered[0].tool_call_id.startswith("call_")
