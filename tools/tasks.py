"""The assignment: its title, its aim and its tasks as a checklist, found by the document's
name, read as read_file reads it (PDFs as extracted text), and cut into short items.

A task is an item of a numbered or bulleted list, kept whole and as written, when it stands
under a heading that asks for work (Goals, Tasks, Requirements, Aufgaben, 实验任务, 要求 ...)
or asks for work itself: one of its clauses starts with an imperative ("From a, determine
g", "Bestimmen Sie ...", "计算..."). In prose, a task is a sentence with such a clause.
Descriptive prose ("In this lab you measure ...") is not a task, nor is a closing
instruction ("Hand in the report by ..."), and nothing after a References heading is.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from pydantic import BaseModel, Field

from labscribe.tools.base import Folder
from labscribe.tools.reading import read_in

ASSIGNMENT_SUFFIXES = frozenset({".pdf", ".txt", ".md", ".tex", ".html", ".htm", ".rtf"})
ASSIGNMENT_NAME = re.compile(
    r"assign|handout|hand-out|lab[ _-]?sheet|worksheet|instruction|task|exercise|brief"
    r"|requirement|实验|任务|要求|指导|讲义|作业",
    re.IGNORECASE,
)
# What of the document is read: a handout is a few pages; 600 lines is a dozen.
MAX_LINES = 600
MAX_CHARS = 60_000
MAX_TASKS = 24  # a checklist longer than this is the whole handout, not its tasks
MAX_TASK_CHARS = 600  # a task is kept as written; only a runaway paragraph is cut
# Headings of the sections whose list items are tasks even when not written as commands.
TASK_HEADING = re.compile(
    r"goal|aim|objective|task|requirement|question|exercise|assignment|deliverable|report"
    r"|analysis|evaluation|aufgabe|auswertung|ziel|fragen|目的|任务|要求|内容|思考|步骤|问题|数据处理",
    re.IGNORECASE,
)
# What the student does with the report, not with the data: not a task of the analysis.
CLOSING = re.compile(
    r"^(?:please\s+)?(?:hand\s+(?:it\s+)?in|submit|upload|send|e-?mail|turn\s+in|"
    r"the\s+(?:report|deadline)\s+is\s+due|reports?\s+(?:are|is)\s+due|deadline|due\b)"
    r"|^(?:提交|上交|交给|请于|请在.{0,12}提交)|^(?:abgabe|reichen\s+sie|geben\s+sie\s+\S+(?:\s+\S+){0,6}\s+ab\b)",
    re.IGNORECASE,
)
# German instructions start with the verb: "Bestimmen Sie ...", or to a student "Bestimme ...".
GERMAN_IMPERATIVE = frozenset(
    {
        "bestimme", "bestimmen", "berechne", "berechnen", "miss", "messen", "zeichne",
        "zeichnen", "trage", "tragen", "passe", "passen", "vergleiche", "vergleichen",
        "diskutiere", "diskutieren", "ermittle", "ermitteln", "erkläre", "erklären",
        "skizziere", "skizzieren", "stelle", "stellen", "gib", "geben", "werte", "werten",
        "fitte", "fitten", "schätze", "schätzen", "überprüfe", "überprüfen", "prüfe",
        "prüfen", "untersuche", "untersuchen", "notiere", "notieren", "beschreibe",
        "beschreiben", "begründe", "begründen", "leite", "leiten", "nenne", "nennen",
        "bestätige", "bestätigen", "verifiziere", "verifizieren", "bilde", "bilden",
        "führe", "führen", "plotte", "plotten", "bestimmt", "berechnet", "vergleicht",
    }
)  # fmt: skip
_CLAUSE = re.compile(r"[,;:，；：]\s*")
END_HEADING = re.compile(r"^(references|bibliography|literature|参考文献|参考资料)\b", re.I)
IMPERATIVE = frozenset(
    {
        "measure", "determine", "calculate", "compute", "plot", "draw", "sketch", "graph",
        "compare", "derive", "estimate", "fit", "record", "discuss", "explain", "show", "find",
        "verify", "check", "report", "write", "describe", "state", "analyse", "analyze",
        "evaluate", "obtain", "use", "build", "set", "sweep", "save", "propagate", "quote",
        "include", "tabulate", "identify", "predict", "summarise", "summarize", "give", "list",
        "make", "prove", "assess", "investigate", "repeat", "convert", "construct", "apply",
        "upload", "submit", "cite", "label", "answer", "read", "take", "connect", "adjust",
        "observe", "test", "justify", "interpret", "calibrate", "perform", "present", "comment",
        "consider", "attach", "complete", "prepare", "note", "mark", "hand"
    }
)  # fmt: skip
CHINESE_IMPERATIVE = (
    "计算", "绘制", "画出", "作出", "比较", "测量", "测定", "确定", "求出", "求", "分析",
    "讨论", "说明", "验证", "记录", "推导", "估算", "估计", "拟合", "给出", "写出", "解释",
    "总结", "列出", "观察", "研究", "描绘", "算出", "用", "利用", "根据", "判断", "完成",
)  # fmt: skip
_MARKER = re.compile(
    r"^\s*(?:[-–•*·▪◦●]|\(?\d{1,2}[.)、](?!\d)|（\d{1,2}）|[①-⑳]|[a-hA-H][.)](?=\s)"
    r"|\([a-h]\)|[一二三四五六七八九十]+[、.．]|(?:Task|Question|Q|Step|Exercise|任务|步骤|问题)"
    r"\s*\d+[.:：)]?)\s*"
)
_NUMBERED_HEADING = re.compile(r"^\s*\d+(?:\.\d+)*\s+(?=\S)")
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
AIM_HEADING = re.compile(r"^(?:aims?|objectives?|purpose|实验目的|目的)\b", re.IGNORECASE)
MAX_AIM_CHARS = 400
_NOISE = re.compile(r"^\s*(?:\[.*\]|--- page \d+.*---|page \d+(?: of \d+)?)\s*$", re.IGNORECASE)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z(])|(?<=[。！？；])")
_CJK = re.compile(r"[\u3400-\u9fff]")


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


class Assignment(BaseModel):
    title: str = ""
    aim: str = ""
    """The document's own statement of the aim, as written; "" when it makes none."""
    tasks: list[str] = Field(default_factory=list)


