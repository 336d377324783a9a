"""The assignment: its title, its aim and its tasks as a checklist, found by the document's
name, read as read_file reads it (PDFs as extracted text), and cut into short items.

A handout in markup (Markdown, LaTeX, HTML) is read by its format's parser
(tools/assignment/handout_markup.py), any other as plain lines; either way it becomes headings, list
items and paragraphs (tools/assignment/handout_units.py). A task is a list item, kept whole and as
written, whose place says so (under Tasks, Questions, Analysis, Auswertung, 数据处理, a
"Tasks:" line, "Task 3:") or that asks for work itself: one of its clauses starts with a
command ("From a, determine g", "Bestimmen Sie ...", "计算...", see tools/assignment/task_words.py).
In a paragraph, a task is a sentence with such a clause, or a blank to fill in.
Descriptive prose ("In this lab you measure ...") is not a task, nor is a closing
instruction ("Hand in the report by ..."), and nothing after a References heading is.
The aim stated in prose ("Aim: determine h ...", a paragraph under an Aim heading) is no
task beside other tasks: it says what the tasks are for, and counting it would shift every task's
number; a handout that sets no task otherwise has its aim's commands as its checklist.
Each task keeps the number or letter the handout gives it where every task has one of one
kind, all different ("Task A" ... "Task D", "(i)" ... "(iii)"): see `task_numbers`.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from pydantic import BaseModel, Field

from labscribe.tools.assignment.handout_markup import handout_of
from labscribe.tools.assignment.handout_units import NOISE, Unit, plain_lines, sentences, units_of
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
    STATEMENT_HEADING,
    TASK_MARKER,
    TASKS_NAMED,
    TASKS_TOO,
    THEORY_HEADING,
    asks,
    closing,
    is_cjk,
)
from labscribe.tools.base import Folder, ToolError
from labscribe.tools.explorer.reading import read_in

ASSIGNMENT_SUFFIXES = frozenset({".pdf", ".txt", ".md", ".tex", ".html", ".htm", ".rtf"})
ASSIGNMENT_NAME = re.compile(
    r"assign|handout|hand-out|lab[ _-]?sheet|worksheet|instruction|task|exercise|brief"
    r"|requirement|anleitung|aufgabe|arbeitsblatt|übung|uebung"
    r"|[ée]nonc[ée]|consign[ae]|sujet|gui[oó]n|enunciado|pr[aá]ctica|esercitazion|istruzion"
    r"|scheda|consegna|traccia|roteiro|apostila"
    # Polish, Czech, Dutch and Russian: "instrukcja_cw2", "zadanie_3.3.4", "opdracht"
    r"|instrukcj|zadani|zadání|[ćc]wiczeni|[úu]loh|n[áa]vod|opdracht|handleiding|practicum"
    r"|задани|инструкц|методич|лабораторн"
    # Scandinavian and Finnish: "labbinstruktion", "oppgave_2", "labbhandledning", "ohje"
    r"|instruktion|uppgift|oppgave|opgave|handledning|veiledning|vejledning|ohje|teht[äa]v"
    r"|(?<![a-z])tp(?![a-z])"  # French "TP" (travaux pratiques): "TP_Malus", "tp3_optique"
    r"|实验|任务|要求|指导|讲义|作业|実験|課題|과제|안내",
    re.IGNORECASE,
)
# A document read for its tasks when no name says which is the assignment: the experimenters'
# own notes and logs hold to-do lists, not the assignment.
NOTES_NAME = re.compile(r"note|notiz|log|journal|diary|笔记|记录|日志", re.IGNORECASE)
MIN_GUESSED_TASKS = 2
MAX_GUESSED = 6
# What of the document is read: a handout is a few pages; 600 lines is a dozen.
MAX_LINES = 2000  # a PDF's short lines: MAX_CHARS bounds the reading
MAX_CHARS = 60_000
MAX_TASKS = 24  # a checklist longer than this is the whole handout, not its tasks
MAX_TASK_CHARS = 600  # a task is kept as written; only a runaway paragraph is cut
# A title names the exercise ("Lab 4: ...", "Experiment 3 ...", "实验四 ..."); without one,
# the first line of the document's head that reads like a heading is taken.
TITLE_LINE = re.compile(
    r"^(?:lab(?:oratory)?|experiment|exercise|practical|versuch|expt\.?)\s*[\dIVX]+\b"
    r"|^实验\s*[一二三四五六七八九十\d]+",
    re.IGNORECASE,
)
TITLE_LOOKAHEAD = 8  # lines of the document's head a title is looked for in
MAX_TITLE_CHARS = 120
AIM_SENTENCE = re.compile(
    r"\b(?:in this (?:lab|experiment|exercise|practical)|the (?:aim|purpose|goal|objective)s?"
    r" of (?:this|the)|(?:aims?|purpose|objectives?) (?:is|are) to)\b|实验目的|本实验",
    re.IGNORECASE,
)
MAX_AIM_CHARS = 400
# A line of the head that is a field of a form, not prose: "TA: ...", "Date: 3 May.".
_FIELD = re.compile(r"^[^\s:：]{1,20}(?:\s[^\s:：]{1,20})?\s*[:：]\s")
MIN_OPENING_WORDS = 8  # an opening paragraph says something; "Name: ____" does not
_READ_NOTE = re.compile(r"^\[[^\n]*\]\s*$")
_TITLE_MARKUP = re.compile(
    r"^#{1,6}\s+|^[*_]{2}|[*_]{2}$|<[^<>]{0,80}>"
    r"|^(?:title|experiment|lab|实验名称|实验题目|题目|versuch|thema)\s*[:：]\s*(?=\S)",
    re.IGNORECASE,
)


def find_assignment(documents: list[str]) -> str | None:
    """The assignment among `documents` (paths in the folder), by its name: a PDF before
    other formats, then the shallowest path; None when no name says so."""
    named = [
        rel for rel in documents
        if PurePosixPath(rel).suffix.lower() in ASSIGNMENT_SUFFIXES
        and ASSIGNMENT_NAME.search(PurePosixPath(rel).stem)
    ]  # fmt: skip
    if not named:
        return None
    return min(named, key=lambda rel: (not rel.lower().endswith(".pdf"), rel.count("/"), rel))


def guess_assignment(folder: Folder, documents: list[str]) -> tuple[str, Assignment] | None:
    """Where no document's name says it is the assignment ("lab4.md", "README.md"), the
    document among `documents` that sets the most tasks (at least MIN_GUESSED_TASKS), read
    as read_assignment reads it; notes and logs by their name are not looked at (their
    to-do lists are not an assignment). At most MAX_GUESSED documents are read."""
    candidates = [
        rel for rel in documents
        if PurePosixPath(rel).suffix.lower() in ASSIGNMENT_SUFFIXES
        and not NOTES_NAME.search(PurePosixPath(rel).stem)
    ]  # fmt: skip
    candidates.sort(key=lambda rel: (not rel.lower().endswith(".pdf"), rel.count("/"), rel))
    best: tuple[str, Assignment] | None = None
    for rel in candidates[:MAX_GUESSED]:
        try:
            found = read_assignment(folder, rel)
        except ToolError:
            continue
        enough = len(found.tasks) >= MIN_GUESSED_TASKS
        if enough and (best is None or len(found.tasks) > len(best[1].tasks)):
            best = (rel, found)
    return best


class Assignment(BaseModel):
    title: str = ""
    aim: str = ""
    """The document's own statement of the aim, as written; else its opening paragraph
    (`aim_is_opening`); "" when it has neither."""
    aim_is_opening: bool = False
    tasks: list[str] = Field(default_factory=list)
    numbers: list[str] = Field(default_factory=list)
    """Each task's number as the handout gives it (see `task_numbers`)."""
    tasks_left_out: int = 0
    """Tasks beyond MAX_TASKS, left out of the checklist (commands of the procedure first)."""


