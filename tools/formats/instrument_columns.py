"""What instruments write in their column headers, read as the names, units and axis they
mean, where the general header rules (tools.columns.column, tools.columns.units) read them
otherwise.

- Flow calibrators and flow loggers write the unit as the header's last word, with a slash
  inside it: Mesa Labs DryCal's `DryCal smL/min`, `Temp. Deg C`, `Pressure mBar`, a mass
  flow controller's `MFC1 Measure mln/min`. The slash is the unit's, not the name's.
- Thermocouple loggers write `C` for degrees Celsius (PicoLog's `Outside Last (C)`,
  Hioki's `CH-7[C]`); a column in coulombs names a charge.
- Battery cyclers name columns by their unit (Maccor's `Amps`, `Volts`, `Amp-hr`).
- A logger that leaves its first column unnamed fills it with Unix times (PicoLog).
- A peak table's `A/H` is the ratio of its `Area` and `Height` columns, not amperes per
  henry.
- A first column that only numbers the records (`Rec#`, `Peak#`) is no variable: a time
  column beside it is (Maccor's TestTime, Shimadzu's R.Time).
- Sorption instruments write units with a qualifier (Micromeritics' `(cm³/g STP)`, Hiden's
  `(% d.b.)`, `(g/cc)`) and plot against the relative pressure `(p/p°)`, which a
  measurement's noise may step back by a hair.
"""

from __future__ import annotations

import re

import numpy as np

from labscribe.tools.columns.column import Column, unique_keys
from labscribe.tools.columns.units import canonical
from labscribe.tools.formats.cell_grid import Found

# Flow units as calibrators and flow controllers write them: standard or normal millilitres
# or litres per minute, second or hour (`smL/min`, `mln/min`, `ln/min`, `sccm`, `slm`).
_FLOW = re.compile(r"^(?:[sn]?[mµu]?[lL][sn]?/(?:min|s|h)|s?ccm|slm|slpm|sccs)$")
# Units written in words or spellings the general reader does not take (`mBar`, `Deg C`).
_SPELLED = {"mbar": "mbar", "bar": "bar", "deg c": "°C", "deg f": "°F", "degc": "°C",
            "degf": "°F", "psi": "psi", "psia": "psi", "psig": "psi", "torr": "Torr"}  # fmt: skip
# Columns named by their unit, as battery cyclers name them.
_UNIT_NAMES = {"amps": "A", "amp": "A", "volts": "V", "volt": "V", "ohms": "Ω", "watts": "W",
               "amp-hr": "A·h", "amp-hrs": "A·h", "watt-hr": "W·h", "watt-hrs": "W·h"}  # fmt: skip
_CHARGE = re.compile(r"(?i)(?:^|[^a-z])q(?:[^a-z]|$)|charge|ladung|coulomb|capacit")
_BRACKETS = frozenset("([{")
_RATIO = re.compile(r"^(?P<top>[A-Za-z])/(?P<bottom>[A-Za-z])$")
_COUNTER = re.compile(r"(?i)^(?:rec|record|peak|point|pt|sample|data)?\s*(?:#|no\.?|nr\.?)$")
_TIME = re.compile(r"(?i)time")
# Last words that read as units but, after a name, say which statistic a column holds.
# Words that end a header without being its unit: a statistic, or the acidity `pH` (`Run 1:
# pH` is the pH, not picohenries)
_NOT_UNITS = frozenset({"min", "max", "ave", "avg", "mean", "rms", "sum", "last", "ph"})
UNIX_SECONDS = (1e9, 4.1e9)  # as tools.formats.time_columns reads a logger's clock
_BRACKET_TAIL = re.compile(r"^(?P<name>[^(\[]*\S)\s*[(\[](?P<inner>[^()\[\]]{1,24})[)\]]\s*$")
_PRESSURE_RATIO = re.compile(r"^[pP]\s*/\s*[pP](?:0|°|o|_0|s)$")
_QUALIFIER = re.compile(r"^(?:STP|NTP|d\.b\.|w\.b\.|dry|wet|abs|rel)$", re.IGNORECASE)
_EXTRA_UNITS = frozenset({"cc"})  # cubic centimetres, as sorption and density exports write
MOSTLY_ONE_WAY = 0.8  # of a relative pressure's steps: the rest is the measurement's noise


def complete_columns(found: Found) -> None:
    """Correct `found`'s column names, units and independent variable where its headers
    follow one of the instruments' conventions above."""
    names = [c.name for c in found.columns]
    for i, column in enumerate(found.columns):
        update = (_trailing_unit(column) or _unit_name(column) or _ratio(column, names)
                  or _qualified_unit(column))  # fmt: skip
        if update:
            column = found.columns[i] = column.model_copy(update=update)
        if column.unit == "C" and not _CHARGE.search(column.name):
            found.columns[i] = column.model_copy(update={"unit": "°C"})
    _unix_first(found)
    _unstamped_tail(found)
    _rekey(found, names)
    _past_counter(found)
    _relative_pressure(found)


def _unstamped_tail(found: Found) -> None:
    """Rows after the last time stamp of a column of dates and times are a summary the
    software adds (Fusion's `% RSD` under its injections), not measurements: left out."""
    first = found.columns[0]
    if first.key not in found.clocks:
        return
    stamps = found.frame[first.key].notna().to_numpy()
    if not stamps.any() or stamps[-1]:
        return
    last = int(np.flatnonzero(stamps)[-1]) + 1
    found.notes.append(f"{len(stamps) - last} row(s) after the last time stamp left out: a summary")
    found.frame = found.frame.iloc[:last].reset_index(drop=True)


