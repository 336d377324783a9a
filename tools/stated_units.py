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
MAX_GAP_WORDS = 8  # "column `pressure` is the vapour pressure in mm Hg"
_CLAUSES = re.compile(r"[;,]\s+(?=(?:and\s+)?(?:the\s+)?(?:column|col\.|spalte|colonne|colonna)\b)"
                      r"|;\s*", re.IGNORECASE)  # fmt: skip
_AFTER = re.compile(r"\s(?:in|en|im|em)\s+(?P<words>[^\s,;:.()]+(?:\s+[^\s,;:.()]+){0,2})"
                    r"|\((?P<bracket>[^()]{1,12})\)")  # fmt: skip


def stated_units(columns: list[Column], text: str) -> None:
    """Give each column without a unit the one the handout `text` states for it: the first
    "in <unit>" or "(<unit>)" within a few words after its name, before another column's."""
    bare = [c for c in columns if not c.unit and not c.formed and len(c.name) >= 2]
    if not bare or not text:
        return
    clauses = [part for sentence in sentences(text) for part in _CLAUSES.split(sentence)]
    names = {c.key: _mention(c.name) for c in columns if len(c.name) >= 2}
    for column in bare:
        others = [pattern for key, pattern in names.items() if key != column.key]
        for clause in clauses:
            found = names[column.key].search(clause)
            if found is None:
                continue
            rest = clause[found.end() :]
            cut = min((m.start() for p in others if (m := p.search(rest))), default=len(rest))
            if unit := _unit_after(" ".join(rest[:cut].split()[:MAX_GAP_WORDS])):
                column.unit = unit
                break


def _mention(name: str) -> re.Pattern[str]:
    """A column's name as prose mentions it, quoted or whole (`pressure.csv` is none)."""
    return re.compile(rf"[`'\"“]?(?<![\w-]){re.escape(name)}(?![\w-]|\.\w)[`'\"”]?", re.I)


def _unit_after(rest: str) -> str | None:
    """The unit the first "in ..." or bracket after a column's name writes: "in mm Hg",
    "(°C)"; None where that is no unit ("in the header", "(plant units)")."""
    match = _AFTER.search(" " + rest)
    if match is None:
        return None
    if match["bracket"]:
        return known_unit(match["bracket"].strip())
    words = match["words"].split()
    for size in range(min(MAX_UNIT_WORDS, len(words)), 0, -1):
        if unit := known_unit(" ".join(words[:size])):
            return unit
    return None
