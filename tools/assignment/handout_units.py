"""A handout's lines as units a reader tells apart: headings, list items and paragraphs,
each with the heading it stands under and whether its place says it is a task.

Lines come marked by their markup (tools/assignment/handout_markup.py) or, for a PDF's text or a
plain .txt, as plain lines whose role is read here: a numbered or bulleted line starts an item; a
short line without end punctuation ("2 Goals"), or a short label ending in a colon
("Tasks:", "Auswertung:", "数据处理："), is a heading; a line a PDF wrapped is joined again.

An item's place makes it a task whatever its first word when it stands under a heading that
sets tasks (Tasks, Questions, Analysis, Auswertung, 数据处理 ...), under a sentence ending in
a colon that does ("Answer the following questions:"), or under an item that is such a
label ("Graphical Analysis:"), or when its own marker says so ("Task 3:", "Q2.", "Task B:").

An item runs over the lines that follow it until a blank line, a heading or the next item:
a line the PDF wrapped or an indented line continues it, and so does an unmarked line
between two items of one list ("(ii) Fit a power law ...\nIs n compatible with 1/2?\n(iii)
..."), which markup without indentation leaves as plain text. An item keeps the mark the
handout numbers it with ("3", "B", "ii"), so the checklist can number it the same way.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Literal, NamedTuple

from labscribe.tools.assignment.handout_lines import Line
from labscribe.tools.assignment.task_words import (
    AIM_INLINE,
    DATA_HEADING,
    NEUTRAL_HEADING,
    TASK_HEADING,
    TASK_MARKER,
    asks,
    closing,
    is_cjk,
)

# What starts a list item in plain text: a bullet, a letter or roman numeral, a number with
# its punctuation, or a task's own marker ("Task 3:", "Q2.", "Aufgabe 2:").
_BULLET = re.compile(
    r"^\s*(?:[-–•*·▪◦●]|[a-hA-H][.)](?=\s)|\([a-h]\)|\((?:i{1,3}|iv|vi{0,3}|ix|x)\)"
    r"|(?:i{1,3}|iv|vi{0,3}|ix|x)[.)](?=\s))\s*"
)
# Upper-case roman numerals mark sections ("I. OBJECTIVE", "II. Theory") as often as tasks
# ("III. Em que dia a produção atinge 90 %?"): the line's content tells, as a numbered line's
# does, but wherever it stands (a title-like line is a heading even inside a list of tasks).
_ROMAN = re.compile(r"^\s*(?:XII|XI|X|IX|VIII|VII|VI|V|IV|III|II|I)[.)](?=\s)\s*")
_NUMBERED = re.compile(r"^\s*(?:\(?\d{1,2}[.)、](?!\d)|（\d{1,2}）|[①-⑳])\s*")
# Section numbers: Chinese numerals ("一、实验目的") and a number without its dot ("2 Goals").
_SECTION = re.compile(r"^\s*(?:[一二三四五六七八九十]+[、.．]|（[一二三四五六七八九十]+）)\s*")
_NUMBERED_HEADING = re.compile(r"^\s*\d+(?:\.\d+)*\s+(?=\S)")
END_HEADING = re.compile(
    r"^(references|bibliography|literature|literatur|参考文献|参考资料)\b", re.IGNORECASE
)
# read_in's notes, page breaks and a PDF's page numbers ("231" alone on its line)
NOISE = re.compile(
    r"^\s*(?:\[.*\]|--- page \d+.*---|page \d+(?: of \d+)?|\d{1,4})\s*$", re.IGNORECASE
)
_RULE = re.compile(r"^\s*[=\-*_~#]{3,}\s*$")  # an underline or a horizontal rule
_ENDS_SENTENCE = re.compile(r"[.!?。！？:：]$")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z(])|(?<=[。！？；])")
MAX_LABEL_WORDS = 6  # "Graphical Analysis:" is a label; a sentence ending in a colon is not
# A numbered section's title: "2. Definition des Wirkungsquerschnittes, Ableitung des
# Absorptionsgesetzes" after "1. Einleitung und Zielsetzung".
MAX_SECTION_WORDS = 12


class Unit(NamedTuple):
    kind: Literal["item", "para", "heading"]
    text: str
    heading: str
    """The heading it stands under."""
    placed: bool = False
    """Whether its place says it is a task (see the module's docstring)."""
    label: bool = False
    """An item that only names what its sub-items are ("Sachanalyse:")."""
    mark: str = ""
    """The number or letter the handout gives the item ("3", "B", "ii", the number of a
    markup's ordered list); "" for a bullet or a paragraph."""


def plain_lines(text: str) -> list[Line]:
    """A document without markup as plain lines, a blank line a break."""
    return [Line(line) if line.strip() else Line("", "break") for line in text.splitlines()]


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(text) if s.strip()]


