"""The bytes of a model's reply, bounded in time and size and made valid UTF-8 before the
OpenAI client reads them.

The client's timeout bounds each read, not the reply: an endpoint that trickles a byte every
few seconds, or streams for ever, never trips it. So every reply gets a deadline as a whole,
checked as its bytes arrive, streamed or not (a reply is read through the same byte stream
either way). A reply past its deadline raises `ReplyDeadline`, a read timeout to the client,
which retries it and then gives up as it does on any timeout. Bytes that are not UTF-8 are
replaced (U+FFFD) here, once, so no decoder downstream ever raises on them.
"""

from __future__ import annotations

import codecs
import json
import time
from collections.abc import Iterator

import httpx

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


def fault_detail(exc: BaseException) -> str:
    """What a failed model call says of itself: the reply's own fault where the client
    wrapped it (its retries end in "Request timed out." or "Connection error.")."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        if isinstance(current, BadAnswer | ReplyDeadline):
            return str(current)
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return str(exc)


class ReplyDeadline(httpx.ReadTimeout):
    """A reply that outlived its deadline: a timeout, to the client and to the run."""


class DeadlineTransport(httpx.BaseTransport):
    """An HTTP transport whose every reply must arrive whole within `deadline` seconds."""

    def __init__(self, deadline: float, inner: httpx.BaseTransport | None = None) -> None:
        self.deadline = deadline
        self.inner = inner or httpx.HTTPTransport()

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

    def close(self) -> None:
        self.inner.close()
