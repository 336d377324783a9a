"""Units a handout states in its prose for columns whose file states none: "column
`temperature` is the temperature in degrees Celsius, column `pressure` is the vapour
pressure in mm Hg". A column without a unit is given the one a clause of the handout
writes after naming it (its name quoted or whole), "in <unit>" or "(<unit>)", so that its
fits carry units and a formula's T in kelvin is formed from it.
"""

from __future__ import annotations

import re

from labscribe.tools.columns import Column
from labscribe.tools.role_phrases import sentences
from labscribe.tools.units import known_unit

MAX_UNIT_WORDS = 3  # "degrees Celsius", "mm Hg"
_CLAUSES = re.compile(r"[;,]\s+(?=(?:and\s+)?(?:the\s+)?(?:column|col\.|spalte|colonne|colonna)\b)"
                      r"|;\s*", re.IGNORECASE)  # fmt: skip
_AFTER = re.compile(r"\s(?:in|en|im|em)\s+(?P<words>[^\s,;:.()]+(?:\s+[^\s,;:.()]+){0,2})"
                    r"|\((?P<bracket>[^()]{1,12})\)")  # fmt: skip


def stated_units(columns: list[Column], text: str) -> None:
    """Give each column without a unit the one the handout `text` states for it."""
    bare = [c for c in columns if not c.unit and not c.formed and len(c.name) >= 2]
    if not bare or not text:
        return
    clauses = [part for sentence in sentences(text) for part in _CLAUSES.split(sentence)]
    for column in bare:
        name = re.compile(
            rf"[`'\"“]?(?<![\w-]){re.escape(column.name)}(?![\w-]|\.\w)[`'\"”]?", re.I
        )
        for clause in clauses:
            found = name.search(clause)
            unit = _unit_after(clause[found.end() :]) if found else None
            if unit:
                column.unit = unit
                break


def _unit_after(rest: str) -> str | None:
    """The unit written first after a column's name: "in mm Hg", "(°C)"."""
    for match in _AFTER.finditer(rest):
        if match["bracket"]:
            if unit := known_unit(match["bracket"].strip()):
                return unit
            continue
        words = match["words"].split()
        for size in range(min(MAX_UNIT_WORDS, len(words)), 0, -1):
            if unit := known_unit(" ".join(words[:size])):
                return unit
    return None
