"""Units a handout states in its prose for columns whose file states none: "column
`temperature` is the temperature in degrees Celsius, column `pressure` is the vapour
pressure in mm Hg". A column without a unit is given the one a clause of the handout
writes after naming it (its name quoted or whole; a name of one letter only quoted, `V`),
"in <unit>", "(<unit>)" or "(<words>, <unit>)", so that its fits carry units and a
formula's T in kelvin is formed from it. A listing of the data files that gives each its
units ("RC-Entladekurve.csv   t in Mikrosekunden, U in V") gives them to that file's columns.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import PurePosixPath
from typing import TypeVar

from labscribe.tools.assignment.role_phrases import sentences
from labscribe.tools.columns.column import Column
from labscribe.tools.columns.units import known_unit

_T = TypeVar("_T")
MAX_UNIT_WORDS = 3  # "degrees Celsius", "mm Hg"
MAX_GAP_WORDS = 8  # "column `pressure` is the vapour pressure in mm Hg"
_CLAUSES = re.compile(r"[;,]\s+(?=(?:and\s+)?(?:the\s+)?(?:column|col\.|spalte|colonne|colonna)\b)"
                      r"|;\s*", re.IGNORECASE)  # fmt: skip
# A line that opens with a file's name, as a listing of the data files writes it: `  a.csv   t
# in s`, `- a.csv: ...`, "* `a.csv` ..."
_LISTED = re.compile(r"^\s*(?:[-*•]\s+)?[`'\"]?(?P<file>[\w.+-]+\.\w{1,5})[`'\"]?\s*:?(?=\s)")
# The columns a line lists after the word and a colon: "(Spalten: t in s, N in Impulsen)".
_COLUMNS_LISTED = re.compile(
    r"\b(?:columns?|spalten?|colonnes?|columnas?|colonne|kolumny|kolumner|kolommen)\s*[:：]\s*"
    r"(?P<list>[^\n)]+)",
    re.IGNORECASE,
)
# Words of running prose that pint also reads as units: "pumped in at 267 mL/min" names no
# technical atmosphere, "in a beaker" no year.
_PROSE_WORDS = frozenset({"at", "a", "an", "as", "by", "of", "on", "or"})
# Another name quoted as code starts another column's mention: "`bolitas` (número de
# bolitas), `m(g)`" gives bolitas no gram.
_QUOTED = re.compile(r"`[^`\s]")
# Markdown's emphasis around a unit: "in **Millisekunden**", "in __mV__".
_EMPHASIS = re.compile(r"(\*{1,2}|_{2})(?=\S)(.+?)(?<=\S)\1")
# "in <unit>", "(<unit>)", "(<words>, <unit>)", "[<unit>]", or a unit closing the clause
# after a comma ("`V` — показание термопары, мкВ;")
_AFTER = re.compile(r"\s(?:in|en|im|em)\s+(?P<words>[^\s,;:.()]+(?:\s+[^\s,;:.()]+){0,2})"
                    r"|\((?:[^(),]{1,24},\s*)?(?P<bracket>[^(),]{1,12})\)"
                    r"|\[(?P<square>[^\[\],]{1,12})\]"
                    r"|,\s*(?P<closing>[^\s,;:()]{1,8})\s*[.,]?\s*$")  # fmt: skip


def stated_units(columns: list[Column], text: str, source: str = "") -> None:
    """Give each column without a unit the one the handout `text` states for it: the first
    "in <unit>" or "(<unit>)" within a few words after its name, before another column's;
    first in the lines that list the file `source` by its name ("RC-Entladekurve.csv   t in
    Mikrosekunden, U in V"), where a name of one letter needs no quotes, then anywhere."""
    text = _EMPHASIS.sub(r"\2", text)
    listed = listing(text, PurePosixPath(source).name) if source else []
    if listed:
        clauses = [part for line in listed for part in re.split(r"[,;]\s*", line)]
        _give(columns, clauses, {c.key: mention(c.name, listed=True) for c in columns if c.name})
    clauses = [part for sentence in sentences(text) for part in clauses_of(sentence)]
    _give(columns, clauses, {c.key: mention(c.name) for c in columns if c.name})


def clauses_of(sentence: str) -> list[str]:
    """The clauses of a sentence that each say something of one column: split at `;` and
    before ", column ...", ", Spalte ..."."""
    return _CLAUSES.split(sentence)


def _give(columns: list[Column], clauses: list[str], names: dict[str, re.Pattern[str]]) -> None:
    for column in [c for c in columns if not c.unit and not c.formed and c.key in names]:
        if unit := said_of(column.key, names, clauses, _unit_near):
            column.unit = unit


def said_of(
    key: str,
    names: dict[str, re.Pattern[str]],
    clauses: list[str],
    read: Callable[[str], _T | None],
) -> _T | None:
    """What `read` finds first in what a clause says of the column `key` (named by its
    pattern in `names`): the words after its name, up to another column's name or another
    quoted name."""
    others = [pattern for other, pattern in names.items() if other != key]
    for clause in clauses:
        found = names[key].search(clause)
        if found is None:
            continue
        rest = clause[found.end() :]
        cut = min((m.start() for p in others if (m := p.search(rest))), default=len(rest))
        cut = min(cut, quoted.start() if (quoted := _QUOTED.search(rest)) else cut)
        if (value := read(rest[:cut])) is not None:
            return value
    return None


def listing(text: str, name: str) -> list[str]:
    """The lines of `text` that list the file `name`: the line it opens, after the name, and
    the indented lines that continue it up to the next file's; else the columns a line lists
    after naming it ("Daten: `Vanadium.dat` (Spalten: t in s, N in Impulsen pro Intervall)")."""
    lines = text.splitlines()
    for line in lines:
        named = line.find(name)
        if named >= 0 and (columns := _COLUMNS_LISTED.search(line, named + len(name))):
            return [columns["list"]]
    for number, line in enumerate(lines):
        opened = _LISTED.match(line)
        if opened is None or opened["file"] != name:
            continue
        found = [line[opened.end() :]]
        for more in lines[number + 1 :]:
            if not more.startswith((" ", "\t")) or not more.strip() or _LISTED.match(more):
                break
            found.append(more)
        return found
    return []


def mention(name: str, *, listed: bool = False) -> re.Pattern[str]:
    """A column's name as prose mentions it, quoted or whole (`pressure.csv` is none); a
    name of one letter only quoted, as written (`V`; the V of "a voltage V" is no column),
    but in the lines that list its file."""
    if len(name) == 1 and not listed:
        return re.compile(rf"[`'\"“]{re.escape(name)}[`'\"”]")
    if len(name) == 1:
        return re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])")
    return re.compile(rf"[`'\"“]?(?<![\w-]){re.escape(name)}(?![\w-]|\.\w)[`'\"”]?", re.I)


def unit_in_words(text: str) -> str | None:
    """The unit a setting's comment states in words: "Comprimentos do pêndulo 1 em metros" is
    in m, "Resolucao da medida dos períodos dos pêndulos em segundos" in s."""
    return _unit_after(" ".join(text.split()))


def _unit_near(rest: str) -> str | None:
    return _unit_after(" ".join(rest.split()[:MAX_GAP_WORDS]))


def _unit_after(rest: str) -> str | None:
    """The unit the first "in ...", bracket or closing ", <unit>" after a column's name
    writes: "in mm Hg", "(°C)", "[Hz]", ", кГц"; None where that is no unit ("in the
    header", "(plant units)")."""
    match = _AFTER.search(" " + rest)
    if match is None:
        return None
    if written := match["bracket"] or match["square"] or match["closing"]:
        return known_unit(written.strip())
    words = match["words"].split()
    for size in range(min(MAX_UNIT_WORDS, len(words)), 0, -1):
        written = " ".join(words[:size])
        if written.lower() not in _PROSE_WORDS and (unit := known_unit(written)):
            return unit
    return None
