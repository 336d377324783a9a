"""Exports whose layout is the vendor's own rather than a table under a header, each read by
the convention its software writes (told apart by lines only it writes):

- Keysight EasyEXPERT (B1500A, B1505A parameter analyzers): every line is a record,
  `TestParameter, Measurement.Primary.Start, -5`, `MetaData, TestRecord.RecordTime, ...`,
  `AnalysisSetup, ...`; the data are `DataName, Vd, Id` and `DataValue, -5, -2.2e-4` rows;
  the units stand only in the record `Analysis.Setup.Vector.List.Datum.Unit, V, A`.
- Agilent EZChrom Elite ASCII (`.dat.asc`): typed header lines (`Sampling Rate:<TAB>10
  <TAB>10<TAB>Hz`, a value for each channel), then one raw value a line, channel after
  channel; the time axis comes from the sampling rate, each channel's values times its
  `Y Axis Multiplier` are in its `Y Axis Title`.
- Amptek multichannel analysers (`.mca`, PMCA / DPPMCA): sections opened by `<<NAME>>`
  lines; `<<PMCA SPECTRUM>>` holds `KEY - value` settings (live and real time), an optional
  `<<CALIBRATION>>` channel–energy pairs, `<<DATA>>` one count a line for channels 0, 1, …
  up to `<<END>>`; the DP5 configuration and status sections after it are no data.
- GW Instek GDS oscilloscopes (`ALL0003/1.CSV`): `Key,value,` settings (`Sampling Period,
  1.000E-06,`, `Trigger Address,4999,`, `Mode,Fast,`), then `Waveform Data,` and one sample
  a line; the time axis comes from the sampling period, zero at the trigger, and in Fast
  mode the samples are the ADC's counts, not volts.

Each reader returns the file's tables and settings as the grid reader does (Found,
ParameterRow), or None when the text is not its vendor's.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from labscribe.tools.columns.column import describe
from labscribe.tools.columns.units import canonical, split_value
from labscribe.tools.formats.cell_grid import Found
from labscribe.tools.formats.grid import MAX_TABLES_PER_FILE, MIN_ROWS
from labscribe.tools.formats.parameters import ParameterRow

MAX_SETTINGS = 80  # as tools.formats.grid keeps of a file's header: the settings, not a dump
# EasyEXPERT's records that hold the test's settings (AnalysisSetup is the display's).
_EASYEXPERT_SETTINGS = frozenset({"TestParameter", "MetaData"})
_EASYEXPERT_TITLES = frozenset({"SetupTitle", "PrimitiveTest"})
_EZCHROM_KEYS = ("Sampling Rate:", "Total Data Points:", "Y Axis Multiplier:")
_AMPTEK_FIRST = ("<<PMCA SPECTRUM>>", "<<DPPMCA SPECTRUM>>")
_AMPTEK_SECONDS = frozenset({"LIVE_TIME", "REAL_TIME", "PRESET_TIME"})
_GW_INSTEK_KEYS = ("Memory Length,", "Sampling Period,")
_GW_INSTEK_DATA = "\nWaveform Data,"
_GW_INSTEK_COUNTS = "the samples are the ADC's counts, as its Fast mode writes them, not volts"


@dataclass
class VendorRead:
    found: list[Found]
    metadata: list[ParameterRow]
    delimiter: str
    notes: list[str] = field(default_factory=list)


def read_vendor(text: str) -> VendorRead | None:
    """The tables and settings of `text` when a vendor reader knows its layout, else None."""
    head = text[:4096]
    if "\nDataName," in text and ("TestParameter," in head or "SetupTitle," in head):
        return _easyexpert(text)
    if all(key in head for key in _EZCHROM_KEYS):
        return _ezchrom(text)
    if head.lstrip().startswith(_AMPTEK_FIRST) and "\n<<DATA>>" in text:
        return _amptek(text)
    if all(key in head for key in _GW_INSTEK_KEYS) and _GW_INSTEK_DATA in text:
        return _gw_instek(text)
    return None


def _setting(key: str, value: str, unit: str = "") -> ParameterRow | None:
    value = value.strip()
    if not key or not value:
        return None
    number, value_unit = split_value(value)
    return ParameterRow(source="", key=key, name=key, value=value, number=number,
                        unit=value_unit or unit)  # fmt: skip


def _unit(text: str) -> str:
    """`ohm mm` -> `Ω·mm`: a unit written as words or a product with blanks."""
    parts = text.split()
    known = [canonical(part) for part in parts]
    return "·".join(known) if parts and all(known) else text.strip()  # type: ignore[arg-type]


def _easyexpert(text: str) -> VendorRead | None:
    settings: list[ParameterRow] = []
    units: dict[str, str] = {}
    names: list[str] = []
    blocks: list[tuple[list[str], list[list[str]]]] = []
    datum: dict[str, list[str]] = {}
    for fields in csv.reader(io.StringIO(text), skipinitialspace=True):
        if not fields:
            continue
        tag, rest = fields[0].strip(), [f.strip() for f in fields[1:]]
        if tag == "DataName":
            names = rest
            blocks.append((names, []))
        elif tag == "DataValue" and blocks:
            blocks[-1][1].append(rest)
        elif tag in _EASYEXPERT_TITLES and rest:
            if row := _setting(tag, ", ".join(rest)):
                settings.append(row)
        elif tag in _EASYEXPERT_SETTINGS and len(rest) >= 2:
            if row := _setting(rest[0], ", ".join(v for v in rest[1:] if v)):
                settings.append(row)
        elif tag == "AnalysisSetup" and rest and rest[0].endswith(("Datum.Name", "Datum.Unit")):
            datum[rest[0].rsplit(".", 1)[-1]] = rest[1:]
    for name, unit in zip(datum.get("Name", []), datum.get("Unit", []), strict=False):
        units[name] = _unit(unit)
    found = []
    for names, rows in blocks[:MAX_TABLES_PER_FILE]:
        width = len(names)
        frame = pd.DataFrame([row[:width] + [""] * (width - len(row)) for row in rows])
        frame = frame.apply(pd.to_numeric, errors="coerce").astype(float)
        if len(frame) < MIN_ROWS or width < 2:
            continue
        spelled = [(name, name, units.get(name, "")) for name in names]
        columns = describe(frame, spelled)
        frame = frame.set_axis([c.key for c in columns], axis=1)
        found.append(Found(columns, frame, "", None))
    if not found:
        return None
    return VendorRead(found, settings[:MAX_SETTINGS], "comma")


def _ezchrom(text: str) -> VendorRead | None:
    lines = text.splitlines()
    header: dict[str, list[str]] = {}
    values: list[float] = []
    for line in lines:
        key, sep, rest = line.partition(":\t")
        if sep and not values:
            header[key.strip()] = [v.strip() for v in rest.split("\t")]
            continue
        try:
            values.append(float(line))
        except ValueError:
            if values:
                break  # the data end where a line is no number
    rate = _first_number(header.get("Sampling Rate", []))
    if not rate or len(values) < MIN_ROWS:
        return None
    counts = [int(n) for n in (_number(v) for v in header.get("Total Data Points", [])) if n]
    titles = header.get("Y Axis Title", [])
    scales = [_number(v) or 1.0 for v in header.get("Y Axis Multiplier", [])]
    settings = [row for key, cells in header.items() if cells
                for row in [_setting(key, cells[0], _unit(cells[-1]) if len(cells) > 2 else "")]
                if row is not None]  # fmt: skip
    found, notes, start = [], [], 0
    for channel, count in enumerate(counts or [len(values)], start=1):
        chunk = np.asarray(values[start : start + count], dtype=float)
        start += count
        if len(chunk) < MIN_ROWS:
            break
        if len(chunk) < count:
            notes.append(f"channel {channel}: {len(chunk)} of its {count} points in the file")
        scale = scales[channel - 1] if channel <= len(scales) else 1.0
        unit = _unit(titles[channel - 1]) if channel <= len(titles) else ""
        frame = pd.DataFrame({0: np.arange(len(chunk)) / rate, 1: chunk * scale})
        columns = describe(frame, [("", "time", "s"), ("", f"channel {channel}", unit)])
        frame = frame.set_axis([c.key for c in columns], axis=1)
        table = Found(columns, frame, f"channel {channel}", columns[0].key)
        table.notes.append(
            f"time computed from the file's Sampling Rate ({rate:g} Hz); values times its "
            f"Y Axis Multiplier ({scale:g})"
        )
        found.append(table)
    if not found:
        return None
    return VendorRead(found, settings[:MAX_SETTINGS], "line", notes)


def _amptek(text: str) -> VendorRead | None:
    sections: dict[str, list[str]] = {}
    lines: list[str] = []
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("<<") and line.endswith(">>"):
            lines = sections.setdefault(line[2:-2].strip(), [])
        elif line:
            lines.append(line)
    counts = [_number(line) for line in sections.get("DATA", [])]
    if len(counts) < MIN_ROWS or any(n is None for n in counts):
        return None
    settings = []
    for line in sections.get("PMCA SPECTRUM") or sections.get("DPPMCA SPECTRUM", []):
        key, _, value = (part.strip() for part in line.partition(" - "))
        if row := _setting(key, value, "s" if key in _AMPTEK_SECONDS else ""):
            settings.append(row)
    calibration = sections.get("CALIBRATION", [])
    label = calibration[0].partition(" - ")[2].strip() if calibration else ""
    label = "" if label.lower() == "channel" else label  # the software's own word: no unit
    for n, pair in enumerate(calibration[1:], start=1):
        channel, _, energy = pair.partition(" ")
        point = f"channel {channel.strip()} = {energy.strip()} {label}".strip()
        if row := _setting(f"calibration point {n}", point):
            settings.append(row)
    frame = pd.DataFrame({0: np.arange(len(counts), dtype=float), 1: np.asarray(counts, float)})
    columns = describe(frame, [("", "channel", ""), ("", "counts", "")])
    frame = frame.set_axis([c.key for c in columns], axis=1)
    table = Found(columns, frame, "", columns[0].key)
    table.notes.append(
        f"an Amptek spectrum: {len(counts)} channels numbered from 0, as the analyser counts them"
    )
    return VendorRead([table], settings[:MAX_SETTINGS], "line")


def _gw_instek(text: str) -> VendorRead | None:
    head, _, data = text.partition(_GW_INSTEK_DATA)
    given: dict[str, str] = {}
    for line in head.splitlines():
        key, _, value = (part.strip() for part in line.partition(","))
        if key and (value := value.rstrip(",").strip()):
            given[key] = value
    samples = [line.strip().rstrip(",").strip() for line in data.splitlines()]
    values = [_number(sample) for sample in samples if sample]
    period = _number(given.get("Sampling Period", ""))
    if not period or len(values) < MIN_ROWS or None in values:
        return None  # two samples a line, or none: a layout this reader does not know
    trigger = _number(given.get("Trigger Address", "")) or 0.0
    counts = given.get("Mode", "").lower() == "fast"
    source = given.get("Source", "") or "channel"
    name, unit = (
        (f"{source} (ADC counts)", "") if counts else (source, given.get("Vertical Units", ""))
    )
    frame = pd.DataFrame(
        {0: (np.arange(len(values)) - trigger) * period, 1: np.asarray(values, dtype=float)}
    )
    columns = describe(frame, [("", "time", "s"), ("", name, unit)])
    table = Found(columns, frame.set_axis([c.key for c in columns], axis=1), "", columns[0].key)
    table.notes.append(
        f"time computed from the file's Sampling Period ({period:g} s), zero at its Trigger "
        f"Address (sample {trigger:g})" + (f"; {_GW_INSTEK_COUNTS}" if counts else "")
    )
    settings = [row for key, value in given.items() if (row := _setting(key, value))]
    return VendorRead([table], settings[:MAX_SETTINGS], "comma")


def _number(text: str) -> float | None:
    return split_value(text)[0]


def _first_number(cells: list[str]) -> float | None:
    return next((n for n in (_number(c) for c in cells) if n), None)
