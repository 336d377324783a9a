"""The assignment: its title, its aim and its tasks as a checklist, found by the document's
name, read as read_file reads it (PDFs as extracted text), and cut into short items.

A handout in markup (Markdown, LaTeX, HTML) is read by its format's parser
(tools/assignment/handout_markup.py), any other as plain lines; either way it becomes headings, list
items and paragraphs (tools/assignment/handout_units.py), whose tasks
tools/assignment/handout_tasks.py picks. The title and the aim are read here: the aim stated in
prose ("Aim: determine h ...", a paragraph under an Aim heading), else the opening paragraph.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from pydantic import BaseModel, Field

from labscribe.tools.assignment.handout_markup import handout_of
from labscribe.tools.assignment.handout_tasks import cut, short, task_numbers, tasks
from labscribe.tools.assignment.handout_units import NOISE, Unit, plain_lines, sentences, units_of
from labscribe.tools.assignment.task_words import (
    AIM_HEADING,
    AIM_INLINE,
    STATEMENT_HEADING,
    TASK_MARKER,
    asks,
    closing,
    is_cjk,
)
from labscribe.tools.base import ToolError
from labscribe.tools.explorer.reading import read_in
from labscribe.tools.tool import Folder

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
    """The line of the document's head that names the exercise ("Lab 4: Resonance in a
    series RLC circuit"), else its first heading-like line, without its markup ("# Lab 4"
    is "Lab 4"); "" for a document without."""
    aim: str = ""
    """The document's own statement of the aim, as written ("In this lab you measure ...",
    its text under an Aim heading or after "Aim:"); else its opening paragraph
    (`aim_is_opening`); "" when it has neither."""
    aim_is_opening: bool = False
    tasks: list[str] = Field(default_factory=list)
    """The tasks the document sets, in order, as written (a list item whole), at most
    MAX_TASKS."""
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
    marked, left_out = tasks(handout.units)
    checklist = [task for task, _ in marked]
    return Assignment(title=_title(handout), aim=aim, aim_is_opening=opening, tasks=checklist,
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
    return title if len(title) <= MAX_TITLE_CHARS else short(title)


def _aim(handout: Handout) -> tuple[str, bool]:
    """The aim as the document states it, and whether it is only its opening paragraph."""
    for unit in handout.units:
        if inline := AIM_INLINE.match(unit.text):
            return cut(inline.group(1).strip(), MAX_AIM_CHARS), False
    for unit in handout.units:
        if unit.kind == "heading":
            continue  # "实验目的" names the aim's section; it states no aim
        for sentence in sentences(unit.text):
            if AIM_SENTENCE.search(sentence):
                return cut(sentence, MAX_AIM_CHARS), False
    under = [u.text for u in handout.units if u.kind != "heading" and AIM_HEADING.match(u.heading)]
    if under:
        return cut(" ".join(under), MAX_AIM_CHARS), False
    stated = [
        u.text for u in handout.units
        if u.kind == "para" and STATEMENT_HEADING.match(u.heading) and not _sets_work(u.text)
    ]  # fmt: skip
    if stated:
        return cut(" ".join(stated), MAX_AIM_CHARS), False
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
            return cut(unit.text, MAX_AIM_CHARS)
    return ""


def _sets_work(text: str) -> bool:
    """Whether a paragraph gives a command or introduces a list: no statement of the aim."""
    return text.endswith((":", "：")) or any(asks(s) for s in sentences(text))
