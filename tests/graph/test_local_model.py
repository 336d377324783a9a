"""The embedded model: its prompt rendering, its bounded chat handler, its tokenizer."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from importlib.util import find_spec
from pathlib import Path

import pytest

from labscribe.guards.bounds import estimate_tokens
from labscribe.nodes.explore import TOOL_SCHEMAS
from labscribe.nodes.runtime.context import Context
from labscribe.nodes.runtime.local_model import LocalModelError, check_local_model
from labscribe.nodes.runtime.local_server import (
    CHATML,
    FORMATS,
    GEMMA,
    LIST_ITEMS,
    MAX_CALLS,
    STRING_CHARS,
    TOOL_RESULT,
    ChatHandler,
    bounded,
    load_model,
    render_prompt,
)
from labscribe.nodes.runtime.models import idle_reason
from labscribe.nodes.runtime.settings import bundled_gguf
from labscribe.tools.explorer.files import READ_FILE
from labscribe.tools.tool import Folder

NEEDS_LLAMA = pytest.mark.skipif(
    find_spec("llama_cpp") is None and not os.environ.get("CI"),
    reason="llama-cpp-python is not installed here (CI installs it: .ci/run)",
)
ARGUMENTS = json.dumps({"path": 'R&D/"quoted" <file>.csv'})
CONVERSATION = [
    {"role": "system", "content": "Explore."},
    {"role": "user", "content": "Read it & report."},
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "c1",
                "type": "function",
                "function": {"name": "read_file", "arguments": ARGUMENTS},
            }
        ],
    },
    {"role": "tool", "tool_call_id": "c1", "content": 'V = "5 V" & f < 6 kHz'},
]


def test_render_prompt_keeps_quotes_ampersands_and_brackets_verbatim() -> None:
    prompt = render_prompt(CONVERSATION, TOOL_SCHEMAS)
    assert f"functions.read_file:\n{ARGUMENTS}" in prompt
    assert 'V = "5 V" & f < 6 kHz' in prompt
    assert "Read it & report." in prompt
    assert not any(entity in prompt for entity in ("&#34;", "&amp;", "&lt;", "&quot;"))


def test_render_prompt_shows_tool_results_as_user_turns_naming_the_call() -> None:
    prompt = render_prompt(CONVERSATION, TOOL_SCHEMAS)
    result = TOOL_RESULT.format(name="read_file", id="c1", content='V = "5 V" & f < 6 kHz')
    assert f"<|im_start|>user\n{result}<|im_end|>\n" in prompt
    assert prompt.endswith("<|im_start|>assistant\n")


def test_render_prompt_describes_the_tools_in_the_system_turn() -> None:
    prompt = render_prompt(CONVERSATION, TOOL_SCHEMAS)
    system = prompt.split("<|im_end|>")[0]
    assert all(f"functions.{t['function']['name']}:" in system for t in TOOL_SCHEMAS)


def test_render_prompt_in_gemma_turns_alternates_user_and_model() -> None:
    prompt = render_prompt([*CONVERSATION, {"role": "user", "content": "Go on."}], [], GEMMA)
    turns = [t.split("\n", 1)[0] for t in prompt.split("<start_of_turn>")[1:]]
    assert turns == ["user", "model", "user", "model"]
    assert prompt.startswith("<start_of_turn>user\nExplore.\n\nRead it & report.<end_of_turn>\n")
    result = TOOL_RESULT.format(name="read_file", id="c1", content='V = "5 V" & f < 6 kHz')
    assert f"{result}\n\nGo on.<end_of_turn>" in prompt  # a tool result is a user's words
    assert "<|im_start|>" not in prompt and prompt.endswith("<start_of_turn>model\n")


def test_the_turn_format_follows_the_gguf_architecture() -> None:
    assert FORMATS["gemma3"] is GEMMA
    assert FORMATS.get("llama", CHATML) is CHATML


def test_bounded_caps_every_string_and_list() -> None:
    finish = next(t for t in TOOL_SCHEMAS if t["function"]["name"] == "finish_exploration")
    schema = bounded(finish["function"]["parameters"])
    properties = schema["properties"]
    assert properties["experiment"]["maxLength"] == STRING_CHARS
    assert properties["key_findings"]["maxItems"] == LIST_ITEMS
    assert properties["key_findings"]["items"]["maxLength"] == STRING_CHARS


def test_the_gguf_comes_from_the_environment_else_the_bundled_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("LABSCRIBE_BASE_URL", "LABSCRIBE_API_KEY", "DEEPSEEK_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    gguf = tmp_path / "model.gguf"
    gguf.write_bytes(b"GGUF")
    monkeypatch.setenv("LABSCRIBE_LOCAL_GGUF", str(gguf))
    assert Context().gguf == str(gguf)
    monkeypatch.delenv("LABSCRIBE_LOCAL_GGUF")
    assert Context().gguf == bundled_gguf()


def test_a_missing_gguf_is_refused_in_one_line(tmp_path: Path) -> None:
    with pytest.raises(LocalModelError, match="which is not a file"):
        check_local_model(str(tmp_path / "nope.gguf"))
    with pytest.raises(LocalModelError, match="embedded local model is not installed"):
        check_local_model(None)


@NEEDS_LLAMA
def test_check_local_model_passes_where_it_is_installed() -> None:
    check_local_model(bundled_gguf())


@pytest.fixture(scope="module")
def handler() -> ChatHandler:
    return ChatHandler(load_model(Path(bundled_gguf() or ""), 4_096))


@NEEDS_LLAMA
def test_chat_handler_answers_with_well_formed_bounded_tool_calls(handler: ChatHandler) -> None:
    body = {"messages": CONVERSATION[:2], "tools": TOOL_SCHEMAS, "temperature": 0.0}
    result = handler.complete(body)
    choice = result["choices"][0]
    calls = choice["message"].get("tool_calls") or []
    if calls:
        assert choice["finish_reason"] in ("tool_calls", "length")
        assert len(calls) <= MAX_CALLS
        names = {t["function"]["name"] for t in TOOL_SCHEMAS}
        assert all(call["function"]["name"] in names for call in calls)
        if choice["finish_reason"] == "tool_calls":
            assert all(isinstance(json.loads(c["function"]["arguments"]), dict) for c in calls)
    else:
        assert choice["message"]["content"]
    assert result["usage"]["prompt_tokens"] > 0


@NEEDS_LLAMA
def test_a_fresh_model_answers_a_conversation_the_same_way_every_time() -> None:
    """Call ids are in every later prompt (a tool's result names its call), so they are made
    from the conversation, not drawn at random: two runs on one folder read it alike."""
    listing = [tool for tool in TOOL_SCHEMAS if tool["function"]["name"] == "list_dir"]
    body = {"messages": CONVERSATION[:2], "tools": listing, "temperature": 0.7}
    first, second = (
        ChatHandler(load_model(Path(bundled_gguf() or ""), 2_048)).complete(body) for _ in "ab"
    )
    assert first["choices"] == second["choices"]
    ids = [call["id"] for call in first["choices"][0]["message"].get("tool_calls") or []]
    assert len(set(ids)) == len(ids)


@NEEDS_LLAMA
def test_chat_handler_without_tools_writes_text_within_the_cap(handler: ChatHandler) -> None:
    body = {"messages": [{"role": "user", "content": "Say hello."}], "max_tokens": 16}
    result = handler.complete(body)
    assert result["choices"][0]["message"]["content"]
    assert result["usage"]["completion_tokens"] <= 16


@NEEDS_LLAMA
def test_token_estimate_never_undercounts_the_embedded_tokenizer(example: Path) -> None:
    from llama_cpp import Llama

    llama = Llama(model_path=str(bundled_gguf()), vocab_only=True, verbose=False)
    folder = Folder(example)
    paths = ("data/sweep.csv", "notes_zh.md", "logbook_gbk.txt", "params.ini", "assignment.pdf")
    texts = [
        READ_FILE.invoke(folder, {"path": path, "offset": offset}).content
        for path in paths
        for offset in (0, 100)
    ]
    texts = [text for text in texts if not text.startswith("Error")]
    assert len(texts) >= 6
    for text in texts:
        actual = len(llama.tokenize(text.encode("utf-8"), add_bos=False, special=False))
        assert estimate_tokens(text) >= actual, text[:80]


@NEEDS_LLAMA
def test_embedded_server_dies_with_a_killed_parent() -> None:
    code = (
        "import time\n"
        "from labscribe.nodes.runtime.local_model import local_server\n"
        "from labscribe.nodes.runtime.settings import bundled_gguf\n"
        "print(local_server(bundled_gguf()).process.pid, flush=True)\n"
        "time.sleep(120)\n"
    )
    parent = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert parent.stdout is not None
    server_pid = int(parent.stdout.readline())
    os.kill(server_pid, 0)  # it runs
    parent.kill()
    parent.wait(timeout=10)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and _alive(server_pid):
        time.sleep(0.1)
    assert not _alive(server_pid)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    state = Path(f"/proc/{pid}/stat").read_text().split()[2]
    return state != "Z"  # a zombie has exited; only its parent's reaper is missing


@pytest.mark.parametrize("stage", ["explore", "figures", "gap", "draft"])
def test_stages_measured_never_to_pay_off_are_idle_on_that_embedded_model_only(
    stage: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("LABSCRIBE_BASE_URL", "LABSCRIBE_API_KEY", "DEEPSEEK_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    measured, other = tmp_path / "SmolLM2-135M-Instruct.Q4_1.gguf", tmp_path / "mine.gguf"
    for gguf in (measured, other):
        gguf.write_bytes(b"GGUF")
    monkeypatch.setenv("LABSCRIBE_LOCAL_GGUF", str(measured))
    reason = idle_reason(Context(), stage)
    assert reason and reason.startswith("skipped on the embedded model: ")
    assert "SmolLM2-135M" in reason and reason.endswith("(bench/bench_embedded.py)")
    assert idle_reason(Context(), "bib") is None  # a stage nobody measured runs
    assert idle_reason(Context(all_stages=True), stage) is None
    assert idle_reason(Context(base_url="http://127.0.0.1:1/v1", explore_model="m"), stage) is None
    monkeypatch.setenv("LABSCRIBE_LOCAL_GGUF", str(other))  # a GGUF nobody measured
    assert idle_reason(Context(), stage) is None
