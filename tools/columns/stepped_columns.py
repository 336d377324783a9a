"""A set variable the file does not record, because the handout says how it was set: "Beginnend
bei U = 320 V wurde die Spannung in Schritten von 10 V erhöht (eine Zeile pro
Spannungsstufe)", "starting at T = 20 °C, the temperature was raised in steps of 5 °C",
"λ = 400 nm … co 20 nm". A counter logs what it counts and the student notes the rule; the
tasks then plot against the variable (N(U)), which no column holds.

Each table the paragraph may describe (tools.columns.column_positions.paragraphs_about) that has no
column of that symbol gets one, a row per step from the start, where the tasks use the
symbol: a column formed as the handout states, and said so beside the table.

So does the time of a counter's readings that a file numbers (`Sample Number`, `Number of
Counts`) where the handout states the time each took ("20 s per sample"): the counts are
plotted against the time, which no column holds.
"""

from __future__ import annotations

import re

import numpy as np

from labscribe.tools.columns.column import Column
from labscribe.tools.columns.column_positions import paragraphs_about
from labscribe.tools.columns.counting import counting_name, numbers_rows
from labscribe.tools.columns.si_units import si_of
from labscribe.tools.columns.units import canonical
from labscribe.tools.columns.written_numbers import NUMBER, number_of
from labscribe.tools.formats.tables import Table

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
# The time each reading took: "20 s per sample", "3 s each", "every 20 s", "sampling interval
# of 20 s", "20-s intervals", "alle 20 s", "ogni 20 s", "cada 20 s", "toutes les 20 s".
_READING = (
    r"samples?|readings?|points?|counts?|bins?|channels?|measurements?|intervals?|rows?"
    r"|messung(?:en)?|messpunkte?|werte?|medidas?|mesures?|misur[ae]|lettur[ae]|leituras?"
)
_SAMPLED = re.compile(
    rf"(?P<n>{NUMBER})\s*{_UNIT.format('u')}\s+(?:per|a|each|pro|por|par|/)\s+(?:{_READING})\b"
    rf"|\b(?:every|each|alle|ogni|cada|toutes les|co|каждые)\s+(?P<n2>{NUMBER})\s*"
    + _UNIT.format("u2")
    + r"|\b(?:sampl\w+|count\w*|dwell|gate|integration|mess\w*|z[äa]hl\w*)[\s-]*(?:interval"
    r"|time|period|zeit|intervall|dauer)\s*(?:of|=|:|was|is|von|betr[äa]gt)?\s*"
    rf"(?P<n3>{NUMBER})\s*"
    + _UNIT.format("u3")
    + rf"|(?P<n4>{NUMBER})[-\s]?{_UNIT.format('u4')}[-\s]+(?:intervals|samples|bins)\b",
    re.IGNORECASE,
)


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
            summary.columns.insert(0, Column.of_values(
                values, key=symbol, header="", name=symbol, unit=unit,
                formed=f"{symbol} = {start:g} {unit} + {step:g} {unit} a row, as the assignment "
                f"states it was set (“{_cut(sentence)}”)",
            ))  # fmt: skip
            break


def sampled_clocks(tables: list[Table], text: str) -> None:
    """Give each of `tables` whose variable only counts its readings (`Sample Number` 1, 2,
    …, kept as the variable since the readings follow it) the time of each reading, where
    the handout `text` states how long each took: t = 0 at the first, the counter aside."""
    for table in tables:
        summary = table.summary
        counter = next((c for c in summary.columns if c.key == summary.x), None)
        if counter is None or not 0 < len(table.frame) <= MAX_ROWS:
            continue
        numbers = table.frame[counter.key].to_numpy(dtype=float)
        taken = "t" in table.frame or any(c.name == "t" for c in summary.columns)
        if taken or not counting_name(counter.header) or not numbers_rows(numbers - numbers[0] + 1):
            continue
        stated = next(
            (found for chunk in paragraphs_about(text, summary.source)
             if (found := _interval(chunk)) is not None),
            None,
        )  # fmt: skip
        if stated is None:
            continue
        step, unit, sentence = stated
        values = step * (numbers - numbers[0])
        table.frame.insert(0, "t", values)
        summary.columns.insert(0, Column.of_values(
            values, key="t", header="", name="t", unit=unit,
            formed=f"t = {step:g} {unit} × ({counter.name} − {numbers[0]:g}), the time of each "
            f"reading from the first, as the assignment states (“{_cut(sentence)}”)",
        ))  # fmt: skip
        summary.columns = [c for c in summary.columns if c.key != counter.key]
        summary.row_numbers = [*summary.row_numbers, counter]
        summary.x = "t"


def _interval(chunk: str) -> tuple[float, str, str] | None:
    """(the time each reading took, its unit, the sentence) a paragraph states."""
    for found in _SAMPLED.finditer(chunk):
        group = next(g for g in ("", "2", "3", "4") if found[f"n{g}"])
        unit = canonical(found[f"u{group}"])
        si = si_of(unit) if unit else None
        if si is None or si.dimension != si_of("s").dimension:
            continue
        start = chunk.rfind("\n", 0, found.start()) + 1
        sentence = chunk[start : found.end() + _span(chunk, found.end())]
        return number_of(found[f"n{group}"]), unit, sentence
    return None


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
