"""Work on untrusted input in a forked process of its own, where it cannot take the machine:
an address-space and a CPU-time limit (RLIMIT_AS, RLIMIT_CPU), and a wall-clock bound at
which the parent kills it. A thread cannot be stopped: a decoder in native code, or a
big-integer power that holds the GIL (`9^9^9` in a formula), would keep a thread-join
timeout from ever returning. A worker is killed, and what it cost is known from the kernel
(wait4), so its CPU time is charged to the budget of the work that asked for it.

A worker is forked from the run's process (the readers are imported already, and no
interpreter is started again: a normal user may not be allowed to run one from where the
run's own lives), so it costs tens of milliseconds (bench/analysis/decoder_worker.py). Its
answer is bytes the caller reads as data, never code. A tool's work comes back from its
worker as an `Answer` or a ToolError (`answer_in_worker`); a tool that needs no worker runs
on a thread that is abandoned at its wall-clock bound (`in_thread`).
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import resource
import select
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from labscribe.tools.base import Answer, ToolError
from labscribe.tools.messages import WORK_TOO_BIG

_CHUNK = 1 << 20
_FAILED = 70  # the worker's own exit status when `work` raised (EX_SOFTWARE)


@dataclass(frozen=True)
class Bounds:
    memory: int
    """Bytes of address space the worker may add to what it was forked with."""
    cpu_seconds: int
    wall_seconds: float
    max_answer: int


class WorkerStopped(Exception):
    """The worker ended without its whole answer: it met a bound, or crashed."""

    def __init__(
        self, exitcode: int | None, cpu_seconds: float, *, wall: bool = False, big: bool = False
    ) -> None:
        super().__init__(exitcode)
        self.exitcode = exitcode
        self.cpu_seconds = cpu_seconds
        self.wall = wall
        """Killed at the wall-clock bound."""
        self.big = big
        """Killed for an answer larger than the bound."""

    @property
    def out_of_cpu(self) -> bool:
        return self.exitcode in (-signal.SIGXCPU, -signal.SIGKILL) and not (self.wall or self.big)

    def signal_name(self) -> str | None:
        return signal.Signals(-self.exitcode).name if self.exitcode and self.exitcode < 0 else None


@dataclass(frozen=True)
class Finished:
    answer: bytes
    cpu_seconds: float


def in_worker(work: Callable[[], bytes], bounds: Bounds) -> Finished:
    """`work()`'s bytes, computed in a forked worker within `bounds`; WorkerStopped when it
    met one or ended without answering. `work` must turn its own failures into bytes."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the worker: never returns
        os.close(read_end)
        _serve(work, bounds, write_end)
    os.close(write_end)
    deadline = time.monotonic() + bounds.wall_seconds
    chunks: list[bytes] = []
    size, ended, wall = 0, False, False
    waiting = select.poll()  # not select(): a server may hold more than 1024 descriptors
    waiting.register(read_end, select.POLLIN)
    try:
        while not ended:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not waiting.poll(remaining * 1000):
                wall = True
                break
            chunk = os.read(read_end, _CHUNK)
            ended = not chunk
            size += len(chunk)
            chunks.append(chunk)
            if size > bounds.max_answer + 1:
                break
    finally:
        os.close(read_end)
        if not ended:
            os.kill(pid, signal.SIGKILL)
        _, status, usage = os.wait4(pid, 0)
    cpu = usage.ru_utime + usage.ru_stime
    exitcode = os.waitstatus_to_exitcode(status)
    answer = b"".join(chunks)
    if not ended or exitcode != 0 or not answer:
        raise WorkerStopped(exitcode, cpu, wall=wall, big=size > bounds.max_answer)
    return Finished(answer, cpu)


def _serve(work: Callable[[], bytes], bounds: Bounds, write_end: int) -> None:
    status = _FAILED
    try:
        # forked, the worker has the run's address space already (a long-lived server's may
        # be gigabytes): the bound is on what the work adds to it
        pages = int(Path("/proc/self/statm").read_text().split()[0])
        _lower(resource.RLIMIT_AS, pages * resource.getpagesize() + bounds.memory)
        _lower(resource.RLIMIT_CPU, bounds.cpu_seconds, slack=1)  # SIGXCPU, then SIGKILL
        answer = work()
        with os.fdopen(write_end, "wb") as out:
            out.write(answer)
        status = 0
    finally:
        os._exit(status)  # no atexit handler, no finaliser of the run's objects


