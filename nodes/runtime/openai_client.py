"""ChatOpenAI with its answers checked at the boundary, and the transport that bounds the
bytes it reads: whatever an endpoint sends back is a chat completion here, or a `BadAnswer`
that halts the run as an endpoint fault.

Endpoints send what no client expects: a captive portal's HTML page with status 200, `{}`,
a completion without `choices` or with a `null` message, an error object in a 200 body, a
stream of garbage, lone surrogates (`\\ud800`) in text or in a tool call's arguments. Each
used to fail somewhere deep in the client, or later, when the text reached a checkpoint.
Here the answer's shape is checked before it is read, its text is made valid once, and a
tool call whose arguments are not a JSON object (`[1, 2]`, `"."`, `42`, an array nested
hundreds deep) or are too large becomes an invalid call the explorer answers with an error
it can fix, its arguments kept only in part.

The client's timeout bounds each read, not the reply: an endpoint that trickles a byte every
few seconds, or streams for ever, never trips it. So every reply gets a deadline as a whole
(`DeadlineTransport`), checked as its bytes arrive, streamed or not (a reply is read through
the same byte stream either way). A reply past its deadline raises `ReplyDeadline`, a read
timeout to the client, which retries it and then gives up as it does on any timeout. Bytes
that are not UTF-8 are replaced (U+FFFD) there, once, so no decoder downstream ever raises
on them.
"""

from __future__ import annotations

import codecs
import functools
import json
import ssl
import time
from collections.abc import Iterator
from typing import Any

import httpx
import openai
from langchain_core.messages import AIMessage
from langchain_core.outputs import ChatGenerationChunk, ChatResult
from langchain_openai import ChatOpenAI

from labscribe.guards.bounds import MAX_ARGUMENTS_CHARS, MAX_DEPTH, too_large, valid_text
from labscribe.guards.messages import ARGUMENTS_NOT_AN_OBJECT, ARGUMENTS_TOO_DEEP

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


MAX_REPLY_BYTES = 32 * 1024 * 1024
"""No chat completion is larger: a body past it is not an answer (an endless stream)."""
DETAIL_CHARS = 300
"""Of an answer that is not a completion: what its fault record shows."""


class BadAnswer(Exception):
    """An endpoint's answer that is not a chat completion; the message says what came back.
    An error object the endpoint sent in place of a completion keeps its code as
    `status_code`, so an outage said in a 200 (a 503 in the body) is an outage."""

    def __init__(self, what: str, body: object = "", status_code: int | None = None) -> None:
        shown = body if isinstance(body, str) else repr(body)
        cut = f"{shown[:DETAIL_CHARS]}…" if len(shown) > DETAIL_CHARS else shown
        super().__init__(f"{what}: {cut}" if cut else what)
        self.status_code = status_code


def error_answer(what: str, error: object) -> BadAnswer:
    """The fault of an error object sent where a completion was due, with its code if any."""
    code = error.get("code") if isinstance(error, dict) else None
    return BadAnswer(what, error, code if isinstance(code, int) else None)


@functools.cache
def tls_context() -> ssl.SSLContext:
    """The TLS settings every client of this process shares, as httpx makes them (its CA
    bundle, or SSL_CERT_FILE and SSL_CERT_DIR): loading the bundle took about 25 ms, paid by
    each client, and a run builds one per model role."""
    return httpx.create_ssl_context()


class ReplyDeadline(httpx.ReadTimeout):
    """A reply that outlived its deadline: a timeout, to the client and to the run."""


class DeadlineTransport(httpx.BaseTransport):
    """An HTTP transport whose every reply must arrive whole within `deadline` seconds."""

    def __init__(self, deadline: float, inner: httpx.BaseTransport | None = None) -> None:
        self.deadline = deadline
        self.inner = inner or httpx.HTTPTransport(verify=tls_context())

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        ends = time.monotonic() + self.deadline
        response = self.inner.handle_request(request)
        events = response.headers.get("content-type", "").startswith("text/event-stream")
        stream = _BoundedStream(response.stream, ends, self.deadline, request, events)
        return httpx.Response(
            response.status_code,
            headers=response.headers,
            stream=stream,
            extensions=response.extensions,
            request=request,
        )

    def close(self) -> None:
        self.inner.close()


class _BoundedStream(httpx.SyncByteStream):
    def __init__(
        self,
        inner: httpx.SyncByteStream,
        ends: float,
        deadline: float,
        request: httpx.Request,
        events: bool,
    ) -> None:
        self.inner, self.ends, self.deadline, self.request = inner, ends, deadline, request
        self.events = _EventCheck() if events else None

    def __iter__(self) -> Iterator[bytes]:
        utf8 = codecs.getincrementaldecoder("utf-8")("replace")
        size = 0
        for chunk in self.inner:
            if time.monotonic() > self.ends:
                message = f"the reply took longer than its deadline of {self.deadline:g} s"
                raise ReplyDeadline(message, request=self.request)
            size += len(chunk)
            if size > MAX_REPLY_BYTES:
                raise BadAnswer(f"a reply larger than {MAX_REPLY_BYTES // 2**20} MB")
            text = utf8.decode(chunk)
            if self.events is not None:
                self.events.read(text)
            yield text.encode("utf-8")
        yield utf8.decode(b"", final=True).encode("utf-8")

    def close(self) -> None:
        # hands the connection back to the client's pool: without it, a process that asks
        # more times than the pool holds (100) waits on it until its requests time out
        self.inner.close()


class _EventCheck:
    """A stream of server-sent events checked as it arrives: each event's data is `[DONE]`
    or a JSON object, as every chunk of a chat completion is."""

    def __init__(self) -> None:
        self.pending = ""

    def read(self, text: str) -> None:
        *lines, self.pending = (self.pending + text).split("\n")
        for line in lines:
            if not line.startswith("data:"):
                continue
            data = line[len("data:") :].strip()
            if data == "[DONE]":
                continue
            try:
                event = json.loads(data)
            except ValueError:
                event = None
            if not isinstance(event, dict):
                raise BadAnswer("the endpoint's stream is not one of chat completion chunks", data)
