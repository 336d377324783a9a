"""The child processes a run starts (latexmk, ...), so a cancelled run stops them at once.

Each child runs in a session of its own, so a terminal's Ctrl-C does not reach it and a
timeout can kill its whole group (latexmk and the xelatex it started). A cancel (Ctrl-C,
SIGTERM) ends the run in the main thread while a node may still be waiting on a child in a
worker thread; `stop_all` ends every child, so that wait returns and nothing outlives the run.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import threading
from collections.abc import Iterator
from typing import Any

_running: set[subprocess.Popen[bytes]] = set()
_lock = threading.Lock()


@contextlib.contextmanager
def started(command: list[str], **options: Any) -> Iterator[subprocess.Popen[bytes]]:
    """`subprocess.Popen(command, **options)` in a session of its own, tracked while it runs;
    stopped on the way out if it still runs."""
    process = subprocess.Popen(command, start_new_session=True, **options)
    with _lock:
        _running.add(process)
    try:
        yield process
    finally:
        if process.poll() is None:
            stop(process)
        with _lock:
            _running.discard(process)


def stop(process: subprocess.Popen[bytes]) -> None:
    """Kill `process` and every process of its session, and reap it."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()


def stop_all() -> None:
    """Kill every tracked child: the run is being cancelled."""
    with _lock:
        running = list(_running)
    for process in running:
        stop(process)
