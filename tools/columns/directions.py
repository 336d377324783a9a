"""Columns of one quantity read in two directions: the heating and the cooling run of a
thermal expansion (`Anzeige_auf`, `Anzeige_ab`), a thermistor warmed and cooled (`升温R1`,
`降温R2`), a sweep up and down (`V_up`, `V_down`), a hysteresis loop's branches. They are two
series of one response against the same variable: each is fitted on its own, and the report
says they belong together, so that neither is taken for the result of the whole run.

Two columns pair when their names are the same once a direction word and a trailing number
are taken out, and their direction words are opposites (DIRECTIONS).
"""

from __future__ import annotations

import re

from labscribe.tools.columns.column import Column
from labscribe.tools.formats.tables import TableSummary

# Opposite directions: (the first word, the second word, how the report names the pair).
DIRECTIONS: tuple[tuple[str, str, str], ...] = (
    ("auf", "ab", "up and down"),
    ("aufwärts", "abwärts", "up and down"),
    ("hin", "rück", "there and back"),
    ("steigend", "fallend", "rising and falling"),
    ("erwärmen", "abkühlen", "heating and cooling"),
    ("heizen", "kühlen", "heating and cooling"),
    ("up", "down", "up and down"),
    ("increasing", "decreasing", "increasing and decreasing"),
    ("rising", "falling", "rising and falling"),
    ("heating", "cooling", "heating and cooling"),
    ("heat", "cool", "heating and cooling"),
    ("forward", "reverse", "forward and reverse"),
    ("forward", "backward", "forward and backward"),
    ("montée", "descente", "up and down"),
    ("chauffage", "refroidissement", "heating and cooling"),
    ("subida", "bajada", "up and down"),
    ("ida", "vuelta", "there and back"),
    ("calentamiento", "enfriamiento", "heating and cooling"),
    ("升温", "降温", "heating and cooling"),
    ("上升", "下降", "up and down"),
    ("加热", "冷却", "heating and cooling"),
)
_WORD = re.compile(r"[^\W\d_]+|\d+")


def direction_pairs(columns: list[Column]) -> list[tuple[Column, Column, str]]:
    """The pairs of columns that hold one quantity in opposite directions, with how the
    report names the directions ("heating and cooling")."""
    measured = [c for c in columns if c.uncertainty_of is None and c.ratio_of is None]
    pairs = []
    for i, first in enumerate(measured):
        for second in measured[i + 1 :]:
            said = _opposite(first.name, second.name)
            if said:
                pairs.append((first, second, said))
    return pairs


def direction_note(summary: TableSummary) -> str:
    """The report's sentence on the pairs of `summary`, "" where there are none."""
    x = next((c for c in summary.columns if c.key == summary.x), None)
    sentences = []
    for first, second, said in direction_pairs(summary.columns):
        if x is None or x.key in (first.key, second.key):
            continue
        sentences.append(
            f"{first.name} and {second.name} are one quantity measured in two directions "
            f"({said}): each is fitted against {x.name} as a series of its own; neither "
            "alone stands for the whole run"
        )
    return "; ".join(sentences) + "." if sentences else ""


def _opposite(first: str, second: str) -> str:
    """How the two names' directions are said where they are opposites on one stem."""
    for one, other, said in DIRECTIONS:
        for a, b in ((first, second), (second, first)):
            rest_a, rest_b = _without(a, one), _without(b, other)
            if rest_a is not None and rest_a == rest_b:
                return said
    return ""


def _without(name: str, word: str) -> str | None:
    """The name with the direction word taken out (and a trailing number: `R1`, `R2`), lower
    case; None where the word is not in it as a word of its own (or a Chinese prefix)."""
    text = name.lower()
    if re.fullmatch(r"[\u4e00-\u9fff]+", word):
        if word not in text:
            return None
        rest = text.replace(word, " ", 1)
    else:
        words = re.split(r"[\s_\-./()]+", text)
        if word not in words:
            return None
        words.remove(word)
        rest = " ".join(words)
    return re.sub(r"\d+$", "", " ".join(_WORD.findall(rest))).strip()
