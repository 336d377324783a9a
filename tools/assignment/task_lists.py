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

from labscribe.tools.assignment.handout_units import Unit

_ROMAN = re.compile(r"[ivx]+", re.IGNORECASE)
_LETTER = re.compile(r"[a-h]", re.IGNORECASE)
MIN_RUN = 2  # a single marked item is no list
# A course's code for an item, letters then numbers ("M7.4", "A2.1"): its series is the
# code without its last number. Section numbers ("2.1") are left alone: they number theory.
_COURSE_CODE = re.compile(r"^([A-Z]{1,3}\d{1,3}\.(?:\d{1,3}\.)*)\d{1,3}\.?(?=\s|$)")


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


def coded_tasks(units: Sequence[Unit], sets: Sequence[bool]) -> dict[int, str]:
    """Tasks as items of a course's coded series ("M7.1" … "M7.5") of which one sets work by
    its own words: by the index of the unit that states each, its text, code first. A
    paragraph that opens with such a code is one, and so is the paragraph under a heading
    that is the code alone ("M7.4" over "Wyznaczanie współczynnika …"), whatever its words."""
    series = {
        code.group(1)
        for unit, own in zip(units, sets, strict=True)
        if own and (code := _COURSE_CODE.match(unit.text))
    }
    found: dict[int, str] = {}
    for index, unit in enumerate(units):
        code = _COURSE_CODE.match(unit.text)
        if sets[index] or code is None or code.group(1) not in series:
            continue
        if unit.kind != "heading":
            found[index] = unit.text
        elif unit.text.strip() == code.group(0) and index + 1 < len(units):
            under = units[index + 1]
            if under.kind == "para" and not sets[index + 1]:
                found[index + 1] = f"{code.group(0)} {under.text}"
    return found


def questions_between(units: Sequence[Unit], sets: Sequence[bool]) -> list[int]:
    """The indices of the paragraphs that ask questions between two units that set work
    under one heading: a task sheet's questions among its commands ("Quali sono le fonti
    maggiori di errore?" between "Derivare …" and "Scegliere …"), where a PDF lost the
    bullets that made them one list."""
    found: list[int] = []
    for index, unit in enumerate(units):
        if not _asks_only(unit, sets[index]):
            continue
        before = next((i for i in range(index - 1, -1, -1) if i not in found), None)
        after = next(
            (i for i in range(index + 1, len(units)) if not _asks_only(units[i], sets[i])), None
        )
        if before is None or after is None or not (sets[before] and sets[after]):
            continue
        if {units[before].heading, units[after].heading} == {unit.heading}:
            found.append(index)
    return found


def _asks_only(unit: Unit, sets: bool) -> bool:
    """Whether a paragraph that sets no work by itself ends in a question."""
    return not sets and unit.kind == "para" and unit.text.rstrip().endswith(("?", "？"))
