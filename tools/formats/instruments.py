"""What instruments write around their data, read as the analysis's parameters: settings
(`Sample Interval,1.00E-09`, `Init E (V) = 0`, `Nb header lines : 94`, Gamry's
`VLIMIT1<TAB>POTEN<TAB>1.0E-001<TAB>F<TAB>Scan Limit &1 (V)`), and what those settings say of
the data itself: a scope's sample interval and start make its time axis, its vertical units
and source name its column; a LabVIEW file's Delta_X and X0 do the same. Runs recorded
side by side are told apart by their headers (tools.formats.side_by_side_runs).
"""

from __future__ import annotations

import csv
import re
from typing import Any

import numpy as np

from labscribe.tools.columns.column import Column
from labscribe.tools.columns.stated_units import unit_in_words
from labscribe.tools.columns.units import canonical, split_unit, split_value
from labscribe.tools.formats.cell_grid import Found
from labscribe.tools.formats.instrument_columns import complete_columns
from labscribe.tools.formats.parameters import ParameterRow
from labscribe.tools.formats.stated_specs import named_line, read_stated

MAX_KEY_CHARS = 48
MAX_KEY_WORDS = 7
MAX_VALUE_CHARS = 120
# Gamry's header lines are KEY<TAB>TYPE<TAB>VALUE<TAB>...<TAB>description.
GAMRY_TYPES = frozenset(
    {"LABEL", "POTEN", "QUANT", "IQUANT", "SELECTOR", "TOGGLE", "ONEPARAM", "TWOPARAM",
     "PSTAT", "NOTES", "IONEPARAM", "RANGE", "DOUBLE", "INT", "STRING", "ENUM"}
)  # fmt: skip
_KEY_VALUE = re.compile(r"^(?P<key>[^\W\d][^:=]{0,60}?)\s*(?::|=|：)\s*(?P<value>\S.*)$")
# A key and its first value, set apart by a run of blanks (EC-Lab's `E1 (V)   1,5000`).
_ALIGNED = re.compile(r"^(?P<key>[^\W\d]\S*(?: \S+){0,5}?)\s{2,}(?P<value>[-+]?[\d.,]+\S*)(?:\s|$)")
# A key and a value in words, set apart by a run of three blanks or more (a Hiden IGA
# record's `Species                       CO2`); the value has no such run itself.
_ALIGNED_TEXT = re.compile(r"^(?P<key>[^\W\d]\S*(?: \S+){0,5}?) {3,}(?P<value>\S+(?: \S+)*)$")
_LABEL = re.compile(r"^[^\W\d_][\w .\[\]/%°µ#&'-]*$")  # parentheses aside: `td (h:m:s)`
# A settings key, its role for the data, as files spell it (lower case, separators as " ").
# A sampling rate is the inverse of the interval: Gamry's FREQ, "Acquisition Frequency (Hz)".
RATE_KEYS = frozenset(
    {"sample rate", "sampling rate", "acquisition frequency", "sampling frequency",
     "samples per second", "scan rate hz"}
)  # fmt: skip
STEP_KEYS = frozenset(
    {"sample interval", "sampling interval", "delta x", "increment", "xincrement",
     "x increment", "dt", "time per point", "wf increment", "time step", "sample period"}
)  # fmt: skip
START_KEYS = frozenset({"x0", "start", "xorigin", "x origin", "wf start offset", "start time"})
SCOPE_SECONDS = {"S": "s", "SEC": "s", "MS": "ms", "US": "µs", "NS": "ns"}
X_UNIT_KEYS = frozenset({"horizontal units", "horizontal unit", "x unit label", "x unit", "xunits"})
Y_UNIT_KEYS = frozenset({"vertical units", "vertical unit", "y unit label", "y unit", "yunits"})
Y_NAME_KEYS = frozenset({"source", "channel name"})
# Columns that only count samples, where a time axis stands in a file's settings.
INDEX_HEADERS = frozenset({"x", "sequence", "pt", "point", "index", "#", "n", "sample", "no"})
_WORDS = re.compile(r"[^\W\d_]{3,}\s+[^\W\d_]+")  # two words, the first of three letters or more


