"""The variables of a MATLAB .mat file as leaves by their paths (tools.formats.array_tables makes
the tables): numeric arrays, and the fields of structs, struct arrays and cell arrays
(`data.time`, `runs(2).V`, `ScopeData.signals.values`), read by scipy.io; a v7.3 file is
HDF5 and read as such (tools.formats.hdf5_files).

A numeric variable's shape is in its header, but a struct's says nothing of its fields'
sizes, and scipy inflates a compressed variable whole even to list it (a 50 kB file of
zeros can hold gigabytes). So scipy is handed a copy of the file that holds only the
variables whose decoded size is within bounds: the file's own byte count of each
variable, or the size a compressed one inflates to (counted as it streams, never held).
"""

from __future__ import annotations

import io
import struct
import zlib
from typing import Any

import numpy as np

from labscribe.tools.base import human_size
from labscribe.tools.formats.array_tables import Leaf, read_leaves
from labscribe.tools.formats.container_limits import (
    MAX_ARRAYS,
    MAX_CONTAINER_BYTES,
    MAX_DEPTH,
    MAX_POINTS,
    MAX_VARIABLE_BYTES,
)
from labscribe.tools.formats.hdf5_files import hdf5_leaves
from labscribe.tools.formats.readers import NoTable, Read
from labscribe.tools.formats.signatures import HDF5_SIGNATURE, MATLAB_73_HEADER

NUMERIC_KINDS = frozenset(
    {"double", "single", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
     "uint64", "logical"}
)  # fmt: skip
NESTED_KINDS = frozenset({"struct", "cell"})
MAX_CHARS = 200  # of a text variable, kept as a setting
# The MAT v5 element types that hold a variable (the MAT-file format's miMATRIX and
# miCOMPRESSED), and the size of the header before the first one.
_MI_MATRIX, _MI_COMPRESSED = 14, 15
_HEADER_BYTES = 128
_CHUNK = 1 << 16


def read_matlab(handle: io.BufferedReader) -> Read:
    """A MATLAB file's numeric variables, structs and cell arrays, and its text variables
    as settings; a v7.3 file is HDF5 and read as such."""
    import scipy.io

    if handle.read(128).startswith(MATLAB_73_HEADER) or _is_hdf5(handle):
        handle.seek(0)
        if _is_hdf5(handle):
            found = hdf5_leaves(handle)
            return read_leaves(found.leaves, "MATLAB v7.3", found.axes, found.outside)
    stream, left_out = _within_bounds(handle)
    listed = scipy.io.whosmat(stream)[:MAX_ARRAYS]
    wanted = [
        name for name, shape, kind in listed
        if (kind in NUMERIC_KINDS and int(np.prod(shape)) <= MAX_POINTS * 4)
        or (kind == "char" and int(np.prod(shape)) <= MAX_CHARS) or kind in NESTED_KINDS
    ]  # fmt: skip
    stream.seek(0)
    loaded = scipy.io.loadmat(stream, variable_names=wanted, simplify_cells=True) if wanted else {}
    leaves: list[Leaf] = []
    for name in wanted:
        if name in loaded:
            _flatten((name,), loaded[name], 0, leaves)
    note = (
        f"{left_out} variable{'s' if left_out > 1 else ''} larger than "
        f"{human_size(MAX_VARIABLE_BYTES)} decoded left out" if left_out else ""
    )  # fmt: skip
    try:
        read = read_leaves(leaves, "MATLAB")
    except NoTable as refused:
        raise NoTable("; ".join(filter(None, [str(refused), note])), refused.metadata) from None
    if note:
        read.notes.append(note)
    return read


def _is_hdf5(handle: io.BufferedReader) -> bool:
    """HDF5's signature, at 0 or (MATLAB v7.3) after the 512-byte user block."""
    for offset in (0, 512):
        handle.seek(offset)
        if handle.read(8) == HDF5_SIGNATURE:
            handle.seek(0)
            return True
    handle.seek(0)
    return False


