"""The embedded model server's request normalisation and prompt rendering."""

from __future__ import annotations

import json
import os
from importlib.util import find_spec
from pathlib import Path

import pytest

from labscribe.graph.local_model import (
    TOOL_RESULT,
    LocalModelError,
    check_local_model,
    gguf_path,
    normalise_request,
)

TOOLS = [{"type": "function", "function": {"name": "read_file", "parameters": {"type": "object"}}}]
NEEDS_LLAMA = pytest.mark.skipif(
    find_spec("llama_cpp") is None and not os.environ.get("CI"),
    reason="llama-cpp-python is not installed here (CI installs it: .ci/run)",
)


def test_normalise_request_fills_null_assistant_content() -> None:
    body = {
        "messages": [
            {"role": "user", "content": "hi"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "c1",
                        "type": "function",
                        "function": {"name": "read_file", "arguments": "{}"},
                    }
                ],
            },
        ]
    }
    assert normalise_request(body)["messages"][1]["content"] == ""


def test_normalise_request_turns_tool_results_into_named_user_messages() -> None:
    body = {
        "messages": [
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "c1",
                        "type": "function",
                        "function": {"name": "read_file", "arguments": "{}"},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "c1", "content": 'a "quoted" & <tagged> value'},
        ]
    }
    message = normalise_request(body)["messages"][1]
    assert message == {
        "role": "user",
        "content": TOOL_RESULT.format(
            name="read_file", id="c1", content='a "quoted" & <tagged> value'
        ),
    }


@pytest.mark.parametrize(
    ("choice", "sent"), [(None, "auto"), ("required", "auto"), ("none", "none")]
)
def test_normalise_request_offers_tools_with_a_choice_the_handler_supports(choice, sent) -> None:
    body = {"messages": [], "tools": TOOLS, "tool_choice": choice}
    assert normalise_request(body)["tool_choice"] == sent


def test_normalise_request_maps_max_completion_tokens() -> None:
    body = {"messages": [], "max_completion_tokens": 77, "stream_options": {"include_usage": True}}
    assert normalise_request(body) == {"messages": [], "stream": False, "max_tokens": 77}


def test_gguf_path_honours_the_environment(tmp_path: Path) -> None:
    gguf = tmp_path / "model.gguf"
    gguf.write_bytes(b"GGUF")
    assert gguf_path({"LABSCRIBE_LOCAL_GGUF": str(gguf)}) == gguf


def test_gguf_path_refuses_a_missing_file(tmp_path: Path) -> None:
    with pytest.raises(LocalModelError, match="which is not a file"):
        gguf_path({"LABSCRIBE_LOCAL_GGUF": str(tmp_path / "nope.gguf")})


@NEEDS_LLAMA
def test_check_local_model_passes_where_it_is_installed() -> None:
    check_local_model()


@NEEDS_LLAMA
def test_prompt_reaches_the_model_verbatim() -> None:
    """Quotes, ampersands and angle brackets in results and arguments are not HTML-escaped."""
    from llama_cpp import Llama

    from labscribe.graph.local_model import CHAT_FORMAT, _unescaped_templates

    _unescaped_templates()
    llama = Llama(
        model_path=str(gguf_path()), vocab_only=True, chat_format=CHAT_FORMAT, verbose=False
    )
    prompts: list[str] = []

    def record(prompt: str, **kwargs: object) -> dict:
        prompts.append(prompt)
        choice = {"text": "message:", "index": 0, "logprobs": None, "finish_reason": "stop"}
        usage = {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}
        return {"id": "x", "object": "text_completion", "created": 0, "model": "m",
                "choices": [choice], "usage": usage}  # fmt: skip

    llama.create_completion = record  # the generation is not under test: the prompt is
    arguments = json.dumps({"path": 'R&D/"quoted" <file>.csv'})
    body = {
        "messages": [
            {"role": "user", "content": "Read it & report."},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "c1",
                        "type": "function",
                        "function": {"name": "read_file", "arguments": arguments},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "c1", "content": 'V = "5 V" & f < 6 kHz'},
        ],
        "tools": TOOLS,
    }
    request = normalise_request(body)
    llama.create_chat_completion(**request)
    prompt = prompts[0]
    assert arguments in prompt
    assert 'V = "5 V" & f < 6 kHz' in prompt
    assert "Read it & report." in prompt
    assert "&#34;" not in prompt and "&amp;" not in prompt and "&lt;" not in prompt


@NEEDS_LLAMA
def test_token_estimate_never_undercounts_the_embedded_tokenizer(example: Path) -> None:
    from llama_cpp import Llama

    from labscribe.guards.budgets import estimate_tokens
    from labscribe.tools.base import Folder
    from labscribe.tools.files import READ_FILE

    llama = Llama(model_path=str(gguf_path()), vocab_only=True, verbose=False)
    folder = Folder(example)
    texts = [
        READ_FILE.invoke(folder, {"path": path, "offset": offset}).content
        for path in (
            "data/sweep.csv",
            "notes_zh.md",
            "logbook_gbk.txt",
            "params.ini",
            "assignment.pdf",
        )
        for offset in (0, 100)
    ]
    texts = [text for text in texts if not text.startswith("Error")]
    assert len(texts) >= 6
    for text in texts:
        actual = len(llama.tokenize(text.encode("utf-8"), add_bos=False, special=False))
        assert estimate_tokens(text) >= actual, text[:80]
