"""The tasks a handout sets, as its checklist: which of its units
(tools/assignment/handout_units.py) are tasks, which are kept when there are too many, how long
one may be, and the numbers they bear. Kept apart from finding and reading the assignment and
its title and aim (tools/assignment/tasks.py): what counts as a task is the one judgement every
checklist row, and every task number the report cites, rests on.

A task is a list item, kept whole and as written, whose place says so (under Tasks, Questions,
Analysis, Auswertung, 数据处理, a "Tasks:" line, "Task 3:") or that asks for work itself: one of
its clauses starts with a command ("From a, determine g", "Bestimmen Sie ...", "计算...", see
tools/assignment/task_words.py). In a paragraph, a task is a sentence with such a clause, or a
blank to fill in. Descriptive prose ("In this lab you measure ...") is not a task, nor is a closing
instruction ("Hand in the report by ..."), and nothing after a References heading is.
The aim stated in prose ("Aim: determine h ...", a paragraph under an Aim heading) is no
task beside other tasks: it says what the tasks are for, and counting it would shift every task's
number; a handout that sets no task otherwise has its aim's commands as its checklist.
Each task keeps the number or letter the handout gives it where every task has one of one
kind, all different ("Task A" ... "Task D", "(i)" ... "(iii)"): see `task_numbers`.
"""

from __future__ import annotations

from labscribe.tools.assignment.handout_units import Unit, sentences
from labscribe.tools.assignment.task_files import DATA_FILE
from labscribe.tools.assignment.task_lists import (
    coded_tasks,
    mark_kind,
    questions_between,
    task_lists,
)
from labscribe.tools.assignment.task_words import (
    AIM_HEADING,
    AIM_INLINE,
    ANALYSIS_HEADING,
    ANALYSIS_WORD,
    BLANK,
    DATA_HEADING,
    PROCEDURE_HEADING,
    TASKS_NAMED,
    TASKS_TOO,
    THEORY_HEADING,
    asks,
    closing,
)

MAX_TASKS = 24  # a checklist longer than this is the whole handout, not its tasks
MAX_TASK_CHARS = 600  # a task is kept as written; only a runaway paragraph is cut


def task_numbers(marks: list[str]) -> list[str]:
    """The numbers a checklist gives its tasks: the handout's own `marks` ("A" ... "D",
    "i" ... "iii", "1" ... "4") where every task has one, all of one kind (numbers, letters
    or roman numerals) and all different; else 1, 2, 3 ... in order."""
    kinds = {mark_kind(mark) for mark in marks}
    if marks and "" not in kinds and len(kinds) == 1 and len(set(marks)) == len(marks):
        return list(marks)
    return [str(number) for number in range(1, len(marks) + 1)]


def task_number(numbers: list[str], number: int) -> str:
    """The handout's number for the checklist's task `number` (counted from 1)."""
    return numbers[number - 1] if 0 < number <= len(numbers) else str(number)


def tasks(units: list[Unit]) -> tuple[list[tuple[str, str]], int]:
    """The tasks of `units` in order, each with the handout's mark for it, and how many
    beyond MAX_TASKS were left out. The aim's commands count only where the handout sets
    no other task. Over the limit, the tasks the handout's structure names (under Tasks,
    Questions, ...) are kept before commands found elsewhere (the procedure's steps), each
    kind in order."""
    found: dict[str, tuple[int, int, str, bool]] = {}  # task -> (rank, position, mark, aim)
    own = [_unit_tasks(unit) for unit in units]
    for index in task_lists(units, [bool(unit_tasks) for unit_tasks in own]):
        if not closing(units[index].text):
            own[index] = [(1, units[index].text)]  # its list is a list of tasks
    for index, task in coded_tasks(units, [bool(unit_tasks) for unit_tasks in own]).items():
        own[index] = [(1, task)]
    for index in questions_between(units, [bool(unit_tasks) for unit_tasks in own]):
        own[index] = [(1, units[index].text)]
    for unit, unit_tasks in zip(units, own, strict=True):
        if unit.kind != "heading" and DATA_HEADING.match(unit.heading.strip()):
            continue  # what the data files hold, under their heading
        aim = _is_aim(unit)
        for rank, task in unit_tasks:
            task = short(task)
            if task and task not in found:
                found[task] = (rank, len(found), unit.mark if unit.kind == "item" else "", aim)
    if not all(aim for _, _, _, aim in found.values()):
        found = {task: found[task] for task in found if not found[task][3]}
    if listed := _listed(units, own):  # the handout's own list of tasks, and nothing else
        found = {task: found[task] for task in found if task in listed} or found
    kept = sorted(found, key=lambda task: found[task][:2])[:MAX_TASKS]
    kept.sort(key=lambda task: found[task][1])
    return [(task, found[task][2]) for task in kept], len(found) - len(kept)


