"""Which column of the data a task means when it asks for an extreme or a level: by its
name, by its symbol, or by the quantity its unit measures (a column in kN is a force), and
how far from the extreme's word the task names it (tools.fits.extremes)."""

from __future__ import annotations

import re

from labscribe.tools.analysis.data_facts import words_in, words_of
from labscribe.tools.columns.column import Column
from labscribe.tools.columns.column_names import columns_named
from labscribe.tools.columns.quantity_words import QUANTITIES, base_unit, part_patterns
from labscribe.tools.columns.symbol_dimensions import conventional_column
from labscribe.tools.formats.tables import Table

# A maximum's column is named within this many words after it ("the maximum value of the
# dark current"), or in the same word, or just before it.
NEAR_WORDS = 5
FAR = 1_000


def named_columns(
    text: str, tables: list[Table], whole: bool = False
) -> list[tuple[Table, Column]]:
    """The measured columns `text` names: by their name first, then by the quantity their
    unit measures. `whole`: `text` is only the quantity's words."""
    lowered = text.lower()
    words = words_in(lowered)
    by_name, by_quantity = [], []
    for table, column in measured_columns(tables):
        if words_of(column.name) & words or (whole and column.name.lower() == lowered.strip()):
            by_name.append((table, column))
        elif _quantity_named(column.unit, lowered, words):
            by_quantity.append((table, column))
    return by_name + by_quantity


def symbol_column(symbol: str, tables: list[Table]) -> tuple[Table, Column] | None:
    """The one measured column `symbol` stands for: by its name, or the quantity the letter
    stands for by convention (U a voltage); None where it names no one column."""
    pairs = measured_columns(tables)
    columns = [column for _, column in pairs]
    named = columns_named(symbol, columns, {}) or conventional_column(symbol, columns)
    found = [(table, column) for table, column in pairs if column in named]
    return found[0] if len(found) == 1 else None


# Words between an extreme and the quantity it is of: "Maximum der Spannung", "the maximum of
# the current".
_OF_WORDS = frozenset({"of", "the", "der", "des", "de", "la", "du", "del", "di", "della", "do",
                       "da", "dos", "das"})  # fmt: skip


def words_apart(text: str, word: re.Match[str], column: Column) -> int:
    """How many words after the extreme's `word` the text names `column` (by its name or
    the quantity its unit measures): 0 inside the same word (`Maximalkraft`, `最大电流`) or
    just before it (`the load maximum`); a large number when it does not."""
    lowered = text.lower()
    english, parts = QUANTITIES.get(base_unit(column.unit) or "", ("", ""))
    patterns = [rf"\b{re.escape(w)}\b" for w in words_of(column.name) | set(english.split())]
    patterns += part_patterns(parts)
    places = [m.start() for p in patterns for m in re.finditer(p, lowered)]
    start = lowered.rfind(" ", 0, word.start()) + 1
    end = lowered.find(" ", word.end())
    end = len(lowered) if end < 0 else end
    best = FAR
    for place in places:
        if start <= place < end:
            return 0  # one word: a compound, or Chinese without blanks
        if place >= end:  # to the word that holds it: "der Kondensatorspannung" is 2 on
            between = lowered[end : lowered.rfind(" ", 0, place) + 1].split()
            best = min(best, len([w for w in between if w not in _OF_WORDS]) + 1)
        elif len(lowered[place:start].split()) <= 1 and not lowered[start:].startswith("("):
            best = min(best, 1)  # "the load maximum", not "die Resonanzfrequenz (Maximum …"
    return best


def measured_columns(tables: list[Table]) -> list[tuple[Table, Column]]:
    """Every column that measures: no uncertainty, ratio or empty column."""
    return [
        (table, column) for table in tables for column in table.summary.columns
        if column.uncertainty_of is None and column.ratio_of is None and column.count
    ]  # fmt: skip


def _quantity_named(unit: str, lowered: str, words: set[str]) -> bool:
    base = base_unit(unit)
    if base is None or base not in QUANTITIES:
        return False
    english, parts = QUANTITIES[base]
    return bool(set(english.split()) & words) or any(
        re.search(pattern, lowered) for pattern in part_patterns(parts)
    )


def quantity_text(value: float, unit: str, digits: int = 6) -> str:
    return f"{value:.{digits}g} {unit}".strip()
