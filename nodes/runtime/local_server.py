"""The embedded model's server process: a GGUF served over the OpenAI chat protocol.

    python -m labscribe.nodes.runtime.local_server MODEL.gguf [--n-ctx 8192]

It prints `READY_PREFIX<port>` once it listens on a free loopback port. The chat handler is
ours, not llama-cpp-python's `chatml-function-calling`, because that one rendered its
template with HTML autoescape (every quote reached the model as `&#34;`, and the model copied
entities back into its paths), dropped `tool` messages from the prompt, offered tools only
when `tool_choice` was set, and let argument generation and the number of calls run without
bound (a small model then wrote one path until the context was full). Here the prompt is
built in plain Python, tool results are shown as user messages naming their call, and every
generation is capped.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import threading
import time
import uuid
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

# The embedded model's chat template has no tool role: calls and results travel as text.
TOOL_RESULT = "Result of {name} (call {id}):\n{content}"
TOOLS_PREAMBLE = """

You can call these functions; each takes one JSON object of arguments:
{signatures}

To answer with text, start your reply with "message:". To call functions, write for each \
call a line "functions.<name>:" followed by its JSON arguments on the next line."""

READY_PREFIX = "labscribe-local-model listening on port "
DEFAULT_REPLY_TOKENS = 512
ARGUMENT_TOKENS = 768  # one call's JSON arguments, at most; the bounds below keep them smaller
# A small model tends to ramble inside a string until its budget runs out; the argument
# grammar closes every string within STRING_CHARS and every list within LIST_ITEMS.
STRING_CHARS = 200
LIST_ITEMS = 8
MAX_CALLS = 4  # calls in one reply; the agent answers the rest with "not executed" anyway
REPEAT_PENALTY = 1.15  # small models fall into loops; llama.cpp's common default is 1.1


@dataclass(frozen=True)
class ChatFormat:
    """How a model family marks its turns: ChatML (SmolLM2, Qwen) or Gemma's."""

    start: str
    """Opens a turn; `{role}` is the role's name in this format."""
    end: str
    """Ends a turn; generation stops at it."""
    roles: dict[str, str] = field(default_factory=dict)
    """Roles renamed in this format (Gemma calls the assistant "model")."""
    alternating: bool = False
    """Whether turns must alternate: consecutive turns of one role are then merged (Gemma
    has no system role, so the system turn joins the first user turn)."""

    def name_of(self, role: str) -> str:
        """`role` (an OpenAI role) as this format names it."""
        return self.roles.get(role, role)

    def opening(self) -> str:
        """The start of the assistant's turn, which the model goes on to write."""
        return self.start.format(role=self.name_of("assistant"))


CHATML = ChatFormat(start="<|im_start|>{role}\n", end="<|im_end|>")
GEMMA = ChatFormat(
    start="<start_of_turn>{role}\n",
    end="<end_of_turn>",
    roles={"assistant": "model", "system": "user"},
    alternating=True,
)
FORMATS = {"gemma3": GEMMA, "gemma2": GEMMA, "gemma": GEMMA}
"""The turn format by a GGUF's `general.architecture`; anything else speaks ChatML."""


def _call_id(prompt: str, arguments: str) -> str:
    """A call's id, made from what led to it: the id is in every later prompt (a tool's result
    names it), so a random one would make the same folder read differently on each run. The
    prompt holds the calls before it, so no two calls of a conversation share one."""
    digest = hashlib.sha256(f"{prompt}\0{arguments}".encode("utf-8", "surrogatepass"))
    return f"call_{digest.hexdigest()[:16]}"


def render_prompt(
    messages: list[dict[str, Any]], tools: list[dict[str, Any]], chat: ChatFormat = CHATML
) -> str:
    """A prompt for `messages` in `chat`'s turns, with `tools` described in the system turn,
    verbatim."""
    names = {
        call["id"]: call["function"]["name"]
        for message in messages
        for call in message.get("tool_calls") or []
    }
    turns: list[tuple[str, str]] = []
    if tools and not any(m["role"] == "system" for m in messages):
        messages = [{"role": "system", "content": ""}, *messages]
    for message in messages:
        role, text = message["role"], _text(message.get("content"))
        if role == "system" and tools:
            text += TOOLS_PREAMBLE.format(signatures=_signatures(tools))
        elif role == "tool":
            call_id = message.get("tool_call_id", "")
            role, text = (
                "user",
                TOOL_RESULT.format(name=names.get(call_id, "a tool"), id=call_id, content=text),
            )
        elif role == "assistant":
            calls = message.get("tool_calls") or []
            parts = [f"message:\n{text}" if tools else text] if text else []
            parts += [
                f"functions.{c['function']['name']}:\n{c['function']['arguments']}" for c in calls
            ]
            text = "\n".join(parts)
        named = chat.name_of(role)
        if chat.alternating and turns and turns[-1][0] == named:
            turns[-1] = (named, f"{turns[-1][1]}\n\n{text}")
        else:
            turns.append((named, text))
    rendered = "".join(f"{chat.start.format(role=r)}{text}{chat.end}\n" for r, text in turns)
    return rendered + chat.opening()


