"""Provider faults over real HTTP: the real CLI and the real ChatOpenAI client against a
scripted OpenAI-compatible server on loopback."""

from __future__ import annotations

from pathlib import Path

import pytest
from clirun import endpoint_flags, labscribe, read_record, tool_events, tool_results
from scripted import latex
from scripted_server import Fail, Hang, ScriptedEndpoint, text_reply, tool_reply

FINISH = ("finish_exploration", {"experiment": "RLC", "goal": "f0", "key_findings": ["5 kHz"]})
LIST = ("list_dir", {"path": "."})
READ = ("read_file", {"path": "notes.md"})
WRITER = [text_reply(latex("Report."))]


@pytest.fixture
def fast_client(monkeypatch: pytest.MonkeyPatch) -> None:
    """One retry and a one-second request timeout, so fault tests stay quick."""
    monkeypatch.setenv("LABSCRIBE_MAX_RETRIES", "1")
    monkeypatch.setenv("LABSCRIBE_REQUEST_TIMEOUT", "1")


def run_cli(data: Path, out: Path, server: ScriptedEndpoint, *extra: str, key: str = "k"):
    return labscribe(
        "run", str(data), "--out", str(out), "--thread", "t", *endpoint_flags(server, key), *extra
    )


def assert_resumed_without_rerunning(out: Path, expected_tools: list[str]) -> None:
    record = read_record(out)
    assert record["status"] == "completed"
    events = tool_events(out)
    assert [e["tool"] for e in events] == expected_tools
    assert len({e["call_id"] for e in events}) == len(events)
    assert [m["tool_call_id"] for m in tool_results(out)] == [e["call_id"] for e in events]


def test_fault_401_halts_then_resume_with_the_fixed_key_completes(
    data: Path, tmp_path: Path
) -> None:
    revoked = Fail(401, times=99, then=tool_reply(FINISH), unless_key="new-key")
    out = tmp_path / "out"
    with ScriptedEndpoint(
        {"explorer": [tool_reply(LIST), tool_reply(READ), revoked], "writer": WRITER}
    ) as server:
        halted = run_cli(data, out, server, key="old-key")
        assert halted.returncode == 3, halted.stderr
        record = read_record(out)
        assert record["status"] == "halted"
        assert record["reason"].startswith(
            "the model endpoint refused the credentials (authentication)"
        )
        assert record["guard"]["halt"]["termination"] == "authentication"
        assert record["guard"]["halt"]["kind"] == "infrastructure"
        assert revoked.seen == 1  # 401 is not retried

        resumed = labscribe("resume", "t", "--api-key", "new-key")
        assert resumed.returncode == 0, resumed.stderr
    assert_resumed_without_rerunning(out, ["list_dir", "read_file", "finish_exploration"])