class Handout(BaseModel):
    """A handout read into units, with the title its markup gives."""

    title: str = ""
    units: list[Unit] = Field(default_factory=list)
    head: list[str] = Field(default_factory=list)
    """Its first lines as a reader sees them (the markup's text, not its commands)."""


def read_assignment(folder: Folder, rel: str) -> Assignment:
    """The title, aim and checklist of the document `rel` names, read through `read_in`
    (so through the path guard and `Folder.open`); raises ToolError as read_file does."""
    text = read_in(folder, rel, limit=MAX_LINES, max_chars=MAX_CHARS)
    return assignment_of(text, rel)


def assignment_of(text: str, rel: str = "") -> Assignment:
    """The title, aim and tasks of a handout's `text`, read as its name `rel` says."""
    handout = read_handout(text, rel)
    aim, opening = _aim(handout)
    marked, left_out = _tasks(handout.units)
    tasks = [task for task, _ in marked]
    return Assignment(title=_title(handout), aim=aim, aim_is_opening=opening, tasks=tasks,
                      numbers=task_numbers([mark for _, mark in marked]),
                      tasks_left_out=left_out)  # fmt: skip


def read_handout(text: str, rel: str = "") -> Handout:
    # read_in's own lines (the header, a note that the text was cut) are not the handout's
    text = "\n".join(line for line in text.split("\n") if not _READ_NOTE.match(line))
    marked = handout_of(text, rel)
    if marked is None:
        head = text.splitlines()[: 4 * TITLE_LOOKAHEAD]
        return Handout(units=units_of(plain_lines(_without_marked_title(text, head))), head=head)
    title = _clean_title(marked.title)
    head = [line.text for line in marked.lines[: 4 * TITLE_LOOKAHEAD] if line.text]
    return Handout(title=title, units=units_of(marked.lines, title), head=head)


