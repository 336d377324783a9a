"""What a handout says its symbols stand for when it names the symbol first: "with V the
breakdown voltage in kV, t the ageing time in weeks and T the ageing temperature in °C",
"where t is the time in s", "wobei U die Spannung ist", "où V est la tension", "donde t es el
tiempo", "com t o tempo em dias". (tools.assignment.role_phrases reads the other order, "the period
T".)

Text work only: which column such words name is told from the columns' names.
"""

from __future__ import annotations

import re

from labscribe.tools.assignment.handout_units import sentences
from labscribe.tools.columns.units import known_unit

# A symbol opening a clause ("with", "where", a comma, "and" in the languages handouts use),
# then an optional verb ("is", "ist", "est", "es", "é"), an article, and the words naming it.
_MEANING = re.compile(
    r"(?:^|\b(?:with|where|wobei|mit|où|avec|donde|con|com|onde|dove|and|und|et|y|e)\s+|[,;:]\s*)"
    r"\$?(?P<symbol>[A-Za-z\u0370-\u03ff](?:_\{?[A-Za-z0-9]{1,6}\}?|[0-9])?)\$?\s+"
    r"(?:(?:is|are|denotes|ist|est|es|é|è)\s+)?"
    r"(?:the|die|der|das|le|la|les|el|los|las|o|os|a|il|lo)\s+"
    r"(?P<words>[^,;()=]{3,60}?)"
    r"(?=\s*(?:[,;()]|\.(?:\s|$)|$|\s(?:and|und|et|y|e|ist)\b))",
    re.IGNORECASE,
)
_NAME_WORD = re.compile(r"[^\W\d_]{3,}")
_STEM = 4  # "temp" of a column names the "temperature" of a sentence


def symbol_meanings(text: str) -> dict[str, str]:
    """The words `text` names each symbol with where it writes the symbol first:
    {"t": "ageing time in weeks"}; the first such words for a symbol count."""
    found: dict[str, str] = {}
    for sentence in sentences(text):
        for match in _MEANING.finditer(sentence):
            symbol = match["symbol"].replace("{", "").replace("}", "")
            found.setdefault(symbol, match["words"].strip().lower())
    return found


def column_meant(words: str, names: tuple[str, ...]) -> str | None:
    """The one of the column `names` whose every word (units aside) `words` say: "ageing time
    in weeks" names `ageing_time_wk`, not `ageing_temp`; None where none or several are."""
    said = _NAME_WORD.findall(words.lower())
    whole = []
    for name in names:
        own = [w for w in _NAME_WORD.findall(name.lower()) if known_unit(w) is None]
        if own and all(any(_same(w, s) for s in said) for w in own):
            whole.append(name)
    return whole[0] if len(whole) == 1 else None


def _same(word: str, said: str) -> bool:
    """Whether a column's word and a sentence's word are one word (or one's stem)."""
    short, long = sorted((word, said), key=len)
    return long.startswith(short) and len(short) >= min(_STEM, len(long))
