"""The binary and structured formats labs produce, each read by its field's library:
spreadsheets (`spreadsheets`), LabVIEW .lvm and .tdms (`labview`), NumPy (`array_files`),
MATLAB (`matlab_files`) and HDF5 (`hdf5_files`), their arrays made tables by
`array_tables`; CASSY Lab 2's zipped XML (`cassy_labx`), for which no library keeps the
digits. Each is a reader of a file (`Folder`, path), as tools.formats.tables' one table of readers
calls them; a library that reads an open handle gets one opened through the path guard.

These formats cannot be told apart by a prefix as text can (an xlsx and an ods are both
zips, a v7.3 .mat is HDF5), so a file's suffix picks its reader. Every reader keeps the
bounds of `container_limits`.
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable

from labscribe.tools.base import cannot_read
from labscribe.tools.formats.array_files import numpy_arrays
from labscribe.tools.formats.array_tables import leaves_of, read_leaves
from labscribe.tools.formats.hdf5_files import hdf5_leaves
from labscribe.tools.formats.labview import read_tdms
from labscribe.tools.formats.matlab_files import read_matlab
from labscribe.tools.formats.readers import Read, file_prefix
from labscribe.tools.formats.spreadsheets import read_spreadsheet
from labscribe.tools.formats.text_files import read_text
from labscribe.tools.tool import Folder

Reader = Callable[[Folder, str], Read]
"""What reads one format: the tables and settings of the file a folder's path names."""

# A workbook starts with its container's signature: OLE2 (.xls) or ZIP (.xlsx, .ods).
_WORKBOOK_SIGNATURES = (b"\xd0\xcf\x11\xe0", b"PK\x03\x04")
_SNIFFED = 4096


def read_workbook(folder: Folder, rel: str) -> Read:
    """A spreadsheet, or the text a logger saved under a workbook's name (a tab-separated
    export as `.xls`: no workbook signature and no NUL byte in its first bytes)."""
    head, _ = file_prefix(folder, rel, _SNIFFED)
    if not head or head.startswith(_WORKBOOK_SIGNATURES) or b"\0" in head:
        return read_spreadsheet(folder, rel)
    read = read_text(folder, rel)
    suffix = os.path.splitext(rel)[1].lower()
    read.notes.insert(0, f"read as text: the file is text, not the {suffix} workbook its name says")
    return read


def through_handle(read: Callable[[io.BufferedReader, str], Read]) -> Reader:
    """A library's reader of an open file, as a reader of the file a path names."""

    def reader(folder: Folder, rel: str) -> Read:
        with _opened(folder, rel) as handle:
            return read(handle, rel)

    return reader


def read_numpy(handle: io.BufferedReader, rel: str) -> Read:
    suffix = os.path.splitext(rel)[1].lower()
    return read_leaves(leaves_of(numpy_arrays(handle, suffix)), "NumPy")


def read_hdf5(handle: io.BufferedReader, rel: str) -> Read:
    found = hdf5_leaves(handle)
    return read_leaves(found.leaves, "HDF5", found.axes, found.outside)


def read_tdms_file(handle: io.BufferedReader, rel: str) -> Read:
    return read_tdms(handle)


def read_matlab_file(handle: io.BufferedReader, rel: str) -> Read:
    return read_matlab(handle)


class _opened:
    """The file, opened through the path guard, as a seekable binary handle."""

    def __init__(self, folder: Folder, rel: str) -> None:
        self.folder, self.rel = folder, rel

    def __enter__(self) -> io.BufferedReader:
        try:
            self.handle = os.fdopen(self.folder.open(self.folder.resolve(self.rel)), "rb")
        except OSError as exc:
            raise cannot_read(self.rel, exc) from exc
        return self.handle

    def __exit__(self, *exc: object) -> None:
        self.handle.close()
