"""ChatOpenAI with its answers checked at the boundary: whatever an endpoint sends back is a
chat completion here, or a `BadAnswer` that halts the run as an endpoint fault.

Endpoints send what no client expects: a captive portal's HTML page with status 200, `{}`,
a completion without `choices` or with a `null` message, an error object in a 200 body, a
stream of garbage, lone surrogates (`\\ud800`) in text or in a tool call's arguments. Each
used to fail somewhere deep in the client, or later, when the text reached a checkpoint.
Here the answer's shape is checked before it is read, its text is made valid once, and a
tool call whose arguments are not a JSON object (`[1, 2]`, `"."`, `42`, an array nested
hundreds deep) or are too large becomes an invalid call the explorer answers with an error
it can fix, its arguments kept only in part.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import openai
from langchain_core.messages import AIMessage
from langchain_core.outputs import ChatGenerationChunk, ChatResult
from langchain_openai import ChatOpenAI

from labscribe.guards.messages import ARGUMENTS_NOT_AN_OBJECT, ARGUMENTS_TOO_DEEP
from labscribe.guards.repair import MAX_ARGUMENTS_CHARS, MAX_DEPTH, too_large, valid_text
from labscribe.nodes.runtime.reply_transport import BadAnswer, error_answer

NOT_A_COMPLETION = "the endpoint's answer is not a chat completion"
AN_ERROR = "the endpoint answered with an error"


class TolerantChatOpenAI(ChatOpenAI):
    def _generate(self, *args: Any, **kwargs: Any) -> ChatResult:
        try:
            return super()._generate(*args, **kwargs)
        except (json.JSONDecodeError, openai.APIResponseValidationError) as exc:
            raise BadAnswer(NOT_A_COMPLETION, getattr(exc, "doc", "") or str(exc)) from exc

    def _stream(self, *args: Any, **kwargs: Any) -> Iterator[ChatGenerationChunk]:
        chunks = 0
        for chunk in super()._stream(*args, **kwargs):  # each event checked by the transport
            chunks += 1
            yield chunk
        if not chunks:  # an empty stream, or a body that was no stream at all
            raise BadAnswer(NOT_A_COMPLETION, "a stream with no chunk")

    def _convert_chunk_to_generation_chunk(
        self, chunk: dict, default_chunk_class: type, base_generation_info: dict | None
    ) -> ChatGenerationChunk | None:
        choices = chunk.get("choices", []) if isinstance(chunk, dict) else None
        if not isinstance(choices, list) or not all(_text_delta(c) for c in choices):
            raise BadAnswer(NOT_A_COMPLETION, chunk)
        if chunk.get("error"):
            raise error_answer(AN_ERROR, chunk["error"])
        chunk = valid_text(chunk)
        return super()._convert_chunk_to_generation_chunk(
            chunk, default_chunk_class, base_generation_info
        )

    def _create_chat_result(
        self, response: Any, generation_info: dict[str, Any] | None = None
    ) -> ChatResult:
        if not isinstance(response, dict) and hasattr(response, "model_dump"):
            response = response.model_dump(warnings=False)
        response = valid_text(checked_completion(response))
        set_aside: dict[int, list[dict[str, Any]]] = {}
        for index, choice in enumerate(response["choices"]):
            message = choice["message"]
            kept = []
            for call in message.get("tool_calls") or []:
                problem = _call_problem(call)
                if problem is None:
                    kept.append(call)
                else:
                    set_aside.setdefault(index, []).append({**call, "problem": problem})
            if set_aside.get(index):
                message["tool_calls"] = kept or None
        result = super()._create_chat_result(response, generation_info)
        for index, calls in set_aside.items():
            reply = result.generations[index].message
            if isinstance(reply, AIMessage):
                reply.invalid_tool_calls = [*reply.invalid_tool_calls, *map(_invalid, calls)]
        return result


def checked_completion(response: Any) -> dict[str, Any]:
    """`response` if it has the shape of a chat completion: an object whose `choices` are a
    non-empty list of objects, each with a `message` object whose content is text (or
    parts, or none) and whose tool calls are objects naming a function. BadAnswer, saying
    what came back, otherwise. Arguments sent as an object rather than as its JSON text
    (some servers do) are taken as that text."""
    if not isinstance(response, dict):
        raise BadAnswer(NOT_A_COMPLETION, response)
    if response.get("error") and not response.get("choices"):
        raise error_answer(AN_ERROR, response["error"])
    choices = response.get("choices")
    if not isinstance(choices, list) or not choices:
        raise BadAnswer(NOT_A_COMPLETION, json.dumps(response, default=repr)[:1000])
    for choice in choices:
        message = choice.get("message") if isinstance(choice, dict) else None
        calls = message.get("tool_calls") if isinstance(message, dict) else None
        if not isinstance(message, dict) or not isinstance(calls or [], list):
            raise BadAnswer(NOT_A_COMPLETION, json.dumps(choice, default=repr)[:1000])
        if not isinstance(message.get("content"), str | list | None):
            raise BadAnswer(NOT_A_COMPLETION, json.dumps(message, default=repr)[:1000])
        for call in calls or []:
            function = call.get("function") if isinstance(call, dict) else None
            if not isinstance(function, dict) or not isinstance(function.get("name"), str | None):
                raise BadAnswer(NOT_A_COMPLETION, json.dumps(call, default=repr)[:1000])
            if not isinstance(function.get("arguments"), str | None):
                function["arguments"] = json.dumps(function["arguments"], default=repr)
    return response


def _text_delta(choice: Any) -> bool:
    """Whether a stream chunk's choice carries text or nothing as its delta's content."""
    delta = choice.get("delta") if isinstance(choice, dict) else None
    return isinstance(delta, dict | None) and isinstance((delta or {}).get("content"), str | None)


def _call_problem(call: dict[str, Any]) -> str | None:
    """Why a call's `arguments` (JSON text) cannot be a tool's arguments: too large, not an
    object, nested too deep; None for text that is not JSON at all (repaired downstream)."""
    arguments = call["function"].get("arguments")
    if not isinstance(arguments, str):
        return None
    if len(arguments) > MAX_ARGUMENTS_CHARS:
        return too_large(len(arguments))
    try:
        value = json.loads(arguments)
    except RecursionError:
        return ARGUMENTS_TOO_DEEP.format(depth=MAX_DEPTH)
    except ValueError:
        return None
    if isinstance(value, dict):
        return None
    return ARGUMENTS_NOT_AN_OBJECT.format(kind=type(value).__name__)


def _invalid(call: dict[str, Any]) -> dict[str, Any]:
    function = call["function"]
    return {
        "type": "invalid_tool_call",
        "name": function.get("name"),
        "args": function.get("arguments"),  # whole: the explorer cuts what it keeps
        "id": call.get("id"),
        "error": call["problem"],
    }
