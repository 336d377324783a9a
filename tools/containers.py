"""Tables from the binary and structured formats labs produce, each read by its field's
library: spreadsheets (python-calamine: xlsx, xlsm, xls, ods, formulas by their cached
values), LabVIEW .lvm (lvm-read) and .tdms (npTDMS), NumPy .npy/.npz, MATLAB .mat (scipy.io;
v7.3 files, which are HDF5, through h5py) and HDF5.

A spreadsheet's sheet is a grid of cells like a CSV's (tools.grid finds its tables, headers
and units rows); the other formats hold named arrays, which become the columns of one table
per length, with the units and sample intervals their files record. Every reader checks
sizes before it decodes (a zip's members, an array's header) and reads at most
MAX_POINTS values of a column.
"""

from __future__ import annotations

import io
import logging
import os
import zipfile
from collections.abc import Iterator
from typing import Any

import numpy as np
import pandas as pd

from labscribe.tools.base import Folder, ToolError, human_size, os_reason
from labscribe.tools.columns import describe
from labscribe.tools.grid import Found, Grid, tables_in
from labscribe.tools.parameters import ParameterRow
from labscribe.tools.readers import NoTable, Read, file_prefix
from labscribe.tools.reading import text_encoding
from labscribe.tools.text_tables import MAX_COLUMNS, MAX_LINES
from labscribe.tools.units import canonical, split_unit

SPREADSHEET_SUFFIXES = frozenset({".xlsx", ".xlsm", ".xls", ".ods"})
ARRAY_SUFFIXES = frozenset({".npy", ".npz", ".mat", ".h5", ".hdf5", ".hdf"})
LABVIEW_SUFFIXES = frozenset({".lvm", ".tdms"})
CONTAINER_SUFFIXES = SPREADSHEET_SUFFIXES | ARRAY_SUFFIXES | LABVIEW_SUFFIXES
# A lab's spreadsheet is kilobytes to a few megabytes; a zip (xlsx, ods) may unpack to more.
MAX_CONTAINER_BYTES = 64 * 1024 * 1024
MAX_UNPACKED_BYTES = 256 * 1024 * 1024
MAX_SHEETS = 8
MAX_POINTS = MAX_LINES  # values read of one column
MAX_ARRAYS = 64  # named arrays looked at in one file
MAX_METADATA = 80
_LVM_STRUCTURE = frozenset(
    {"Writer_Version", "Reader_Version", "Separator", "Multi_Headings", "Time_Pref",
     "Segments", "Channels"}
)  # fmt: skip
_X_DIMENSIONS = {"time": "s", "frequency": "Hz"}


def read_container(folder: Folder, rel: str, suffix: str) -> Read:
    """The tables and settings of a file in one of the CONTAINER_SUFFIXES formats."""
    try:
        if suffix in SPREADSHEET_SUFFIXES:
            return _spreadsheet(folder, rel)
        if suffix == ".lvm":
            return _lvm(folder, rel)
        with _opened(folder, rel) as handle:
            if suffix == ".tdms":
                return _tdms(handle)
            if suffix in (".npy", ".npz"):
                return _arrays(_numpy(handle, suffix), "NumPy")
            if suffix == ".mat":
                return _matlab(handle)
            return _arrays(_hdf5(handle), "HDF5")
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


def _whole(folder: Folder, rel: str) -> bytes:
    data, size = file_prefix(folder, rel, MAX_CONTAINER_BYTES)
    if size > MAX_CONTAINER_BYTES:
        raise NoTable(f"{rel} is {human_size(size)}; files up to "
                      f"{human_size(MAX_CONTAINER_BYTES)} of this kind are analysed")  # fmt: skip
    return data


def _spreadsheet(folder: Folder, rel: str) -> Read:
    """Every sheet (MAX_SHEETS at most) as a grid; formulas by the values last computed."""
    from python_calamine import CalamineWorkbook

    data = _whole(folder, rel)
    if data[:4] == b"PK\x03\x04":
        _check_unpacked(data, rel)
    workbook = CalamineWorkbook.from_filelike(io.BytesIO(data))
    found: list[Found] = []
    metadata: list[ParameterRow] = []
    notes = []
    names = workbook.sheet_names
    if len(names) > MAX_SHEETS:
        notes.append(f"{len(names)} sheets; the first {MAX_SHEETS} read")
    blocks = 0
    for name in names[:MAX_SHEETS]:
        rows = workbook.get_sheet_by_name(name).to_python(skip_empty_area=False, nrows=MAX_POINTS)
        grid = _sheet_grid(rows)
        if grid is None:
            continue
        tables, settings, count = tables_in(grid)
        blocks += count
        for table in tables:
            table.title = f"sheet {name}" + (f", {table.title}" if table.title else "")
        found += tables
        metadata += [row.model_copy(update={"section": name}) for row in settings]
    return Read(found, metadata[:MAX_METADATA], reader="spreadsheet", notes=notes, blocks=blocks)


