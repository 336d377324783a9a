"""Endpoints that misbehave, over real HTTP: the real CLI and client against a scripted
OpenAI-compatible server. Whatever comes back, a run ends as SPEC section 7 promises: a
fault is a halt (exit 3) that resumes, never a traceback, and odd text is made valid."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from clirun import endpoint_flags, labscribe, read_record, tool_results
from scripted import latex
from scripted_server import Raw, ScriptedEndpoint, text_reply, tool_reply

FINISH = ("finish_exploration", {"experiment": "RLC", "goal": "f0", "key_findings": ["5 kHz"]})
WRITER = [text_reply(latex("Report."))]


@pytest.fixture(autouse=True)
def quick_client(monkeypatch: pytest.MonkeyPatch) -> None:
    """No retries, a 2 s read timeout and a 4 s deadline per reply: faults show at once."""
    monkeypatch.setenv("LABSCRIBE_MAX_RETRIES", "0")
    monkeypatch.setenv("LABSCRIBE_REQUEST_TIMEOUT", "2")
    monkeypatch.setenv("LABSCRIBE_REPLY_DEADLINE", "4")


def run(data: Path, out: Path, server: ScriptedEndpoint, *extra: str):
    flags = ["--out", str(out), "--thread", "t", *endpoint_flags(server), *extra]
    return labscribe("run", str(data), *flags)


def completion(message: object) -> bytes:
    choice = {"index": 0, "message": message, "finish_reason": "stop"}
    return json.dumps({"id": "c", "object": "chat.completion", "choices": [choice]}).encode()


def event(delta: dict) -> bytes:
    chunk = {"id": "c", "object": "chat.completion.chunk", "created": 0, "model": "writer",
             "choices": [{"index": 0, "delta": delta, "finish_reason": None}]}  # fmt: skip
    return b"data: " + json.dumps(chunk).encode() + b"\n\n"


def trickle(send) -> None:
    for _ in range(60):  # a byte a second: each read is quick, the reply never ends
        send(b" ")
        time.sleep(1)


def endless(send) -> None:
    send(event({"role": "assistant", "content": ""}))
    for _ in range(100_000):
        send(event({"content": "and so on "}))
        time.sleep(0.01)


# 1. answers that are not chat completions -------------------------------------------------

NOT_COMPLETIONS = {
    "an HTML login page": (Raw(b"<html><body>Please log in</body></html>", kind="text/html"),
                           "Please log in"),
    "an empty object": (Raw(b"{}"), "not a chat completion"),
    "no choices": (Raw(b'{"id": "c", "object": "chat.completion"}'), '"object"'),
    "a null message": (Raw(completion(None)), '"message": null'),
    "an error object with status 200": (
        Raw(b'{"error": {"message": "quota exhausted"}}'), "quota exhausted"),
    "JSON that does not parse": (Raw(b'{"choices": [{"message": '), '{"choices"'),
    "a redirect to a login page": (Raw(b"", status=302, headers={"location": "/login"}), "302"),
    "content that is a number": (Raw(completion({"role": "assistant", "content": 5})),
                                 '"content": 5'),
    "an empty body": (Raw(b""), "not a chat completion"),
}  # fmt: skip


@pytest.mark.parametrize("kind", list(NOT_COMPLETIONS))
def test_an_answer_that_is_not_a_completion_halts_and_resumes(
    data: Path, tmp_path: Path, kind: str
) -> None:
    raw, shown = NOT_COMPLETIONS[kind]
    raw.times, raw.then = 1, tool_reply(FINISH)
    out = tmp_path / "out"
    with ScriptedEndpoint({"explorer": [raw], "writer": WRITER}) as server:
        halted = run(data, out, server)
        assert halted.returncode == 3, halted.stderr
        assert "Traceback" not in halted.stderr
        record = read_record(out)
        assert record["status"] == "halted"
        assert record["guard"]["halt"]["termination"] == "bad_answer"
        assert record["guard"]["halt"]["kind"] == "infrastructure"
        assert shown in record["reason"] and len(record["reason"]) <= 500
        resumed = labscribe("resume", "t")
    assert resumed.returncode == 0, resumed.stderr
    assert read_record(out)["status"] == "completed"


def test_a_stream_of_garbage_halts_the_draft_and_resumes(data: Path, tmp_path: Path) -> None:
    garbage = Raw(b"data: {not json\n\ndata: [DONE]\n\n", kind="text/event-stream", times=1,
                  then=WRITER[0])  # fmt: skip
    out = tmp_path / "out"
    with ScriptedEndpoint({"explorer": [tool_reply(FINISH)], "writer": [garbage]}) as server:
        halted = run(data, out, server)
        assert halted.returncode == 3, halted.stderr
        record = read_record(out)
        assert record["guard"]["halt"]["termination"] == "bad_answer"
        assert "{not json" in record["reason"]
        resumed = labscribe("resume", "t")
    assert resumed.returncode == 0, resumed.stderr
    assert (out / "report.tex").read_text() == latex("Report.")


def chunk(delta: object) -> dict:
    return {"id": "c", "object": "chat.completion.chunk",
            "choices": [{"index": 0, "delta": delta, "finish_reason": None}]}  # fmt: skip


BAD_STREAMS = {
    "an event that is null": b"data: null\n\ndata: [DONE]\n\n",
    "an event that is a list": b"data: []\n\ndata: [DONE]\n\n",
    "content that is a number": b"data: " + json.dumps(chunk({"content": 5})).encode() + b"\n\n",
    "a stream with no chunk": b"",
    "an error event": b'event: error\ndata: {"error": {"message": "boom"}}\n\n',
}


@pytest.mark.parametrize("kind", list(BAD_STREAMS))
def test_a_stream_that_is_not_one_of_completion_chunks_halts(
    data: Path, tmp_path: Path, kind: str
) -> None:
    bad = Raw(BAD_STREAMS[kind], kind="text/event-stream")
    out = tmp_path / "out"
    with ScriptedEndpoint({"explorer": [tool_reply(FINISH)], "writer": [bad]}) as server:
        halted = run(data, out, server)
    assert halted.returncode == 3, halted.stderr
    assert read_record(out)["guard"]["halt"]["termination"] == "bad_answer"


def test_arguments_sent_as_an_object_are_taken_as_their_json(data: Path, tmp_path: Path) -> None:
    call = {"id": "a", "type": "function",
            "function": {"name": "read_file", "arguments": {"path": "notes.md"}}}  # fmt: skip
    as_object = Raw(completion({"role": "assistant", "content": None, "tool_calls": [call]}))
    out = tmp_path / "out"
    with ScriptedEndpoint({"explorer": [as_object, tool_reply(FINISH)],
                           "writer": WRITER}) as server:  # fmt: skip
        done = run(data, out, server)
    assert done.returncode == 0, done.stderr
    assert tool_results(out)[0]["status"] == "success"


# 2. replies that never end ----------------------------------------------------------------


@pytest.mark.parametrize("where", ["a trickled answer", "an endless stream"])
def test_a_reply_past_its_deadline_is_a_timeout(data: Path, tmp_path: Path, where: str) -> None:
    explorer: list = [tool_reply(FINISH)]
    writer: list = WRITER
    if where == "a trickled answer":
        explorer = [Raw(write=trickle)]
    else:
        writer = [Raw(write=endless, kind="text/event-stream")]
    out = tmp_path / "out"
    started = time.monotonic()
    with ScriptedEndpoint({"explorer": explorer, "writer": writer}) as server:
        halted = run(data, out, server)
    assert time.monotonic() - started < 45  # the deadline is 4 s; a hang would be 60 s or more
    assert halted.returncode == 3, halted.stderr
    record = read_record(out)
    assert record["guard"]["halt"]["termination"] == "timeout"
    assert "deadline of 4 s" in record["reason"]


# 3. text that is not valid ----------------------------------------------------------------

SURROGATES = (
    b'{"id": "c", "object": "chat.completion", "choices": [{"index": 0, "finish_reason": '
    b'"tool_calls", "message": {"role": "assistant", "content": "odd \\ud800 text", '
    b'"tool_calls": [{"id": "a", "type": "function", "function": {"name": "read_file", '
    b'"arguments": "{\\"path\\": \\"notes\\udc00.md\\"}"}}]}}]}'
)


def test_lone_surrogates_and_bytes_that_are_not_utf8_are_replaced(
    data: Path, tmp_path: Path
) -> None:
    not_utf8 = completion({"role": "assistant", "content": "cafe"}).replace(b"cafe", b"caf\xff\xfe")
    # the draft with a raw 0xFF byte and an escaped lone surrogate in its JSON string
    text = json.dumps(latex("Report with a lone BYTE byte and a lone HALF surrogate."))
    content = text.encode().replace(b"BYTE", b"\xff").replace(b"HALF", b"\\ud800")
    stream = event({"role": "assistant", "content": ""}) + event({"content": "@"}).replace(
        b'"@"', content
    )
    writer = Raw(stream + b"data: [DONE]\n\n", kind="text/event-stream")
    out = tmp_path / "out"
    explorer = [Raw(SURROGATES), Raw(not_utf8)]
    with ScriptedEndpoint({"explorer": explorer, "writer": [writer]}) as server:
        done = run(data, out, server)
    assert done.returncode == 0, done.stderr
    assert "notes\ufffd.md" in tool_results(out)[0]["content"]
    said = [m["data"]["content"] for m in json.loads((out / "history.json").read_text())]
    assert "odd \ufffd text" in said and "caf\ufffd\ufffd" in said
    report = (out / "report.tex").read_text(encoding="utf-8")
    assert "lone \ufffd byte and a lone \ufffd surrogate" in report


@pytest.mark.parametrize(
    "call",
    [
        ("read_file", {"path": "\ud800.csv"}),
        ("list_dir", {"path": "\ud800"}),
        ("make_figure", {"code": "print('\ud800')", "name": "\ud800"}),
        ("read_file", {"path": "notes.md", "\ud800": 2}),  # in a key: no checkpoint took it
    ],
)
def test_a_surrogate_escaped_in_a_calls_arguments_is_replaced_once_they_are_parsed(
    data: Path, tmp_path: Path, call: tuple[str, dict[str, object]]
) -> None:
    # the arguments are JSON text (`{"path": "\\ud800.csv"}`), valid until parsed: the
    # surrogate appears only then, and ended the run with a UnicodeEncodeError (exit 1)
    out = tmp_path / "out"
    with ScriptedEndpoint({"explorer": [tool_reply(call), tool_reply(FINISH)],
                           "writer": WRITER}) as server:  # fmt: skip
        done = run(data, out, server)
    assert done.returncode == 0, done.stderr
    history = json.loads((out / "history.json").read_text(encoding="utf-8"))
    [args] = [c["args"] for m in history for c in m["data"].get("tool_calls") or []
              if c["name"] == call[0]]  # fmt: skip
    assert "\ufffd" in json.dumps(args, ensure_ascii=False), args


# 4. content larger than the window --------------------------------------------------------


def test_a_huge_tool_call_argument_is_refused_and_never_kept_whole(
    data: Path, tmp_path: Path
) -> None:
    huge = ("make_figure", {"code": "# " + "x" * 5_000_000, "name": "big"})
    out = tmp_path / "out"
    with ScriptedEndpoint({"explorer": [tool_reply(huge), tool_reply(FINISH)],
                           "writer": WRITER}) as server:  # fmt: skip
        done = run(data, out, server)
        second = server.requests[1]
    assert done.returncode == 0, done.stderr
    assert "more than the 200,000 a call may" in tool_results(out)[0]["content"]
    assert len(json.dumps(second)) < 100_000  # the next request carries a cut, not 5 MB
    assert (out / "history.json").stat().st_size < 100_000


@pytest.mark.parametrize("where", ["a final answer", "the findings"])
def test_a_huge_answer_or_findings_are_cut_to_the_writer_s_window(
    data: Path, tmp_path: Path, where: str
) -> None:
    words = "the resonance is near five kilohertz " * 30_000  # about 1.1 MB
    if where == "a final answer":
        explorer = [text_reply(words)]
    else:
        findings = {"experiment": "RLC", "goal": "f0", "key_findings": [words[:95_000]]}
        explorer = [tool_reply(("finish_exploration", findings))]
    out = tmp_path / "out"
    with ScriptedEndpoint({"explorer": explorer, "writer": WRITER}) as server:
        done = run(data, out, server, "--context-tokens", "16000")
        brief = next(r for r in server.requests if r["model"] == "writer")
    assert done.returncode == 0, done.stderr
    sent = json.dumps(brief["messages"])
    assert len(sent) < 16_000 * 4  # well within the window, however many letters a token is
    assert "cut to fit" in sent


def test_a_request_over_the_endpoint_s_window_halts_naming_the_setting(
    data: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    script = {"explorer": [tool_reply(("read_file", {"path": "notes.md"})), tool_reply(FINISH)],
              "writer": WRITER}  # fmt: skip
    with ScriptedEndpoint(script) as server:
        server.max_request_bytes["explorer"] = 1_000  # a window smaller than any request
        halted = run(data, out, server, "--context-tokens", "100000")
        assert halted.returncode == 3, halted.stderr
        record = read_record(out)
        assert record["guard"]["halt"]["termination"] == "context_exceeded"
        assert "--context-tokens" in record["reason"]
        server.max_request_bytes.clear()
        resumed = labscribe("resume", "t", "--context-tokens", "8000")
    assert resumed.returncode == 0, resumed.stderr
    assert read_record(out)["status"] == "completed"


# 5. what users meet besides --------------------------------------------------------------


def test_a_429_with_retry_after_is_waited_out(
    data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LABSCRIBE_MAX_RETRIES", "2")
    busy = Raw(b'{"error": {"message": "rate limited"}}', status=429,
               headers={"retry-after": "1"}, times=1, then=tool_reply(FINISH))  # fmt: skip
    out = tmp_path / "out"
    with ScriptedEndpoint({"explorer": [busy], "writer": WRITER}) as server:
        done = run(data, out, server)
    assert done.returncode == 0, done.stderr
    assert busy.seen == 2


def test_a_500_after_half_a_stream_halts_the_draft_and_resumes(data: Path, tmp_path: Path) -> None:
    half = event({"role": "assistant", "content": ""}) + event({"content": "\\documentclass"})
    error = b'data: {"error": {"message": "internal error", "code": 500}}\n\n'
    broken = Raw(half + error, kind="text/event-stream", times=1, then=WRITER[0])
    out = tmp_path / "out"
    with ScriptedEndpoint({"explorer": [tool_reply(FINISH)], "writer": [broken]}) as server:
        halted = run(data, out, server)
        assert halted.returncode == 3, halted.stderr
        assert read_record(out)["guard"]["halt"]["termination"] == "unavailable"
        resumed = labscribe("resume", "t")
    assert resumed.returncode == 0, resumed.stderr


def test_a_model_the_endpoint_does_not_know_halts_naming_the_setting(
    data: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    with ScriptedEndpoint({"explorer-2": [tool_reply(FINISH)], "writer": WRITER}) as server:
        halted = run(data, out, server)  # asks for "explorer", which the server lacks
        assert halted.returncode == 3, halted.stderr
        record = read_record(out)
        assert record["guard"]["halt"]["termination"] == "model_unknown"
        assert "--explore-model" in record["reason"]
        resumed = labscribe("resume", "t", "--explore-model", "explorer-2")
    assert resumed.returncode == 0, resumed.stderr


def test_a_tool_call_that_names_no_tool_is_answered(data: Path, tmp_path: Path) -> None:
    nameless = tool_reply(("", {"path": "."}))
    out = tmp_path / "out"
    with ScriptedEndpoint({"explorer": [nameless, tool_reply(FINISH)],
                           "writer": WRITER}) as server:  # fmt: skip
        done = run(data, out, server)
    assert done.returncode == 0, done.stderr
    assert tool_results(out)[0]["status"] == "error"
