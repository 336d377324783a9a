"""Every data file is decoded in a worker process of its own (tools.worker), where it cannot
take the machine. The field's decoders are native code that trusts what a file declares: a
5 KB workbook with one stray cell makes calamine allocate a dense range of 17 billion cells
and abort the process, which no exception handler survives; an HDF5 filter or a LabVIEW
index can make a few kilobytes take gigabytes or minutes. Here such a file costs its worker,
and the run goes on with a plain note: what bound it met. The worker's CPU time is charged
to the analysis's budget. Its answer is data, never code: JSON for the summaries and
settings, NumPy's own format without pickles for the values.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import partial
from pathlib import Path

import numpy as np
import pandas as pd

from labscribe.guards.bounds import ComputeBudget
from labscribe.tools.base import ToolError
from labscribe.tools.formats.parameters import ParameterRow
from labscribe.tools.formats.readers import NoTable
from labscribe.tools.formats.tables import DataFile, Table, TableSummary, read_data
from labscribe.tools.tool import Folder
from labscribe.tools.worker import Bounds, WorkerStopped, framed, in_worker, unframed

DECODE_MEMORY = 2048 * 1024 * 1024
"""The address space a worker may add to what it was forked with: a lab file's tables take
megabytes, a decoder's own libraries a few hundred."""
DECODE_CPU_SECONDS = 30
DECODE_WALL_SECONDS = 90  # a worker starved by other work on a busy machine
MAX_ANSWER_BYTES = 512 * 1024 * 1024
DECODING = Bounds(DECODE_MEMORY, DECODE_CPU_SECONDS, DECODE_WALL_SECONDS, MAX_ANSWER_BYTES)


REMEMBERED_ANSWER_BYTES = 8 * 1024 * 1024
"""The largest answer `decoded_once` keeps: a lab file's tables take kilobytes, and a file of
hundreds of megabytes is decoded again rather than held."""
_remembered: ContextVar[dict[tuple[str, tuple[int, int] | None, str], bytes] | None] = ContextVar(
    "decoded answers", default=None
)


@contextmanager
def decoded_once() -> Iterator[None]:
    """Within it, a file already decoded is unpacked from its worker's answer again instead
    of decoded in another worker: the scan's figures read the tables its analysis read."""
    token = _remembered.set({})
    try:
        yield
    finally:
        _remembered.reset(token)


def decoded(folder: Folder, rel: str, budget: ComputeBudget | None = None) -> DataFile:
    """Every table in the file `rel` names and its instrument's settings (tools.formats.tables'
    read_data), decoded in a bounded worker whose CPU time is charged to `budget`. Raises
    ToolError when the file cannot be read, NoTable when it holds no numeric table or its
    decoding met a bound."""
    remembered, key = _remembered.get(), (str(folder.root), folder.identity, rel)
    if remembered is not None and key in remembered:
        return _unpacked(remembered[key])
    try:
        finished = in_worker(partial(_decode, folder.root, folder.identity, rel), DECODING)
    except WorkerStopped as stop:
        if budget is not None:
            budget.charge(stop.cpu_seconds)
        raise NoTable(_stopped(rel, stop)) from None
    if budget is not None:
        budget.charge(finished.cpu_seconds)
    if remembered is not None and len(finished.answer) <= REMEMBERED_ANSWER_BYTES:
        remembered[key] = finished.answer
    return _unpacked(finished.answer)


def decoded_tables(folder: Folder, rel: str) -> list[Table]:
    """The tables of the file `rel` names (`decoded`'s)."""
    return decoded(folder, rel).tables


def _stopped(rel: str, stop: WorkerStopped) -> str:
    """Why a worker ended without an answer, in words for the report."""
    if stop.wall:
        return (f"{rel} was not read: decoding it took longer than {DECODE_WALL_SECONDS} s, "
                "so it was stopped")  # fmt: skip
    if stop.big:
        return f"{rel} was not read: its tables take more than {MAX_ANSWER_BYTES // 2**20} MB"
    if stop.out_of_cpu:
        return f"{rel} was not read: decoding it took more than {DECODE_CPU_SECONDS} s of CPU"
    name = stop.signal_name()
    how = f"was stopped by {name}" if name else f"ended with exit status {stop.exitcode}"
    return (
        f"{rel} was not read: its decoder {how}, as decoders do when what a file declares "
        f"would take more than {DECODE_MEMORY // 2**20} MB more"
    )


def _decode(root: Path, identity: tuple[int, int] | None, rel: str) -> bytes:
    """In the worker: the file's tables, or why there are none, as data."""
    try:
        return _packed(read_data(Folder(root, identity=identity), rel))
    except NoTable as exc:
        return _failure("no table", str(exc), exc.metadata)
    except ToolError as exc:
        return _failure("tool", str(exc))
    except MemoryError:
        return _failure("no table", f"{rel} was not read: decoding it needed more than "
                                    f"{DECODE_MEMORY // 2**20} MB more")  # fmt: skip
    except Exception as exc:  # a library's refusal of a damaged or unexpected file
        return _failure("no table", f"{rel} could not be read: {type(exc).__name__}: {exc}"[:300])


def _failure(kind: str, message: str, metadata: list[ParameterRow] = ()) -> bytes:  # type: ignore[assignment]
    head = {"error": kind, "message": message,
            "metadata": [row.model_dump(mode="json") for row in metadata]}  # fmt: skip
    return framed(head)


def _packed(data: DataFile) -> bytes:
    values = io.BytesIO()
    np.savez(values, *(table.frame.to_numpy(dtype=float) for table in data.tables))
    head = {
        "tables": [{"summary": t.summary.model_dump(mode="json"), "columns": list(t.frame.columns)}
                   for t in data.tables],
        "metadata": [row.model_dump(mode="json") for row in data.metadata],
        "unread": data.unread,
    }  # fmt: skip
    return framed(head, values.getvalue())


def _unpacked(answer: bytes) -> DataFile:
    head, values = unframed(answer)
    metadata = [ParameterRow.model_validate(row) for row in head["metadata"]]
    if "error" in head:
        if head["error"] == "tool":
            raise ToolError(head["message"])
        raise NoTable(head["message"], metadata)
    arrays = np.load(io.BytesIO(values), allow_pickle=False)
    tables = [
        Table(TableSummary.model_validate(table["summary"]),
              pd.DataFrame(arrays[f"arr_{n}"], columns=table["columns"]))
        for n, table in enumerate(head["tables"])
    ]  # fmt: skip
    return DataFile(tables=tables, metadata=metadata, unread=head["unread"])
