"""Wall time of `labscribe batch` over 6 folders at concurrency 1 and 2, through the local
process pool and through a LangGraph server (`langgraph dev`, started here), in one run.

    .venv/bin/python bench/bench_batch.py            # both
    .venv/bin/python bench/bench_batch.py --local    # the process pool only

Six copies of the shipped example, a scripted OpenAI-compatible endpoint on loopback that
answers at once (so the time is labscribe's: process start or submission, scan, graph,
checkpoints, outputs), SQLite checkpoints locally, the server's own persistence there.
Twice: without the PDF, and with the real xelatex compile (when xelatex is here), which is
CPU-bound and shows what a second core buys. The server's times include fetching each
thread's state, figures and PDF back over HTTP and writing OUT/.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from langgraph_dev import LanggraphDev
from scripted import latex
from scripted_server import ScriptedEndpoint, text_reply, tool_reply

from labscribe.tools.sandbox.latex import toolchain_problem

REPO = Path(__file__).resolve().parents[1]
FOLDERS = 6
FINISH = ("finish_exploration", {"experiment": "RLC", "goal": "f0", "key_findings": ["5 kHz"]})


def batch_seconds(
    course: Path, out: Path, concurrency: int, compile_pdf: bool, server: str | None
) -> float:
    scripts = {
        "explorer": [tool_reply(("list_dir", {"path": "."})), tool_reply(FINISH)],
        "writer": [text_reply(latex("A benchmark report."))],
    }
    with ScriptedEndpoint(scripts) as endpoint:
        command = [
            sys.executable, "-m", "labscribe.graph.cli", "batch", str(course),
            "--out", str(out), "--concurrency", str(concurrency), "--reflect", "0",
            "--no-figures", "--base-url", endpoint.url, "--api-key", "k",
            "--explore-model", "explorer", "--write-model", "writer",
        ] + ([] if compile_pdf else ["--no-compile"])  # fmt: skip
        command += ["--server", server] if server else ["--db", str(out.with_suffix(".sqlite"))]
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True)
        seconds = time.perf_counter() - start
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == f"{FOLDERS}/{FOLDERS} reports written", done.stdout
    return seconds


def main() -> None:
    local_only = "--local" in sys.argv[1:]
    with tempfile.TemporaryDirectory() as tmp:
        course = Path(tmp) / "course"
        for n in range(FOLDERS):
            shutil.copytree(REPO / "examples" / "rlc-resonance", course / f"student-{n}")
        served = None if local_only else LanggraphDev(Path(tmp))
        ways = {"local processes": None}
        if served is not None:
            ways["langgraph dev"] = served.start()
        try:
            modes = [False, True] if toolchain_problem() is None else [False]
            for compile_pdf in modes:
                for way, server in ways.items():
                    for concurrency in (1, 2):
                        out = Path(tmp) / f"out-{compile_pdf}-{concurrency}-{bool(server)}"
                        seconds = batch_seconds(course, out, concurrency, compile_pdf, server)
                        what = "with xelatex" if compile_pdf else "no PDF"
                        print(
                            f"{FOLDERS} folders, {what}, {way}, concurrency {concurrency}: "
                            f"{seconds:.1f} s",
                            flush=True,
                        )
        finally:
            if served is not None:
                served.stop()


if __name__ == "__main__":
    main()
