"""A scripted LangGraph server on loopback holding one finished thread whose store
misbehaves as a server's may, for the client that writes a served run's outputs
(`labscribe batch --server URL --resume`, graph/served.py).

It answers what that client asks of a finished thread: the batch's assistant, the thread,
its state, and `POST /store/items/search` from a list of items, where

- `ignores_offset` answers every search from the first item, as if `offset` were unknown;
- an item whose value is a `Huge(size)` streams a base64 string of `size` bytes, made as it
  is sent, and `sent` counts the bytes the client took before it hung up.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

CHUNK = 1 << 20
ASSISTANT = "assistant-1"
REPORT = "\\documentclass{article}\\begin{document}Served.\\end{document}\n"


@dataclass(frozen=True)
class Huge:
    size: int


class ScriptedStore:
    def __init__(
        self, thread_id: str, items: list[tuple[str, Any]], *, ignores_offset: bool = False
    ) -> None:
        self.thread_id = thread_id
        self.items = items
        """(key, value) in the store's order; a value is {"base64": ...} or a Huge."""
        self.ignores_offset = ignores_offset
        self.searches = 0
        self.sent = 0
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def __enter__(self) -> ScriptedStore:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def _answers(self) -> dict[str, Any]:
        values = {"report": REPORT, "messages": [{"type": "human", "content": "Explore."}]}
        return {
            f"/assistants/{ASSISTANT}": {"assistant_id": ASSISTANT, "context": {}},
            f"/threads/{self.thread_id}": {"thread_id": self.thread_id, "status": "idle"},
            f"/threads/{self.thread_id}/state": {"values": values, "next": [], "tasks": []},
        }

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        store = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                answer = store._answers().get(self.path.split("?")[0])
                self._send(200 if answer else 404, [json.dumps(answer or {}).encode()])

            def do_POST(self) -> None:
                query = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                store.searches += 1
                offset = 0 if store.ignores_offset else query.get("offset", 0)
                page = store.items[offset : offset + query.get("limit", 10)]
                self._send(200, _answer(page, query["namespace_prefix"]))

            def _send(self, status: int, parts: Any) -> None:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.end_headers()
                try:
                    for part in parts:
                        self.wfile.write(part)
                        store.sent += len(part)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client had read enough

        return Handler


def _answer(page: list[tuple[str, Any]], namespace: list[str]) -> Any:
    """A search's JSON answer, in parts, a Huge value's string made as it goes."""
    yield b'{"items": ['
    for n, (key, value) in enumerate(page):
        head = json.dumps({"namespace": namespace, "key": key}).encode()[:-1]
        yield (b"," if n else b"") + head + b', "value": '
        if isinstance(value, Huge):
            yield b'{"base64": "'
            for _ in range(value.size // CHUNK):
                yield b"A" * CHUNK
            yield b'"}}'
        else:
            yield json.dumps(value).encode() + b"}"
    yield b"]}"
