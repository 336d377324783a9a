"""Named arrays as tables: a NumPy archive's arrays, a MATLAB file's variables and the
fields of its structs, an HDF5 file's datasets.

Such files hold arrays in groups (a struct, a struct array's elements, an HDF5 group), not
tables. The 1-D arrays of one length in one group make a table titled by the group's path
(`exp/run1`), each column headed by its own path (`exp/run1/time`); an array left alone in
its group joins its parent's table under its path from there, so Simulink's
`ScopeData.signals.values` stands beside `ScopeData.time`. Each column's unit comes from
the file (an HDF5 `units` attribute, a struct's `units` field naming its siblings' units,
`DSC.units.T = 'K'`) or from its name (`T_K`); scalars and text are settings.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

from labscribe.tools.columns.units import known_unit, split_unit, split_value
from labscribe.tools.formats.array_files import by_length
from labscribe.tools.formats.cell_grid import Found
from labscribe.tools.formats.container_limits import MAX_ARRAYS, MAX_METADATA, MAX_POINTS
from labscribe.tools.formats.parameters import ParameterRow
from labscribe.tools.formats.readers import NoTable, Read
from labscribe.tools.formats.text_tables import MAX_COLUMNS

# A struct's field of text that names the units of its siblings (`units.T = 'K'`).
UNIT_FIELDS = frozenset({"units", "unit", "Units", "Unit"})
MAX_TEXT = 200  # characters of a text field kept as a setting


@dataclass(frozen=True)
class Leaf:
    """One array or text of a file, at its path (`("exp", "run1", "time")`)."""

    path: tuple[str, ...]
    value: np.ndarray | str
    unit: str = ""
    """The unit the file records for it (an HDF5 attribute); "" when none."""


@dataclass(frozen=True)
class _Column:
    path: tuple[str, ...]
    values: np.ndarray
    unit: str
    part: str = ""
    """Which part of its array: ` [2]` (a 2-D array's third column), ` (real part)`."""


def read_leaves(
    leaves: list[Leaf],
    reader: str,
    axes: dict[tuple[str, ...], str] | None = None,
    outside: list[str] = (),  # type: ignore[assignment]
) -> Read:
    """The tables and settings `leaves` make; `axes` names, for a group, the member that is
    its independent variable (NeXus's `axes` attribute); `outside`, what the file points to
    elsewhere and was not read. Raises NoTable when no two columns share a length of 3 or
    more."""
    units = _sibling_units(leaves)
    columns: list[_Column] = []
    metadata: list[ParameterRow] = []
    for leaf in leaves[:MAX_ARRAYS]:
        if isinstance(leaf.value, str):
            if len(leaf.path) < 2 or leaf.path[-2] not in UNIT_FIELDS:
                metadata.append(_setting(leaf.path, leaf.value))
            continue
        unit = (known_unit(leaf.unit) or leaf.unit) if leaf.unit else units.get(leaf.path, "")
        for column in _columns(leaf.path, leaf.value, unit):
            if column.values.ndim == 0:
                metadata.append(_setting(column.path, float(column.values)))
            else:
                columns.append(column)
    found = _grouped(columns, axes or {})
    if not found:
        elsewhere = f" ({'; '.join(outside)})" if outside else ""
        raise NoTable(f"holds no numeric columns of a common length{elsewhere}",
                      metadata[:MAX_METADATA])  # fmt: skip
    return Read(found, metadata[:MAX_METADATA], reader=reader, blocks=len(found),
                unread=list(outside))  # fmt: skip


def leaves_of(arrays: dict[str, np.ndarray]) -> list[Leaf]:
    """Arrays named by `/`-separated paths (an archive's, an HDF5 file's) as leaves."""
    return [Leaf(tuple(name.split("/")), array) for name, array in arrays.items()]


def _sibling_units(leaves: list[Leaf]) -> dict[tuple[str, ...], str]:
    """Units a struct's `units` field gives its siblings: `DSC.units.T = 'K'` -> DSC.T in K."""
    found = {}
    for leaf in leaves:
        if isinstance(leaf.value, str) and len(leaf.path) >= 2 and leaf.path[-2] in UNIT_FIELDS:
            text = leaf.value.strip()
            found[(*leaf.path[:-2], leaf.path[-1])] = known_unit(text) or text[:16]
    return found


def _columns(path: tuple[str, ...], array: np.ndarray, unit: str) -> list[_Column]:
    """The columns an array gives: its fields (a record array), itself (1-D, moments as
    elapsed seconds or days), the columns of a 2-D one; a scalar as a 0-d column."""
    if array.dtype.names:
        return [
            column for name in array.dtype.names[:MAX_COLUMNS]
            for column in _columns((*path[:-1], name), array[name], "")
        ]  # fmt: skip
    if np.issubdtype(array.dtype, np.datetime64):
        days = np.datetime_data(array.dtype)[0] == "D"
        elapsed = (array - array.flat[0]) / np.timedelta64(1, "D" if days else "s")
        values = np.asarray(elapsed, dtype=float).ravel()[:MAX_POINTS]
        return [_Column(path, values, "d" if days else "s")]
    if np.issubdtype(array.dtype, np.complexfloating):  # an impedance: its two parts
        return [
            _Column(path, column.values, unit, column.part + part)
            for part, values in ((" (real part)", array.real), (" (imaginary part)", array.imag))
            for column in _columns(path, values, unit)
        ]
    if not np.issubdtype(array.dtype, np.number) and array.dtype != bool:
        return []
    squeezed = np.squeeze(np.asarray(array, dtype=float))
    if squeezed.ndim == 0:
        return [_Column(path, squeezed, unit)]
    if squeezed.ndim == 1:
        return [_Column(path, squeezed[:MAX_POINTS], unit)]
    if squeezed.ndim == 2:
        wide = squeezed if squeezed.shape[0] >= squeezed.shape[1] else squeezed.T
        return [
            _Column(path, wide[:MAX_POINTS, i], unit, f"[{i}]")
            for i in range(min(wide.shape[1], MAX_COLUMNS))
        ]
    return []


def _grouped(columns: list[_Column], axes: dict[tuple[str, ...], str]) -> list[Found]:
    """The tables of the columns' groups. Deepest first, the columns of one length (two or
    more) in a group are its table's; the others join the parent group, named from there.
    A column that stays alone up to the root (`ScopeData.time` beside the 2-D
    `ScopeData.signals.values`) joins, first, each table of its length below its group."""
    order = {column.path[:-1]: i for i, column in reversed(list(enumerate(columns)))}
    members: dict[tuple[str, ...], list[tuple[tuple[str, ...], _Column]]] = {}
    for column in columns:
        members.setdefault(column.path[:-1], []).append((column.path[-1:], column))
    kept: dict[tuple[str, ...], list[tuple[tuple[str, ...], _Column]]] = {}
    alone: list[_Column] = []
    for depth in range(max((len(group) for group in members), default=0), -1, -1):
        for group in [g for g in list(members) if len(g) == depth]:
            named = members.pop(group)
            counts = Counter(len(column.values) for _, column in named)
            for rel, column in named:
                if counts[len(column.values)] >= 2 and len(column.values) >= 3:
                    kept.setdefault(group, []).append((rel, column))
                elif group:
                    members.setdefault(group[:-1], []).append(((group[-1], *rel), column))
                    order.setdefault(group[:-1], order.get(group, 0))
                else:
                    alone.append(column)
    tables: list[tuple[int, Found]] = []
    for group, named in kept.items():
        lengths = {len(column.values) for _, column in named}
        shared = [
            (column.path[-1:], column) for column in alone
            if len(column.values) in lengths and group[: len(column.path) - 1] == column.path[:-1]
        ]  # fmt: skip
        tables += [(order.get(group, 0), found) for found in _tables(group, shared + named, axes)]
    return [found for _, found in sorted(tables, key=lambda pair: pair[0])]


def _tables(
    group: tuple[str, ...], named: list[tuple[tuple[str, ...], _Column]],
    axes: dict[tuple[str, ...], str],
) -> list[Found]:  # fmt: skip
    """The tables of one group's columns, by length, each column named by its path from the
    group and headed by its whole path."""
    if not named:
        return []
    columns: dict[str, tuple[np.ndarray, str]] = {}
    headers: dict[str, str] = {}
    for rel, column in named:
        label, written = split_unit(rel[-1])
        key = "/".join((*rel[:-1], label)) + column.part
        if key in columns:  # `T_s` beside `T_K`: each keeps its name as written
            key = "/".join(rel) + column.part
        columns[key] = (column.values, column.unit or written)
        headers[key] = "/".join(column.path) + column.part
    x = axes.get(group, "")
    x = x if x in columns else split_unit(x)[0]  # NeXus names the dataset: `time_s`
    return by_length(columns, "/".join(group), x=x or None, headers=headers)


def _setting(path: tuple[str, ...], value: float | str) -> ParameterRow:
    """A scalar or a text of a file, as a setting in the section of its group."""
    name, unit = split_unit(path[-1])
    text = str(value)[:MAX_TEXT]
    number = value if isinstance(value, float) and np.isfinite(value) else None
    if isinstance(value, str):
        number, written = split_value(text)
        unit = written or unit
    return ParameterRow(source="", section="/".join(path[:-1]), key=path[-1], name=name,
                        value=text, number=number, unit=unit)  # fmt: skip
