"""CASSY Lab 2's own files (`.labx`, LD Didactic), as German teaching labs keep them: a zip
whose `data.xml` holds every channel of a measurement (its quantity `Spannung`, symbol
`U_B1`, unit `V` and values) and the settings of its inputs (the measuring interval, the
number of points). A channel recorded in several measurement series (`Messreihen`) stands
once in each; series k of a file is table k.

The XML is read with ElementTree as it streams, each element cleared once read, and every
value kept to the digits the file writes (RWTH's `praktikum.cassy` reads them as float32,
which leaves a time of 0.024900000000000002 s as 0.0249000003).
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO
from xml.etree import ElementTree

import numpy as np
import pandas as pd

from labscribe.tools.base import human_size
from labscribe.tools.columns.column import describe
from labscribe.tools.columns.counting import counting_name
from labscribe.tools.formats.cell_grid import Found
from labscribe.tools.formats.container_limits import MAX_CONTAINER_BYTES, MAX_POINTS
from labscribe.tools.formats.grid import MAX_TABLES_PER_FILE, MIN_ROWS
from labscribe.tools.formats.headings import symbol_font
from labscribe.tools.formats.parameters import ParameterRow
from labscribe.tools.formats.readers import NoTable, Read

DATA = "data.xml"
MAX_UNPACKED_BYTES = 256 * 1024 * 1024  # a long recording's XML: values written out in text
# The settings of a measurement CASSY writes as attributes of its inputs (`<ios ...>`).
_SETTINGS = {"oscinterval": ("measuring interval", "s"), "osccount": ("points per series", "")}


@dataclass
class Channel:
    quantity: str
    symbol: str
    unit: str
    values: list[float]
    series: int


def read_labx(handle: IO[bytes], rel: str) -> Read:
    """The tables (one a measurement series) and settings of a CASSY Lab 2 file."""
    data = handle.read(MAX_CONTAINER_BYTES + 1)
    if len(data) > MAX_CONTAINER_BYTES:
        raise NoTable(f"{rel} is larger than {human_size(MAX_CONTAINER_BYTES)}")
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        try:
            member = archive.getinfo(DATA)
        except KeyError:
            raise NoTable(f"{rel} holds no {DATA}: not a CASSY Lab 2 file") from None
        if member.file_size > MAX_UNPACKED_BYTES:
            raise NoTable(f"{rel} unpacks to {human_size(member.file_size)}, more than "
                          f"{human_size(MAX_UNPACKED_BYTES)}")  # fmt: skip
        with archive.open(member) as stream:
            settings: list[ParameterRow] = []
            channels = list(_channels(stream, settings))
    found = [table for series in _series(channels) if (table := _table(series)) is not None]
    if not found:
        raise NoTable(f"{rel} has no measurement series of {MIN_ROWS} or more values", settings)
    notes = [f"{len(found)} measurement series, one table each"] if len(found) > 1 else []
    return Read(found[:MAX_TABLES_PER_FILE], settings, reader="CASSY Lab 2", notes=notes,
                blocks=len(found))  # fmt: skip


def _channels(stream: IO[bytes], settings: list[ParameterRow]) -> Iterator[Channel]:
    """Each channel of the file as it streams past, and the inputs' settings into
    `settings`."""
    series = 0
    for event, element in ElementTree.iterparse(stream, events=("start", "end")):
        if event == "start":
            if element.tag == "channels":
                series = 0
            continue
        if element.tag == "ios":
            settings += [
                ParameterRow(
                    source="", key=key, name=name, value=value, unit=unit, number=_number(value)
                )
                for key, (name, unit) in _SETTINGS.items()
                if (value := element.get(key)) is not None
            ]
        elif element.tag == "channel":
            values = [_number(v.text or "") for v in element.iterfind("values/value")]
            yield Channel(
                quantity=(element.findtext("quantity") or "").strip(),
                symbol=(element.findtext("symbol") or "").strip(),
                unit=(element.findtext("unit") or "").strip(),
                values=values[:MAX_POINTS],
                series=series,
            )
            series += 1
            element.clear()


def _name(channel: Channel) -> str:
    """`Spannung U_B1`; CASSY's count of points by its quantity alone (`Index`), so that it
    reads as the row number it is (tools.columns.counting)."""
    if counting_name(channel.quantity):
        return channel.quantity
    return " ".join(filter(None, (channel.quantity, symbol_font(channel.symbol))))


def _number(text: str) -> float:
    try:
        return float(text.strip().replace(",", "."))
    except ValueError:
        return float("nan")


def _series(channels: list[Channel]) -> list[list[Channel]]:
    """The channels of each measurement series, in the file's order."""
    count = max((c.series for c in channels), default=-1) + 1
    return [[c for c in channels if c.series == k] for k in range(count)]


def _table(channels: list[Channel]) -> Found | None:
    """A series' channels that hold its points (the most values, MIN_ROWS at least) as a
    table; a channel CASSY keeps empty (a frequency never measured) is left out."""
    longest = max((len(c.values) for c in channels), default=0)
    kept = [c for c in channels if len(c.values) == longest]
    if longest < MIN_ROWS or len(kept) < 2:
        return None
    names = [_name(c) or f"column {i + 1}" for i, c in enumerate(kept)]
    frame = pd.DataFrame(
        {name: np.asarray(c.values, dtype=float) for name, c in zip(names, kept, strict=True)}
    )
    spelled = [(f"{name} / {c.unit}" if c.unit else name, name, c.unit)
               for name, c in zip(names, kept, strict=True)]  # fmt: skip
    columns = describe(frame, spelled)
    return Found(columns, frame.set_axis([c.key for c in columns], axis=1), "", None)