def _text(content: Any) -> str:
    if isinstance(content, list):  # content parts: keep the text
        return "".join(part.get("text", "") for part in content)
    return content or ""


def _signatures(tools: list[dict[str, Any]]) -> str:
    lines = []
    for tool in tools:
        function = tool["function"]
        lines.append(f"functions.{function['name']}: {function.get('description', '')}")
        lines.append(json.dumps(function.get("parameters", {}), ensure_ascii=False))
    return "\n".join(lines)


class ChatHandler:
    """Chat completions on one Llama, one generation at a time, every generation capped."""

    def __init__(self, llama: Any, chat: ChatFormat = CHATML) -> None:
        self.llama = llama
        self.chat = chat
        self.lock = threading.Lock()

    def stream(self, body: dict[str, Any], send: Any) -> None:
        """A reply without tools, streamed token by token through `send(chunk)`: a client
        shows progress while a long report is written. With tools, the finished completion
        as one chunk (calls are only known once their grammar-bound arguments are done)."""
        tools = body.get("tools") or []
        if tools and body.get("tool_choice") != "none":
            send(_one_chunk(self.complete(body)))
            return
        prompt = render_prompt(body.get("messages", []), [], self.chat)
        cap = body.get("max_completion_tokens") or body.get("max_tokens") or DEFAULT_REPLY_TOKENS
        base = _completion_head(body, "chat.completion.chunk")
        with self.lock:
            tokens, finish = 0, "stop"
            pieces = self.llama.create_completion(
                prompt=prompt,
                max_tokens=cap,
                temperature=body.get("temperature", 0.2),
                stop=[self.chat.end],
                repeat_penalty=REPEAT_PENALTY,
                stream=True,
            )
            for piece in pieces:
                choice = piece["choices"][0]
                tokens += 1
                finish = choice.get("finish_reason") or finish
                delta = {"role": "assistant", "content": choice.get("text") or ""}
                send({**base, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]})
            prompt_tokens = len(self.llama.tokenize(prompt.encode("utf-8"), special=True))
        usage = {"prompt_tokens": prompt_tokens, "completion_tokens": tokens}
        usage["total_tokens"] = prompt_tokens + tokens
        end = {"index": 0, "delta": {}, "finish_reason": finish}
        send({**base, "choices": [end], "usage": usage})

    def complete(self, body: dict[str, Any]) -> dict[str, Any]:
        tools = body.get("tools") or []
        if body.get("tool_choice") == "none":
            tools = []
        prompt = render_prompt(body.get("messages", []), tools, self.chat)
        cap = body.get("max_completion_tokens") or body.get("max_tokens") or DEFAULT_REPLY_TOKENS
        temperature = body.get("temperature", 0.2)
        with self.lock:
            self.usage = {"prompt_tokens": 0, "completion_tokens": 0}
            first = self._next_call(prompt, tools, "message:") if tools else None
            if first:
                message, finish = self._calls(prompt, tools, first, temperature)
            else:
                opening = "message:\n" if tools else ""
                text, finish = self._generate(prompt + opening, cap, temperature)
                message = {"role": "assistant", "content": text}
            usage = dict(self.usage)
        usage["total_tokens"] = usage["prompt_tokens"] + usage["completion_tokens"]
        head = _completion_head(body, "chat.completion")
        return head | {
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
            "usage": usage,
        }

    def _next_call(self, prompt: str, tools: list[dict[str, Any]], other: str) -> str | None:
        """The tool the model calls next, or None when it writes `other` instead."""
        choice, _ = self._generate(prompt, 16, 0.0, grammar=_choice_grammar(tools, other))
        return choice.removeprefix("functions.").removesuffix(":") if choice != other else None

    def _calls(
        self, prompt: str, tools: list[dict[str, Any]], name: str | None, temperature: float
    ) -> tuple[dict[str, Any], str]:
        by_name = {tool["function"]["name"]: tool for tool in tools}
        calls: list[dict[str, Any]] = []
        finish = "tool_calls"
        while len(calls) < MAX_CALLS and name in by_name:
            tool = by_name[name]
            prompt += f"functions.{name}:\n"
            schema = json.dumps(bounded(tool["function"].get("parameters") or {"type": "object"}))
            arguments, reason = self._generate(
                prompt, ARGUMENT_TOKENS, temperature, grammar=_json_grammar(schema)
            )
            calls.append(
                {
                    "id": _call_id(prompt, arguments),
                    "type": "function",
                    "function": {"name": tool["function"]["name"], "arguments": arguments},
                }
            )
            if reason == "length":  # the arguments were cut: say so, as an endpoint would
                finish = "length"
                break
            prompt += f"{arguments}\n"
            name = self._next_call(prompt, tools, self.chat.end)
        return {"role": "assistant", "content": None, "tool_calls": calls}, finish

    def _generate(
        self, prompt: str, max_tokens: int, temperature: float, grammar: Any = None
    ) -> tuple[str, str]:
        result = self.llama.create_completion(
            prompt=prompt,
            max_tokens=max_tokens,
            temperature=temperature,
            stop=[self.chat.end],
            grammar=grammar,
            repeat_penalty=REPEAT_PENALTY,
        )
        usage = result.get("usage") or {}
        self.usage["prompt_tokens"] = max(
            self.usage["prompt_tokens"], usage.get("prompt_tokens", 0)
        )
        self.usage["completion_tokens"] += usage.get("completion_tokens", 0)
        choice = result["choices"][0]
        return choice["text"].strip() if grammar is None else choice["text"], choice[
            "finish_reason"
        ]


