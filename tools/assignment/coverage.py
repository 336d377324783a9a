"""Whether a task that asks for every case ("for each voltage U", "각 주파수에서", "für jede
Frequenz") is covered by what the report fitted. Where the folder holds data files the
analysis did not reach (past its limits on files and tables, or after its time ran out),
the task's row names them: a row that said only "checking" over 16 of 40 waveforms would
tell the student the rest were done."""

from __future__ import annotations

import re

# Words that ask for something case by case, in the languages the handouts are written in.
# Korean 각 and Chinese/Japanese 各 stand before their noun (각 주파수, 各周波数); 각도 is an
# angle, so 각 is a word only before a space.
EVERY_CASE = re.compile(
    r"\b(?:each|every|for all|jede[nmrs]?|f[üu]r alle|chaque|pour tou(?:te)?s les|cada|"
    r"ogni|ciascun[oa]?|elke?|iedere?|varje|for alle|hver[t]?|för alla|każd\w*|кажд\w*|"
    r"для всех)\b|각\s|모든|每|各|それぞれ|すべての",
    re.IGNORECASE,
)
SHOWN = 4  # files named in the row; the list of what was left out has them all
_DIGITS = re.compile(r"(\d+)")


def natural_order(name: str) -> tuple[str | int, ...]:
    """`7_v.txt` before `10_v.txt`: numbers in a name compared as numbers."""
    return tuple(int(part) if part.isdigit() else part for part in _DIGITS.split(name))


def some_of(names: list[str], shown: int, total: int | None = None) -> str:
    """`a, b, c and 4 more`: the first `shown` of `names`, and how many of the `total` (all
    of `names` unless given) it leaves unnamed."""
    more = (len(names) if total is None else total) - min(shown, len(names))
    return ", ".join(names[:shown]) + (f" and {more} more" if more > 0 else "")


def not_covered(task: str, not_fitted: list[str]) -> str:
    """What a row of `task` leaves where it asks for every case and the analysis left the
    data files `not_fitted` unfitted ("" where it asks for no case by case or none was left)."""
    if not not_fitted or not EVERY_CASE.search(task):
        return ""
    one = len(not_fitted) == 1
    named = some_of(sorted(not_fitted, key=natural_order), SHOWN)
    return (
        f"{len(not_fitted)} of the folder's data files {'is' if one else 'are'} not fitted in "
        f"this report ({named}: see what was left out); "
        f"work the task out for {'it' if one else 'them'} too"
    )