def read_assignment(folder: Folder, rel: str) -> Assignment:
    """The title, aim and checklist of the document `rel` names, read through `read_in`
    (so through the path guard and `Folder.open`); raises ToolError as read_file does."""
    text = read_in(folder, rel, limit=MAX_LINES, max_chars=MAX_CHARS)
    return Assignment(title=assignment_title(text), aim=assignment_aim(text),
                      tasks=extract_tasks(text))  # fmt: skip


def read_tasks(folder: Folder, rel: str) -> list[str]:
    """The checklist of the document `rel` names."""
    return read_assignment(folder, rel).tasks


def assignment_title(text: str) -> str:
    """The line of the document's head that names the exercise ("Lab 4: Resonance in a
    series RLC circuit"), else its first heading-like line; "" for a document without."""
    head = [
        " ".join(line.split()) for line in text.splitlines()
        if line.strip() and not _NOISE.match(line)
    ][:TITLE_LOOKAHEAD]  # fmt: skip
    named = [line for line in head if TITLE_LINE.match(line)]
    plain = [line for line in head if not re.search(r"[.。:：]$", line) and len(line) > 3]
    chosen = (named or plain or [""])[0]
    return chosen if len(chosen) <= MAX_TITLE_CHARS else _short(chosen)


def assignment_aim(text: str) -> str:
    """The sentence in which the document states its aim ("In this lab you measure ..."),
    else the first sentences under an Aim or Objective heading; "" when it states none."""
    units = _units(text)
    for _kind, _heading, unit in units:
        for sentence in _SENTENCE_END.split(unit):
            if AIM_SENTENCE.search(sentence):
                return _cut(sentence.strip(), MAX_AIM_CHARS)
    under = [unit.strip() for _kind, heading, unit in units if AIM_HEADING.match(heading)]
    return _cut(" ".join(under), MAX_AIM_CHARS)


