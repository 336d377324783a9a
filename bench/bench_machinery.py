"""Machinery cost outside the model: the zero-model scan, and read_file on a 1 GB file.

    .venv/bin/python bench/bench_machinery.py          # both (a few minutes)
    .venv/bin/python bench/bench_machinery.py scan     # scan_folder on 100,000 files
    .venv/bin/python bench/bench_machinery.py read     # read_file on a 1 GB text file

Prints a markdown section to paste into (or include from) a results file; progress goes to
stderr. `machinery_section()` returns the same text for other scripts. The inputs are generated
in a temporary folder and removed afterwards; they are still in the page cache when measured,
so the numbers are CPU cost, not disk speed.

Each measurement runs in a fresh interpreter, so the process max RSS (ru_maxrss) it reports
is its own. Time comes from an untraced run; the Python allocation peak (tracemalloc) from a
second, traced run of the same work, because tracing slows allocation-heavy code.

The guard's decision time and the graph's overhead per explore step are bench_loop.py's, the
checkpoint cost per super-step bench_checkpoints.py's: not repeated here.
"""

from __future__ import annotations

import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

from labscribe.tools.explorer.files import READ_FILE
from labscribe.tools.explorer.line_index import LINE_INDEXES
from labscribe.tools.explorer.scanning import scan_folder
from labscribe.tools.tool import Folder

SCRIPT = "bench/bench_machinery.py"
FOLDERS, FILES_PER_FOLDER = 1_000, 100
SUFFIXES = (".csv", ".txt", ".md", ".pdf", ".png", ".json")
SCAN_RUNS = 3
# 50-byte lines, numbered so every window read can be checked against the line it must show.
LINE_TAIL = ",23.456789,1.234567,0.000123,42.00,ok\n"
LINE_BYTES = 12 + len(LINE_TAIL)
LINES_PER_BLOCK = 20_000  # a 1 MB write
BLOCKS = 1_074  # 1,074 MB (10^6 B): just over 1 GiB
READ_TIMEOUT = 600.0  # seconds; far above the first full pass, so it never cuts a measurement


def _line(number: int) -> str:
    return f"{number:012d}{LINE_TAIL}"


def _mb(size: float) -> float:
    return size / 2**20


def _max_rss_mb() -> float:
    """The process's high-water resident memory so far, in MB (Linux reports KB, macOS B)."""
    unit = 1 if sys.platform == "darwin" else 1024
    return _mb(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * unit)


def _progress(message: str) -> None:
    print(f"[bench_machinery] {message}", file=sys.stderr, flush=True)


def _make_tree(root: Path) -> int:
    """FOLDERS folders of FILES_PER_FOLDER small files, suffixes mixed; the file count."""
    for folder in range(FOLDERS):
        target = root / f"run_{folder:04d}"
        target.mkdir(parents=True)
        for n in range(FILES_PER_FOLDER):
            (target / f"item_{n:03d}{SUFFIXES[n % len(SUFFIXES)]}").write_bytes(b"1,2\n")
    return FOLDERS * FILES_PER_FOLDER


def _make_big_file(path: Path) -> int:
    """BLOCKS MB of numbered LINE_BYTES-byte lines, written a block at a time; the line count."""
    with path.open("wb") as out:
        for block in range(BLOCKS):
            first = block * LINES_PER_BLOCK
            out.write("".join(map(_line, range(first, first + LINES_PER_BLOCK))).encode())
    return BLOCKS * LINES_PER_BLOCK


def _scan_worker(root: Path, traced: bool) -> dict[str, Any]:
    rss_before = _max_rss_mb()
    if traced:
        tracemalloc.start()
        result = scan_folder(root)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        return {"files": result.total_files, "peak_mb": _mb(peak)}
    seconds = []
    for _ in range(SCAN_RUNS):
        start = time.perf_counter()
        result = scan_folder(root)
        seconds.append(time.perf_counter() - start)
    return {
        "files": result.total_files,
        "seconds": statistics.median(seconds),
        "rss_before_mb": rss_before,
        "rss_after_mb": _max_rss_mb(),
    }