def _check_unpacked(data: bytes, rel: str) -> None:
    """Refuse a zip (xlsx, ods) whose members unpack to more than MAX_UNPACKED_BYTES."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        unpacked = sum(info.file_size for info in archive.infolist())
    if unpacked > MAX_UNPACKED_BYTES:
        raise NoTable(f"{rel} unpacks to {human_size(unpacked)}, more than "
                      f"{human_size(MAX_UNPACKED_BYTES)}")  # fmt: skip


def _sheet_grid(rows: list[list[Any]]) -> Grid | None:
    """A sheet's cells as a grid: numbers as numbers, text as text (a number typed as
    text, `1,5`, read as the number it writes)."""
    width = min(max((len(row) for row in rows), default=0), MAX_COLUMNS)
    if width < 2:
        return None
    texts = [[_text(cell) for cell in row[:width]] + [""] * (width - len(row[:width]))
             for row in rows]  # fmt: skip
    cells = pd.DataFrame(texts, dtype=str)
    numbers = [[_number(cell) for cell in row[:width]] + [np.nan] * (width - len(row[:width]))
               for row in rows]  # fmt: skip
    values = pd.DataFrame(numbers, dtype=float)
    return Grid(cells, values, ["\t".join(row) for row in texts])


def _text(cell: Any) -> str:
    if cell is None or cell == "":
        return ""
    if isinstance(cell, float) and cell.is_integer():
        return str(int(cell))
    return str(cell)


def _number(cell: Any) -> float:
    if isinstance(cell, bool) or cell is None:
        return np.nan
    if isinstance(cell, int | float):
        return float(cell) if np.isfinite(cell) else np.nan
    if isinstance(cell, str):
        try:
            value = float(cell.strip().replace(",", "."))
        except ValueError:
            return np.nan
        return value if np.isfinite(value) else np.nan
    return np.nan  # dates, times: not numbers a fit reads


def _lvm(folder: Folder, rel: str) -> Read:
    """A LabVIEW measurement file through lvm-read: each segment a table, its time axis
    from X_Value, or from X0 and Delta_X where the file leaves X_Value empty."""
    import lvm_read

    data, size = file_prefix(folder, rel, MAX_CONTAINER_BYTES)
    codec = text_encoding(data[: 64 * 1024], at_eof=len(data) >= size, name=rel)
    text = data.decode(codec, errors="replace")
    lines = text.splitlines(keepends=True)[:MAX_POINTS]
    separator = next((line.split("\t", 1)[1].strip()[:1] for line in lines[:30]
                      if line.startswith("Separator")), "\t")  # fmt: skip
    parsed = lvm_read.read_lines(lines, separator="," if separator == "C" else "\t")
    metadata = [
        _setting(key, value) for key, value in parsed.items()
        if isinstance(key, str) and key not in _LVM_STRUCTURE and isinstance(value, str)
    ]  # fmt: skip
    found: list[Found] = []
    for index in range(parsed.get("Segments", 0)):
        segment = parsed[index]
        metadata += _segment_settings(segment)
        found += _lvm_segment(segment, f"segment {index + 1}" if parsed["Segments"] > 1 else "")
    notes = [f"only the first {human_size(MAX_CONTAINER_BYTES)} read"] if size > len(data) else []
    return Read(found, metadata[:MAX_METADATA], codec, "tab", parsed.get("Decimal_Separator", "."),
                "LabVIEW lvm", notes, len(found))  # fmt: skip


def _setting(key: str, value: Any) -> ParameterRow:
    text = str(value)[:200]
    number = float(value) if isinstance(value, int | float) and np.isfinite(value) else None
    name, unit = split_unit(key)
    return ParameterRow(source="", key=key, name=name, value=text, number=number, unit=unit)


def _segment_settings(segment: dict[str, Any]) -> list[ParameterRow]:
    rows = []
    for key in ("Notes", "Channels", "Samples", "X0", "Delta_X"):
        value = segment.get(key)
        if isinstance(value, list):
            value = next((v for v in value if v not in ("", None) and v == v), None)
        if value is not None:
            rows.append(_setting(key, value))
    return rows


def _lvm_segment(segment: dict[str, Any], title: str) -> list[Found]:
    names = [n for n in segment.get("Channel names", []) if n != "Comment"]
    data = np.asarray(segment.get("data", np.empty((0, 0))), dtype=float)
    if data.ndim != 2 or not names or len(data) == 0:
        return []
    data = data[:, : len(names)]
    units = _per_channel(segment.get("Y_Unit_Label"))
    steps = _per_channel(segment.get("Delta_X"))
    starts = _per_channel(segment.get("X0"))
    dimensions = _per_channel(segment.get("X_Dimension"))
    channels = [i for i, name in enumerate(names) if name != "X_Value"]
    tables = []
    # X_Columns Multi: an X_Value column before each channel; else one, or none, for all
    groups: list[tuple[int | None, list[int]]] = []
    for i in channels:
        x = i - 1 if i > 0 and names[i - 1] == "X_Value" else None
        if x is None and groups:  # shares the X column before it, or the file's Delta_X
            groups[-1][1].append(i)
        else:
            groups.append((x, [i]))
    for number, (x, members) in enumerate(groups):
        first = channels.index(members[0])
        if x is not None and np.isfinite(data[:, x]).any():
            time = data[:, x]
        else:
            step = steps[first] if first < len(steps) else None
            start = starts[first] if first < len(starts) else 0.0
            time = (start or 0.0) + (step or 1.0) * np.arange(len(data))
        dimension = str(dimensions[first] if first < len(dimensions) else "").lower()
        # the time axis keeps the name the file gives its column, X_Value, where it has one
        axis = "X_Value" if x is not None else "time"
        columns = {axis: (time, _X_DIMENSIONS.get(dimension, "s" if not dimension else ""))}
        for i in members:
            unit = units[channels.index(i)] if channels.index(i) < len(units) else ""
            name, written = split_unit(names[i])
            values = data[:, i]
            if np.isfinite(values).any():
                columns[name] = (values, canonical(str(unit)) or str(unit) or written)
        table_title = title if len(groups) == 1 else f"{title} channel {number + 1}".strip()
        if len(columns) >= 2:
            tables.append(found_of_arrays(columns, table_title, x=axis))
    return tables


def _per_channel(value: Any) -> list[Any]:
    """A segment's per-channel setting, without the empty entries of X_Value columns."""
    if not isinstance(value, list):
        return [value] if value is not None else []
    return [v for v in value if v not in ("",) and not (isinstance(v, float) and v != v)]