def _completion_head(body: dict[str, Any], kind: str) -> dict[str, Any]:
    return {
        "id": f"chatcmpl-{uuid.uuid4().hex[:24]}",
        "object": kind,
        "created": int(time.time()),
        "model": body.get("model", "local"),
    }


def _one_chunk(result: dict[str, Any]) -> dict[str, Any]:
    """A finished completion as the one chunk of a stream."""
    choice = result["choices"][0]
    delta = {"index": 0, "delta": choice["message"], "finish_reason": choice["finish_reason"]}
    return {**result, "object": "chat.completion.chunk", "choices": [delta]}


def bounded(schema: Any) -> Any:
    """`schema` with every string and list given a maximum size, if it had none."""
    if isinstance(schema, list):
        return [bounded(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    result = {key: bounded(value) for key, value in schema.items()}
    kinds = result.get("type")
    kinds = kinds if isinstance(kinds, list) else [kinds]
    if "string" in kinds:
        result["maxLength"] = min(result.get("maxLength", STRING_CHARS), STRING_CHARS)
    if "array" in kinds:
        result["maxItems"] = min(result.get("maxItems", LIST_ITEMS), LIST_ITEMS)
    return result


def _choice_grammar(tools: list[dict[str, Any]], other: str) -> Any:
    from llama_cpp import LlamaGrammar

    names = " | ".join(f'"functions.{tool["function"]["name"]}:"' for tool in tools)
    return LlamaGrammar.from_string(
        f'root ::= functions | "{other}"\nfunctions ::= {names}\n', verbose=False
    )


def _json_grammar(schema: str) -> Any:
    from llama_cpp import LlamaGrammar

    try:
        return LlamaGrammar.from_json_schema(schema, verbose=False)
    except Exception:  # a schema the converter cannot take: any JSON object will do
        from llama_cpp.llama_grammar import JSON_GBNF

        return LlamaGrammar.from_string(JSON_GBNF, verbose=False)


def load_model(gguf: Path, n_ctx: int) -> Any:
    from llama_cpp import Llama

    # The cores this process may run on (taskset, a container's cpuset), not the machine's:
    # llama.cpp's threads wait on each other by spinning, so one thread more than the cores
    # it gets slows every token down several times.
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    # Flash attention stays off: on a CPU it reads a long prompt a third faster but writes
    # a quarter slower, and writing is most of a report's time (bench/bench_embedded_speed.py).
    return Llama(model_path=str(gguf), n_ctx=n_ctx, n_threads=max(1, cores or 1), verbose=False)


def serve(gguf: Path, n_ctx: int) -> None:
    llama = load_model(gguf, n_ctx)
    architecture = (getattr(llama, "metadata", None) or {}).get("general.architecture", "")
    handler = ChatHandler(llama, FORMATS.get(architecture, CHATML))

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True  # a kept-alive connection answers without 40 ms waits

        def do_GET(self) -> None:
            self._send(200, {"object": "list", "data": [{"id": gguf.stem, "object": "model"}]})

        def do_POST(self) -> None:
            if not self.path.rstrip("/").endswith("/chat/completions"):
                self._send(404, {"error": {"message": f"no route {self.path}"}})
                return
            body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))) or b"{}")
            try:
                if body.get("stream"):
                    self._stream(body)
                else:
                    self._send(200, handler.complete(body))
            except ValueError as exc:  # llama-cpp's word for a prompt over the context
                self._send(400, {"error": {"message": str(exc), "type": "invalid_request_error"}})

        def _send(self, status: int, payload: Any) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def _stream(self, body: dict[str, Any]) -> None:
            """Server-sent events, one chunk each as it is generated, then [DONE]."""
            started = False

            def send(chunk: dict[str, Any]) -> None:
                nonlocal started
                if not started:  # headers only once the prompt fitted: an error can still be 400
                    self.send_response(200)
                    self.send_header("content-type", "text/event-stream")
                    self.send_header("cache-control", "no-cache")
                    self.end_headers()
                    started = True
                self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                self.wfile.flush()

            handler.stream(body, send)
            self.wfile.write(b"data: [DONE]\n\n")
            self.wfile.flush()
            self.close_connection = True

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(f"{READY_PREFIX}{server.server_address[1]}", flush=True)
    server.serve_forever()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Serve a GGUF over the OpenAI chat protocol.")
    parser.add_argument("gguf", type=Path)
    parser.add_argument("--n-ctx", type=int, default=8_192)
    args = parser.parse_args(argv)
    serve(args.gguf, args.n_ctx)


if __name__ == "__main__":
    main()
