"""The symbols a handout gives the columns it names: "`Untitled` = tension imposée v (V)",
"`CH2` is the coil current I (A)", "`Untitled 1` : courant mesuré i". Such a
column is read under its symbol, its header kept as the file writes it, so that the task's
formula (i = i₀ + v/R) and words ("tracer i(v)") find it whatever the file called it.

A column is named by its header quoted as written; the symbol follows an equals sign, a
colon or "is" and the words that say what it is, and it stands last before a bracket, a comma,
the end of the clause or its unit ("`T` = Zeit t in Millisekunden"): "`x` = 5 cm" gives no
symbol. The symbol may stand alone (`"Kanal B" = U2 (V)`). A symbol another column of the
table already bears is left alone.
"""

from __future__ import annotations

import re

from labscribe.tools.columns.column import Column

_DEFINED = re.compile(
    r"[`'\"“](?P<name>[^`'\"”\n]{1,40})[`'\"”]\s*(?:=|:|\b(?:is|est|ist|es|è|é)\b)\s*"
    r"(?:(?:the|la|le|l'|die|der|das|el|il|o|a)\s*)?"
    r"(?P<words>(?:[^\W\d_][\w'’-]*\s+){0,4}?)"
    r"\$?(?P<symbol>[A-Za-z\u0370-\u03ff](?:_\{?[A-Za-z0-9]{1,6}\}?|[0-9])?)\$?"
    r"(?=\s*(?:[(\[,;]|\.(?:\s|$)|$)|\s+(?:in|en|im|em)\s)",  # or its unit: "t in ms"
    re.MULTILINE,
)


def column_symbols(columns: list[Column], text: str) -> None:
    """Give each column the handout `text` defines with a symbol that symbol as its name."""
    by_header = {c.header.strip(): c for c in columns if c.header.strip()}
    for match in _DEFINED.finditer(text):
        column = by_header.get(match["name"].strip())
        symbol = match["symbol"].replace("{", "").replace("}", "")
        if column is None or any(c.name == symbol for c in columns):
            continue
        column.name = symbol