def _tdms(handle: io.BufferedReader) -> Read:
    """Each group of a TDMS file a table: its channels, each read to MAX_POINTS values,
    against the time track their waveform properties give."""
    from nptdms import TdmsFile

    logging.getLogger("nptdms").setLevel(logging.ERROR)  # a damaged file is our note, not a log
    found: list[Found] = []
    with TdmsFile.open(handle) as tdms:
        metadata = [_setting(key, value) for key, value in _plain(tdms.properties)]
        for group in list(tdms.groups())[:MAX_ARRAYS]:
            metadata += [
                _setting(f"{group.name}.{key}", value) for key, value in _plain(group.properties)
            ]
            columns: dict[str, tuple[np.ndarray, str]] = {}
            time: tuple[np.ndarray, str] | None = None
            for channel in list(group.channels())[:MAX_COLUMNS]:
                values = np.asarray(channel[:MAX_POINTS])
                if not np.issubdtype(values.dtype, np.number) or values.ndim != 1:
                    continue
                unit = str(channel.properties.get("unit_string", ""))
                columns[channel.name] = (values.astype(float), canonical(unit) or unit)
                if time is None and "wf_increment" in channel.properties:
                    step = float(channel.properties["wf_increment"])
                    start = float(channel.properties.get("wf_start_offset", 0.0))
                    time = (start + step * np.arange(len(values)), "s")
            if time is not None:
                columns = {"time": time, **columns}
            for table in _by_length(columns, group.name, x="time" if time else None):
                found.append(table)
    return Read(found, metadata[:MAX_METADATA], reader="LabVIEW TDMS", blocks=len(found))


def _plain(properties: dict[str, Any]) -> Iterator[tuple[str, Any]]:
    for key, value in properties.items():
        if isinstance(value, str | int | float | np.number) and not isinstance(value, bool):
            yield str(key), value.item() if isinstance(value, np.generic) else value


def _numpy(handle: io.BufferedReader, suffix: str) -> dict[str, np.ndarray]:
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


def _matlab(handle: io.BufferedReader) -> Read:
    """A MATLAB file's numeric variables; a v7.3 file is HDF5 and read as such."""
    import scipy.io

    if handle.read(128)[:9] == b"MATLAB 7." or _is_hdf5(handle):
        handle.seek(0)
        if _is_hdf5(handle):
            return _arrays(_hdf5(handle), "MATLAB v7.3")
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
    return _arrays(arrays, "MATLAB")


def _is_hdf5(handle: io.BufferedReader) -> bool:
    """HDF5's signature, at 0 or (MATLAB v7.3) after the 512-byte user block."""
    for offset in (0, 512):
        handle.seek(offset)
        if handle.read(8) == b"\x89HDF\r\n\x1a\n":
            handle.seek(0)
            return True
    handle.seek(0)
    return False


def _hdf5(handle: io.BufferedReader) -> dict[str, np.ndarray]:
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


def _arrays(arrays: dict[str, np.ndarray], reader: str) -> Read:
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
            metadata.append(_setting(label, float(squeezed)))
        elif squeezed.ndim == 1:
            columns[label] = (squeezed[:MAX_POINTS], unit)
        elif squeezed.ndim == 2:
            wide = squeezed if squeezed.shape[0] >= squeezed.shape[1] else squeezed.T
            for i in range(min(wide.shape[1], MAX_COLUMNS)):
                columns[f"{label}[{i}]"] = (wide[:MAX_POINTS, i], unit)
    found = _by_length(columns, "", x=None)
    if not found:
        raise NoTable("holds no numeric columns of a common length")
    return Read(found, metadata[:MAX_METADATA], reader=reader, blocks=len(found))


def _by_length(
    columns: dict[str, tuple[np.ndarray, str]], title: str, x: str | None
) -> list[Found]:
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
