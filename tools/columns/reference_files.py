"""Files the handout says hold no measurements: "`colores.csv`: tabla de referencia de rangos
de longitud de onda por color (no son mediciones)", "`lit.csv` (literature values)", and
tables laid out to be looked up in (a thermocouple's mV by °C, its columns headed 0 to 9).
Such a table is reference material for the student to read or compare with; fitting its
columns against each other would offer a line through a colour chart as the result.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

import numpy as np

# What a line that names a file says of it when its numbers are not measured.
_REFERENCE = re.compile(
    r"\b(?:not|no|nicht|keine?|pas|non|não|nie)\s+(?:son\s+|sind\s+|are\s+|des\s+|sono\s+"
    r"|são\s+|jest\s+)?(?:measurements?|measured|mediciones|medidas|messwerte|messungen"
    r"|mesures|misure|pomiary)\b"
    r"|\breference (?:table|values|data)\b|\btabla de referencia|\breferenztabelle"
    r"|\btableau de référence|\btabella di riferimento|\btabela de referência"
    r"|\bliterature values\b|\bliteraturwerte\b|\bvalores de referencia\b",
    re.IGNORECASE,
)


def reference_files(text: str, sources: set[str]) -> dict[str, str]:
    """The `sources` (paths in the folder) a line of the handout `text` names and calls
    reference material, each with that line."""
    found: dict[str, str] = {}
    for line in text.splitlines():
        if _REFERENCE.search(line) is None:
            continue
        for source in sources:
            name = PurePosixPath(source).name
            if re.search(rf"(?<![\w.-]){re.escape(name)}(?![\w-])", line):
                found.setdefault(source, " ".join(line.split()))
    return found


MIN_LOOKUP_COLUMNS = 8  # a table read off by the last digit has ten columns, 0 to 9


def lookup_table(names: list[str]) -> bool:
    """Whether columns so named are those of a table to look values up in: beside the row's
    value, columns headed by its last digit in even steps from 0 (`°C, 0, 1, …, 9` of a
    thermocouple table, `z, 0.00, 0.01, …` of a normal table)."""
    try:
        steps = np.array([float(name) for name in names[1:]])
    except ValueError:
        return False
    if len(steps) < MIN_LOOKUP_COLUMNS or steps[0] != 0 or steps[1] == 0:
        return False
    return bool(np.allclose(steps, steps[1] * np.arange(len(steps))))