def metadata_of_line(line: str) -> list[ParameterRow]:
    """The settings a line of a file's header writes, if it writes any: `key: value`,
    `key = value`, `key<TAB>value[<TAB>unit]`, `key,value[,unit]`, Gamry's typed line,
    pairs on one line (`Filename:<TAB>M50<TAB>Tester Channel:<TAB>1`, `Sweep points,601,
    Parametric points,1`), or a key and a value set apart by a run of blanks. Source and
    section are left for the caller."""
    text = line.strip().lstrip("#%!;/ ").strip()
    if not text or len(text) > 4 * MAX_VALUE_CHARS:
        return []
    fields = [f.strip() for f in text.split("\t")]
    filled = [f for f in fields if f]
    if len(filled) >= 3 and filled[1] in GAMRY_TYPES:
        unit = _unit_in(filled[-1]) if len(filled) > 3 else ""
        comment = filled[-1].replace("&", "") if len(filled) > 3 else ""
        return _row(filled[0], filled[2], unit, comment)
    if len(filled) >= 2 and (rows := _tabbed(filled)):
        # a tab sets the key apart: a value may hold ':' (`Output Time<TAB>9:56:38 AM`)
        return rows
    if pairs := _pairs(text):
        return pairs
    match = _KEY_VALUE.match(text)
    if match is not None and (row := _row(match["key"], match["value"], "", "")):
        return row
    for delimiter in ("\t", ";", ","):
        fields = [f.strip().strip('"') for f in text.split(delimiter)]
        while fields and not fields[-1]:
            fields.pop()  # a spreadsheet pads each row to the widest: `Product,Defender,,,,`
        filled = [f for f in fields if f]
        if 2 <= len(filled) <= 3 and len(fields) <= 4:
            unit = (canonical(filled[2]) or "") if len(filled) == 3 else ""
            # a third field of words that is no unit is the value's comment (`L1 ; 1.15 ;
            # length of pendulum 1 in metres`) where the second is a number; `x-axis,1,2`
            # numbers a scope's channels
            comment = (
                filled[2]
                if len(filled) == 3 and not unit and _WORDS.search(filled[2])
                and split_value(filled[1])[0] is not None
                else ""
            )  # fmt: skip
            unit = unit or (comment and unit_in_words(comment)) or ""  # "… em metros"
            if (len(filled) == 2 or unit or comment) and (
                row := _row(filled[0], filled[1], unit, comment)
            ):
                return row
    match = _ALIGNED.match(text)
    if match is not None:
        return _row(match["key"], match["value"], "", "")
    match = _ALIGNED_TEXT.match(text)
    if match is not None:
        return _row(match["key"], match["value"], "", "")
    named = named_line(text)  # a datasheet's `Operating temperature -40 ... +125 °C`
    return _row(named[0], named[1], "", named[2]) if named is not None else []


def _tabbed(filled: list[str]) -> list[ParameterRow]:
    """`key<TAB>value`, `key:<TAB>value<TAB>...<TAB>unit` (a value for each channel: the
    first is kept, with the unit the line ends with), or `key:<TAB>value` pairs (a key
    left without its value at the end of the line is dropped)."""
    keys = filled[::2]
    if len(filled) >= 3 and all(k.endswith(":") for k in keys):
        return [row for k, v in zip(keys, filled[1::2], strict=False)
                for row in _row(k.rstrip(":"), v, "", "")]  # fmt: skip
    key = filled[0].rstrip(":")
    if len(filled) == 2 or (filled[0].endswith(":") and split_value(filled[1])[0] is not None):
        unit = (canonical(filled[-1]) or "") if len(filled) > 2 else ""
        return _row(key, filled[1], unit, "")
    return []