def _lower(kind: int, limit: int, slack: int = 0) -> None:
    """Set the limit `kind` to `limit` (its hard limit `slack` above), or keep the lower one
    a worker it was forked from set (a fit's worker decodes its file in a worker of its own)."""
    _, hard = resource.getrlimit(kind)
    ceiling = limit + slack if hard == resource.RLIM_INFINITY else min(limit + slack, hard)
    resource.setrlimit(kind, (min(limit, ceiling), ceiling))


def framed(head: dict, payload: bytes = b"") -> bytes:
    """A worker's answer: a JSON head (what it found, or why not) and its data as bytes."""
    text = json.dumps(head).encode()
    return len(text).to_bytes(8, "big") + text + payload


def unframed(answer: bytes) -> tuple[dict, bytes]:
    """The head and the data of a `framed` answer."""
    length = int.from_bytes(answer[:8], "big")
    return json.loads(answer[8 : 8 + length]), answer[8 + length :]


# A fit's worker holds its table and lmfit, and decodes the file in a worker of its own
# (tools.formats.decoding), which cannot take more than this bound leaves it.
ISOLATED_MEMORY = 3 * 1024 * 1024 * 1024
ISOLATED_ANSWER_BYTES = 16 * 1024 * 1024


class WorkerFailed(Exception):
    """A tool's own failure in its worker, as `TypeName: message`."""


def answer_in_worker(timeout: float, run: Callable[..., str | Answer], *args: Any) -> Answer:
    """`run(*args)` in a worker bounded to `timeout` seconds of CPU and of wall clock and to
    ISOLATED_MEMORY; TimeoutError when it meets a time bound, ToolError when it meets the
    memory bound or raises one."""
    bounds = Bounds(ISOLATED_MEMORY, math.ceil(timeout), timeout, ISOLATED_ANSWER_BYTES)
    try:
        finished = in_worker(partial(_answered, run, *args), bounds)
    except WorkerStopped as stop:
        if stop.wall or stop.out_of_cpu:
            raise TimeoutError from None
        raise ToolError(WORK_TOO_BIG.format(megabytes=ISOLATED_MEMORY // 2**20)) from None
    head = json.loads(finished.answer)
    if "tool_error" in head:
        raise ToolError(head["tool_error"])
    if "failed" in head:
        raise WorkerFailed(head["failed"])
    lines = head.pop("lines")
    return Answer(**head, lines=tuple(lines) if lines else None)


def _answered(run: Callable[..., str | Answer], *args: Any) -> bytes:
    """In the worker: `run(*args)`'s answer, or its failure, as JSON."""
    try:
        answer = run(*args)
    except ToolError as exc:
        return json.dumps({"tool_error": str(exc)}).encode()
    except Exception as exc:
        return json.dumps({"failed": f"{type(exc).__name__}: {exc}"}).encode()
    answer = answer if isinstance(answer, Answer) else Answer(answer)
    return json.dumps(dataclasses.asdict(answer)).encode()


def in_thread(timeout: float | None, run: Callable[..., str], *args: Any) -> str:
    """`run(*args)`, or TimeoutError after `timeout` seconds.

    The work runs on a daemon thread: a read stuck on a slow disk is abandoned, never waited
    for, and cannot keep the process alive at exit.
    """
    if timeout is None:
        return run(*args)
    result: list[str] = []
    failure: list[BaseException] = []

    def work() -> None:
        try:
            result.append(run(*args))
        except BaseException as exc:  # handed to the caller's thread below
            failure.append(exc)

    worker = threading.Thread(target=work, daemon=True)
    worker.start()
    worker.join(timeout)
    if worker.is_alive():
        raise TimeoutError
    if failure:
        raise failure[0]
    return result[0]