def _within_bounds(handle: io.BufferedReader) -> tuple[io.BytesIO | io.BufferedReader, int]:
    """The file, or (MAT v5) a copy of it that holds only the variables that decode to at
    most MAX_VARIABLE_BYTES, within MAX_CONTAINER_BYTES of the file and of inflating in
    all; and how many variables were left out. A file of another version (v4) is returned
    as it is: its variables are never compressed, and their shapes bound them."""
    handle.seek(0)
    header = handle.read(_HEADER_BYTES)
    if len(header) < _HEADER_BYTES or header[126:128] not in (b"IM", b"MI"):
        handle.seek(0)
        return handle, 0
    order = "<" if header[126:128] == b"IM" else ">"
    copy = io.BytesIO()
    copy.write(header)
    left_out, spent = 0, 0
    for _ in range(MAX_ARRAYS):  # whosmat lists no more
        start = handle.tell()
        tag = handle.read(8)
        if len(tag) < 8:
            break
        kind, length = struct.unpack(order + "II", tag)
        stored = length if kind == _MI_COMPRESSED else length + (-length % 8)
        if kind == _MI_COMPRESSED:
            decoded = _inflated_bytes(handle, length, MAX_CONTAINER_BYTES - spent)
        else:
            decoded = length if kind == _MI_MATRIX else MAX_VARIABLE_BYTES + 1
        spent += min(decoded, MAX_VARIABLE_BYTES + 1)
        if decoded > MAX_VARIABLE_BYTES or copy.tell() + 8 + stored > MAX_CONTAINER_BYTES:
            left_out += 1
        else:
            handle.seek(start)
            copy.write(handle.read(8 + stored))
        handle.seek(start + 8 + stored)
        if spent > MAX_CONTAINER_BYTES:
            break
    copy.seek(0)
    return copy, left_out


def _inflated_bytes(handle: io.BufferedReader, length: int, budget: int) -> int:
    """How many bytes the next `length` compressed bytes inflate to, counted in chunks and
    stopped one past MAX_VARIABLE_BYTES (or `budget`, what is left of the file's): a small
    variable that would inflate to gigabytes costs no more than the bound."""
    limit = min(MAX_VARIABLE_BYTES, max(budget, 0))
    inflater = zlib.decompressobj()
    total, left = 0, length
    try:
        while left > 0 and total <= limit:
            data = handle.read(min(_CHUNK, left))
            if not data:
                break
            left -= len(data)
            while data and total <= limit:
                total += len(inflater.decompress(data, _CHUNK))
                data = inflater.unconsumed_tail
    except zlib.error:
        return MAX_VARIABLE_BYTES + 1  # a damaged stream is not decoded
    return total if total <= limit else MAX_VARIABLE_BYTES + 1


def _flatten(path: tuple[str, ...], value: Any, depth: int, leaves: list[Leaf]) -> None:
    """The leaves of a loaded variable (scipy's simplified cells: a struct is a dict, a
    struct array or cell array a list), named by their paths: `runs(2)`, `traces{1}`."""
    if len(leaves) >= MAX_ARRAYS or depth > MAX_DEPTH:
        return
    if isinstance(value, dict):
        for key, item in value.items():
            _flatten((*path, str(key)), item, depth + 1, leaves)
    elif isinstance(value, list):
        if value and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value):
            leaves.append(Leaf(path, np.asarray(value, dtype=float)))  # a cell of numbers
            return
        for k, item in enumerate(value[:MAX_ARRAYS], start=1):
            label = f"{path[-1]}({k})" if isinstance(item, dict) else f"{path[-1]}{{{k}}}"
            _flatten((*path[:-1], label), item, depth + 1, leaves)
    elif isinstance(value, str):
        leaves.append(Leaf(path, value[:MAX_CHARS]))
    elif isinstance(value, bool | int | float | np.number):
        leaves.append(Leaf(path, np.asarray(value, dtype=float)))
    elif isinstance(value, np.ndarray) and value.dtype != object:
        leaves.append(Leaf(path, value))
    elif isinstance(value, np.ndarray):  # a cell array scipy kept as objects
        _flatten(path, value.tolist() if value.size <= MAX_POINTS else [], depth + 1, leaves)
