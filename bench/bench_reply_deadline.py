"""What the boundary every model reply passes costs: the deadline, the byte bound and the
UTF-8 repair and the shape check (the transport and the client in
nodes/runtime/openai_client.py).

    .venv/bin/python bench/bench_reply_deadline.py

Replies come from a scripted OpenAI-compatible server on loopback, so what is timed is the
client: the same replies through langchain-openai's ChatOpenAI as it comes, and through
labscribe's client with its transport. Streamed replies are timed too (a 4,000-character
report in 100 chunks), since the deadline is checked on every chunk.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import httpx
from langchain_core.messages import HumanMessage
from langchain_openai import ChatOpenAI

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from scripted_server import ScriptedEndpoint, text_reply, tool_reply

from labscribe.nodes.runtime.openai_client import DeadlineTransport, TolerantChatOpenAI

REPLIES = 80
ROUNDS = 1  # a second round against the scripted server stalls (not yet understood)
REPORT = "A line of the report, with numbers 5.02 kHz and Q = 5.1. " * 70


def per_reply(model: ChatOpenAI) -> float:
    """Median seconds per reply over ROUNDS rounds of REPLIES."""
    rounds = []
    for _ in range(ROUNDS):
        started = time.perf_counter()
        for _ in range(REPLIES):
            model.invoke([HumanMessage("go")])
        rounds.append((time.perf_counter() - started) / REPLIES)
    return statistics.median(rounds)


def main() -> None:
    scripts = {"calls": [tool_reply(("read_file", {"path": "notes.md"}))],
               "report": [text_reply(REPORT)]}  # fmt: skip
    with ScriptedEndpoint(scripts, by_turn=False) as server:
        print("| reply | ChatOpenAI | labscribe's client (deadline, bounds, checks) | ratio |")
        print("|---|---|---|---|")
        for model, streaming in (("calls", False), ("report", True)):
            settings = {"base_url": server.url, "api_key": "k", "model": model,
                        "streaming": streaming, "max_retries": 0}  # fmt: skip
            plain = per_reply(ChatOpenAI(**settings))
            guarded = TolerantChatOpenAI(
                **settings, http_client=httpx.Client(transport=DeadlineTransport(600.0))
            )
            bounded = per_reply(guarded)
            what = "a streamed 4,000-character report" if streaming else "a tool call"
            print(f"| {what} | {plain * 1e3:.2f} ms | {bounded * 1e3:.2f} ms | "
                  f"{bounded / plain:.2f} |")  # fmt: skip


if __name__ == "__main__":
    main()