def is_label(text: str) -> bool:
    """A short label ending in a colon: "Tasks:", "Graphical Analysis:", "数据处理："."""
    body = text.rstrip()
    if not body.endswith((":", "：")) or len(sentences(body)) > 1:
        return False
    return len(body) <= 16 if is_cjk(body) else len(body.split()) <= MAX_LABEL_WORDS


def units_of(lines: list[Line], title: str = "") -> list[Unit]:
    """The units of a handout's lines, in order, up to a References heading."""
    reader = _Reader(title)
    for line in lines:
        if reader.stopped:
            break
        reader.feed(line)
    reader.close()
    return reader.units


class _Reader:
    def __init__(self, title: str) -> None:
        self.title = " ".join(title.split())
        self.units: list[Unit] = []
        self.heading, self.heading_sets = "", False
        self.intro_sets: bool | None = None  # a colon sentence's list, while it lasts
        self.parents: list[tuple[int, bool]] = []  # open items: (depth, sets its sub-items)
        self.kind: Literal["item", "para", ""] = ""
        self.parts: list[str] = []
        self.depth, self.indent, self.marked, self.mark = 0, 0, False, ""
        self.held: list[str] = []  # plain lines after an item: its own if another item follows
        # the numbers of the last numbered item and of the last numbered section heading
        self.last_item, self.last_section = 0, 0
        self.stopped = False

    def feed(self, line: Line) -> None:
        if line.kind == "break":
            self.close()
        elif line.kind == "heading":
            self.close()
            self.set_heading(line.text)
        elif line.kind == "item":
            self.close(continued=True)
            marked = TASK_MARKER.match(line.text) is not None
            self.start_item(line.text, line.depth, marked=marked, mark=mark_of(line.mark))
        elif line.kind == "more" and self.parts:
            if line.text.strip():
                self.parts.append(line.text.strip())
        else:
            self.plain(line.text)

    def plain(self, raw: str) -> None:
        """A line whose role its words and layout tell."""
        stripped = raw.strip()
        if not stripped:
            self.close()
            return
        if NOISE.match(raw) or _RULE.match(raw):
            return
        indent = len(raw) - len(raw.lstrip())
        task = TASK_MARKER.match(raw)
        bullet = _BULLET.match(raw)
        numbered = _NUMBERED.match(raw)
        number = _number(numbered)
        if numbered and not task and number not in (1, self.last_item + 1, self.last_section + 1):
            numbered = None  # "(5) gerechneten Werten": an equation's number, not an item's
        body_after = raw[numbered.end() :].strip() if numbered else ""
        if numbered and not task and number not in (1, self.last_item + 1) \
                and _section_title(body_after):  # fmt: skip
            self.close()  # "8. Hinweise zur Apparatur" after "7. Aufgabe", within its list
            self.last_section = number
            self.set_heading(body_after)
            return
        listed = task or bullet or numbered or _ROMAN.match(raw)
        section = _SECTION.match(raw) or _NUMBERED_HEADING.match(raw)
        marker = listed or section
        body = raw[marker.end() :].strip() if marker else stripped
        wrapped = bool(self.parts) and not _ENDS_SENTENCE.search(self.parts[-1])
        if wrapped and not marker and stripped[:1].islower() and not self.held:
            self.parts.append(stripped)  # a sentence the PDF wrapped
        elif not (task or bullet) and self._heads(body, numbered=numbered is not None):
            self.close()
            self.set_heading(body)
            self.last_section = number if numbered else self.last_section
        elif listed or (section and asks(body)):
            self.close(continued=True)
            self.start_item(body, 1 + indent // 2, marked=task is not None)
            self.indent, self.mark = indent, mark_of(marker.group(0)) if marker else ""
            self.last_item = number if numbered and not (task or bullet) else self.last_item
        elif self.held:
            self.held.append(stripped)
        elif AIM_INLINE.match(stripped):  # "Objective. Determine ...": a run-in heading
            self.close()
            self.kind, self.parts = "para", [stripped]
        elif wrapped or (self.kind == "item" and indent > self.indent):
            self.parts.append(stripped)
        elif self.kind == "item" and not closing(stripped):
            self.held.append(stripped)  # the item's own if the list goes on after it
        else:
            self.close()
            self.kind, self.parts = "para", [stripped]

    def _heads(self, body: str, *, numbered: bool) -> bool:
        """Whether a plain line (no bullet) is a heading: a short line without end
        punctuation, a short label or the data files' heading with its remark, numbered as
        a section ("2 Goals", "一、实验目的") or not at all, or numbered as an item ("1.
        Introduction") where no task list is open (there, "1. Messung der Periode" is an
        item of the list)."""
        if not (_is_heading(body) or is_label(body) or DATA_HEADING.match(body)):
            return False  # "File di dati (CSV, unità secondo i codici UNECE …):" heads too
        return not numbered or not self._in_task_list()

    def _in_task_list(self) -> bool:
        if self.kind == "item":
            return True
        if self.intro_sets:
            return True
        return self.heading_sets and bool(self.units) and self.units[-1].kind != "para"

    def set_heading(self, text: str) -> None:
        text = " ".join(text.split())
        if END_HEADING.match(text):
            self.stopped = True
            return
        continues = NEUTRAL_HEADING.match(text) is not None and self.heading_sets
        self.heading = text
        self.heading_sets = continues or (
            text != self.title and TASK_HEADING.search(text) is not None
        )
        self.intro_sets, self.parents = None, []
        if text != self.title:  # the title names the handout; it sets no task itself
            self.units.append(Unit("heading", text, text, placed=self.heading_sets))

    def start_item(self, text: str, depth: int, *, marked: bool, mark: str = "") -> None:
        self.kind, self.parts = "item", [text.strip()]
        self.depth, self.marked, self.mark = max(1, depth), marked, mark

    def close(self, *, continued: bool = False) -> None:
        """Ends the open unit. `continued` when an item of the list starts next: the plain
        lines held since the open item are that item's own; otherwise the list has ended
        and they are read again as what follows it."""
        held, self.held = self.held, []
        if continued:
            self.parts += held
            held = []
        self._close()
        for line in held:
            self.plain(line)
        self._close()

    def _close(self) -> None:
        if not self.parts:
            return
        text = _join(self.parts)
        kind, self.parts, self.kind = self.kind, [], ""
        if kind == "para":
            self.units.append(Unit("para", text, self.heading))
            ends_in_colon = text.endswith((":", "："))
            last = sentences(text)[-1] if ends_in_colon else ""
            self.intro_sets = (
                (TASK_HEADING.search(last) is not None or asks(last)) if ends_in_colon else None
            )
            self.parents = []
            return
        while self.parents and self.parents[-1][0] >= self.depth:
            self.parents.pop()
        from_parent = bool(self.parents) and self.parents[-1][1]
        placed = self.heading_sets or bool(self.intro_sets) or from_parent or self.marked
        label = is_label(text)
        sets_children = placed if label else False
        if label or text.endswith((":", "：")):
            sets_children = (
                placed or TASK_HEADING.search(text) is not None or (not label and asks(text))
            )
        self.parents.append((self.depth, sets_children))
        self.units.append(
            Unit("item", text, self.heading, placed=placed, label=label, mark=self.mark)
        )


_MARK = re.compile(r"(?P<mark>\d{1,3}[a-z]?|[ivx]{1,4}|[a-h])\W*$", re.IGNORECASE)


def mark_of(marker: str) -> str:
    """The number or letter of an item's marker: "3" of "Task 3:" and of "3)", "B" of
    "Task B:", "ii" of "(ii)", "1" of "①", "1.2" of "1.2"; "" for a bullet."""
    if task := TASK_MARKER.match(marker):
        return task.group("number") or task.group("letter") or ""
    if sub := re.fullmatch(r"\s*(\d{1,3}\.\d{1,3})\.?\s*", marker):
        return sub[1]  # "1.2" of a sub-task, not "12"
    text = re.sub(r"[\s()（）.、]", "", marker)
    if len(text) == 1 and unicodedata.numeric(text, -1) > 0:  # ① ... ⑳, 一 ... 十
        return str(int(unicodedata.numeric(text)))
    found = _MARK.search(text)
    return found.group("mark") if found else ""


def _number(numbered: re.Match[str] | None) -> int:
    """The number of a numbered line's marker ("3" of "3.", "(3)", "③"); 0 for none."""
    mark = mark_of(numbered.group(0)) if numbered else ""
    return int(mark) if mark.isdigit() else 0


def _section_title(body: str) -> bool:
    """A numbered section's title: a line that gives no command and ends without a
    sentence's punctuation, of MAX_SECTION_WORDS words at most."""
    return (bool(body) and not asks(body) and not re.search(r"[.;:!?。；：！？]$", body)
            and len(body.split()) <= MAX_SECTION_WORDS)  # fmt: skip


def _is_heading(body: str) -> bool:
    """A short line that ends without punctuation and gives no command: "2 Goals"."""
    if asks(body) or re.search(r"[.,;:!?。，；：！？]$", body):
        return False
    if is_cjk(body):
        return len(body) <= 16
    return len(body) <= 60 and len(body.split()) <= 6


def _join(parts: list[str]) -> str:
    """Wrapped lines as one text: joined by a space, or directly between Chinese lines."""
    text = parts[0]
    for part in parts[1:]:
        text += part if is_cjk(part[:1]) and is_cjk(text[-1:]) else " " + part
    return text