def _listed(units: list[Unit], own: list[list[tuple[int, str]]]) -> set[str]:
    """The tasks of a handout that lists its tasks under a heading that sets them (Tasks,
    Analysis, Auswertung, 数据处理, Exploitation; not its aim's, not its procedure's): every
    item but the procedure's steps that work nothing out ("Record a background count", "Lesen
    Sie U und I ab"; "fit a line ... record the slope" stays), and of its paragraphs there and
    under the procedure only the questions and blanks: "Give units everywhere." instructs, it
    sets no task. Empty when it lists none under such a heading: then every task found stands."""
    kept: set[str] = set()
    listed = False
    sets = procedure = aside = False
    # a heading that names the tasks ("实验任务", "Aufgaben"): the aim's and the theory's lines
    # beside it set none ("一、实验目的 1. 用热线法测定 λ" states the aim)
    named = _tasks_set_elsewhere(units)
    for unit, unit_tasks in zip(units, own, strict=True):
        if unit.kind == "heading":
            aim = AIM_HEADING.match(unit.text) is not None and not TASKS_TOO.search(unit.text)
            procedure = PROCEDURE_HEADING.search(unit.text) is not None
            sets = unit.placed and not aim and not procedure
            # the data's heading lists what the files hold, wherever the tasks are
            aside = DATA_HEADING.match(unit.text.strip()) is not None or (named and (
                aim or THEORY_HEADING.search(unit.text) is not None
                # "`dane.txt` — kolumny oddzielone spacjami:" describes a file's columns
                or (DATA_FILE.search(unit.text) is not None and not TASKS_NAMED.search(unit.text))
            ))  # fmt: skip
            continue
        if aside:
            continue
        texts = [task for _, task in unit_tasks]
        if unit.kind == "item":
            listed = listed or (sets and unit.placed)
            if procedure:
                texts = [task for task in texts if ANALYSIS_WORD.search(task)]
        elif sets or procedure:  # a rule for the whole list, or a step at the bench
            texts = [task for task in texts if BLANK.search(task) or task.endswith(("?", "？"))]
        kept.update(short(task) for task in texts)
    return kept if listed else set()


def _tasks_set_elsewhere(units: list[Unit]) -> bool:
    """Whether a heading names the tasks ("实验任务", "Aufgaben"), or one over the working out
    of the data ("数据处理及作图", "Auswertung") lists items: then the aim's list states the aim,
    it sets no task."""
    listing = False
    for unit in units:
        if unit.kind == "heading":
            if TASKS_NAMED.search(unit.text):
                return True
            listing = ANALYSIS_HEADING.search(unit.text) is not None
        elif unit.kind == "item" and listing:
            return True
    return False


def _is_aim(unit: Unit) -> bool:
    """Whether a paragraph states the aim: it stands under an Aim heading, or opens "Aim:".
    A list under Goals ("2 Goals\n- Measure ...\n- Determine ...") is the handout's list of
    tasks, not a statement of its aim."""
    if unit.kind != "para":
        return False
    under = AIM_HEADING.match(unit.heading) is not None and not TASKS_TOO.search(unit.heading)
    return under or AIM_INLINE.match(unit.text) is not None


def _unit_tasks(unit: Unit) -> list[tuple[int, str]]:
    """The tasks a unit sets, each with its rank: 0 when its place or a blank to fill in
    says it is a task, 1 when its wording alone does."""
    if unit.kind == "item":
        if unit.label or closing(unit.text):
            return []
        if unit.placed or BLANK.search(unit.text):
            return [(0, unit.text)]
        # a numbered question ("c. Are the two instruments consistent?") asks for an answer
        asked = unit.mark and any(s.endswith(("?", "？")) for s in sentences(unit.text))
        return [(1, unit.text)] if asked or any(asks(s) for s in sentences(unit.text)) else []
    chosen = []
    for sentence in sentences(unit.text):
        if closing(sentence):
            continue
        if BLANK.search(sentence) or (unit.placed and sentence.endswith(("?", "？"))):
            chosen.append((0, sentence))
        elif asks(sentence):
            chosen.append((0 if unit.placed else 1, sentence))
    return chosen


def short(sentence: str) -> str:
    return cut(" ".join(sentence.split()).rstrip("；;"), MAX_TASK_CHARS)


def cut(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return text[: limit - 1].rsplit(" ", 1)[0] + "…"
