"""The lists a handout numbers its tasks in: a run of items marked one way ("a." "b." "c.",
"1)" "2)", "i." "ii." "iii."), read as one list, so that an item is a task when its
list is a list of tasks, whatever verb it opens with.

A handout letters its tasks as one list; the checker reads "c. Are the two instruments
consistent?" as task c because a. b. and d. are tasks, not because "Are" is a command. Where at
least half of a list's items set work by their own words or place, the list is the handout's
list of tasks and every item of it is kept (a label or a closing instruction excepted).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from labscribe.tools.handout_units import Unit

_ROMAN = re.compile(r"[ivx]+", re.IGNORECASE)
_LETTER = re.compile(r"[a-h]", re.IGNORECASE)
MIN_RUN = 2  # a single marked item is no list


def mark_kind(mark: str) -> str:
    """The kind of a task's mark: "number" ("3", "2b"), "roman" ("ii"), "letter" ("B", a to
    h), else "" (a bullet; "v" or "x" alone, which may be either)."""
    if mark[:1].isdigit():
        return "number"
    if _ROMAN.fullmatch(mark) and mark.lower() not in {"v", "x"}:
        return "roman"
    return "letter" if _LETTER.fullmatch(mark) else ""


def list_runs(units: Sequence[Unit]) -> list[list[int]]:
    """The runs of `units` (their indices) that are one marked list: consecutive items whose
    marks are of one kind and all different; a heading, a paragraph, a bullet or a mark of
    another kind ends a run. Runs of one item are left out."""
    runs: list[list[int]] = []
    run: list[int] = []
    kind = ""
    for index, unit in enumerate(units):
        this = mark_kind(unit.mark) if unit.kind == "item" and unit.mark else ""
        if this and run and this == kind and unit.mark not in {units[i].mark for i in run}:
            run.append(index)
            continue
        if len(run) >= MIN_RUN:
            runs.append(run)
        run, kind = ([index], this) if this else ([], "")
    if len(run) >= MIN_RUN:
        runs.append(run)
    return runs


def task_lists(units: Sequence[Unit], sets: Sequence[bool]) -> list[int]:
    """The indices of the items that are tasks as members of a list of tasks, though they do
    not set work by themselves: `sets[i]` says whether unit i sets work on its own; a run of
    which at least half does is a list of tasks."""
    members: list[int] = []
    for run in list_runs(units):
        if 2 * sum(sets[i] for i in run) >= len(run):
            members += [i for i in run if not sets[i] and not units[i].label]
    return members
