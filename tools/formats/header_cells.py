"""A header line's cells as labs part them, where they do not part as the data's do
(tools.formats.header_rows reads the heading they make):

- a separator of the header's own, other than the data's: `|` or tabs (a student's
  `# Wavelength (nm) | Stopping_Voltage (Vs) | Uncertainty (Vs)` over numbers parted by
  blanks);
- names of several words parted by single blanks, each closed by its unit
  (`Inverse Wavelength[nm^-1] Slope dSlope`): the words just before a unit are one name
  with it, as many as make the names as many as the columns, where only one way does;
- rows labelled by their first cell as what they hold (`#NAME`, `#VAR`, `#UNIT`; Origin's
  `Long Name`, `Units`, `Comments`; LoggerPro's names, short names and units): names from
  the names row (else the symbols), units from the units row, comments left out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from labscribe.tools.columns.units import split_unit

# Separators a header may part its names with, where the data part theirs otherwise
# (`# Z, E (keV), u(E) (keV)` over blank-separated numbers).
OWN_SEPARATORS = ("|", "\t", ";", ",")
# What a labelled row holds, by its label (lower case, without marks): names, symbols,
# units, or comments that name nothing.
ROW_LABELS = {
    "name": "name", "names": "name", "long name": "name", "longname": "name",
    "long names": "name", "quantity": "name", "quantities": "name",
    "var": "symbol", "vars": "symbol", "variable": "symbol", "variables": "symbol",
    "symbol": "symbol", "symbols": "symbol", "short name": "symbol", "short names": "symbol",
    "unit": "unit", "units": "unit", "einheit": "unit", "einheiten": "unit", "单位": "unit",
    "comment": "comment", "comments": "comment", "description": "comment",
    "kommentar": "comment",
}  # fmt: skip
MAX_LABEL_CHARS = 24  # a row's label is a word or two: a longer cell is no label


@dataclass(frozen=True)
class Labelled:
    """What rows labelled by their first cell say of the columns after the label."""

    names: list[str]
    units: list[str] | None
    rows: list[int]
    """Indices, among the rows given, of those labelled."""


def _label(cell: str) -> str:
    """A row's first cell as a label: lower case, without a comment mark or a colon."""
    if len(cell) > MAX_LABEL_CHARS:
        return ""
    return cell.lstrip("#%;!/ ").rstrip(":： ").lower()


# A quantity's name in quotes and what follows it up to the next quote.
_QUOTED_NAME = re.compile(r'"([^"]+)"([^"]*)')


def own_cells(text: str, data_fields: int) -> list[str] | None:
    """The cells of a header line `text` parted by a separator of its own (`|`, tabs, commas), when
    that parts it into `data_fields` names, none empty (a Markdown row's outer bars aside);
    None otherwise. CASSY Lab quotes each quantity's name before its symbol and unit
    (`"Strom" I_A1 / A "Magn. Flussdichte" B_B1 / mT`): the symbols and units are the cells."""
    quoted = [rest.strip() for _, rest in _QUOTED_NAME.findall(text)]
    if len(quoted) == data_fields and all(quoted):
        return quoted
    for separator in OWN_SEPARATORS:
        if separator not in text:
            continue
        cells = [cell.strip() for cell in text.strip().split(separator)]
        while cells and not cells[0]:
            cells.pop(0)  # `| t | x |`
        while cells and not cells[-1]:
            cells.pop()
        if len(cells) == data_fields and all(cells):
            return cells
    # blanks over data parted by commas: a run of them (`t[s]   N[Impulse]`), or one after
    # each name its unit closes
    for cells in (re.split(r"\s{2,}", text.strip()), text.split()):
        if len(cells) == data_fields and all(split_unit(cell)[1] for cell in cells[1:]):
            return cells
    return None


def names_closed_by_units(cells: list[str], data_fields: int) -> list[str] | None:
    """`cells` (a header's words, split at single blanks) joined into `data_fields` names,
    the words just before a word that carries a unit joining it (`Inverse` and
    `Wavelength[nm^-1]`); None when the words are not more than the columns, or no single
    way to join them makes the count."""
    words = [cell for cell in cells if cell]
    excess = len(words) - data_fields
    if excess <= 0:
        return None
    closing = [i for i, word in enumerate(words) if split_unit(word)[1]]
    free: dict[int, int] = {}  # words without a unit just before each unit-bearing one
    previous = -1
    for i in closing:
        free[i] = i - previous - 1
        previous = i
    takers = [i for i in closing if free[i]]
    if sum(free.values()) == excess:
        taken = dict(free)
    elif len(takers) == 1 and free[takers[0]] >= excess:
        taken = {takers[0]: excess}
    else:
        return None
    names: list[str] = []
    i = 0
    while i < len(words):
        joined = next((k for k, n in taken.items() if n and k - n == i), None)
        if joined is not None:
            names.append(" ".join(words[i : joined + 1]))
            i = joined + 1
        else:
            names.append(words[i])
            i += 1
    return names if len(names) == data_fields else None


def labelled_rows(rows: list[list[str]], data_fields: int) -> Labelled | None:
    """The names and units rows labelled by their first filled cell (`NAME`, `UNIT`,
    `Long Name`, `Units`) write of the `data_fields` columns after the label, the rows
    whose label is unknown ending the labelled ones above; None when no row names a
    column or writes its unit, or none writes a cell for every column after its label."""
    found: dict[str, list[str]] = {}
    labelled: list[int] = []
    full = False  # some labelled row writes a cell for every column
    for index in range(len(rows) - 1, -1, -1):  # from the data up
        cells = [cell.strip() for cell in rows[index]]
        filled = [i for i, cell in enumerate(cells) if cell]
        if not filled:
            continue
        role = ROW_LABELS.get(_label(cells[filled[0]]))
        values = cells[filled[0] + 1 :]
        while values and not values[-1]:
            values.pop()
        if role is None or len(values) > data_fields:
            break
        found.setdefault(role, values + [""] * (data_fields - len(values)))
        labelled.append(index)
        full = full or len(values) == data_fields
    names = found.get("name") or found.get("symbol")
    units = found.get("unit")
    if names is None and units is None:
        return None
    if not full:
        return None  # `Unit,Voltage,Current` over three columns names its first: no label
    if names is not None and not any(names):
        return None
    return Labelled(names or [""] * data_fields, units, sorted(labelled))
