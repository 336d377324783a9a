"""The start of a record a handout says to leave out: "discard the first 100 readings" while
the probe warms up, "die ersten 30 s verwerfen", "scartare i primi 5 punti". The rows go
before anything is fitted or averaged, and the report says so with the handout's words;
where the handout names no file and the folder holds several tables, none is cut and the
report says why.
"""

from __future__ import annotations

import re
from dataclasses import replace

import numpy as np

from labscribe.tools.columns.column_positions import paragraphs_about
from labscribe.tools.columns.si_units import si_of
from labscribe.tools.columns.symbol_dimensions import dimension_is
from labscribe.tools.columns.units import canonical
from labscribe.tools.columns.written_numbers import NUMBER, number_of
from labscribe.tools.formats.tables import MIN_ROWS, Table, excerpt

_ROWS = (
    r"readings|points|data points|rows|values|samples|measurements|lines|"
    r"messwerte|werte|punkte|messpunkte|zeilen|"
    r"relevés|mesures|valeurs|lignes|"
    r"punti|valori|dati|misure|letture|righe|"
    r"puntos|valores|datos|medidas|mediciones|lecturas|filas|"
    r"pontos|dados|medições|leituras|linhas"
)
_TIMES = r"s|sec|seconds?|min|minutes?|sekunden|minuten|secondes|secondi|minuti|segundos|minutos"
_WHAT = rf"(?P<what>{_ROWS}|{_TIMES})"
_FIRST = (
    r"(?:the )?first|die ersten|les(?=\s+\S+\s+premi)|i primi|le prime|los primeros|las primeras|"
    r"os primeiros|as primeiras"
)
# Each the start of a verb's forms in one language or more (`ignor`: ignore, ignorieren,
# ignorer, ignorare; `exclu`: exclude, exclure, excluir)
_VERB = (
    r"discard|drop|ignor|skip|exclu|omit|remov|leave out|left out|throw away|cut|"
    r"verwerf|weglass|streich|nicht berücksichtig|"
    r"écart|supprim|retir|enlev|"
    r"scart|esclud|elimin|togli|trascur|"
    r"descart|quit|desprez"
)
# "discard the first 100 readings", "dropped the first 2 min"; "die ersten 30 s verwerfen"
_BEFORE = re.compile(
    rf"\b(?:{_VERB})\w*\s+(?:{_FIRST})\s+(?P<n>{NUMBER})\s*(?:premi\w+\s+)?{_WHAT}\b",
    re.IGNORECASE,
)
_AFTER = re.compile(
    rf"\b(?:{_FIRST})\s+(?P<n>{NUMBER})\s*{_WHAT}\b[^.;\n]{{0,30}}?\b(?:{_VERB})",
    re.IGNORECASE,
)


def discard_leading(tables: list[Table], text: str) -> tuple[list[Table], list[str]]:
    """`tables` with the rows the handout `text` says to leave out at the start of a record
    gone, and a sentence for the report on each cut, or on one not made."""
    found = [(m, t) for t in tables for chunk in paragraphs_about(text, t.summary.source)
             for m in (*_BEFORE.finditer(chunk), *_AFTER.finditer(chunk))]  # fmt: skip
    if not found:
        return tables, []
    named = {t.summary.source for m, t in found if t.summary.source in m.string}
    if not named and len(tables) > 1:
        return tables, [
            f"the assignment says to leave out the start of a record (“{found[0][0][0]}”) but "
            "not of which of the folder's tables: all their rows are analysed"
        ]
    cut, notes = [], []
    for table in tables:
        match = next((m for m, t in found if t is table
                      and (not named or table.summary.source in m.string)), None)  # fmt: skip
        rows = None if match is None else _rows(table, match)
        if rows is None:
            cut.append(table)
            continue
        cut.append(_without_first(table, rows))
        notes.append(f"{table.summary.id}: its first {rows} rows, as the assignment says "
                     f"(“{match[0]}”)")  # fmt: skip
    return cut, notes


def _rows(table: Table, match: re.Match[str]) -> int | None:
    """How many rows `match` leaves out of `table`: a count, or the rows within a time from
    the start of its time column; None where that leaves too few or says nothing of it."""
    amount = number_of(match["n"])
    what = match["what"].lower()
    if re.fullmatch(_ROWS, what):
        rows = int(amount) if amount == int(amount) else None
    else:
        rows = _within(table, amount, canonical(what) or "")
    if rows is None or not 0 < rows <= len(table.frame) - MIN_ROWS:
        return None
    return rows


def _within(table: Table, amount: float, unit: str) -> int | None:
    """The rows of `table` recorded within `amount` `unit` of its first, by its time column."""
    stated = si_of(unit)
    clock = next((c for c in table.summary.columns if c.uncertainty_of is None
                  and dimension_is(c.unit, ("second",))), None)  # fmt: skip
    if stated is None or clock is None or (own := si_of(clock.unit)) is None:
        return None
    times = table.frame[clock.key].to_numpy(dtype=float)
    if not np.all(np.diff(times[np.isfinite(times)]) >= 0):
        return None  # no clock that runs
    limit = times[0] + amount * stated.scale / own.scale
    return int(np.sum(times < limit))


def _without_first(table: Table, rows: int) -> Table:
    frame = table.frame.iloc[rows:].reset_index(drop=True)
    summary = table.summary.model_copy(deep=True)
    summary.rows = len(frame)
    for column in summary.columns:
        values = frame[column.key].to_numpy(dtype=float) if column.key in frame else None
        if values is not None and np.isfinite(values).any():
            column.span(values)
    summary.excerpt = excerpt(frame, summary.excerpt_keys)
    return replace(table, summary=summary, frame=frame)
