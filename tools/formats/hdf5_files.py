"""The arrays of an HDF5 file, MATLAB v7.3 files included, as leaves by their paths
(tools.formats.array_tables makes the tables).

An HDF5 file is a tree of groups and datasets; MATLAB v7.3 writes a struct as a group, a
string as 16-bit character codes (`MATLAB_class` `char`), and a struct array's or a cell
array's elements as references into its hidden `#refs#` group. Each dataset's size is
checked before it is read, references are followed only to datasets of bounded size, and
the units a dataset records (`units`, `unit`) and the axis a NeXus group names (`axes`)
are kept.

HDF5 can point outside the file: a dataset's raw data in external files, a virtual
dataset's sources in others, a link to an object of another file. The library opens those
files itself, past the path guard, so none is followed: each is named as not read. A cell
the file never wrote (a chunk never allocated) and a value equal to the missing value a
dataset declares (`_FillValue`, `missing_value`) are missing data, never numbers.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from labscribe.tools.columns.units import split_unit
from labscribe.tools.columns.variable_column import X_NAMES
from labscribe.tools.formats.array_tables import MAX_TEXT, Leaf
from labscribe.tools.formats.container_limits import MAX_ARRAYS, MAX_DEPTH, MAX_POINTS

UNIT_ATTRIBUTES = ("units", "unit", "Units", "Unit", "UNITS")
# The value a dataset declares for a missing cell (NetCDF-4 and CF conventions).
MISSING_ATTRIBUTES = ("_FillValue", "missing_value")
# Groups and datasets looked at: a file of a million empty groups is not walked to its end.
MAX_OBJECTS = 4096
# MATLAB's hidden groups: the targets of references, and its class system's data.
_HIDDEN = ("#refs#", "#subsystem#")


@dataclass
class Hdf5Read:
    """What an HDF5 file holds for the tables: its leaves by path, the axis each NeXus
    group names, and what points outside the file (not read), named."""

    leaves: list[Leaf]
    axes: dict[tuple[str, ...], str]
    outside: list[str] = field(default_factory=list)


def hdf5_leaves(handle: io.BufferedReader) -> Hdf5Read:
    """The numeric datasets and strings of an HDF5 file by their paths (MATLAB struct and
    cell arrays by their elements: `runs(2)/time`, `traces{1}`), and the axis each NeXus
    group names; nothing another file holds."""
    import h5py

    found = Hdf5Read([], {})
    fields: dict[tuple[str, ...], list[str]] = {}
    visited = [0]
    with h5py.File(handle, "r") as store:

        def visit(name: str, item: Any) -> bool | None:
            visited[0] += 1
            if len(found.leaves) >= MAX_ARRAYS or visited[0] > MAX_OBJECTS:
                return True  # h5py stops the walk at a value that is not None
            path = tuple(name.split("/"))
            if path[0] in _HIDDEN or len(path) > MAX_DEPTH:
                return None
            if isinstance(item, h5py.Group):
                if axis := _text(item.attrs.get("axes")):
                    found.axes[path] = axis
                fields[path] = _field_names(item.attrs.get("MATLAB_fields"))
            elif isinstance(item, h5py.Dataset):
                if (elsewhere := _elsewhere(item)) is not None:
                    found.outside.append(f"{name}: {elsewhere}, not read")
                else:
                    found.leaves.extend(_leaves(store, path, item, 0))
            return None

        def link(name: str, link: Any) -> None:
            if isinstance(link, h5py.ExternalLink):
                found.outside.append(
                    f"{name}: a link to {link.path} in another file, {link.filename}, not followed"
                )

        store.visititems(visit)
        store.visititems_links(link)
    found.leaves = _in_field_order(found.leaves[:MAX_ARRAYS], fields)
    found.outside = found.outside[:MAX_ARRAYS]
    return found


def _elsewhere(item: Any) -> str | None:
    """Where a dataset's values lie outside the file, in words; None when the file holds
    them."""
    if item.is_virtual:
        return "a virtual dataset, its values in other files"
    if item.external:
        return "its values stored in external files"
    return None


def _field_names(value: Any) -> list[str]:
    """A MATLAB struct's field names in their order (`MATLAB_fields`: each name an array of
    one-byte characters); [] for any other group."""
    if value is None:
        return []
    try:
        return [b"".join(np.asarray(name).ravel().tolist()).decode() for name in value]
    except (TypeError, ValueError, UnicodeDecodeError):
        return []


def _in_field_order(leaves: list[Leaf], fields: dict[tuple[str, ...], list[str]]) -> list[Leaf]:
    """`leaves` (in the alphabetical order HDF5 lists them) with each struct's fields in
    the order MATLAB keeps them, so `time` stays before `U_V`; in a group that keeps no
    order, names of independent variables (`time`, `x`, `frequency`) first."""

    def rank(leaf: Leaf) -> tuple[tuple[int, str], ...]:
        ranks = []
        for depth, name in enumerate(leaf.path):
            names = fields.get(leaf.path[:depth], [])
            bare = name.split("(")[0].split("{")[0]
            if names:
                ranks.append((names.index(bare) if bare in names else len(names), name))
            else:
                ranks.append((0 if _axis_name(split_unit(bare)[0]) else 1, name))
        return tuple(ranks)

    return sorted(leaves, key=rank)


def _leaves(store: Any, path: tuple[str, ...], item: Any, depth: int) -> list[Leaf]:
    """What one dataset holds: an array, a string, or (references) its elements' leaves."""
    import h5py

    kind = _text(item.attrs.get("MATLAB_class"))
    if item.attrs.get("MATLAB_empty") or depth > MAX_DEPTH:
        return []
    if h5py.check_ref_dtype(item.dtype) is not None:
        return _referenced(store, path, item, kind, depth)
    if kind == "char":  # MATLAB text: UTF-16 code units
        if item.size > MAX_TEXT:
            return []
        codes = np.asarray(item[()]).ravel(order="F")
        return [Leaf(path, "".join(chr(int(c)) for c in codes))]
    if h5py.check_string_dtype(item.dtype) is not None:
        return [Leaf(path, text)] if item.size == 1 and (text := _text(item[()])) else []
    if not (np.issubdtype(item.dtype, np.number) or item.dtype == bool):
        return []
    if item.size > MAX_POINTS * 4:
        return []
    unit = next((u for key in UNIT_ATTRIBUTES if (u := _text(item.attrs.get(key)))), "")
    values = _written(item)
    return [] if values is None else [Leaf(path, values, unit[:24])]


