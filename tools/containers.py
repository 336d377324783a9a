"""Tables from the binary and structured formats labs produce, each read by its field's
library: spreadsheets (`spreadsheets`), LabVIEW .lvm and .tdms (`labview`), NumPy
(`array_files`), MATLAB (`matlab_files`) and HDF5 (`hdf5_files`), their arrays made tables
by `array_tables`; CASSY Lab 2's zipped XML (`cassy_labx`), for which no library keeps the
digits.

A file's suffix picks its reader here, because these formats cannot be told apart by a
prefix as text can (an xlsx and an ods are both zips, a v7.3 .mat is HDF5). Every reader
keeps the bounds of `container_limits`, and any library's refusal of a damaged file
becomes a note for the analysis, not a failed run.
"""

from __future__ import annotations

import io
import os

from labscribe.tools.array_files import numpy_arrays
from labscribe.tools.array_tables import leaves_of, read_leaves
from labscribe.tools.base import Folder, ToolError, os_reason
from labscribe.tools.cassy_labx import read_labx
from labscribe.tools.hdf5_files import hdf5_leaves
from labscribe.tools.labview import read_lvm, read_tdms
from labscribe.tools.matlab_files import read_matlab
from labscribe.tools.readers import NoTable, Read, file_prefix
from labscribe.tools.spreadsheets import read_spreadsheet

SPREADSHEET_SUFFIXES = frozenset({".xlsx", ".xlsm", ".xls", ".ods"})
ARRAY_SUFFIXES = frozenset({".npy", ".npz", ".mat", ".h5", ".hdf5", ".hdf", ".nxs"})
LABVIEW_SUFFIXES = frozenset({".lvm", ".tdms"})
CASSY_SUFFIXES = frozenset({".labx"})
CONTAINER_SUFFIXES = SPREADSHEET_SUFFIXES | ARRAY_SUFFIXES | LABVIEW_SUFFIXES | CASSY_SUFFIXES


# A workbook starts with its container's signature: OLE2 (.xls) or ZIP (.xlsx, .ods).
_WORKBOOK_SIGNATURES = (b"\xd0\xcf\x11\xe0", b"PK\x03\x04")
_SNIFFED = 4096


def text_named_as_workbook(folder: Folder, rel: str) -> bool:
    """Whether a file named as a workbook is text (a logger's tab-separated export saved as
    `.xls`): no workbook signature and no NUL byte in its first bytes."""
    head, _ = file_prefix(folder, rel, _SNIFFED)
    return bool(head) and not head.startswith(_WORKBOOK_SIGNATURES) and b"\0" not in head


def read_container(folder: Folder, rel: str, suffix: str) -> Read:
    """The tables and settings of a file in one of the CONTAINER_SUFFIXES formats."""
    try:
        if suffix in SPREADSHEET_SUFFIXES:
            return read_spreadsheet(folder, rel)
        if suffix == ".lvm":
            return read_lvm(folder, rel)
        with _opened(folder, rel) as handle:
            if suffix == ".tdms":
                return read_tdms(handle)
            if suffix in CASSY_SUFFIXES:
                return read_labx(handle, rel)
            if suffix in (".npy", ".npz"):
                return read_leaves(leaves_of(numpy_arrays(handle, suffix)), "NumPy")
            if suffix == ".mat":
                return read_matlab(handle)
            found = hdf5_leaves(handle)
            return read_leaves(found.leaves, "HDF5", found.axes, found.outside)
    except (ToolError, MemoryError):
        raise
    except Exception as exc:  # a library's refusal of a damaged or unexpected file
        raise NoTable(f"{rel} could not be read: {type(exc).__name__}: {exc}"[:300]) from exc


class _opened:
    """The file, opened through the path guard, as a seekable binary handle."""

    def __init__(self, folder: Folder, rel: str) -> None:
        self.folder, self.rel = folder, rel

    def __enter__(self) -> io.BufferedReader:
        try:
            self.handle = os.fdopen(self.folder.open(self.folder.resolve(self.rel)), "rb")
        except OSError as exc:
            raise ToolError(f"cannot read {self.rel}: {os_reason(exc)}") from exc
        return self.handle

    def __exit__(self, *exc: object) -> None:
        self.handle.close()
