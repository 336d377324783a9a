"""A set variable the file does not record, because the handout says how it was set: "Beginnend
bei U = 320 V wurde die Spannung in Schritten von 10 V erhöht (eine Zeile pro
Spannungsstufe)", "starting at T = 20 °C, the temperature was raised in steps of 5 °C",
"λ = 400 nm … co 20 nm". A counter logs what it counts and the student notes the rule; the
tasks then plot against the variable (N(U)), which no column holds.

Each table the paragraph may describe (tools.column_positions.paragraphs_about) that has no
column of that symbol gets one, a row per step from the start, where the tasks use the
symbol: a column formed as the handout states, and said so beside the table.
"""

from __future__ import annotations

import re

import numpy as np

from labscribe.tools.column_positions import paragraphs_about
from labscribe.tools.columns import Column
from labscribe.tools.si_units import si_of
from labscribe.tools.tables import Table
from labscribe.tools.units import canonical
from labscribe.tools.written_numbers import NUMBER, number_of

_UNIT = r"(?P<{0}>[^\W\d_][^\s(),;.]{{0,5}})"
_STEP_WORDS = (
    r"schritten|stufen|steps?|increments?|intervals?|pas|passi|pasos|krokiem|krokach|kroku"
    r"|krocích|krokem|шаг(?:ом|ами)?"
)
_STEP = re.compile(
    rf"\b(?:{_STEP_WORDS})\s+(?:von|of|de|di|da|co|po|o|по|в|z|around|um)?\s*"
    rf"(?P<step>{NUMBER})\s*{_UNIT.format('unit')}"
    rf"|(?P<step2>{NUMBER})\s*{_UNIT.format('unit2')}[-\s]+(?:{_STEP_WORDS})\b"
    rf"|\b(?:um|by|de|di|o|на)\s+(?P<step3>{NUMBER})\s*{_UNIT.format('unit3')}\s+"
    r"(?:erhöht|erhöhen|vergrößert|verringert|gesenkt|zu\b|increased|raised|decreased"
    r"|reduced|lowered|augment\w*|diminu\w*|aument\w*|zwiększ\w*|zmniejsz\w*|увелич\w*"
    r"|уменьш\w*)"
    rf"|\b(?:co|every|alle|cada|ogni|tous les|toutes les|каждые)\s+(?P<step4>{NUMBER})\s*"
    + _UNIT.format("unit4"),
    re.IGNORECASE,
)
_DOWN = re.compile(
    r"verringer|gesenkt|abgesenkt|decreas|reduc|lower|diminu|zmniejsz|obniż|уменьш|сниж",
    re.IGNORECASE,
)
_START = re.compile(
    rf"(?<![\w.])(?P<symbol>[^\W\d_](?:_\w{{1,4}})?)\s*=\s*(?P<start>{NUMBER})\s*"
    + _UNIT.format("unit")
)
_PER_ROW = re.compile(r"(?:[^.;(\n]|\.(?=\S))*")  # to the sentence's end, past `a.txt`
MAX_ROWS = 10_000  # a rule states the steps of a scan a student takes by hand


def stepped_columns(tables: list[Table], tasks: list[str], text: str) -> None:
    """Give each of `tables` the set variable the handout `text` states by a start and a
    step, where its tasks use that variable and no column holds it."""
    asked = "\n".join(tasks)
    for table in tables:
        summary = table.summary
        if not 0 < len(table.frame) <= MAX_ROWS:
            continue
        for chunk in paragraphs_about(text, summary.source):
            found = _rule(chunk)
            if found is None:
                continue
            symbol, start, step, unit, sentence = found
            taken = {c.name for c in summary.columns} | {c.key for c in summary.columns}
            used = re.search(rf"(?<![\w]){re.escape(symbol)}(?![\w])", asked)
            if symbol in taken or used is None:
                continue
            values = start + step * np.arange(len(table.frame), dtype=float)
            table.frame.insert(0, symbol, values)
            summary.columns.insert(0, Column(
                key=symbol, header="", name=symbol, unit=unit, count=len(values),
                minimum=float(values.min()), maximum=float(values.max()),
                formed=f"{symbol} = {start:g} {unit} + {step:g} {unit} a row, as the assignment "
                f"states it was set (“{_cut(sentence)}”)",
            ))  # fmt: skip
            break


def _rule(chunk: str) -> tuple[str, float, float, str, str] | None:
    """(symbol, start, step, unit, the sentence) of the rule a paragraph states: a step and,
    before it in the paragraph, `symbol = start` in a unit of the step's dimension."""
    for step in _STEP.finditer(chunk):
        written = step["step"] or step["step2"] or step["step3"] or step["step4"]
        unit = canonical(step["unit"] or step["unit2"] or step["unit3"] or step["unit4"])
        if unit is None or (si := si_of(unit)) is None:
            continue
        for start in reversed(list(_START.finditer(chunk, 0, step.start()))):
            own = canonical(start["unit"])
            other = si_of(own) if own else None
            if other is None or other.dimension != si.dimension or other.offset != si.offset:
                continue
            size = number_of(written) * si.scale / other.scale
            sentence = chunk[start.start() : step.end() + _span(chunk, step.end())]
            sign = -1.0 if _DOWN.search(sentence) else 1.0
            return start["symbol"], number_of(start["start"]), sign * size, own or "", sentence
    return None


def _span(chunk: str, end: int) -> int:
    match = _PER_ROW.match(chunk, end)
    return len(match[0]) if match else 0


def _cut(text: str, limit: int = 120) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rsplit(" ", 1)[0] + "…"
