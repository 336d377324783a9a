"""Every data file is decoded in a worker process of its own, where it cannot take the
machine: an address-space and a CPU-time limit (RLIMIT_AS, RLIMIT_CPU), and a wall-clock
bound at which the parent kills it. The field's decoders are native code that trusts what a
file declares: a 5 KB workbook with one stray cell makes calamine allocate a dense range of
17 billion cells and abort the process, which no exception handler survives; an HDF5 filter
or a LabVIEW index can make a few kilobytes take gigabytes or minutes. Here such a file
costs its worker, and the run goes on with a plain note: what bound it met.

A worker is forked from the run's process (it has the readers imported already, and no
interpreter is started again: a normal user may not be allowed to run one from where the
run's own lives), so it costs tens of milliseconds (bench/analysis/decoder_worker.py). A
worker's answer is data, never code: JSON for the summaries and settings, NumPy's own format
without pickles for the values, read back by the parent within MAX_ANSWER_BYTES.
"""

from __future__ import annotations

import io
import json
import multiprocessing
import resource
import signal
from multiprocessing.connection import Connection
from pathlib import Path

import numpy as np
import pandas as pd

from labscribe.tools.base import Folder, ToolError
from labscribe.tools.parameters import ParameterRow
from labscribe.tools.readers import NoTable
from labscribe.tools.tables import DataFile, Table, TableSummary, read_data

DECODE_MEMORY = 2048 * 1024 * 1024
"""The address space a worker may add to what it was forked with (RLIMIT_AS is set to the
sum): a lab file's tables take megabytes, a decoder's own libraries a few hundred."""
DECODE_CPU_SECONDS = 30
DECODE_WALL_SECONDS = 90  # a worker starved by other work on a busy machine
MAX_ANSWER_BYTES = 512 * 1024 * 1024
_WORKERS = multiprocessing.get_context("fork")


def decoded(folder: Folder, rel: str) -> DataFile:
    """Every table in the file `rel` names and its instrument's settings (tools.tables'
    read_data), decoded in a bounded worker. Raises ToolError when the file cannot be read,
    NoTable when it holds no numeric table or its decoding met a bound."""
    receiver, sender = _WORKERS.Pipe(duplex=False)
    worker = _WORKERS.Process(target=_decode, args=(folder.root, folder.identity, rel, sender),
                             daemon=True)  # fmt: skip
    worker.start()
    sender.close()
    try:
        if not receiver.poll(DECODE_WALL_SECONDS):
            raise NoTable(f"{rel} was not read: decoding it took longer than "
                          f"{DECODE_WALL_SECONDS} s, so it was stopped")  # fmt: skip
        try:
            answer = receiver.recv_bytes(MAX_ANSWER_BYTES)
        except (EOFError, OSError):
            worker.join(5)
            raise NoTable(_stopped(rel, worker.exitcode)) from None
    finally:
        receiver.close()
        if worker.is_alive():
            worker.kill()
        worker.join()
    return _unpacked(answer)


def decoded_tables(folder: Folder, rel: str) -> list[Table]:
    """The tables of the file `rel` names (`decoded`'s)."""
    return decoded(folder, rel).tables


def _stopped(rel: str, exitcode: int | None) -> str:
    """Why a worker ended without an answer, in words for the report."""
    if exitcode in (-signal.SIGXCPU, -signal.SIGKILL):
        return f"{rel} was not read: decoding it took more than {DECODE_CPU_SECONDS} s of CPU"
    how = f"was stopped by {signal.Signals(-exitcode).name}" if exitcode and exitcode < 0 else (
        f"ended with exit status {exitcode}")  # fmt: skip
    return (
        f"{rel} was not read: its decoder {how}, as decoders do when what a file declares "
        f"would take more than {DECODE_MEMORY // 2**20} MB more"
    )


def _decode(root: Path, identity: tuple[int, int] | None, rel: str, sender: Connection) -> None:
    """In the worker: the file's tables, or why there are none, sent as data."""
    # forked, the worker has the run's address space already (a long-lived server's may be
    # gigabytes): the bound is on what decoding adds to it
    pages = int(Path("/proc/self/statm").read_text().split()[0])
    limit = pages * resource.getpagesize() + DECODE_MEMORY
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    resource.setrlimit(resource.RLIMIT_CPU, (DECODE_CPU_SECONDS, DECODE_CPU_SECONDS + 1))
    try:
        answer = _packed(read_data(Folder(root, identity=identity), rel))
    except NoTable as exc:
        answer = _failure("no table", str(exc), exc.metadata)
    except ToolError as exc:
        answer = _failure("tool", str(exc))
    except MemoryError:
        answer = _failure("no table", f"{rel} was not read: decoding it needed more than "
                                      f"{DECODE_MEMORY // 2**20} MB more")  # fmt: skip
    except Exception as exc:  # a library's refusal of a damaged or unexpected file
        answer = _failure("no table", f"{rel} could not be read: {type(exc).__name__}: {exc}"[:300])
    sender.send_bytes(answer)
    sender.close()


def _failure(kind: str, message: str, metadata: list[ParameterRow] = ()) -> bytes:  # type: ignore[assignment]
    head = {"error": kind, "message": message,
            "metadata": [row.model_dump(mode="json") for row in metadata]}  # fmt: skip
    return _framed(head, b"")


def _packed(data: DataFile) -> bytes:
    values = io.BytesIO()
    np.savez(values, *(table.frame.to_numpy(dtype=float) for table in data.tables))
    head = {
        "tables": [{"summary": t.summary.model_dump(mode="json"), "columns": list(t.frame.columns)}
                   for t in data.tables],
        "metadata": [row.model_dump(mode="json") for row in data.metadata],
        "unread": data.unread,
    }  # fmt: skip
    return _framed(head, values.getvalue())


def _framed(head: dict, values: bytes) -> bytes:
    text = json.dumps(head).encode()
    return len(text).to_bytes(8, "big") + text + values


def _unpacked(answer: bytes) -> DataFile:
    length = int.from_bytes(answer[:8], "big")
    head = json.loads(answer[8 : 8 + length])
    metadata = [ParameterRow.model_validate(row) for row in head["metadata"]]
    if "error" in head:
        if head["error"] == "tool":
            raise ToolError(head["message"])
        raise NoTable(head["message"], metadata)
    arrays = np.load(io.BytesIO(answer[8 + length :]), allow_pickle=False)
    tables = [
        Table(TableSummary.model_validate(table["summary"]),
              pd.DataFrame(arrays[f"arr_{n}"], columns=table["columns"]))
        for n, table in enumerate(head["tables"])
    ]  # fmt: skip
    return DataFile(tables=tables, metadata=metadata, unread=head["unread"])
