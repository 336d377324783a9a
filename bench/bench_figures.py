"""Latency of one sandboxed figure: cold process vs warm worker.

    .venv/bin/python bench/bench_figures.py [N]

Prints the median wall milliseconds of `run_figure` for the same sine plot, N times each:
cold (a fresh worker per figure: interpreter start + numpy/matplotlib import + sandbox) and
warm (one `FigureWorker` forks a sandboxed child per figure), plus the worker start-up cost
and the sandbox's own cost per figure (code that draws nothing: fork, the two user
namespaces and their maps, the mounts, pivot_root, Landlock, the seccomp filter).
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

from labscribe.tools.sandbox.figure_sandbox import FigureWorker, run_figure

SINE = """\
import matplotlib.pyplot as plt
import numpy as np

x = np.linspace(0, 2 * np.pi, 500)
fig, ax = plt.subplots(figsize=(6, 4), dpi=100)
ax.plot(x, np.sin(x), label="sin")
ax.set_xlabel("t / s")
ax.set_ylabel("U / V")
ax.legend()
"""
EMPTY = "x = 1\n"
"""Draws nothing, so its time is the sandbox's alone."""


def _median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def main(n: int = 10) -> None:
    """Run the benchmark and print one line per measurement."""
    with tempfile.TemporaryDirectory() as tmp:
        data, out = Path(tmp, "data"), Path(tmp, "out")
        data.mkdir()
        cold: list[float] = []
        for index in range(n):
            started = time.perf_counter()
            result = run_figure(SINE, data_dir=data, out_dir=out, name=f"cold{index}")
            cold.append(time.perf_counter() - started)
            assert result.ok, result.error
        warm: list[float] = []
        with FigureWorker() as worker:
            started = time.perf_counter()
            worker.start()
            startup = time.perf_counter() - started
            for index in range(n):
                started = time.perf_counter()
                result = run_figure(
                    SINE, data_dir=data, out_dir=out, name=f"warm{index}", worker=worker
                )
                warm.append(time.perf_counter() - started)
                assert result.ok, result.error
            empty: list[float] = []
            for index in range(n):
                started = time.perf_counter()
                result = run_figure(
                    EMPTY, data_dir=data, out_dir=out, name=f"empty{index}", worker=worker
                )
                empty.append(time.perf_counter() - started)
                assert result.error.startswith("Error: the code made no figure"), result.error
    print(f"figures per mode:        {n}")
    print(f"cold run_figure median:  {_median_ms(cold):8.1f} ms")
    print(f"warm worker start-up:    {startup * 1000:8.1f} ms (once)")
    print(f"warm render median:      {_median_ms(warm):8.1f} ms")
    print(f"warm sandbox only:       {_median_ms(empty):8.1f} ms (code that draws nothing)")
    print(f"speed-up cold/warm:      {statistics.median(cold) / statistics.median(warm):8.1f}x")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10)