def _without_marked_title(text: str, head: list[str]) -> str:
    """`text` without its title line where that line opens like a task ("Exercise 7:
    Reaction yield"): it names the handout and sets no task."""
    title = _title(Handout(head=head))
    lines = text.split("\n")
    for number, line in enumerate(lines):
        if line.strip():
            if TASK_MARKER.match(line) and _clean_title(line) == title:
                return "\n".join(lines[number + 1 :])
            return text
    return text


def assignment_title(text: str, rel: str = "") -> str:
    """The line of the document's head that names the exercise ("Lab 4: Resonance in a
    series RLC circuit"), else its first heading-like line, without its markup ("# Lab 4"
    is "Lab 4"); "" for a document without."""
    return _title(read_handout(text, rel))


def assignment_aim(text: str, rel: str = "") -> str:
    """The sentence in which the document states its aim ("In this lab you measure ..."),
    its text under an Aim heading or after "Aim:", else its opening paragraph."""
    return _aim(read_handout(text, rel))[0]


def extract_tasks(text: str, rel: str = "") -> list[str]:
    """The tasks `text` sets, in order, as written (a list item whole), at most MAX_TASKS."""
    return [task for task, _ in _tasks(read_handout(text, rel).units)[0]]


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


def _tasks(units: list[Unit]) -> tuple[list[tuple[str, str]], int]:
    """The tasks of `units` in order, each with the handout's mark for it, and how many
    beyond MAX_TASKS were left out. The aim's commands count only where the handout sets
    no other task. Over the limit, the tasks the handout's structure names (under Tasks,
    Questions, ...) are kept before commands found elsewhere (the procedure's steps), each
    kind in order."""
    found: dict[str, tuple[int, int, str, bool]] = {}  # task -> (rank, position, mark, aim)
    own = [_unit_tasks(unit) for unit in units]
    for index in task_lists(units, [bool(tasks) for tasks in own]):
        if not closing(units[index].text):
            own[index] = [(1, units[index].text)]  # its list is a list of tasks
    for index, task in coded_tasks(units, [bool(tasks) for tasks in own]).items():
        own[index] = [(1, task)]
    for index in questions_between(units, [bool(tasks) for tasks in own]):
        own[index] = [(1, units[index].text)]
    for unit, unit_tasks in zip(units, own, strict=True):
        if unit.kind != "heading" and DATA_HEADING.match(unit.heading.strip()):
            continue  # what the data files hold, under their heading
        aim = _is_aim(unit)
        for rank, task in unit_tasks:
            task = _short(task)
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
        tasks = [task for _, task in unit_tasks]
        if unit.kind == "item":
            listed = listed or (sets and unit.placed)
            if procedure:
                tasks = [task for task in tasks if ANALYSIS_WORD.search(task)]
        elif sets or procedure:  # a rule for the whole list, or a step at the bench
            tasks = [task for task in tasks if BLANK.search(task) or task.endswith(("?", "？"))]
        kept.update(_short(task) for task in tasks)
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


