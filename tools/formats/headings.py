"""What stands above a table's numbers: the header, a units row under it (or names over two
rows), and a block's title; and the (header, name, unit) of each column they give."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from labscribe.tools.columns.column import unnamed
from labscribe.tools.columns.unit_headers import named_by_units
from labscribe.tools.columns.units import known_unit, split_unit

# Headers and units rows are looked for this many non-blank lines above the numbers.
HEADER_LOOKBACK = 3
# A units row names units in this share of its cells at least (Gamry's `bits` and `#`
# beside `s`, `V vs. Ref.`, `A`).
UNITS_SHARE = 0.6
COUNTING = frozenset({"#", "sequence", "bits", "count", "counts", "no.", "n"})
SHORT_NAME = 4  # characters of a short name under a long one (LoggerPro's `t`, `Temp`)
# A name starts with a letter, or with `%` or `#` before one (`%Wt`); `0 0 0` is a value.
_NAME_START = re.compile(r"^[^\W\d_%#]|^[%#]\S")


@dataclass(frozen=True)
class Heading:
    """What stands above a block's numbers."""

    header: list[str] | None
    units: list[str] | None
    title: str
    rows: list[int] = field(default_factory=list)
    """The rows the header, units row and title stand in."""


def spell(heading: Heading, positions: list[int]) -> list[tuple[str, str, str]]:
    """(header as written, name, unit) of the columns at `positions`: the unit from the
    units row when there is one, else from the header (`V_R (V)`, `freq_Hz`)."""
    texts = [heading.header[p] if heading.header is not None else "" for p in positions]
    # `"“h”"` is h; `#p` of a header `#T  #p`, each name behind its own comment mark, p
    names = [symbol_font(_MARKED.sub("", _QUOTED.sub(r"\1", text.strip()))) for text in texts]
    split = _subscripts([split_unit(name) if name else ("", "") for name in names], names)
    split = _unit_of_the_run(split)
    spelled = []
    for i, (p, text, (name, unit)) in enumerate(zip(positions, texts, split, strict=True)):
        name = name or unnamed(i + 1)
        if heading.units is not None and heading.units[p] not in ("", "-"):
            unit = _unit_cell(heading.units[p]) or unit
        spelled.append((text, name, unit))
    return named_by_units(spelled)


# CASSY writes a Greek letter as `&` and the Latin letter of the Symbol font that holds it
# (`&J_A11` is ϑ_A11, a temperature; `&b_A1` β_A1; `&D` Δ).
_SYMBOL_FONT = dict(zip(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
    "ΑΒΧΔΕΦΓΗΙϑΚΛΜΝΟΠΘΡΣΤΥςΩΞΨΖαβχδεφγηιϕκλμνοπθρστυϖωξψζ", strict=True,
))  # fmt: skip
_SYMBOL_LETTER = re.compile(r"(?<![A-Za-z0-9])&([A-Za-z])(?![A-Za-z])")


def symbol_font(text: str) -> str:
    """`text` with CASSY's Symbol-font letters (`&J`) as the Greek letters they stand for."""
    return _SYMBOL_LETTER.sub(lambda m: _SYMBOL_FONT[m[1]], text) if "&" in text else text


# A header cell wrapped in quotes of its own, typographic or plain, inside the CSV's.
_QUOTED = re.compile(r"^[“”„\"'‘’«»](.+)[“”\"'‘’«»]$")
_MARKED = re.compile(r"^#(?=[^\W\d])")