def _read_steps(lines: int) -> list[tuple[str, int]]:
    """The reads, in the order they run: their order is what is being measured."""
    near_end = lines - 200
    return [
        ("offset 0", 0),
        (f"offset {near_end:,}, first read near the end (decodes to it once)", near_end),
        (f"offset {near_end:,} again (seeks via the index)", near_end),
        (f"offset {lines // 2:,}, the middle, afterwards (seeks via the index)", lines // 2),
    ]


def _read_worker(path: Path, lines: int, traced: bool) -> dict[str, Any]:
    folder = Folder(path.parent)
    rss_before = _max_rss_mb()
    steps = []
    if traced:
        tracemalloc.start()
    for label, offset in _read_steps(lines):
        if traced:
            tracemalloc.reset_peak()
            held_before = tracemalloc.get_traced_memory()[0]
        start = time.perf_counter()
        calls = 0
        while True:  # one call decodes at most its budget: far lines take several, each going
            calls += 1  # on from the line index the last one kept
            outcome = READ_FILE.invoke(
                folder, {"path": path.name, "offset": offset}, timeout=READ_TIMEOUT
            )
            if outcome.ok or "one read_file call reads" not in outcome.content:
                break
        seconds = time.perf_counter() - start
        expected = _line(offset).rstrip("\n")
        shown = outcome.content.split("\n")[1] if outcome.ok else outcome.content
        if shown != expected:  # a fast wrong answer is not a result
            raise AssertionError(f"{label}: expected {expected!r}, read {shown!r}")
        label += f", {calls} calls" if calls > 1 else ""
        step: dict[str, Any] = {"label": label, "seconds": seconds, "rss_mb": _max_rss_mb()}
        if traced:
            current, peak = tracemalloc.get_traced_memory()
            # Above what was held before the step: the index kept by an earlier step is not
            # this step's cost.
            step |= {"peak_mb": _mb(peak - held_before), "kept_mb": _mb(current - held_before)}
        steps.append(step)
    index = LINE_INDEXES.index_for(path, path.stat(), "utf-8")
    return {
        "steps": steps,
        "indexed_lines": index.indexed_lines,
        "positions": index.indexed_lines // index.step + 1,
        "rss_before_mb": rss_before,
    }


def _in_fresh_process(*args: str) -> dict[str, Any]:
    """Run one worker (`python bench_machinery.py --worker ...`) and return its JSON answer."""
    done = subprocess.run(
        [sys.executable, __file__, "--worker", *args], check=True, capture_output=True, text=True
    )
    return json.loads(done.stdout)


def _scan_rows(tmp: Path) -> list[str]:
    root = tmp / "tree"
    _progress(f"writing {FOLDERS * FILES_PER_FOLDER:,} files under {root}")
    files = _make_tree(root)
    _progress(f"scanning ({SCAN_RUNS} timed runs, then 1 traced run)")
    timed = _in_fresh_process("scan", str(root), "timed")
    traced = _in_fresh_process("scan", str(root), "traced")
    assert timed["files"] == traced["files"] == files, (timed, files)
    command = f"`.venv/bin/python {SCRIPT} scan`"
    return [
        f"| `scan_folder`, {files:,} files in {FOLDERS:,} folders "
        f"({' '.join(SUFFIXES)}) | {timed['seconds']:.2f} s, "
        f"{files / timed['seconds']:,.0f} files/s (median of {SCAN_RUNS}) "
        f"| {traced['peak_mb']:.1f} MB | {timed['rss_after_mb']:.0f} MB "
        f"({timed['rss_before_mb']:.0f} MB after imports) | {command} |"
    ]


def _read_rows(tmp: Path) -> list[str]:
    path = tmp / "big.csv"
    _progress(f"writing {BLOCKS:,} MB to {path}")
    lines = _make_big_file(path)
    gigabytes = path.stat().st_size / 2**30
    _progress("reading (timed run)")
    timed = _in_fresh_process("read", str(path), str(lines), "timed")
    _progress("reading (traced run)")
    traced = _in_fresh_process("read", str(path), str(lines), "traced")
    path.unlink()
    command = f"`.venv/bin/python {SCRIPT} read`"
    rows = []
    for step, traced_step in zip(timed["steps"], traced["steps"], strict=True):
        rows.append(
            f"| `read_file`, {gigabytes:.1f} GB file of {lines:,} {LINE_BYTES}-byte lines: "
            f"{step['label']} | {_duration(step['seconds'])} | {traced_step['peak_mb']:.1f} MB "
            f"| {step['rss_mb']:.0f} MB so far ({timed['rss_before_mb']:.0f} MB after "
            f"imports) | {command} |"
        )
    kept = traced["steps"][1]["kept_mb"]
    rows.append(
        f"| line index kept for that file: {traced['positions']:,} positions "
        f"(lines 0-{traced['indexed_lines']:,}) | | {kept:.2f} MB still held after the "
        f"first read near the end | | {command} |"
    )
    return rows


def _duration(seconds: float) -> str:
    return f"{seconds:.2f} s" if seconds >= 1 else f"{seconds * 1e3:.1f} ms"


PARTS: dict[str, Callable[[Path], list[str]]] = {"scan": _scan_rows, "read": _read_rows}


def machinery_section(parts: tuple[str, ...] = tuple(PARTS)) -> str:
    """The markdown section: one table row per measurement, each naming its command."""
    rows: list[str] = []
    with tempfile.TemporaryDirectory(prefix="bench_machinery_") as tmp:
        for part in parts:
            rows += PARTS[part](Path(tmp))
    machine = (
        f"Python {platform.python_version()} on {platform.system()} {platform.machine()}, "
        f"{os.cpu_count()} CPUs"
    )
    return "\n".join(
        [
            "### Machinery: scan and read_file",
            "",
            f"{machine}; inputs generated in a temporary folder and still in the page cache "
            "(CPU cost, not disk). Time from an untraced run; Python peak from a separate "
            "tracemalloc run of the same steps; max RSS is the process high-water mark "
            "(ru_maxrss), each part in a fresh interpreter.",
            "",
            "| measurement | time | Python peak (tracemalloc, above memory held before) "
            "| process max RSS | reproduce |",
            "|---|---|---|---|---|",
            *rows,
        ]
    )


def main(argv: list[str] | None = None) -> str:
    """Measure the parts named in `argv` (all by default) and return the markdown section."""
    args = sys.argv[1:] if argv is None else argv
    unknown = set(args) - set(PARTS)
    if unknown:
        raise SystemExit(f"unknown part(s) {sorted(unknown)}; choose from {sorted(PARTS)}")
    return machinery_section(tuple(args) or tuple(PARTS))


def _worker(args: list[str]) -> dict[str, Any]:
    kind, target, *rest = args
    traced = rest[-1] == "traced"
    if kind == "scan":
        return _scan_worker(Path(target), traced)
    return _read_worker(Path(target), int(rest[0]), traced)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--worker"]:
        print(json.dumps(_worker(sys.argv[2:])))
    else:
        print(main())