def _pairs(text: str) -> list[ParameterRow]:
    """`key,value,key,value[,]`: two settings or more on one comma-separated line, each
    value a number (Keithley's `# of variables,1,Sweep points,601,Parametric points,1,`)."""
    fields = [f.strip() for f in text.split(",")]
    while fields and not fields[-1]:
        fields.pop()
    if len(fields) < 4 or len(fields) % 2 or not all(fields):
        return []
    keys, values = fields[::2], fields[1::2]
    if any(split_value(k)[0] is not None or split_value(v)[0] is None for k, v in zip(
            keys, values, strict=True)):  # fmt: skip
        return []
    return [row for k, v in zip(keys, values, strict=True) for row in _row(k, v, "", "")]


def metadata_of_lines(lines: list[tuple[int, str]]) -> list[ParameterRow]:
    """The settings of a file's lines that hold no data (line number, text): each line's
    own (metadata_of_line), and a row of names over the row of their values on the next
    line (Agilent's `"Path","File","Date Acquired","Sample"` over their values)."""
    rows: list[ParameterRow] = []
    skip = -1
    for k, (number, line) in enumerate(lines):
        if number == skip:
            continue
        below = lines[k + 1] if k + 1 < len(lines) else None
        if below is not None and below[0] == number + 1 and (pair := _names_over(line, below[1])):
            rows += pair
            skip = below[0]
            continue
        rows += metadata_of_line(line)
    return rows


def _names_over(names_line: str, values_line: str) -> list[ParameterRow]:
    """Settings from a line of names over a line of their values, comma-separated and
    quoted as CSV is; none unless every name reads as a label and the lines agree in
    length."""
    if max(len(names_line), len(values_line)) > 4 * MAX_VALUE_CHARS:
        return []  # a header, not a dump: and csv refuses a field past its limit
    names = [n.strip() for n in next(csv.reader([names_line]), [])]
    values = [v.strip() for v in next(csv.reader([values_line]), [])]
    labels = [n for n in names if n and _LABEL.match(n)]
    if len(names) < 3 or len(names) != len(values) or len(labels) != len(names):
        return []
    if all(v == "" or _LABEL.match(v) for v in values):
        return []  # two rows of words: a header and its units, not settings
    return [row for n, v in zip(names, values, strict=True) if v for row in _row(n, v, "", "")]


def _row(key: str, value: str, unit: str, comment: str) -> list[ParameterRow]:
    key = " ".join(key.split())
    value = value.strip()
    if (
        not value or len(key) > MAX_KEY_CHARS or len(key.split()) > MAX_KEY_WORDS
        or not _LABEL.match(re.sub(r"\([^()]*\)", "", key)) or len(value) > MAX_VALUE_CHARS
    ):  # fmt: skip
        return []
    name, key_unit = split_unit(key)
    number, value_unit = split_value(value)
    tolerance = ""
    if number is None and (stated := read_stated(value)) is not None:
        # `3977 K ± 0.75 %`: the value and its tolerance; `-40 ... +125 °C` keeps its unit
        number, value_unit, tolerance = stated.number, stated.unit, stated.tolerance
        value = value.split("±")[0].strip() if tolerance else value
    return [
        ParameterRow(source="", key=key, name=name, value=value, number=number,
                     unit=value_unit or unit or key_unit, comment=comment, tolerance=tolerance)
    ]  # fmt: skip


def _unit_in(description: str) -> str:
    """The unit a description ends with, in parentheses: `Scan Limit &1 (V)` -> V."""
    match = re.search(r"\(([^()]{1,16})\)\s*$", description)
    return (canonical(match[1]) or "") if match else ""


def setting(metadata: list[ParameterRow], keys: frozenset[str]) -> ParameterRow | None:
    """The first setting whose key or description (case, `_` and `-` aside) is one of
    `keys`."""
    for row in metadata:
        for text in (row.key, row.name, split_unit(row.comment)[0]):
            if re.sub(r"[_\-\s]+", " ", text.lower()).strip() in keys:
                return row
    return None


def of_channel(rows: list[ParameterRow], header: str) -> list[ParameterRow]:
    """The settings of the channel a column's header names (`CH1 Peak Detect` is CH1's):
    tools.formats.channel_settings reads them under the channel's name."""
    name = header.strip()
    return [r for r in rows if r.section and r.section in (name, *name.split()[:1])]


