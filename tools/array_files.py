"""Tables from files of named arrays: NumPy .npy/.npz, MATLAB .mat (scipy.io; v7.3
files, which are HDF5, through h5py) and HDF5.

Such files hold arrays, not tables, so the arrays of one length become the columns of one
table, with the units their files record; scalars become settings. Each array's size is
known from its header before it is read, so no file is decoded beyond the bounds, and no
pickled object is ever loaded.
"""

from __future__ import annotations

import io
import zipfile
from typing import Any

import numpy as np
import pandas as pd

from labscribe.tools.columns import describe
from labscribe.tools.container_limits import MAX_ARRAYS, MAX_METADATA, MAX_POINTS
from labscribe.tools.grid import Found
from labscribe.tools.parameters import ParameterRow
from labscribe.tools.readers import NoTable, Read
from labscribe.tools.signatures import HDF5_SIGNATURE, MATLAB_73_HEADER
from labscribe.tools.text_tables import MAX_COLUMNS
from labscribe.tools.units import canonical, split_unit


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
    count = int(np.prod(shape)) if shape else 1
    if count > MAX_POINTS * MAX_COLUMNS:
        raise NoTable(f"an array of shape {shape} is larger than the analysis reads")
    data = handle.read(count * dtype.itemsize)
    array = np.frombuffer(data, dtype=dtype, count=count)
    return array.reshape(shape, order="F" if fortran else "C")


def read_matlab(handle: io.BufferedReader) -> Read:
    """A MATLAB file's numeric variables; a v7.3 file is HDF5 and read as such."""
    import scipy.io

    if handle.read(128).startswith(MATLAB_73_HEADER) or _is_hdf5(handle):
        handle.seek(0)
        if _is_hdf5(handle):
            return read_arrays(hdf5_arrays(handle), "MATLAB v7.3")
    handle.seek(0)
    listed = scipy.io.whosmat(handle)
    wanted = [
        name for name, shape, kind in listed[:MAX_ARRAYS]
        if kind in ("double", "single", "int8", "int16", "int32", "int64", "uint8", "uint16",
                    "uint32", "uint64", "logical") and int(np.prod(shape)) <= MAX_POINTS * 4
    ]  # fmt: skip
    handle.seek(0)
    loaded = scipy.io.loadmat(handle, variable_names=wanted) if wanted else {}
    arrays = {name: np.asarray(loaded[name]) for name in wanted if name in loaded}
    return read_arrays(arrays, "MATLAB")


def _is_hdf5(handle: io.BufferedReader) -> bool:
    """HDF5's signature, at 0 or (MATLAB v7.3) after the 512-byte user block."""
    for offset in (0, 512):
        handle.seek(offset)
        if handle.read(8) == HDF5_SIGNATURE:
            handle.seek(0)
            return True
    handle.seek(0)
    return False


def hdf5_arrays(handle: io.BufferedReader) -> dict[str, np.ndarray]:
    """The numeric datasets of an HDF5 file, by their paths, each checked for size first;
    a dataset's `units` attribute is kept as `<path>@units`."""
    import h5py

    arrays: dict[str, np.ndarray] = {}
    with h5py.File(handle, "r") as store:

        def visit(name: str, item: Any) -> None:
            if len(arrays) >= MAX_ARRAYS or not isinstance(item, h5py.Dataset):
                return
            if not np.issubdtype(item.dtype, np.number) or item.size > MAX_POINTS * 4:
                return
            arrays[name] = np.asarray(item[()])
            unit = item.attrs.get("units", item.attrs.get("unit"))
            if isinstance(unit, bytes):
                unit = unit.decode(errors="replace")
            if isinstance(unit, str):
                arrays[f"{name}@units"] = np.array(unit)

        store.visititems(visit)
    return arrays


def read_arrays(arrays: dict[str, np.ndarray], reader: str) -> Read:
    """Named arrays as tables: 1-D arrays (and the columns of 2-D ones) of one length make
    one table; scalars are settings."""
    units = {
        name.removesuffix("@units"): str(a) for name, a in arrays.items() if name.endswith("@units")
    }
    columns: dict[str, tuple[np.ndarray, str]] = {}
    metadata: list[ParameterRow] = []
    for array in list(arrays.values()):
        if array.dtype.names:  # a record array: its fields are the columns
            for field_name in array.dtype.names[:MAX_COLUMNS]:
                arrays[field_name] = array[field_name]
    for name, array in arrays.items():
        if name.endswith("@units") or array.dtype.names:
            continue
        if np.issubdtype(array.dtype, np.datetime64):
            unit = np.datetime_data(array.dtype)[0]
            days = unit == "D"
            elapsed = (array - array.flat[0]) / np.timedelta64(1, "D" if days else "s")
            columns[name] = (np.asarray(elapsed, dtype=float).ravel()[:MAX_POINTS],
                             "d" if days else "s")  # fmt: skip
            continue
        if not np.issubdtype(array.dtype, np.number):
            continue
        squeezed = np.squeeze(np.asarray(array, dtype=float))
        label, written = split_unit(name.rsplit("/", 1)[-1])
        unit = canonical(units.get(name, "")) or units.get(name, "") or written
        if squeezed.ndim == 0:
            metadata.append(setting(label, float(squeezed)))
        elif squeezed.ndim == 1:
            columns[label] = (squeezed[:MAX_POINTS], unit)
        elif squeezed.ndim == 2:
            wide = squeezed if squeezed.shape[0] >= squeezed.shape[1] else squeezed.T
            for i in range(min(wide.shape[1], MAX_COLUMNS)):
                columns[f"{label}[{i}]"] = (wide[:MAX_POINTS, i], unit)
    found = by_length(columns, "", x=None)
    if not found:
        raise NoTable("holds no numeric columns of a common length")
    return Read(found, metadata[:MAX_METADATA], reader=reader, blocks=len(found))


def by_length(columns: dict[str, tuple[np.ndarray, str]], title: str, x: str | None) -> list[Found]:
    """A table for each length shared by two or more columns, longest first."""
    lengths: dict[int, dict[str, tuple[np.ndarray, str]]] = {}
    for name, (values, unit) in columns.items():
        lengths.setdefault(len(values), {})[name] = (values, unit)
    tables = []
    for length in sorted(lengths, reverse=True):
        members = lengths[length]
        if length >= 3 and len(members) >= 2:
            tables.append(found_of_arrays(members, title, x=x if x in members else None))
    return tables


def found_of_arrays(columns: dict[str, tuple[np.ndarray, str]], title: str, x: str | None) -> Found:
    """A table of named columns of one length, each with its unit."""
    frame = pd.DataFrame({name: values for name, (values, _) in columns.items()})
    frame = frame.astype(float).replace([np.inf, -np.inf], np.nan)
    spelled = [(name, name, unit) for name, (_, unit) in columns.items()]
    described = describe(frame, spelled)
    frame = frame.set_axis([c.key for c in described], axis=1)
    return Found(described, frame, title, x)


def setting(key: str, value: Any) -> ParameterRow:
    """A value a file records under `key` (a scalar array, a LabVIEW property), as a setting."""
    text = str(value)[:200]
    number = float(value) if isinstance(value, int | float) and np.isfinite(value) else None
    name, unit = split_unit(key)
    return ParameterRow(source="", key=key, name=name, value=text, number=number, unit=unit)
