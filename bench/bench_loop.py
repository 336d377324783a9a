"""Machinery cost of the guarded loop, without any model time.

    .venv/bin/python bench/bench_loop.py

Prints: the guard's decision time per tool call (guards/guard.py: the ladder and cycle
check, the progress check, the failure streak, the cache), the time to know the call (its
identity with the path resolved, the keys, the file's version),
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
from labscribe.guards.guard import Answered, Asked, Result, judge
from labscribe.guards.guard_state import GuardState
from labscribe.nodes.tool_call import guards_call
from labscribe.tools.explorer.files import READ_FILE
from labscribe.tools.tool import Folder


def guard_decision_us(calls: int = 2_000) -> tuple[float, float]:
    """Microseconds per read_file call of an explorer paging 50 files, an attempt's worth of
    calls (the guard state grows with what it has seen): the decision, the call's two
    judgements (guards/guard.py: asked, and answered); and the call as the guards know it
    (Tool.prepare and nodes.tool_call.guards_call: its identity with the path resolved, the
    keys, the file's version, which costs a stat)."""
    policy = Context().guard_policy
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "data").mkdir()
        for n in range(50):
            (root / "data" / f"run_{n}.csv").write_text("t,v\n")
        folder = Folder(root)
        started = time.perf_counter()
        known = []
        for n in range(calls):
            page = n // 50
            args = {"path": f"./data/run_{n % 50}.csv", "offset": page * 200, "limit": 200}
            pending = {"id": f"c{n}", "name": "read_file", "args": args}
            call = guards_call(pending, READ_FILE, READ_FILE.prepare(folder, args))
            known.append((call, call.shown(f"page {n}", (page * 200 + 1, page * 200 + 200))))
        knowing = time.perf_counter() - started
        state = GuardState()
        started = time.perf_counter()
        for call, shown in known:
            asked = judge(state, Asked(call), policy)
            state = judge(asked.state, Answered(call, Result(True, None, shown)), policy).state
        deciding = time.perf_counter() - started
        return deciding / calls * 1e6, knowing / calls * 1e6


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
    measured = [guard_decision_us() for _ in range(5)]
    steps = [graph_step_ms() for _ in range(5)]
    decision = statistics.median(m[0] for m in measured)
    knowing = statistics.median(m[1] for m in measured)
    print(f"guard decision per tool call (both judgements): median {decision:.1f} µs (5 runs)")
    print(f"the call as the guards know it (identity, keys, version): median {knowing:.1f} µs")
    print(
        f"graph overhead per explore step (model turn + tool call, SQLite checkpoints): "
        f"median {statistics.median(steps):.1f} ms (5 runs of 20 steps)"
    )
