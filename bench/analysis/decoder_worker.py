"""What decoding each file in a bounded worker costs (tools.decoding), and that it changes
nothing: every real file of tests/data/real read in the worker and in this process, the
tables, rows, columns and values compared, and the time of each way.

    .venv/bin/python bench/analysis/decoder_worker.py
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from labscribe.tools.base import Folder
from labscribe.tools.decoding import decoded
from labscribe.tools.readers import NoTable
from labscribe.tools.tables import DataFile, read_data

REAL = Path(__file__).resolve().parents[2] / "tests" / "data" / "real"


def timed(read, rel: str) -> tuple[DataFile | str, float]:
    started = time.perf_counter()
    try:
        result: DataFile | str = read(Folder(REAL), rel)
    except NoTable as exc:
        result = f"NoTable: {exc}"
    return result, time.perf_counter() - started


def same(one: DataFile | str, other: DataFile | str) -> bool:
    if isinstance(one, str) or isinstance(other, str):
        return one == other
    return (
        [t.summary for t in one.tables] == [t.summary for t in other.tables]
        and all(np.array_equal(a.frame.to_numpy(), b.frame.to_numpy(), equal_nan=True)
                and list(a.frame.columns) == list(b.frame.columns)
                for a, b in zip(one.tables, other.tables, strict=True))
        and one.metadata == other.metadata and one.unread == other.unread
    )  # fmt: skip


def main() -> int:
    files = [f["path"] for f in json.loads((REAL / "expected.json").read_text())["files"]]
    decoded(Folder(REAL), files[0])  # the worker server starts once, before the timing
    worker, here, differ = [], [], []
    for rel in files:
        in_worker, worker_seconds = timed(decoded, rel)
        in_process, process_seconds = timed(read_data, rel)
        worker.append(worker_seconds)
        here.append(process_seconds)
        if not same(in_worker, in_process):
            differ.append(rel)
    extra = [w - h for w, h in zip(worker, here, strict=True)]
    print("| files | in this process, median | in a worker, median | worker's cost, median "
          "(max) | read alike |")  # fmt: skip
    print("|---|---|---|---|---|")
    print(f"| {len(files)} | {statistics.median(here) * 1000:.1f} ms | "
          f"{statistics.median(worker) * 1000:.1f} ms | {statistics.median(extra) * 1000:.1f} ms "
          f"({max(extra) * 1000:.0f} ms) | {len(files) - len(differ)}/{len(files)} |")  # fmt: skip
    for rel in differ:
        print(f"read otherwise in the worker: {rel}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
