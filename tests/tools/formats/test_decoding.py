"""The bounded decoding worker (tools.formats.decoding): forked from a process that already holds
gigabytes of address space (a long-lived server, a test runner), a worker still decodes, since
its bound is on what decoding adds; and what it answers is what the readers read in process."""

from __future__ import annotations

import math
import mmap
from pathlib import Path

import numpy as np

from labscribe.guards.bounds import ComputeBudget
from labscribe.tools.base import Folder
from labscribe.tools.formats.decoding import DECODE_MEMORY, decoded
from labscribe.tools.formats.tables import (
    read_data,
)

REAL = Path(__file__).resolve().parents[2] / "data" / "real"


def test_a_worker_forked_from_a_large_process_still_decodes() -> None:
    held = mmap.mmap(-1, DECODE_MEMORY + (1 << 30))  # address space the run holds, untouched
    try:
        in_worker = decoded(Folder(REAL), "workbooks/solar_cells_agh_134.xlsx")
    finally:
        held.close()
    in_process = read_data(Folder(REAL), "workbooks/solar_cells_agh_134.xlsx")
    assert [t.summary for t in in_worker.tables] == [t.summary for t in in_process.tables]
    for one, other in zip(in_worker.tables, in_process.tables, strict=True):
        assert np.array_equal(one.frame.to_numpy(), other.frame.to_numpy(), equal_nan=True)
    assert in_worker.metadata == in_process.metadata


def test_the_workers_cpu_time_is_charged_to_the_analysis_budget() -> None:
    # a clock of the parent's own thread that never moves: only the worker's time counts
    budget = ComputeBudget(0.0, math.inf, cpu_clock=lambda: 0.0)
    assert not budget.spent()
    decoded(Folder(REAL), "workbooks/solar_cells_agh_134.xlsx", budget)
    assert budget.spent()
