"""A scripted OpenAI-compatible chat-completions server on loopback, for real-HTTP tests.

Each model name has its own script. The reply is picked by the number of assistant
messages already in the request, so a run that is killed and resumed by another process
continues the script where it stopped. Replies stream as server-sent events when the
request asks for it. Faults are scripted too:

- `Hang(then, times)` holds that turn's first `times` requests until released (or until
  the client gives up), then serves `then`;
- `Fail(status, times, then)` answers that turn's first `times` requests with `status`;
- `required_key` answers 401 to any other key; `down` answers 503 to everything;
- `max_request_bytes[model]` answers 400 (context length exceeded) to a larger request;
- `Choose(pick)` lets the request decide: `pick(body)` returns the reply (or another item);
- `Raw(body, status, kind)` answers with exactly these bytes, whatever the request asked
  (an HTML page, `{}`, an error object with status 200, a broken stream); `Raw(write=...)`
  writes its answer itself, over time (a trickle, a stream that never ends), until the
  client hangs up; with `times`, only its first `times` requests, and `then` after;
- a model with no script is answered 404, as a server answers a model it does not serve.
"""

from __future__ import annotations

import itertools
import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

_ids = itertools.count(1)


def tool_reply(*calls: tuple[str, Any], finish_reason: str = "tool_calls") -> dict:
    """Tool calls; arguments given as a dict are sent as JSON, a string is sent verbatim."""
    return {"content": None, "calls": list(calls), "finish_reason": finish_reason}


def text_reply(content: str | None, finish_reason: str = "stop") -> dict:
    return {"content": content, "calls": [], "finish_reason": finish_reason}


@dataclass
class Hang:
    then: dict
    times: int = 1
    reached: threading.Event = field(default_factory=threading.Event)
    release: threading.Event = field(default_factory=threading.Event)
    held: int = 0


@dataclass
class Choose:
    pick: Callable[[dict[str, Any]], Any]


@dataclass
class Fail:
    status: int
    times: int
    then: dict
    unless_key: str | None = None
    """A request with this key is served even while the failures last (a rotated key)."""
    seen: int = 0


@dataclass
class Raw:
    body: bytes = b""
    status: int = 200
    kind: str = "application/json"
    write: Callable[[Callable[[bytes], None]], None] | None = None
    """Writes the answer through the function it is given; the connection closes after."""
    headers: dict[str, str] = field(default_factory=dict)
    times: int | None = None
    then: dict | None = None
    seen: int = 0


