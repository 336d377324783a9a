"""Tables from LabVIEW's files: .lvm text through lvm-read, .tdms through npTDMS.

LabVIEW writes channels as named arrays with their units and sample intervals in the
file's own properties, not as a table with a header, so each segment or group becomes a
table of its channels against a time axis built from what the file records (X_Value,
X0 and Delta_X, wf_increment).
"""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator
from typing import Any

import numpy as np

from labscribe.tools.base import human_size
from labscribe.tools.columns.units import canonical, split_unit
from labscribe.tools.formats.array_files import by_length, found_of_arrays, setting
from labscribe.tools.formats.cell_grid import Found
from labscribe.tools.formats.container_limits import (
    MAX_ARRAYS,
    MAX_CONTAINER_BYTES,
    MAX_METADATA,
    MAX_POINTS,
)
from labscribe.tools.formats.encoding import SNIFF_BYTES, text_encoding
from labscribe.tools.formats.parameters import ParameterRow
from labscribe.tools.formats.readers import Read, file_prefix
from labscribe.tools.formats.text_tables import MAX_COLUMNS
from labscribe.tools.tool import Folder

_LVM_STRUCTURE = frozenset(
    {"Writer_Version", "Reader_Version", "Separator", "Multi_Headings", "Time_Pref",
     "Segments", "Channels"}
)  # fmt: skip
_X_DIMENSIONS = {"time": "s", "frequency": "Hz"}


def read_lvm(folder: Folder, rel: str) -> Read:
    """A LabVIEW measurement file through lvm-read: each segment a table, its time axis
    from X_Value, or from X0 and Delta_X where the file leaves X_Value empty."""
    import lvm_read

    data, size = file_prefix(folder, rel, MAX_CONTAINER_BYTES)
    codec = text_encoding(data[:SNIFF_BYTES], at_eof=len(data) >= size, name=rel)
    text = data.decode(codec, errors="replace")
    lines = text.splitlines(keepends=True)[:MAX_POINTS]
    separator = next((line.split("\t", 1)[1].strip()[:1] for line in lines[:30]
                      if line.startswith("Separator")), "\t")  # fmt: skip
    parsed = lvm_read.read_lines(lines, separator="," if separator == "C" else "\t")
    metadata = [
        setting(key, value) for key, value in parsed.items()
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


def _segment_settings(segment: dict[str, Any]) -> list[ParameterRow]:
    rows = []
    for key in ("Notes", "Channels", "Samples", "X0", "Delta_X"):
        value = segment.get(key)
        if isinstance(value, list):
            value = next((v for v in value if v not in ("", None) and v == v), None)
        if value is not None:
            rows.append(setting(key, value))
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


def read_tdms(handle: io.BufferedReader) -> Read:
    """Each group of a TDMS file a table: its channels, each read to MAX_POINTS values,
    against the time track their waveform properties give."""
    from nptdms import TdmsFile

    logging.getLogger("nptdms").setLevel(logging.ERROR)  # a damaged file is our note, not a log
    found: list[Found] = []
    with TdmsFile.open(handle) as tdms:
        metadata = [setting(key, value) for key, value in _plain(tdms.properties)]
        for group in list(tdms.groups())[:MAX_ARRAYS]:
            metadata += [
                setting(f"{group.name}.{key}", value) for key, value in _plain(group.properties)
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
            for table in by_length(columns, group.name, x="time" if time else None):
                found.append(table)
    return Read(found, metadata[:MAX_METADATA], reader="LabVIEW TDMS", blocks=len(found))


def _plain(properties: dict[str, Any]) -> Iterator[tuple[str, Any]]:
    for key, value in properties.items():
        if isinstance(value, str | int | float | np.number) and not isinstance(value, bool):
            yield str(key), value.item() if isinstance(value, np.generic) else value
