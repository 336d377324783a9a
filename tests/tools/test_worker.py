"""The bounded worker (tools.worker): work that holds the GIL, or crashes, or answers too
much, is stopped at its bound and says which; its CPU time is known from the kernel."""

from __future__ import annotations

import os
import resource
import time

import pytest

from labscribe.tools.worker import Bounds, WorkerStopped, in_worker

SMALL = Bounds(memory=256 * 2**20, cpu_seconds=1, wall_seconds=20, max_answer=1 << 20)


def test_an_answer_comes_back_with_its_cpu_time() -> None:
    finished = in_worker(lambda: b"answer", SMALL)
    assert finished.answer == b"answer"
    assert 0 <= finished.cpu_seconds < 1


def test_a_power_that_holds_the_gil_is_stopped_at_the_cpu_bound() -> None:
    started = time.monotonic()
    with pytest.raises(WorkerStopped) as stopped:
        in_worker(lambda: str(9**9**9).encode(), SMALL)  # a thread join would never return
    assert stopped.value.out_of_cpu and not stopped.value.wall
    assert stopped.value.cpu_seconds > 0.5  # read from the kernel, near its 1 s bound
    assert time.monotonic() - started < SMALL.wall_seconds


def test_a_worker_past_its_wall_clock_is_killed() -> None:
    with pytest.raises(WorkerStopped) as stopped:
        in_worker(lambda: time.sleep(30) or b"late", Bounds(2**28, 5, 0.5, 1 << 20))
    assert stopped.value.wall and not stopped.value.out_of_cpu


def test_work_that_raises_or_allocates_past_its_bound_ends_its_worker_only() -> None:
    with pytest.raises(WorkerStopped) as raised:
        in_worker(lambda: 1 / 0, SMALL)  # type: ignore[arg-type, return-value]
    assert raised.value.exitcode == 70
    with pytest.raises(WorkerStopped) as grown:
        in_worker(lambda: bytes(512 * 2**20), SMALL)  # twice its address space
    assert grown.value.exitcode == 70 and not grown.value.out_of_cpu


def test_an_answer_larger_than_its_bound_is_refused() -> None:
    with pytest.raises(WorkerStopped) as stopped:
        in_worker(lambda: bytes(2 << 20), SMALL)
    assert stopped.value.big


def test_a_process_holding_many_descriptors_still_gets_its_answer() -> None:
    # a long-lived server may hold more than select()'s 1024 descriptors: the pipe's number
    # is then past what select() takes
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 4096), hard))
    held = [os.open(os.devnull, os.O_RDONLY) for _ in range(1100)]
    try:
        assert in_worker(lambda: b"answer", SMALL).answer == b"answer"
    finally:
        for descriptor in held:
            os.close(descriptor)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
