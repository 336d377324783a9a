"""A handout written in markup (Markdown, LaTeX, HTML) as the lines its reader sees: each
heading, list item and paragraph marked as such by the format's own parser, the markup
itself gone (`# Lab 4` is the heading "Lab 4", `\\section*{Tasks}` the heading "Tasks",
`\\item ...` a list item, `**x**` and `$T_{10}$` the text "x" and "T_10").

Markdown is read here with markdown-it-py (CommonMark), LaTeX with pylatexenc's walker and
its LaTeX-to-text (tools/assignment/handout_latex.py), HTML with the standard library's parser
(tools/assignment/handout_html.py), each into the lines of tools/assignment/handout_lines.py. A
document in none of them (a PDF's text, a plain .txt) is left to the reading of plain lines
(tools/assignment/handout_units.py). The parsers never raise for what a document holds: a document
one cannot read is read as plain text.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

import yaml
from markdown_it import MarkdownIt
from markdown_it.token import Token

from labscribe.tools.assignment.handout_html import html_handout
from labscribe.tools.assignment.handout_latex import (
    INLINE_MATH,
    MAX_MATH,
    inline_math_text,
    latex_handout,
)
from labscribe.tools.assignment.handout_lines import Handout, Line
from labscribe.tools.formats.parameters import yaml_data

__all__ = ["Handout", "Line", "handout_of", "markdown_handout"]

MARKDOWN_SUFFIXES = frozenset({".md", ".markdown"})
LATEX_SUFFIXES = frozenset({".tex"})
HTML_SUFFIXES = frozenset({".html", ".htm"})
# A .txt handout whose lines open with `# ` is Markdown written in a text file.
_MARKDOWN_HEADING = re.compile(r"^#{1,6}[ \t]+\S", re.MULTILINE)
_MARKDOWN_MARK = re.compile(r"[\\*_`\[\]<>&]")
# MyST roles ({numref}`fig-1`) name a target: the reader sees the target's name.
_ROLE = re.compile(r"\{(?:numref|ref|eq|doc|cite|term|math|download|abbr|sub|sup)\}")
# MyST directives whose body is text a student reads (an admonition); other fenced blocks
# (code, math, figures) hold no task.
_PROSE_DIRECTIVE = re.compile(
    r"^\{(?:admonition|note|tip|hint|important|attention|caution|warning|seealso|topic)\}"
)
_DIRECTIVE_OPTION = re.compile(r"^\s*:[\w-]+:")
# LaTeX's structure, which Markdown never writes: a document's sections, items and emphasis
_LATEX_COMMAND = re.compile(
    r"\\(?:(?:sub)*section|textbf|textit|emph|begin|item|newcommand)\b(?:\{|\[|\s)"
)


def handout_of(text: str, rel: str) -> Handout | None:
    """The handout `text` (the document `rel` names) as marked lines, when its format is
    markup this module reads; None for plain text and PDFs."""
    suffix = PurePosixPath(rel).suffix.lower()
    try:
        if suffix in LATEX_SUFFIXES or (
            suffix in (*MARKDOWN_SUFFIXES, ".txt")
            and len(_LATEX_COMMAND.findall(text)) >= 3
            and _MARKDOWN_HEADING.search(text) is None
        ):  # a handout's LaTeX source saved as .md or .txt: `\section{…}`, `\textbf{M7.1}`
            return latex_handout(text)
        if suffix in MARKDOWN_SUFFIXES or (
            suffix == ".txt" and _MARKDOWN_HEADING.search(text) is not None
        ):
            return markdown_handout(text)
        if suffix in HTML_SUFFIXES:
            return html_handout(text)
    except (RecursionError, ValueError, IndexError, AttributeError, TypeError):
        return None  # markup its parser cannot follow: read as plain text
    return None


# --- Markdown -------------------------------------------------------------------------


def _math_escaped(text: str) -> str:
    """`text` with the marks inside its `$...$` spans escaped for CommonMark, which would
    read `\\,` as a comma and `*` as emphasis: the spans reach latex_text as written."""
    return INLINE_MATH.sub(
        lambda m: _MARKDOWN_MARK.sub(lambda c: "\\" + c[0], m[0]), text, count=MAX_MATH
    )


def markdown_handout(text: str) -> Handout:
    title, body = _front_matter(text)
    lines: list[Line] = []
    tokens = MarkdownIt("commonmark").enable("table").parse(_math_escaped(body))
    _markdown_lines(tokens, lines)
    if not title:
        title = next((line.text for line in lines if line.kind == "heading" and line.depth == 1),
                     "")  # fmt: skip
    return Handout(title=title, lines=lines)


def _front_matter(text: str) -> tuple[str, str]:
    """The title of a YAML front matter (`---` ... `---`) and the text after it."""
    if not text.startswith("---"):
        return "", text
    end = text.find("\n---", 3)
    if end < 0:
        return "", text
    try:
        meta = yaml_data(text[3:end])
    except yaml.YAMLError:
        return "", text
    title = meta.get("title") if isinstance(meta, dict) else None
    return (str(title).strip() if title else ""), text[text.find("\n", end + 1) + 1 :]


def _markdown_lines(tokens: list[Token], lines: list[Line]) -> None:
    depth = 0  # lists open around the current token
    item_open: list[bool] = []  # per open list item: whether its first line was given
    item_mark = ""  # the ordered list's number of the item whose first line is next
    skip_until: str | None = None
    heading_level = 0
    for token in tokens:
        if skip_until is not None:
            skip_until = None if token.type == skip_until else skip_until
            continue
        kind = token.type
        if kind == "heading_open":
            heading_level = int(token.tag[1:])
        elif kind in ("bullet_list_open", "ordered_list_open"):
            depth += 1
        elif kind in ("bullet_list_close", "ordered_list_close"):
            depth -= 1
            if depth == 0:
                lines.append(Line("", "break"))
        elif kind == "list_item_open":
            item_open.append(False)
            item_mark = token.info  # "3" of "3." or "3)"; "" in a bullet list
        elif kind == "list_item_close":
            item_open.pop()
        elif kind == "inline":
            text = _inline_text(token)
            if heading_level:
                lines.append(Line(" ".join(text.split()), "heading", heading_level))
                heading_level = 0
            elif item_open:
                first, *rest = text.split("\n") or [""]
                if not item_open[-1]:
                    item_open[-1] = True
                    lines.append(Line(first, "item", depth, item_mark))
                else:
                    lines.append(Line(first, "more"))
                more = [_more(part, depth) for part in rest]
                if any(line.kind == "item" for line in more) and _titled(first):
                    # "1. Tellestatistikk" over its 1.1, 1.2: a label of its sub-tasks
                    lines[-1] = lines[-1]._replace(text=f"{first}:")
                lines += more
            else:
                lines += [Line(part) for part in text.split("\n")]
        elif kind == "paragraph_close" and not item_open:
            lines.append(Line("", "break"))
        elif kind == "fence" and _PROSE_DIRECTIVE.match(token.info):
            body = "\n".join(
                line for line in token.content.splitlines() if not _DIRECTIVE_OPTION.match(line)
            )
            _markdown_lines(MarkdownIt("commonmark").parse(_math_escaped(body)), lines)
            lines.append(Line("", "break"))
        elif kind in ("fence", "code_block", "html_block", "hr"):
            lines.append(Line("", "break"))
        elif kind == "table_open":
            skip_until = "table_close"


# A numbered sub-task on its own line inside an item ("1. Tellestatistikk\n   1.1 Lag et
# histogram ..."): CommonMark reads `1.1` as text of the item; it is an item one level down.
_SUB_NUMBER = re.compile(r"^\s*(?P<mark>\d+\.\d+)\.?\s+(?P<text>\S.*)$")


def _more(part: str, depth: int) -> Line:
    sub = _SUB_NUMBER.match(part)
    return Line(sub["text"], "item", depth + 1, sub["mark"]) if sub else Line(part, "more")


_CJK_LETTER = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")


def _formula_char(char: str) -> bool:
    """A letter or digit a formula's `*` may touch (`b1*exp`): Latin or Greek, not the
    Korean or Chinese a word in bold runs into (`**정현파**를`)."""
    return char.isalnum() and not _CJK_LETTER.match(char)


def _titled(text: str) -> bool:
    """Whether an item's first line only names a part (a few words, no end punctuation)."""
    return 0 < len(text.split()) <= 4 and not text.rstrip().endswith((".", ":", "?", "!"))


def _inline_text(token: Token) -> str:
    """What a reader reads of an inline token: its text without emphasis, links' targets,
    images or raw HTML; line breaks kept; math as text."""
    children = token.children or []
    parts: list[str] = []
    opened: list[tuple[int, bool]] = []  # open emphasis: where it opened, whether in a word
    for index, child in enumerate(children):
        if child.type in ("text", "code_inline"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append("\n")
        elif child.type in ("em_open", "strong_open"):
            before = "".join(parts)[-1:]
            opened.append((len(parts), _formula_char(before) or before == ")"))
            parts.append("")
        elif child.type in ("em_close", "strong_close") and opened:
            start, in_word = opened.pop()
            after = _first_char(children[index + 1 :])
            if in_word or _formula_char(after) or after == "(":
                # `b1*exp(-b2*x)` is a formula CommonMark reads as emphasis: keep its stars
                parts[start] = child.markup
                parts.append(child.markup)
    text = _ROLE.sub("", "".join(parts))
    return inline_math_text(text)


def _first_char(children: list[Token]) -> str:
    """The first character the tokens print."""
    for child in children:
        if child.type in ("text", "code_inline") and child.content:
            return child.content[0]
        if child.type in ("softbreak", "hardbreak"):
            return "\n"
    return ""
