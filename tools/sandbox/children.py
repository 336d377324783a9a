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
from collections.abc import Callable, Iterator
from typing import Any

_running: set[subprocess.Popen[bytes]] = set()
_on_cancel: list[Callable[[], None]] = []
CANCELLED = threading.Event()
"""Set once a run in this process is cancelled (`stop_all`): no child starts until the next
run clears it as it begins (graph/runner.drive)."""
# Reentrant: stop_all runs in a signal handler, which may interrupt this very thread
# while it holds the lock.
_lock = threading.RLock()


class Cancelled(RuntimeError):
    """The run was cancelled: no new child starts, so the step that wanted one ends now."""


@contextlib.contextmanager
def started(command: list[str], **options: Any) -> Iterator[subprocess.Popen[bytes]]:
    """`subprocess.Popen(command, **options)` in a session of its own, tracked while it runs;
    stopped on the way out if it still runs. Raises Cancelled once the run is cancelled: a
    step in a worker thread must not start another latexmk the cancel would wait for."""
    with _lock:
        if CANCELLED.is_set():
            raise Cancelled("the run was cancelled")
        process = subprocess.Popen(command, start_new_session=True, **options)
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


def on_cancel(stop_service: Callable[[], None]) -> None:
    """Run `stop_service` when a run is cancelled: for a long-lived child that a step may be
    waiting on (the embedded model server mid-reply, the figure worker mid-figure)."""
    with _lock:
        _on_cancel.append(stop_service)


def stop_all() -> None:
    """Kill every tracked child and stop every registered service: the run is cancelled, and
    no child starts until the next run begins (`CANCELLED`)."""
    CANCELLED.set()
    with _lock:
        running, services = list(_running), list(_on_cancel)
    for process in running:
        stop(process)
    for stop_service in services:
        with contextlib.suppress(Exception):
            stop_service()