def extract_tasks(text: str) -> list[str]:
    """The tasks `text` sets, in order, as written (a list item whole), at most MAX_TASKS."""
    tasks: list[str] = []
    for kind, heading, unit in _units(text):
        sentences = [s.strip() for s in _SENTENCE_END.split(unit) if s.strip()]
        if kind == "item":
            asks = TASK_HEADING.search(heading) or any(_asks(s) for s in sentences)
            chosen = [unit] if asks and not _closing(unit) else []
        else:
            chosen = [s for s in sentences if _asks(s) and not _closing(s)]
        for sentence in chosen:
            task = _short(sentence)
            if task not in tasks:
                tasks.append(task)
        if len(tasks) >= MAX_TASKS:
            return tasks[:MAX_TASKS]
    return tasks


def _asks(sentence: str) -> bool:
    """Whether a clause of `sentence` gives a command: "From a, determine g." (a lone word,
    "Report", is a heading, not a command)."""
    return any(
        _imperative(clause) and (len(clause.split()) > 1 or _CJK.match(clause))
        for clause in _CLAUSE.split(sentence)
        if clause.strip()
    )


def _closing(text: str) -> bool:
    """A closing instruction: handing in, not analysing."""
    return CLOSING.search(text.lstrip("-–•*·(（ ")) is not None


def _units(text: str) -> list[tuple[str, str, str]]:
    """(kind, heading, text) of each list item ("item") and paragraph ("para"), with the
    heading it stands under; lines a PDF wrapped are joined again."""
    units: list[tuple[str, str, str]] = []
    heading, kind, parts = "", "", []

    def close() -> None:
        if parts:
            units.append((kind, heading, _join(parts)))
            parts.clear()

    for line in text.splitlines():
        if _NOISE.match(line):
            continue
        stripped = line.strip()
        if not stripped:
            close()
            continue
        marker = _MARKER.match(line) or _NUMBERED_HEADING.match(line)
        body = stripped[marker.end() - (len(line) - len(line.lstrip())) :] if marker else stripped
        if _is_heading(body):
            close()
            heading = body
            if END_HEADING.match(body):
                break
            continue
        if _MARKER.match(line) or (marker and _imperative(body)):
            close()
            kind, parts = "item", [body]
        elif parts and not re.search(r"[.!?。！？:：]$", parts[-1]):
            parts.append(stripped)  # a line the PDF wrapped
        else:
            close()
            kind, parts = "para", [stripped]
    close()
    return units


def _is_heading(body: str) -> bool:
    """A short line that ends without punctuation and gives no command: "2 Goals"."""
    if _asks(body) or re.search(r"[.,;:!?。，；：！？]$", body):
        return False
    if _CJK.search(body):
        return len(body) <= 16
    return len(body) <= 60 and len(body.split()) <= 6


def _imperative(sentence: str) -> bool:
    text = sentence.lstrip("-–•*·(（ ")
    if _CJK.match(text):
        return text.removeprefix("请").removeprefix("试").startswith(CHINESE_IMPERATIVE)
    first = re.match(r"[A-Za-zÄÖÜäöüß]+", text)
    if not first or not text[:1].isupper():
        return False
    word = first.group(0).lower()
    return word in IMPERATIVE or word in GERMAN_IMPERATIVE


def _join(parts: list[str]) -> str:
    """Wrapped lines as one text: joined by a space, or directly between Chinese lines."""
    text = parts[0]
    for part in parts[1:]:
        text += part if _CJK.match(part[:1]) and _CJK.search(text[-1:]) else " " + part
    return text


def _short(sentence: str) -> str:
    return _cut(" ".join(sentence.split()).rstrip("；;"), MAX_TASK_CHARS)


def _cut(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return text[: limit - 1].rsplit(" ", 1)[0] + "…"