def _rekey(found: Found, before: list[str]) -> None:
    """Keys follow the names that changed (`DryCal smL` became `DryCal`), so fits and figures
    are labelled with what the column is."""
    if [c.name for c in found.columns] == before:
        return
    keys = unique_keys([c.name for c in found.columns])
    renamed = {c.key: key for c, key in zip(found.columns, keys, strict=True) if c.key != key}
    if not renamed:
        return
    found.columns = [
        c.model_copy(update={"key": renamed.get(c.key, c.key),
                             "uncertainty_of": renamed.get(c.uncertainty_of or "",
                                                           c.uncertainty_of)})
        for c in found.columns
    ]  # fmt: skip
    found.frame = found.frame.rename(columns=renamed)
    found.clocks = {renamed.get(k, k): clock for k, clock in found.clocks.items()}
    if found.x is not None:
        found.x = renamed.get(found.x, found.x)


def qualified_unit(text: str) -> str | None:
    """The unit a bracket holds when it is a unit with a qualifier (`cm³/g STP`, `% d.b.`),
    a relative pressure (`p/p°`, `P/P0`), or a quotient of units and cubic centimetres
    (`g/cc`), as written; None otherwise (`CH1`)."""
    text = " ".join(text.split())
    if _PRESSURE_RATIO.match(text):
        return text
    head, _, qualifier = text.partition(" ")
    if qualifier and not _QUALIFIER.match(qualifier):
        return None
    parts = head.split("/")
    known = all(canonical(part) or part in _EXTRA_UNITS for part in parts)
    return text if known and (qualifier or "cc" in parts) else None


def _qualified_unit(column: Column) -> dict | None:
    match = _BRACKET_TAIL.match(column.header)
    if column.unit or match is None or not (unit := qualified_unit(match["inner"])):
        return None
    return {"name": match["name"], "unit": unit}


def _relative_pressure(found: Found) -> None:
    """A sorption isotherm's relative pressure is its independent variable, though it may
    step back by a hair where it rises (most steps one way)."""
    if found.x is not None:
        return
    for column in found.columns:
        if not _PRESSURE_RATIO.match(column.unit):
            continue
        steps = np.sign(np.diff(found.frame[column.key].dropna().to_numpy(dtype=float)))
        if len(steps) >= 2 and abs(steps.sum()) >= MOSTLY_ONE_WAY * len(steps):
            found.x = column.key
            return


def trailing_unit(header: str) -> tuple[str, str] | None:
    """(name, unit) of a header whose last word or two name a unit with no brackets:
    `DryCal smL/min` -> ("DryCal", "smL/min"), `Temp. Deg C` -> ("Temp.", "°C"); None
    when the header does not end so. A single letter is never taken for a unit there
    (`Kanal A` names a channel)."""
    if any(mark in header for mark in _BRACKETS):
        return None
    words = header.split()
    if len(words) >= 3 and (unit := _SPELLED.get(" ".join(words[-2:]).lower())):
        return " ".join(words[:-2]), unit
    if len(words) >= 2 and words[-1] == "%":
        return " ".join(words[:-1]), "%"
    if len(words) < 2 or len(words[-1]) < 2:
        return None
    last = words[-1]
    unit = (last if _FLOW.match(last) else None) or _SPELLED.get(last.lower())
    if unit is None and "/" not in last and last.isascii() and last.lower() not in _NOT_UNITS:
        unit = canonical(last) if any(ch.isupper() for ch in last[1:]) or len(last) > 2 else None
    return (" ".join(words[:-1]), unit) if unit else None


def _trailing_unit(column: Column) -> dict | None:
    found = trailing_unit(column.header)
    if found is None or (column.unit and column.unit == found[1]):
        return None  # `angle / deg.` was read as angle in deg already
    return {"name": found[0], "unit": found[1]}


def _unit_name(column: Column) -> dict | None:
    unit = _UNIT_NAMES.get(column.header.strip().lower())
    return {"unit": unit} if unit and not column.unit else None


def _ratio(column: Column, names: list[str]) -> dict | None:
    """`A/H` beside `Area` and `Height`: their ratio, with no unit of its own."""
    match = _RATIO.match(column.header.strip())
    if match is None:
        return None
    words = [n for n in names if n != column.name and len(n) > 1]
    if any(n.startswith(match["top"]) for n in words) and any(
        n.startswith(match["bottom"]) for n in words
    ):
        return {"name": column.header.strip(), "unit": ""}
    return None


def _unix_first(found: Found) -> None:
    """An unnamed first column of rising Unix seconds is the logger's clock: named time,
    it is read as one (tools.formats.time_columns)."""
    first = found.columns[0]
    if first.header or len(found.columns) < 2:
        return
    values = found.frame[first.key].dropna().to_numpy(dtype=float)
    inside = len(values) >= 2 and UNIX_SECONDS[0] <= values.min() <= values.max() <= UNIX_SECONDS[1]
    if inside and bool(np.all(np.diff(values) > 0)):
        found.columns[0] = first.model_copy(update={"name": "time"})


def _past_counter(found: Found) -> None:
    """A first column that numbers the records (`Rec#`, `Peak#`, rising by one) gives way to
    the first rising time column beside it."""
    if found.x is not None or len(found.columns) < 2:
        return
    first = found.columns[0]
    values = found.frame[first.key].dropna().to_numpy(dtype=float)
    counts = len(values) >= 2 and bool(np.all(np.diff(values) == 1))
    if not (counts and _COUNTER.match(first.header.strip())):
        return
    for column in found.columns[1:]:
        steps = np.diff(found.frame[column.key].dropna().to_numpy(dtype=float))
        if _TIME.search(column.name) and len(steps) and bool(np.all(steps > 0)):
            found.x = column.key
            return
