from pathlib import Path

from langchain_core.messages import ToolMessage
from scripted import ScriptedChatModel, call, reply

from labscribe.guards.bounds import MAX_CALLS_PER_REPLY


def test_explore_answers_calls_beyond_the_per_reply_limit_unexecuted(data: Path, run) -> None:
    (data / "long.txt").write_text("line\n" * 100)
    pages = range(0, 5 * (MAX_CALLS_PER_REPLY + 3), 5)
    many = [call("read_file", path="long.txt", offset=n, limit=5) for n in pages]
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
