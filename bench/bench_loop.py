"""Machinery cost of the guarded loop, without any model time.

    .venv/bin/python bench/bench_loop.py

Prints: the guard's decision time per tool call (call identity with its path resolved,
the keys, the ladder and cycle check, the progress check, the failure streak),
and the graph's overhead per explore step (one model turn plus one tool call) with an
instant scripted model, with the SQLite checkpointer writing every super-step to disk
(reflect rounds and the PDF compile off: they are not part of the loop).
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from scripted import ScriptedChatModel, call, latex, reply

from labscribe.graph import Context, Models, run_folder
from labscribe.guards.failures import FailurePolicy
from labscribe.guards.fingerprint import call_key, digest
from labscribe.guards.guard_state import GuardState
from labscribe.guards.identity import answer_key, identify, without_window
from labscribe.guards.ladder import LadderPolicy, ToolClass
from labscribe.guards.progress import Shown
from labscribe.tools.files import READ_FILE


def guard_decision_us(calls: int = 2_000) -> float:
    """Microseconds the guards spend on one read_file call of an explorer paging 50 files,
    an attempt's worth of calls (the guard state grows with what it has seen)."""
    ladder, failures, meaning = LadderPolicy(), FailurePolicy(), READ_FILE.meaning
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "data").mkdir()
        for n in range(50):
            (root / "data" / f"run_{n}.csv").write_text("t,v\n")
        state = GuardState()
        start = time.perf_counter()
        for n in range(calls):
            page = n // 50
            args = {"path": f"./data/run_{n % 50}.csv", "offset": page * 200, "limit": 200}
            identity = identify(meaning, root, args)
            lines = (page * 200 + 1, page * 200 + 200)
            target = call_key("read_file", without_window(meaning, identity))
            content = digest(f"page {n}")
            key = answer_key("read_file", target, lines, content)
            verdict = state.review(ladder, key, ToolClass.READ_ONLY)
            shown = Shown(target, content, lines=lines, version="7314:1700000000")
            state.settle(verdict, state.progress(ladder, "read_file", shown, key))
            state.record_outcome(failures, None)
        return (time.perf_counter() - start) / calls * 1e6


def graph_step_ms(steps: int = 19) -> float:
    """Milliseconds per explore step: from the scan's milestone to exploration's, so the
    scan's analysis and data figures (the run's first 0.4 s here) are not counted."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "data"
        folder.mkdir()
        (folder / "big.csv").write_text("".join(f"{n},{n * n}\n" for n in range(10_000)))
        pages = [reply(call("read_file", path="big.csv", offset=200 * n)) for n in range(steps)]
        finish = call("finish_exploration", experiment="x", goal="y", key_findings=["z"])
        explorer = ScriptedChatModel(replies=[*pages, reply(finish)])
        writer = ScriptedChatModel(replies=[reply(content=latex())])
        models = Models(explore=explorer, write=writer)
        context = Context(models=models, max_tool_iters=steps + 1, reflect=0, compile=False)
        out = Path(tmp) / "out"
        run_folder(folder, out=out, db=Path(tmp) / "cp.sqlite", context=context)
        events = [json.loads(line) for line in (out / "events.jsonl").read_text().splitlines()]
        reached = {e["stage"]: e["elapsed"] for e in events if e["event"] == "milestone"}
        return (reached["explore"] - reached["scan"]) / (steps + 1) * 1e3


if __name__ == "__main__":
    decisions = [guard_decision_us() for _ in range(5)]
    steps = [graph_step_ms() for _ in range(5)]
    print(f"guard decision per tool call: median {statistics.median(decisions):.1f} µs (5 runs)")
    print(
        f"graph overhead per explore step (model turn + tool call, SQLite checkpoints): "
        f"median {statistics.median(steps):.1f} ms (5 runs of 20 steps)"
    )
