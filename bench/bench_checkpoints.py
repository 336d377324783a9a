"""Checkpoint overhead per super-step: SQLite and PostgreSQL against no checkpointer.

    export LABSCRIBE_TEST_POSTGRES=$(bash .ci/postgres)  # a role that may CREATE DATABASE
    .venv/bin/python bench/bench_checkpoints.py

One exploration of 40 page reads with an instant scripted model, through draft and bib (the
super-steps are counted and printed), streamed the way the runner streams it
(`durability="sync"`: each step's checkpoint is stored before the next step runs). The
overhead per super-step is the time over the same run without a checkpointer, divided by
the super-steps. PostgreSQL runs on loopback, in a scratch database created and dropped here.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from scripted import ScriptedChatModel, call, latex, reply

from labscribe.graph import Context, Models, build_graph
from labscribe.graph.checkpoint import open_checkpointer

PAGES = 40
RUNS = 5


def one_run(folder: Path, db: str | None) -> tuple[float, int]:
    """Seconds for the whole run, and the super-steps it took."""
    pages = [reply(call("read_file", path="big.csv", offset=200 * n)) for n in range(PAGES)]
    finish = call("finish_exploration", experiment="x", goal="y", key_findings=["z"])
    models = Models(
        explore=ScriptedChatModel(replies=[*pages, reply(finish)]),
        write=ScriptedChatModel(replies=[reply(content=latex())]),
    )
    context = Context(
        models=models, max_tool_iters=PAGES + 1, reflect=0, compile=False, figures=False
    )
    config = {"configurable": {"thread_id": uuid.uuid4().hex}, "recursion_limit": 1_000}
    with open_checkpointer(db) if db else nullcontext() as saver:
        graph = build_graph(checkpointer=saver)
        steps = 0
        start = time.perf_counter()
        # Without a checkpointer `durability` means nothing (and langgraph 1.2 trips on it).
        durability = {"durability": "sync"} if saver else {}
        for _ in graph.stream(
            {"folder": str(folder)}, config, context=context, stream_mode="updates", **durability
        ):
            steps += 1
        return time.perf_counter() - start, steps


@contextmanager
def scratch_postgres(server: str) -> Iterator[str]:
    import psycopg

    name = f"labscribe_bench_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(server, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    try:
        yield server.rsplit("/", 1)[0] + f"/{name}"
    finally:
        with psycopg.connect(server, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE {name} WITH (FORCE)")


def median_run(folder: Path, db: str | None) -> tuple[float, int]:
    one_run(folder, db)  # warm: imports, tables, caches
    results = [one_run(folder, db) for _ in range(RUNS)]
    return statistics.median(seconds for seconds, _ in results), results[0][1]


SQLITE, POSTGRES = "SQLite (file)", "PostgreSQL (loopback)"


def overheads(postgres_server: str | None) -> tuple[int, float, dict[str, tuple[float, float]]]:
    """Super-steps per run, seconds per run without a checkpointer, and per backend
    (SQLite, and PostgreSQL when a server is given): seconds per run, ms/step overhead."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "data"
        folder.mkdir()
        (folder / "big.csv").write_text("".join(f"{n},{n * n}\n" for n in range(10_000)))
        bare, steps = median_run(folder, None)
        backends = {SQLITE: str(Path(tmp) / "cp.sqlite")}
        measured = {}
        with scratch_postgres(postgres_server) if postgres_server else nullcontext() as postgres:
            if postgres:
                backends[POSTGRES] = postgres
            for name, db in backends.items():
                seconds, _ = median_run(folder, db)
                measured[name] = (seconds, (seconds - bare) / steps * 1e3)
    return steps, bare, measured


def main() -> None:
    server = os.environ.get("LABSCRIBE_BENCH_POSTGRES") or os.environ.get("LABSCRIBE_TEST_POSTGRES")
    steps, bare, measured = overheads(server)
    print(f"{steps} super-steps per run, median of {RUNS} runs")
    print(f"no checkpointer: {bare * 1e3:.0f} ms per run, {bare / steps * 1e3:.2f} ms/step")
    for name, (seconds, overhead) in measured.items():
        print(f"{name}: {seconds * 1e3:.0f} ms per run, {overhead:.2f} ms/step overhead")
    if not server:
        print("PostgreSQL skipped: set LABSCRIBE_TEST_POSTGRES (bash .ci/postgres prints one)")


if __name__ == "__main__":
    main()