def _title(handout: Handout) -> str:
    if handout.title:
        return _fit_title(handout.title)
    head = [
        _clean_title(line) for line in handout.head
        if line.strip() and not NOISE.match(line) and not re.fullmatch(r"\s*[=\-*_~#]{3,}\s*", line)
    ][:TITLE_LOOKAHEAD]  # fmt: skip
    named = [line for line in head if TITLE_LINE.match(line)]
    plain = [line for line in head if not re.search(r"[.。:：]$", line) and len(line) > 3]
    return _fit_title((named or plain or [""])[0])


def _clean_title(line: str) -> str:
    """A title line without Markdown's or HTML's markup: `# Lab 4`, `**Lab 4**`."""
    return " ".join(_TITLE_MARKUP.sub("", " ".join(line.split())).split())


def _fit_title(title: str) -> str:
    return title if len(title) <= MAX_TITLE_CHARS else _short(title)


def _aim(handout: Handout) -> tuple[str, bool]:
    """The aim as the document states it, and whether it is only its opening paragraph."""
    for unit in handout.units:
        if inline := AIM_INLINE.match(unit.text):
            return _cut(inline.group(1).strip(), MAX_AIM_CHARS), False
    for unit in handout.units:
        if unit.kind == "heading":
            continue  # "实验目的" names the aim's section; it states no aim
        for sentence in sentences(unit.text):
            if AIM_SENTENCE.search(sentence):
                return _cut(sentence, MAX_AIM_CHARS), False
    under = [u.text for u in handout.units if u.kind != "heading" and AIM_HEADING.match(u.heading)]
    if under:
        return _cut(" ".join(under), MAX_AIM_CHARS), False
    stated = [
        u.text for u in handout.units
        if u.kind == "para" and STATEMENT_HEADING.match(u.heading) and not _sets_work(u.text)
    ]  # fmt: skip
    if stated:
        return _cut(" ".join(stated), MAX_AIM_CHARS), False
    opening = _opening(handout)
    return opening, bool(opening)


def _opening(handout: Handout) -> str:
    """The handout's first paragraph of prose (not a form's field, not its title)."""
    for unit in handout.units:
        if unit.kind != "para" or _FIELD.match(unit.text) or unit.text == handout.title:
            continue
        long_enough = (
            len(unit.text) >= 2 * MIN_OPENING_WORDS
            if is_cjk(unit.text)
            else len(unit.text.split()) >= MIN_OPENING_WORDS
        )
        if long_enough and not closing(unit.text) and not _sets_work(unit.text):
            return _cut(unit.text, MAX_AIM_CHARS)
    return ""


def _sets_work(text: str) -> bool:
    """Whether a paragraph gives a command or introduces a list: no statement of the aim."""
    return text.endswith((":", "：")) or any(asks(s) for s in sentences(text))


def _short(sentence: str) -> str:
    return _cut(" ".join(sentence.split()).rstrip("；;"), MAX_TASK_CHARS)


def _cut(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return text[: limit - 1].rsplit(" ", 1)[0] + "…"
