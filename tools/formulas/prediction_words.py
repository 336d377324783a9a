"""A formula's symbol read from the parameter file by the word the handout names it with:
"a flat coil of N turns and radius R carrying a current I" ties N to `turns`, R to
`mean_radius` and I to `current` in coil.yaml, where no row is named N, R or I.

The handout's word is the one written right before the symbol ("radius R", "current I"),
right after it ("N turns") or after "is the" ("where R is the radius of the coil"); the row
is the one setting whose name holds that word (its uncertainty read as
tools.formulas.prediction_inputs reads any, a qualified name's `mean_radius` taking the tolerance of
`radius`; a count's, `turns`, a pure number). Where no word or several rows fit, the symbol stays
unknown: a prediction is never computed from a guess.
"""

from __future__ import annotations

import re

from labscribe.tools.formats.parameters import ParameterRow
from labscribe.tools.formulas.prediction_inputs import Input, input_of

# Words that sit beside a symbol without naming it.
_NOT_NAMES = frozenset({
    "the", "and", "with", "from", "for", "this", "that", "into", "onto", "over", "under",
    "where", "when", "which", "while", "than", "then", "are", "is", "was", "be", "its",
    "their", "use", "using", "given", "let", "carrying", "through", "between", "about", "also",
    "each", "value", "values", "symbol", "constant", "equation", "formula", "distance",
})  # fmt: skip
# A row that bounds or qualifies another's value, not a value itself.
_UNCERTAINTY = re.compile(
    r"(?:^|_| )(?:tol|tolerance|accuracy|limit|sigma|std|stdev|uncertainty|unc|u|err|error|"
    r"delta|d)(?:$|_| )",
    re.IGNORECASE,
)
# Words that name a count: a number of turns has no unit, and is a pure number, not unknown.
_COUNTS = re.compile(
    r"^(?:turns?|windings?|windungen|spires?|tours|espiras|voltas|loops|slits|lines|"
    r"cycles|oscillations|periods|fringes|number|count|anzahl|nombre|numero|número|匝)$",
    re.IGNORECASE,
)
_QUALIFIERS = frozenset({"mean", "nominal", "nom", "average", "avg", "design", "set"})
_WORD = r"[A-Za-zÀ-ÿ]{3,}"


def worded_input(symbol: str, rows: list[ParameterRow], text: str) -> Input | None:
    """The setting the handout's `text` names `symbol` by, as `symbol`; None where no word
    ties them or the word fits no single row."""
    around = _words_around(symbol, text)
    for word in _words_for(symbol, text):
        # every word of the row's name is said of the symbol: "heating time t_C" is no
        # `Time step`, where "radius R" is `mean_radius`
        matching = [row for row in rows if row.number is not None
                    and not _UNCERTAINTY.search(row.name) and _holds(row.name, word)
                    and _named_fully(row.name, around)]  # fmt: skip
        if len({row.name for row in matching}) != 1:
            continue
        found = _read(matching[0], rows)
        if found is None:
            continue
        if not matching[0].unit and _COUNTS.match(word):  # "N turns": a pure number
            found = found.model_copy(update={"dimension": (0.0,) * 7})
        return found.model_copy(update={"symbol": symbol})
    return None


def _words_for(symbol: str, text: str) -> list[str]:
    """The words written right before (`radius R`) and after (`N turns`) `symbol`."""
    flat = " ".join(text.split())
    mark = rf"(?<![\w.]){re.escape(symbol)}(?![\w(])"
    before = re.findall(rf"\b({_WORD})\s+{mark}", flat)
    after = re.findall(rf"{mark}\s+({_WORD})\b", flat)
    # "where R is the radius of the coil"
    after += re.findall(rf"{mark}\s+(?:is|denotes|being)\s+(?:the\s+|its\s+)?({_WORD})", flat)
    words = [w.lower() for w in before + after if w.lower() not in _NOT_NAMES]
    return list(dict.fromkeys(words))


def _words_around(symbol: str, text: str) -> set[str]:
    """The words within three before and six after each place `symbol` is written."""
    flat = " ".join(text.split())
    mark = rf"(?<![\w.]){re.escape(symbol)}(?![\w(])"
    found: set[str] = set()
    for match in re.finditer(mark, flat):
        before = re.findall(r"[^\W\d_]+", flat[max(0, match.start() - 60) : match.start()])[-3:]
        after = re.findall(r"[^\W\d_]+", flat[match.end() : match.end() + 60])[:6]
        found |= {w.lower() for w in before + after}
    return found


def _named_fully(name: str, around: set[str]) -> bool:
    """Whether each word of a row's name but its qualifiers (`mean`) is among `around`."""
    parts = [p.lower() for p in re.split(r"[_\s.\-]+", name) if p]
    return all(
        p in _QUALIFIERS or p in around or p.rstrip("s") in around or f"{p}s" in around
        for p in parts
    )


def _holds(name: str, word: str) -> bool:
    """Whether a row's name holds the word (`mean_radius` holds `radius`; `turns`, `turn`)."""
    parts = [part.lower() for part in re.split(r"[_\s.\-]+", name) if part]
    return any(part in (word, word.rstrip("s"), f"{word}s") for part in parts)


def _read(row: ParameterRow, rows: list[ParameterRow]) -> Input | None:
    """The row's value with its uncertainty; a qualified name (`mean_radius`) with none of
    its own takes the tolerance written for the plain one (`radius_tolerance`)."""
    found = input_of(row.name, rows)
    parts = re.split(r"[_\s]+", row.name)
    if found is None or found.sigma is not None or parts[0].lower() not in _QUALIFIERS:
        return found
    stem = "_".join(parts[1:])
    plain = input_of(stem, [row.model_copy(update={"name": stem, "key": stem}), *rows])
    if plain is None or plain.sigma is None:
        return found
    return plain.model_copy(update={"written": f"{row.key} = {row.value}, "
                                    f"{plain.written.split(', ', 1)[-1]}"})  # fmt: skip