@pytest.mark.parametrize("status", [429, 500, 503])
def test_fault_transient_errors_are_retried_then_succeed(
    data: Path, tmp_path: Path, status: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LABSCRIBE_MAX_RETRIES", "2")
    flaky = Fail(status, times=2, then=tool_reply(FINISH))
    out = tmp_path / "out"
    with ScriptedEndpoint({"explorer": [tool_reply(LIST), flaky], "writer": WRITER}) as server:
        done = run_cli(data, out, server)
        assert done.returncode == 0, done.stderr
        assert flaky.seen == 3
    record = read_record(out)
    assert record["status"] == "completed"
    assert record["model_calls"]["explore"] == 2


def test_fault_persistent_outage_halts_then_resumes(
    data: Path, tmp_path: Path, fast_client
) -> None:
    outage = Fail(503, times=99, then=tool_reply(FINISH))
    out = tmp_path / "out"
    with ScriptedEndpoint({"explorer": [tool_reply(LIST), outage], "writer": WRITER}) as server:
        halted = run_cli(data, out, server)
        assert halted.returncode == 3, halted.stderr
        record = read_record(out)
        assert record["guard"]["halt"]["termination"] == "unavailable"
        assert outage.seen == 2  # the request and its one retry
        outage.times = 0  # the service is back
        resumed = labscribe("resume", "t")
        assert resumed.returncode == 0, resumed.stderr
    assert_resumed_without_rerunning(out, ["list_dir", "finish_exploration"])


def test_fault_request_that_never_answers_times_out_retries_then_halts(
    data: Path, tmp_path: Path, fast_client
) -> None:
    silent = Hang(then=tool_reply(FINISH), times=2)
    out = tmp_path / "out"
    with ScriptedEndpoint({"explorer": [tool_reply(LIST), silent], "writer": WRITER}) as server:
        halted = run_cli(data, out, server)
        assert halted.returncode == 3, halted.stderr
        record = read_record(out)
        assert record["guard"]["halt"]["termination"] == "timeout"
        assert silent.held == 2  # timed out, retried once, timed out again
        resumed = labscribe("resume", "t")
        assert resumed.returncode == 0, resumed.stderr
    assert_resumed_without_rerunning(out, ["list_dir", "finish_exploration"])


def test_fault_timeout_then_success_on_retry(data: Path, tmp_path: Path, fast_client) -> None:
    slow_once = Hang(then=tool_reply(FINISH), times=1)
    out = tmp_path / "out"
    with ScriptedEndpoint({"explorer": [tool_reply(LIST), slow_once], "writer": WRITER}) as server:
        done = run_cli(data, out, server)
        assert done.returncode == 0, done.stderr
    assert read_record(out)["status"] == "completed"


def test_fault_length_on_a_tool_call_turn_ends_exploration(data: Path, tmp_path: Path) -> None:
    truncated = tool_reply(("read_file", '{"path": "notes'), finish_reason="length")
    out = tmp_path / "out"
    with ScriptedEndpoint({"explorer": [tool_reply(LIST), truncated], "writer": WRITER}) as server:
        done = run_cli(data, out, server)
    assert done.returncode == 0, done.stderr
    record = read_record(out)
    assert record["exploration"]["termination"] == "length"
    assert record["status"] == "completed"
    assert tool_results(out)[-1]["content"] == "Not executed: your reply was cut off."


def test_fault_length_while_drafting_is_continued_over_a_stream(data: Path, tmp_path: Path) -> None:
    whole = latex("A report long enough to be cut in the middle of a sentence.")
    writer = [text_reply(whole[:50], finish_reason="length"), text_reply(whole[50:])]
    out = tmp_path / "out"
    with ScriptedEndpoint({"explorer": [tool_reply(FINISH)], "writer": writer}) as server:
        done = run_cli(data, out, server)
        assert all(r["stream"] for r in server.requests if r["model"] == "writer")
    assert done.returncode == 0, done.stderr
    assert (out / "report.tex").read_text() == whole
    record = read_record(out)
    assert record["model_calls"]["write"] == 2
    assert record["tokens_by_role"]["write"] == {"input": 200, "output": 40}


def test_fault_invalid_calls_and_empty_reply_are_answered(data: Path, tmp_path: Path) -> None:
    script = [
        tool_reply(("read_file", '["notes.md"]'), ("conjure", {"x": 1}), LIST, READ),
        text_reply(None),
        tool_reply(FINISH),
    ]
    out = tmp_path / "out"
    with ScriptedEndpoint({"explorer": script, "writer": WRITER}) as server:
        done = run_cli(data, out, server)
        # Every call of the first reply was answered, in order, before the next request.
        second = server.requests[1]["messages"]
        calls = [c["id"] for c in second[-5]["tool_calls"]]
        answered = [m["tool_call_id"] for m in second[-4:]]
    assert done.returncode == 0, done.stderr
    assert sorted(calls) == sorted(answered)
    results = tool_results(out)
    conjure = next(m for m in results if m["name"] == "conjure")
    assert conjure["content"].startswith("Error: 'conjure' is not a valid tool")
    reads = sorted((m["status"], m["content"][:51]) for m in results if m["name"] == "read_file")
    assert reads[0] == ("error", "Error: the arguments of read_file could not be used")
    assert reads[1][0] == "success"
    assert "Your reply was empty" in (out / "history.json").read_text()
    record = read_record(out)
    assert record["status"] == "completed"
    assert record["model_calls"]["explore"] == 3


def test_fault_tool_markup_in_drafting_degrades_after_retries(data: Path, tmp_path: Path) -> None:
    leak = [
        text_reply("<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>read_file")
    ]
    out = tmp_path / "out"
    with ScriptedEndpoint({"explorer": [tool_reply(FINISH)], "writer": leak}) as server:
        done = run_cli(data, out, server)
        assert server.calls_to("writer") == 4
    assert done.returncode == 0
    record = read_record(out)
    assert record["status"] == "degraded"
    assert record["degraded"][0].startswith("drafting failed 4 times")


def test_fault_model_changing_its_mind_keeps_the_counts(data: Path, tmp_path: Path) -> None:
    script = [tool_reply(READ)] * 3 + [tool_reply(LIST), tool_reply(READ), tool_reply(FINISH)]
    out = tmp_path / "out"
    with ScriptedEndpoint({"explorer": script, "writer": WRITER}) as server:
        done = run_cli(data, out, server)
    assert done.returncode == 0, done.stderr
    guard = read_record(out)["guard"]
    # The 4th identical read, after a different call in between, is still the 4th: blocked.
    assert (guard["warned"], guard["blocked"], guard["halted"]) == (1, 1, False)
    assert [e["guard"] for e in tool_events(out)] == [
        "allow",
        "allow",
        "warn",
        "allow",
        "block",
        "allow",
    ]