def _unit_of_the_run(split: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """`split` (name, unit) with a unit written once, after the last of a run of numbered
    columns (`h in cm, M1f, M1b, M2f, M2b, M3f, M3b in ms`), given to every column of the
    run: the names before it that start with the same letters and a number, and have none."""
    kept = list(split)
    for last, (name, unit) in enumerate(split):
        prefix = _NUMBERED.match(name)
        if not unit or prefix is None:
            continue
        first = last
        while (
            first > 0
            and not kept[first - 1][1]
            and ((other := _NUMBERED.match(kept[first - 1][0])) and other[1] == prefix[1])
        ):
            first -= 1
        kept[first:last] = [(n, unit) for n, _ in kept[first:last]]
    return kept


# A numbered name: letters, then a number (`M1f`, `U2`, `T_3`).
_NUMBERED = re.compile(r"([^\W\d_]+)_?\d")


def _subscripts(split: list[tuple[str, str]], names: list[str]) -> list[tuple[str, str]]:
    """`split` (name, unit) with the `_` suffixes of names that share their stem read as
    subscripts: `m_p, m_d, m_dg, T_p, T_d, T_m` are six names, not m in days and T in metres,
    where one of a stem's suffixes is no unit (`p`); `temp_C, temp_K` stay one quantity in
    two units."""
    stems: dict[str, list[int]] = {}
    for i, name in enumerate(names):
        stem, _, suffix = name.rpartition("_")
        if stem and suffix:
            stems.setdefault(stem, []).append(i)
    kept = list(split)
    for stem, members in stems.items():
        suffixes = [names[i].rpartition("_")[2] for i in members]
        if len(members) < 2 or all(known_unit(suffix) for suffix in suffixes):
            continue
        for i in members:
            if split[i][0] == stem:  # its unit was read off the suffix
                kept[i] = (names[i], "")
    return kept


def heading(cells: pd.DataFrame, numeric: np.ndarray, start: int) -> Heading:
    """(header cells, units cells, title) from the lines above row `start`: the nearest
    lines of several cells are the header, or a units row and the header above it; a line
    of one cell above them is the block's title when it reads like one (`[Block 2]`)."""
    several: list[tuple[int, list[str]]] = []
    title, titled = "", []
    row = start - 1
    fields = int((cells.iloc[start] != "").sum()) if start < len(cells) else 0
    while row >= 0 and len(several) < HEADER_LOOKBACK and not numeric[row]:
        line = _tabbed(_closed([cell.strip() for cell in cells.iloc[row].tolist()]), fields)
        filled = [cell for cell in line if cell]
        if is_rule(filled):
            row -= 1  # a dashed rule under the header (Hiden's `-----`) parts no block
            continue
        text = " ".join(filled)
        if not several and len(filled) == 1 and _lone_unit(text):
            several.append((row, line))  # `(m),,,,,`: the units row of the first column alone
            row -= 1
            continue
        if len(filled) == 1 or (_bracketed(text) and text.count("]") + text.count("】") == 1):
            title, titled = _title(text), [row]
            break
        if filled:
            several.append((row, _with_units_attached(line)))
        row -= 1
    if len(several) >= 2 and is_units_row([cell for cell in several[0][1] if cell]):
        (units_row, units), (header_row, header) = several[:2]
        upper = several[2][1] if len(several) == 3 else []
        data = int((cells.iloc[start] != "").sum()) if start < len(cells) else len(upper)
        if named := _names_above_units(upper, header, data):
            return Heading(named, units, title, [several[2][0], header_row, units_row, *titled])
        return Heading(header, units, title, [header_row, units_row, *titled])
    if len(several) >= 2 and is_units_row([cell for cell in several[1][1] if cell]):
        (names_row, names), (units_row, units) = several[:2]
        data = int((cells.iloc[start] != "").sum()) if start < len(cells) else len(names)
        rows = [names_row, units_row, *(r for r, _ in several[2:3]), *titled]
        if _filled(names) >= data and (len(several) == 2 or _filled(several[2][1]) < data):
            # the units, then the names right over the data, under a title line that fills
            # fewer cells ("Raumtemperatur um 14:24,23.8 °C", "(in cm),...", "Laenge,dL,...")
            return Heading(names, units, title, rows)
        if len(several) == 3:
            # names, units, then a row of comments (an Origin worksheet's label rows)
            header_row, header = several[2]
            return Heading(header, units, title, [header_row, units_row, names_row, *titled])
    if len(several) >= 2 and (joined := _names_over_two_rows(several[1][1], several[0][1])):
        return Heading(joined, None, title, [several[1][0], several[0][0], *titled])
    if several:
        return Heading(several[0][1], None, title, [several[0][0], *titled])
    return Heading(None, None, title, titled)


def _filled(line: list[str]) -> int:
    return sum(bool(cell) for cell in line)


def _lone_unit(text: str) -> bool:
    """Whether a line's one cell is a unit in brackets (`(m)`, `[s]`), not a block's title
    (`[Block 2]`)."""
    return _bracketed(text) and known_unit(text[1:-1].strip()) is not None


def _names_above_units(upper: list[str], header: list[str], data: int) -> list[str] | None:
    """The names of a header over a units row when the row above it is part of them:
    names over two rows (Hiden's `Gas` over `Density`), or long names over short ones
    (LoggerPro's and Vernier Format 2's `Time`, `Force` over `t`, `F` over `s`, `N`); None
    when it is neither (a line of the preamble). Either writes no more names than the
    data have columns."""
    if not upper or sum(bool(cell) for cell in upper) > data:
        return None
    pairs = [(up, low) for up, low in zip(upper, header, strict=False) if up or low]
    if len(pairs) >= 2 and all(
        up and low and _NAME_START.match(up) and len(low) < len(up) and len(low) <= SHORT_NAME
        for up, low in pairs
    ):
        return upper  # the short names are symbols: the long ones name the columns
    return _names_over_two_rows(upper, header, partial=True)


def _names_over_two_rows(
    upper: list[str], lower: list[str], partial: bool = False
) -> list[str] | None:
    """Names written over two rows (PerkinElmer Pyris: `Unsubtracted` over `Weight`), each
    lower cell under a filled upper one and every cell words; None otherwise. `partial`
    asks that some names stop at the upper row (Hiden's `Gas` over `Density` beside
    `Pressure` alone), as over a units row, where a full row above the names is a line of
    the preamble more often than their first words."""
    if not all(_NAME_START.match(cell) for cell in upper + lower if cell):
        return None  # names start with a letter: `0 0 0` is a value
    under = [bool(low) for low in lower]
    if not any(under) or any(low and not up for up, low in zip(upper, lower, strict=False)):
        return None
    if partial and sum(bool(up) for up in upper) <= sum(under):
        return None
    if sum(under) < 2 or len(lower) > len(upper):
        return None
    return [_joined(up, low) for up, low in zip(upper, lower + [""] * len(upper), strict=False)]


def _joined(upper: str, lower: str) -> str:
    """A name written over two rows as one: `Unsubtracted Weight`; where the lower row
    repeats the symbol the upper one ends with before its unit (PHYWE's `Flux density B`
    over `B/mT`), the symbol once: `Flux density B/mT`."""
    symbol = upper.split()[-1] if upper.split() else ""
    if symbol and re.match(rf"{re.escape(symbol)}(?=\s*[/\[(])", lower):
        return upper + lower[len(symbol) :]
    return f"{upper} {lower}".strip()


def _closed(line: list[str]) -> list[str]:
    """A line's cells with a bracket a delimiter split rejoined: a header written by hand
    (`(1% vom Endbereich des Manometers, in Bar)` in a comma-separated file) is one cell,
    not two that push every later unit one column on."""
    joined: list[str] = []
    for cell in line:
        if joined and _unclosed(joined[-1]):
            joined[-1] = f"{joined[-1]} {cell}" if cell else joined[-1]
        else:
            joined.append(cell)
    if any(_unclosed(cell) for cell in joined):
        return line  # a bracket nothing closes: no split to mend
    return joined + [""] * (len(line) - len(joined))


def _tabbed(line: list[str], fields: int) -> list[str]:
    """A line's cells with the names a tab keeps apart inside one cell split, where the line
    has fewer names than the data have fields and the split gives each field its name
    (`BUZZ5<tab>PASA1` in a comma-separated header whose comma was forgotten)."""
    filled = [cell for cell in line if cell]
    if len(filled) >= fields or not any("\t" in cell for cell in filled):
        return line
    split = [part.strip() for cell in filled for part in cell.split("\t") if part.strip()]
    if len(split) != fields or len(split) > len(line):
        return line
    return split + [""] * (len(line) - len(split))


def _unclosed(cell: str) -> bool:
    return cell.count("(") > cell.count(")") or cell.count("[") > cell.count("]")


def _with_units_attached(line: list[str]) -> list[str]:
    """`t [s] x [m]`, split at blanks, as the two headers `t [s]` and `x [m]`; a units row
    (`"(s)","(mm)"`) and empty cells stay where they are."""
    filled = [cell for cell in line if cell]
    if not any(_bracketed(cell) for cell in line[1:]) or all(_bracketed(c) for c in filled):
        return line
    merged: list[str] = []
    for cell in line:
        if merged and cell and _bracketed(cell) and merged[-1] and not _bracketed(merged[-1]):
            merged[-1] = f"{merged[-1]} {cell}"
        else:
            merged.append(cell)
    return merged + [""] * (len(line) - len(merged))


def is_rule(filled: list[str]) -> bool:
    """Whether the filled cells of a line draw a rule (`-----`, `=====`, `|---|---|`)."""
    text = "".join(filled)
    return len(text) >= 3 and not text.strip("-=_~:|+")


def _bracketed(cell: str) -> bool:
    return len(cell) >= 2 and cell[0] in "[(（【" and cell[-1] in "])）】"


def _title(line: str) -> str:
    """A block heading (`[Block 2]`, `Sweep 2`), or "" for a preamble line (`Date: ...`)."""
    text = line.strip()
    if text.startswith(("[", "【")):
        return text.strip("[]【】 ")
    return "" if re.search(r"[:=：]", text) or len(text) > 60 else text


def is_units_row(filled: list[str]) -> bool:
    """Most cells name a unit (`Hz`, `(mm)`, `V vs. Ref.`, `second`) and none is a number;
    a cell that counts (`#`, `Sequence`, `bits`) counts as one."""
    marks = [cell for cell in filled if cell not in ("-", "")]
    if not marks or any(_is_number(cell) for cell in marks):
        return False
    units = sum(_unit_cell(cell) is not None for cell in marks)
    return units == len(marks) or (units >= 2 and units >= UNITS_SHARE * len(marks))


def _unit_cell(cell: str) -> str | None:
    """The unit a units-row cell gives: `Hz`, `[Hz]`, `(V)`, `V vs. Ref.`; "" for a cell
    that counts (`#`, `Sequence`); None if it is not one."""
    inner = cell.strip()
    if inner.lower() in COUNTING:
        return ""
    if _bracketed(inner):
        inner = inner[1:-1].strip()
        # "(1% vom Endbereich des Manometers in Bar)": the unit after the explanation
        last = re.search(r"(?:^|[\s,])in\s+(\S+)$", inner)
        written = known_unit(inner) or (known_unit(last[1]) if last else None)
        return written or (inner if 0 < len(inner) <= 16 else None)
    against = re.match(r"^(\S+)\s+vs\.?\s", inner)  # a potential against its reference
    return known_unit(against[1] if against else inner)


def _is_number(cell: str) -> bool:
    try:
        float(cell.replace(",", "."))
    except ValueError:
        return False
    return True
