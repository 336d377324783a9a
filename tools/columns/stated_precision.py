"""The precision a handout states in its prose for a column that has no uncertainty column:
"Spalte `U` = Kondensatorspannung U_C in Volt (Ablesegenauigkeit ca. 0,01 V)", "the column
`d` is read to ± 0.5 mm", "`h (cm)` … incertidumbre de 0,1 cm".

The column gets an uncertainty column of the stated value in every row, in its own unit
(pint), so that its fits are weighted by it and the quantities formed from it carry it:
ln U, formed from U, has u(ln U) = u(U)/U, and the straight line of ln U against t no longer
lets the readings at the resolution's edge (0.01 V of 0.54 V) pull its slope.
"""

from __future__ import annotations

import re
from functools import partial

import numpy as np

from labscribe.tools.assignment.role_phrases import sentences
from labscribe.tools.columns.column import Column
from labscribe.tools.columns.stated_units import clauses_of, mention, said_of
from labscribe.tools.columns.unit_library import unit_registry
from labscribe.tools.columns.units import known_unit
from labscribe.tools.formats.tables import Table

# The words for a reading's precision in the handouts' languages, then at most a few words
# ("ca.", "of about", "de") before the value: "Ablesegenauigkeit ca. 0,01 V".
_PRECISION = re.compile(
    r"(?:ablese|mess)?genauigkeit|(?:mess)?unsicherheit|uncertaint\w*|accuracy|precision|"
    r"resolution|(?:read|measured)(?: off)?(?: the \w+)? to|incertidumbre|incerteza|"
    r"incertitude|pr[ée]cision|incertezza|risoluzione|погрешност\w*|точност\w*|niepewno\w*|"
    r"dokładno\w*|nejistot\w*|přesnost\w*|natančnost\w*|negotovost\w*",
    re.IGNORECASE,
)
_VALUE = re.compile(
    r"^(?:[^\d±+\s]+\s+){0,3}?(?:±|\+/-|\+-)?\s*(?P<number>\d+(?:[.,]\d+)?)\s*"
    r"(?P<unit>[^\s,;:()]+(?:\s[^\s,;:()\d]+)?)"
)
MAX_AFTER_CHARS = 60


def stated_precision(table: Table, text: str) -> None:
    """Give each column of `table` without an uncertainty the one `text` states for it:
    the first precision word after the column's name in a clause, before another column's
    name, followed by a value in a unit of the column's dimension."""
    columns = table.summary.columns
    paired = {c.uncertainty_of for c in columns if c.uncertainty_of}
    names = {c.key: mention(c.name) for c in columns if c.name and c.unit}
    clauses = [part for sentence in sentences(text) for part in clauses_of(sentence)]
    for column in [c for c in list(columns) if c.key in names and c.key not in paired]:
        found = said_of(column.key, names, clauses, partial(_stated, unit=column.unit))
        if found is not None:
            _add(table, column, *found)


def _stated(rest: str, unit: str) -> tuple[float, str] | None:
    """The precision `rest` states, in `unit`, and as written; None for none."""
    word = _PRECISION.search(rest)
    if word is None:
        return None
    after = rest[word.end() : word.end() + MAX_AFTER_CHARS]
    value = _VALUE.match(after.strip(" :=(").replace("\u00a0", " "))
    written = value and known_unit(value["unit"].rstrip(".)"))
    if not written:
        return None
    quantity = unit_registry().Quantity
    try:
        number = quantity(float(value["number"].replace(",", ".")), written).to(unit).magnitude
    except Exception:  # pint's dimensionality and undefined-unit errors: not this column's
        return None
    said = f"{word[0]} {after.strip(' :=(')[: value.end()].strip()}"
    return (float(number), said) if number > 0 else None


def _add(table: Table, column: Column, value: float, said: str) -> None:
    key = f"u({column.key})"
    rows = len(table.frame)
    table.frame[key] = np.full(rows, value)
    table.summary.columns.append(
        Column(
            key=key, header="", name=f"u({column.name})", unit=column.unit, count=rows,
            minimum=value, maximum=value, uncertainty_of=column.key,
            formed=f"{value:g} {column.unit} in every row, as the handout states (“{said}”)",
        )
    )  # fmt: skip
