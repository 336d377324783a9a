"""NumPy .npy/.npz arrays, and the tables of named arrays of one length that every
array format (NumPy, MATLAB, HDF5, LabVIEW's channels) makes.

Each .npy array's size is known from its header before it is read, so no file is decoded
beyond the bounds, and no pickled object is ever loaded.
"""

from __future__ import annotations

import io
import math
import zipfile
from typing import Any

import numpy as np
import pandas as pd

from labscribe.tools.columns.column import describe
from labscribe.tools.columns.units import split_unit
from labscribe.tools.formats.cell_grid import Found
from labscribe.tools.formats.container_limits import MAX_ARRAYS, MAX_POINTS
from labscribe.tools.formats.parameters import ParameterRow
from labscribe.tools.formats.readers import NoTable
from labscribe.tools.formats.text_tables import MAX_COLUMNS


def numpy_arrays(handle: io.BufferedReader, suffix: str) -> dict[str, np.ndarray]:
    """The arrays of a .npy or .npz file, their headers checked before any is read; no
    pickled objects."""
    if suffix == ".npy":
        return {"array": _npy(handle)}
    arrays = {}
    with zipfile.ZipFile(handle) as archive:
        for info in archive.infolist()[:MAX_ARRAYS]:
            if not info.filename.endswith(".npy"):
                continue
            with archive.open(info) as member:
                array = _npy(member)
            arrays[info.filename.removesuffix(".npy")] = array
    return arrays


def _npy(handle: Any) -> np.ndarray:
    version = np.lib.format.read_magic(handle)
    read_header = (
        np.lib.format.read_array_header_1_0 if version == (1, 0)
        else np.lib.format.read_array_header_2_0
    )  # fmt: skip
    shape, fortran, dtype = read_header(handle)
    readable = dtype.names or np.issubdtype(dtype, np.number) or dtype.kind == "M"
    if dtype.hasobject or not readable:
        raise NoTable(f"an array of {dtype} holds no numbers to analyse")
    if any(n < 0 for n in shape):  # `(-1,)` would read the whole member, whatever its size
        raise NoTable(f"an array of shape {shape} declares a negative length")
    count = math.prod(shape)  # Python's integers: no product wraps round to a small one
    if count > MAX_POINTS * MAX_COLUMNS:
        raise NoTable(f"an array of shape {shape} is larger than the analysis reads")
    data = handle.read(count * dtype.itemsize)
    if len(data) < count * dtype.itemsize:
        raise NoTable(f"an array of shape {shape} declares more values than the file holds")
    array = np.frombuffer(data, dtype=dtype, count=count)
    return array.reshape(shape, order="F" if fortran else "C")


def by_length(
    columns: dict[str, tuple[np.ndarray, str]], title: str, x: str | None,
    headers: dict[str, str] | None = None,
) -> list[Found]:  # fmt: skip
    """A table for each length shared by two or more columns, longest first."""
    lengths: dict[int, dict[str, tuple[np.ndarray, str]]] = {}
    for name, (values, unit) in columns.items():
        lengths.setdefault(len(values), {})[name] = (values, unit)
    tables = []
    for length in sorted(lengths, reverse=True):
        members = lengths[length]
        if length >= 3 and len(members) >= 2:
            tables.append(found_of_arrays(members, title, x if x in members else None, headers))
    return tables


def found_of_arrays(
    columns: dict[str, tuple[np.ndarray, str]], title: str, x: str | None,
    headers: dict[str, str] | None = None,
) -> Found:  # fmt: skip
    """A table of named columns of one length, each with its unit (and its header, the
    path that names it in its file, where `headers` gives one)."""
    frame = pd.DataFrame({name: values for name, (values, _) in columns.items()})
    frame = frame.astype(float).replace([np.inf, -np.inf], np.nan)
    spelled = [((headers or {}).get(name, name), name, unit) for name, (_, unit) in columns.items()]
    described = describe(frame, spelled)
    frame = frame.set_axis([c.key for c in described], axis=1)
    return Found(described, frame, title, x)


def setting(key: str, value: Any) -> ParameterRow:
    """A value a file records under `key` (a scalar array, a LabVIEW property), as a setting."""
    text = str(value)[:200]
    number = float(value) if isinstance(value, int | float) and np.isfinite(value) else None
    name, unit = split_unit(key)
    return ParameterRow(source="", key=key, name=name, value=text, number=number, unit=unit)
