"""Which column of the data a task means when it asks for an extreme or a level: by its
name, by its symbol, or by the quantity its unit measures (a column in kN is a force), and
how far from the extreme's word the task names it (tools.extremes)."""

from __future__ import annotations

import re

from labscribe.tools.column_names import columns_named
from labscribe.tools.columns import Column
from labscribe.tools.data_facts import words_of
from labscribe.tools.symbol_dimensions import conventional_column
from labscribe.tools.tables import Table

# The quantities a column's unit measures, as tasks name them: English whole words; the
# words of other languages as the end of a word (German compounds: `Maximalkraft`), Chinese
# anywhere (`最大拉力`).
_TEMPERATURE = ("temperature", "temperatur 温度 temperatura température teplota температура")
QUANTITIES = {
    "N": ("force load", "kraft last 力 载荷 负荷 fuerza força forza siła síla сила"),
    "V": ("voltage potential", "spannung 电压 电势 tensión tensão tensione napięcie napětí "
          "напряжение"),
    "A": ("current", "strom 电流 corriente corrente courant prąd proud ток"),
    "Pa": ("stress pressure strength", "festigkeit druck 应力 压强 强度 presión pressão "
           "pressione pression ciśnienie tlak давление"),
    "Hz": ("frequency", "frequenz 频率 frecuencia frequência frequenza fréquence "
           "częstotliwość frekvence частота"),
    "s": ("time period", "zeit dauer 时间 周期 tiempo tempo temps periodo período période "
          "czas čas время"),
    "m": ("displacement extension elongation deflection length distance position height",
          "verlängerung länge höhe auslenkung 位移 伸长 长度 距离 高度 longitud comprimento "
          "lunghezza longueur altura altezza hauteur distancia distância distanza"),
    "K": _TEMPERATURE,
    "°C": _TEMPERATURE,
    "W": ("power", "leistung 功率 potencia potência potenza puissance moc výkon мощность"),
    "J": ("energy", "energie 能量 energía energia énergie энергия"),
    "g": ("mass weight", "masse 质量 masa massa hmotnost масса"),
    "Ω": ("resistance", "widerstand 电阻 resistencia resistência resistenza résistance opór "
          "odpor сопротивление"),
}  # fmt: skip
PREFIXES = {"k": 1e3, "M": 1e6, "G": 1e9, "m": 1e-3, "µ": 1e-6, "u": 1e-6, "μ": 1e-6,
            "n": 1e-9, "p": 1e-12, "c": 1e-2}  # fmt: skip
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
    words = set(re.findall(r"[a-z0-9_]+", lowered))
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
    patterns += _part_patterns(parts)
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
        re.search(pattern, lowered) for pattern in _part_patterns(parts)
    )


def _part_patterns(parts: str) -> list[str]:
    """A German word as the end of a compound (`Zugkraft`, not `Kraftwerk`; `last` not in
    `elastic`), a word of another language whole or so, a Chinese one anywhere."""
    return [
        re.escape(part) if re.search(r"[\u4e00-\u9fff]", part) else rf"{re.escape(part)}\b"
        for part in parts.split()
    ]


def base_unit(unit: str) -> str | None:
    """The unit without its SI prefix (`kN` -> `N`, `mm` -> `m`), None when unknown."""
    if unit in QUANTITIES:
        return unit
    if len(unit) > 1 and unit[0] in PREFIXES and unit[1:] in QUANTITIES:
        return unit[1:]
    return None


def scale_of(stated: str, column: str) -> float | None:
    """How many of `column`'s unit one `stated` unit is (1 mA in A: 0.001); None when the
    two do not measure the same quantity."""
    if stated == column:
        return 1.0
    base = base_unit(stated)
    if base is None or base != base_unit(column):
        return None
    return _factor(stated) / _factor(column)


def _factor(unit: str) -> float:
    return 1.0 if unit in QUANTITIES else PREFIXES[unit[0]]


def quantity_text(value: float, unit: str, digits: int = 6) -> str:
    return f"{value:.{digits}g} {unit}".strip()
