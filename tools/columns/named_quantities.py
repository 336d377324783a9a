"""Quantities a task asks for by their name alone, with no symbol: "find ... the power
dissipated at 20 V", "compute the energy stored". A value listed under the task answers
one where it names the quantity or is in a unit of its dimension (`R = 0.995 kΩ` is a
resistance); else the checklist says it is not in the report, rather than leaving the
student only "checking the values given".
"""

from __future__ import annotations

import re

from labscribe.tools.assignment.role_phrases import asked_objects, is_symbol, sentences
from labscribe.tools.columns.symbol_dimensions import dimension_is
from labscribe.tools.columns.unit_headers import QUANTITY_OF_UNIT

MAX_WORDS = 6  # words of the task's phrase a missing quantity is named by
_QUANTITIES = dict(QUANTITY_OF_UNIT) | {"period": "second", "wavelength": "meter",
                                        "acceleration": "meter / second ** 2",
                                        "velocity": "meter / second"}  # fmt: skip
_ITEM = re.compile(
    r"\bthe (?:(?:maximum|minimum|mean|average|total|peak) )?(?P<q>[a-z]+)\b(?P<rest>[^,;.?]*)"
)
_BETWEEN_ITEMS = re.compile(r"\s+and\s+|,\s*")
_UNIT_AFTER_NUMBER = re.compile(r"\d\s*([^\s\d;,()±.=][^\s;,()±=]*)")


def unnamed_quantities(task: str, given: str) -> list[str]:
    """The quantities `task` asks for by name that no value in `given` holds, each as the
    task's words name it ("the power dissipated at 20 V")."""
    units = _UNIT_AFTER_NUMBER.findall(given)
    missing = []
    for sentence in sentences(task):
        for phrase in asked_objects(sentence):
            for item in _BETWEEN_ITEMS.split(phrase):
                found = _ITEM.search(item)
                if found is None or found["q"] not in _QUANTITIES:
                    continue
                if any(is_symbol(word) for word in found["rest"].split()[:1]):
                    continue  # "the current I": the symbol's row answers it
                quantity = found["q"]
                if quantity in given.lower() or any(
                    dimension_is(unit, (_QUANTITIES[quantity],)) for unit in units
                ):
                    continue
                missing.append(" ".join(found[0].split()[:MAX_WORDS]))
    return list(dict.fromkeys(missing))
