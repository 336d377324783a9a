"""A scripted OpenAI-compatible chat-completions server on loopback, for real-HTTP tests.

Each model name has its own script. The reply is picked by the number of assistant
messages already in the request, so a run that is killed and resumed by another process
continues the script where it stopped. A `Hang` item holds the request open once, so a
test can kill the client while it waits.
"""

from __future__ import annotations

import itertools
import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

_ids = itertools.count(1)


def tool_reply(*calls: tuple[str, dict[str, Any]], finish_reason: str = "tool_calls") -> dict:
    return {"content": None, "calls": list(calls), "finish_reason": finish_reason}


def text_reply(content: str, finish_reason: str = "stop") -> dict:
    return {"content": content, "calls": [], "finish_reason": finish_reason}


@dataclass
class Hang:
    """Hold the first request for this turn until `release` is set; serve `then` afterwards."""

    then: dict
    reached: threading.Event = field(default_factory=threading.Event)
    release: threading.Event = field(default_factory=threading.Event)
    used: bool = False


class ScriptedEndpoint:
    def __init__(self, scripts: dict[str, list[Any]]) -> None:
        self.scripts = scripts
        self.requests: list[dict[str, Any]] = []
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
        return sum(1 for request in self.requests if request["model"] == model)

    def answer(self, body: dict[str, Any]) -> dict[str, Any]:
        self.requests.append(body)
        script = self.scripts[body["model"]]
        turn = sum(1 for m in body["messages"] if m["role"] == "assistant")
        item = script[min(turn, len(script) - 1)]
        if isinstance(item, Hang):
            if not item.used:
                item.used = True
                item.reached.set()
                item.release.wait(timeout=60)
            item = item.then
        return _completion(body["model"], item)

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", 0))
                payload = endpoint.answer(json.loads(self.rfile.read(length)))
                data = json.dumps(payload).encode()
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: object) -> None:
                pass

        return Handler


def _completion(model: str, item: dict[str, Any]) -> dict[str, Any]:
    n = next(_ids)
    message: dict[str, Any] = {"role": "assistant", "content": item["content"]}
    if item["calls"]:
        message["tool_calls"] = [
            {
                "id": f"call_{n}_{i}",
                "type": "function",
                "function": {"name": name, "arguments": json.dumps(args)},
            }
            for i, (name, args) in enumerate(item["calls"])
        ]
    return {
        "id": f"chatcmpl-{n}",
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": item["finish_reason"]}],
        "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120},
    }
