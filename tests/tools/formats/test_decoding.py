"""The bounded decoding worker (tools.formats.decoding): forked from a process that already holds
gigabytes of address space (a long-lived server, a test runner), a worker still decodes, since
its bound is on what decoding adds; and what it answers is what the readers read in process."""

from __future__ import annotations

import math
import mmap
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from labscribe.guards.bounds import ComputeBudget
from labscribe.tools.formats import decoding
from labscribe.tools.formats.decoding import DECODE_MEMORY, decoded, decoded_once
from labscribe.tools.formats.tables import read_data
from labscribe.tools.tool import Folder

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


def test_within_decoded_once_a_file_is_decoded_in_one_worker_and_read_alike(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    workers: list[str] = []  # the file each worker was started for
    real_worker = decoding.in_worker

    def counted(work: Any, bounds: Any) -> Any:
        workers.append(work.args[2])
        return real_worker(work, bounds)

    monkeypatch.setattr(decoding, "in_worker", counted)
    (tmp_path / "sweep.csv").write_text("f,V\n" + "".join(f"{i},{i * i}\n" for i in range(50)))
    (tmp_path / "large.csv").write_text("f,V\n" + "".join(f"{i},{i % 7}\n" for i in range(2000)))
    monkeypatch.setattr(decoding, "REMEMBERED_ANSWER_BYTES", 8_000)  # the sweep's answer fits
    folder = Folder(tmp_path)
    with decoded_once():
        first, again = (decoded(folder, "sweep.csv") for _ in range(2))
        decoded(folder, "large.csv")
        decoded(folder, "large.csv")
    assert workers == ["sweep.csv", "large.csv", "large.csv"]
    assert first.tables[0].summary == again.tables[0].summary
    assert first.tables[0].frame is not again.tables[0].frame  # a copy each: callers may change it
    assert first.tables[0].frame.equals(again.tables[0].frame)
    decoded(folder, "sweep.csv")  # outside the scope nothing is kept
    assert workers[-1] == "sweep.csv" and len(workers) == 4