def _written(item: Any) -> np.ndarray | None:
    """A numeric dataset's values, NaN where the file wrote none (a chunk never allocated
    reads as the fill value) or writes the missing value it declares; None where it wrote
    nothing at all."""
    if item.size and item.id.get_storage_size() == 0:
        return None
    values = np.asarray(item[()])
    missing = np.zeros(values.shape, dtype=bool)
    if item.chunks is not None and values.ndim:
        chunks = math.prod(math.ceil(n / c) for n, c in zip(item.shape, item.chunks, strict=True))
        if item.id.get_num_chunks() < chunks:
            missing[...] = True
            for index in range(item.id.get_num_chunks()):
                start = item.id.get_chunk_info(index).chunk_offset
                missing[tuple(slice(o, o + c) for o, c in zip(start, item.chunks, strict=True))] = (
                    False
                )
    for key in MISSING_ATTRIBUTES:
        if (declared := item.attrs.get(key)) is not None and np.size(declared) == 1:
            missing |= values == np.asarray(declared).ravel()[0]
    if not missing.any():
        return values
    values = values.astype(float)
    values[missing] = np.nan
    return values


def _referenced(store: Any, path: tuple[str, ...], item: Any, kind: str, depth: int) -> list[Leaf]:
    """The leaves of the datasets a reference dataset points to: a cell array's elements
    (`traces{2}`), or one field of each element of a struct array (`runs(2)/time`)."""
    import h5py

    if item.size > MAX_ARRAYS:
        return []
    found: list[Leaf] = []
    for k, ref in enumerate(np.asarray(item[()]).ravel(order="F"), start=1):
        if not ref:
            continue
        target = store[ref]
        if not isinstance(target, h5py.Dataset):
            continue
        if kind == "cell" or len(path) < 2:
            where = (*path[:-1], f"{path[-1]}{{{k}}}")
        else:
            where = (*path[:-2], f"{path[-2]}({k})", path[-1])
        found += _leaves(store, where, target, depth + 1)
        if len(found) >= MAX_ARRAYS:
            break
    return found


def _axis_name(name: str) -> bool:
    """`time`, `Frequency`, `t`, `x`: a name of an independent variable (one letter as
    written: `T` is a period or a temperature, not a time)."""
    return name in X_NAMES or (len(name) > 1 and name.lower() in X_NAMES)


def _text(value: Any) -> str:
    """An attribute's or a dataset's text: bytes decoded, a one-element array unwrapped."""
    if isinstance(value, np.ndarray) and value.size == 1:
        value = value.ravel()[0]
    if isinstance(value, bytes | np.bytes_):
        value = value.decode(errors="replace")
    return value.strip()[:MAX_TEXT] if isinstance(value, str) else ""