def _interval(metadata: list[ParameterRow]) -> tuple[float, ParameterRow] | None:
    """The sample interval the settings give: written, or the inverse of a sampling rate."""
    step = setting(metadata, STEP_KEYS)
    if step is not None and step.number is not None and step.number > 0:
        return step.number, step
    rate = setting(metadata, RATE_KEYS)
    if rate is not None and rate.number is not None and rate.number > 0:
        return 1.0 / rate.number, rate
    return None


def apply_metadata(found: Found, metadata: list[ParameterRow]) -> None:
    """Complete `found` with what its file's settings say of it: a column that only counts
    samples, or a table with no header, gets its time axis from the sample interval and
    start; a table without a header takes its units and channel name from the settings.
    Headers written to an instrument's convention are read as it means them first
    (tools.formats.instrument_columns)."""
    complete_columns(found)
    interval = _interval(metadata)
    start = setting(metadata, START_KEYS)
    x_unit = setting(metadata, X_UNIT_KEYS)
    y_unit = setting(metadata, Y_UNIT_KEYS)
    y_name = setting(metadata, Y_NAME_KEYS)
    if x_unit or y_unit or y_name:
        _name_unnamed(found, metadata, x_unit, y_name)
    if interval is None:
        return
    step, source = interval
    first = found.columns[0]
    counted = first.header.strip().lower() in INDEX_HEADERS or first.unit.lower() == "sequence"
    counted = counted and _counts(found.frame[first.key].to_numpy(dtype=float))
    others = found.columns[1:] if counted else found.columns
    if any(_monotonic(found.frame[c.key]) for c in others):
        return  # the file has its own axis
    unit = (canonical(x_unit.value) or x_unit.value) if x_unit else "s"
    offset = start.number if start is not None and start.number is not None else 0.0
    times = offset + step * np.arange(len(found.frame))
    time = Column.of_values(times, key="time", header="", name="time", unit=unit)
    if counted:
        found.frame = found.frame.drop(columns=[first.key])
        found.columns = found.columns[1:]
    found.frame.insert(0, "time", times)
    found.columns.insert(0, time)
    found.notes.append(
        f"time computed from the file's {source.key} ({source.value})"
        + (f" and {start.key} ({start.value})" if start is not None else "")
    )
    found.x = "time"


def _name_unnamed(
    found: Found,
    metadata: list[ParameterRow],
    x_unit: ParameterRow | None,
    y_name: ParameterRow | None,
) -> None:
    """A scope's columns in the units its settings give (`Horizontal Units`, `Vertical
    Units`, each channel's own where it writes one per channel) where their header states
    none; with no header at all, named time and the source channel."""
    unnamed = all(not c.header for c in found.columns)
    first, *rest = found.columns
    if x_unit is not None and not first.unit:
        written = x_unit.value.strip()
        # a scope's time axis in capitals (Tektronix's `Horizontal Units,S`) is in seconds,
        # not siemens
        written = SCOPE_SECONDS.get(written.upper(), written)
        update = {"unit": canonical(written) or written}
        found.columns[0] = first.model_copy(update=update | ({"name": "time"} if unnamed else {}))
    for i, column in enumerate(rest, start=1):
        update = {}
        y_unit = setting(of_channel(metadata, column.header), Y_UNIT_KEYS) or setting(
            metadata, Y_UNIT_KEYS
        )
        if y_unit is not None and not column.unit:
            update["unit"] = canonical(y_unit.value) or y_unit.value
        if y_name is not None and len(rest) == 1 and unnamed:
            update["name"] = y_name.value
        found.columns[i] = column.model_copy(update=update)


def _monotonic(values: Any) -> bool:
    finite = np.asarray(values, dtype=float)
    finite = finite[np.isfinite(finite)]
    steps = np.diff(finite)
    return len(finite) >= 3 and bool((steps > 0).all() or (steps < 0).all())


def _counts(values: np.ndarray) -> bool:
    """Whether values count samples: whole numbers rising by one."""
    finite = values[np.isfinite(values)]
    return len(finite) > 1 and bool(np.all(np.diff(finite) == 1))