class ScriptedEndpoint:
    def __init__(self, scripts: dict[str, list[Any]], *, by_turn: bool = True) -> None:
        self.scripts = scripts
        self.by_turn = by_turn
        """Pick replies by assistant messages in the request (survives a restart), or else
        by requests served so far (for clients that summarise their history)."""
        self.requests: list[dict[str, Any]] = []
        self.request_sizes: list[tuple[str, int]] = []
        """(model, bytes) of every request received, answered or not."""
        self.required_key: str | None = None
        self.down = False
        self.max_request_bytes: dict[str, int] = {}
        """Per model: a larger request is answered 400, as a context overflow would be."""
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def __enter__(self) -> ScriptedEndpoint:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        for items in self.scripts.values():
            for item in items:
                if isinstance(item, Hang):
                    item.release.set()
        self._server.shutdown()
        self._server.server_close()

    def calls_to(self, model: str) -> int:
        """Requests for `model` that were answered with a completion."""
        return sum(1 for request in self.requests if request["model"] == model)

    def respond(self, body: dict[str, Any], key: str, size: int) -> tuple[int, Any]:
        """(status, payload): a completion, or an error, for this request."""
        self.request_sizes.append((body["model"], size))
        if self.required_key is not None and key != f"Bearer {self.required_key}":
            return 401, _error("Incorrect API key provided", "invalid_api_key")
        if self.down:
            return 503, _error("The service is temporarily unavailable", "unavailable")
        if size > self.max_request_bytes.get(body["model"], size):
            return 400, _error(f"context length exceeded: {size} bytes", "context_length_exceeded")
        if body["model"] not in self.scripts:
            return 404, _error(f"The model `{body['model']}` does not exist", "model_not_found")
        script = self.scripts[body["model"]]
        turn = (
            sum(1 for m in body["messages"] if m["role"] == "assistant")
            if self.by_turn
            else self.calls_to(body["model"])
        )
        item = script[min(turn, len(script) - 1)]
        if isinstance(item, Choose):
            item = item.pick(body)
        if isinstance(item, Fail):
            rotated = item.unless_key is not None and key == f"Bearer {item.unless_key}"
            item.seen += 1
            if item.seen <= item.times and not rotated:
                return item.status, _error(f"scripted failure {item.status}", "scripted")
            item = item.then
        if isinstance(item, Raw) and item.times is not None:
            item.seen += 1
            if item.seen > item.times:
                item = item.then
        if isinstance(item, Hang):
            if item.held < item.times:
                item.held += 1
                item.reached.set()
                if not item.release.wait(timeout=60):
                    return 0, None  # the client gave up long ago: answer nobody
            item = item.then
        self.requests.append(body)
        return (item.status if isinstance(item, Raw) else 200), item

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True  # a kept-alive connection answers without 40 ms waits

            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("content-length", 0)))
                body = json.loads(raw)
                status, item = endpoint.respond(
                    body, self.headers.get("authorization", ""), len(raw)
                )
                try:
                    if isinstance(item, Raw):
                        self._send_raw(item)
                    elif status != 200:
                        self._send(status, "application/json", json.dumps(item).encode())
                    elif body.get("stream"):
                        self._send(200, "text/event-stream", _events(body, item))
                    else:
                        self._send(
                            200, "application/json", json.dumps(_completion(body, item)).encode()
                        )
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a timeout test): nothing to answer

            def _send(self, status: int, kind: str, data: bytes) -> None:
                self.send_response(status)
                self.send_header("content-type", kind)
                self.send_header("content-length", str(len(data)))
                if status in (429, 500, 502, 503):
                    self.send_header("retry-after-ms", "20")  # keep the client's backoff short
                self.end_headers()
                self.wfile.write(data)

            def _send_raw(self, raw: Raw) -> None:
                self.send_response(raw.status)
                self.send_header("content-type", raw.kind)
                for name, value in raw.headers.items():
                    self.send_header(name, value)
                if raw.write is None:
                    self.send_header("content-length", str(len(raw.body)))
                    self.end_headers()
                    self.wfile.write(raw.body)
                    return
                self.send_header("connection", "close")  # the body ends where the socket does
                self.end_headers()
                self.close_connection = True

                def send(data: bytes) -> None:
                    self.wfile.write(data)
                    self.wfile.flush()

                raw.write(send)

            def log_message(self, *args: object) -> None:
                pass

        return Handler


def _error(message: str, code: str) -> dict[str, Any]:
    return {"error": {"message": message, "type": "scripted", "code": code}}


def _calls(item: dict[str, Any], n: int) -> list[dict[str, Any]]:
    return [
        {
            "id": f"call_{n}_{i}",
            "type": "function",
            "function": {
                "name": name,
                "arguments": args if isinstance(args, str) else json.dumps(args),
            },
        }
        for i, (name, args) in enumerate(item["calls"])
    ]


def _completion(body: dict[str, Any], item: dict[str, Any]) -> dict[str, Any]:
    n = next(_ids)
    message: dict[str, Any] = {"role": "assistant", "content": item["content"]}
    if item["calls"]:
        message["tool_calls"] = _calls(item, n)
    return {
        "id": f"chatcmpl-{n}",
        "object": "chat.completion",
        "created": 0,
        "model": body["model"],
        "choices": [{"index": 0, "message": message, "finish_reason": item["finish_reason"]}],
        "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120},
    }


def _events(body: dict[str, Any], item: dict[str, Any]) -> bytes:
    """The reply as server-sent events: content in pieces, then each call, then usage."""
    n = next(_ids)
    base = {"id": f"chatcmpl-{n}", "object": "chat.completion.chunk", "created": 0}
    base["model"] = body["model"]
    deltas: list[dict[str, Any]] = [{"role": "assistant", "content": ""}]
    content = item["content"] or ""
    deltas += [{"content": content[i : i + 40]} for i in range(0, len(content), 40)]
    deltas += [{"tool_calls": [{"index": i, **call}]} for i, call in enumerate(_calls(item, n))]
    chunks = [
        {**base, "choices": [{"index": 0, "delta": d, "finish_reason": None}]} for d in deltas
    ]
    chunks.append(
        {**base, "choices": [{"index": 0, "delta": {}, "finish_reason": item["finish_reason"]}]}
    )
    if (body.get("stream_options") or {}).get("include_usage"):
        usage = {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120}
        chunks.append({**base, "choices": [], "usage": usage})
    lines = [f"data: {json.dumps(chunk)}\n\n" for chunk in chunks] + ["data: [DONE]\n\n"]
    return "".join(lines).encode()
