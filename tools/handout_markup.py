"""A handout written in markup (Markdown, LaTeX, HTML) as the lines its reader sees: each
heading, list item and paragraph marked as such by the format's own parser, the markup
itself gone (`# Lab 4` is the heading "Lab 4", `\\section*{Tasks}` the heading "Tasks",
`\\item ...` a list item, `**x**` and `$T_{10}$` the text "x" and "T_10").

Markdown is read with markdown-it-py (CommonMark), LaTeX with pylatexenc's walker and its
LaTeX-to-text, HTML with the standard library's parser. A document in none of them (a PDF's
text, a plain .txt) is left to tools/tasks.py's reading of plain lines. The parsers never
raise for what a document holds: a document one cannot read is read as plain text.
"""

from __future__ import annotations

import re
from functools import lru_cache
from html.parser import HTMLParser
from pathlib import PurePosixPath
from typing import ClassVar, Literal, NamedTuple

import yaml
from markdown_it import MarkdownIt
from markdown_it.token import Token
from pylatexenc.latex2text import LatexNodes2Text
from pylatexenc.latexwalker import (
    LatexCommentNode,
    LatexEnvironmentNode,
    LatexMacroNode,
    LatexNode,
    LatexWalker,
    get_default_latex_context_db,
)
from pylatexenc.macrospec import MacroSpec

Kind = Literal["heading", "item", "more", "break", "text"]


class Line(NamedTuple):
    """One line of a handout as its reader sees it. `kind` says what markup made it: a
    "heading"; the first line of a list "item" (nested `depth` deep, 1 for a top-level
    list); "more" of the item or paragraph before; a "break" between blocks; or plain
    "text", whose role tools/tasks.py tells by its own reading."""

    text: str
    kind: Kind = "text"
    depth: int = 0


class Handout(NamedTuple):
    title: str
    """The title the markup gives (`\\title{}`, `<title>`, a front matter's `title:`, the
    first top-level heading); "" when it gives none."""
    lines: list[Line]


MARKDOWN_SUFFIXES = frozenset({".md", ".markdown"})
LATEX_SUFFIXES = frozenset({".tex"})
HTML_SUFFIXES = frozenset({".html", ".htm"})
# A .txt handout whose lines open with `# ` is Markdown written in a text file.
_MARKDOWN_HEADING = re.compile(r"^#{1,6}[ \t]+\S", re.MULTILINE)
# `$...$` in Markdown is LaTeX math (MyST, Jupyter, GitHub): read as text. One way to match
# a run of non-dollars keeps this linear.
_INLINE_MATH = re.compile(r"\$\$?([^$\n]+)\$\$?")
MAX_MATH = 200  # `$...$` spans read as text per paragraph; the rest stay as written
# MyST roles ({numref}`fig-1`) name a target: the reader sees the target's name.
_ROLE = re.compile(r"\{(?:numref|ref|eq|doc|cite|term|math|download|abbr|sub|sup)\}")
# MyST directives whose body is text a student reads (an admonition); other fenced blocks
# (code, math, figures) hold no task.
_PROSE_DIRECTIVE = re.compile(
    r"^\{(?:admonition|note|tip|hint|important|attention|caution|warning|seealso|topic)\}"
)
_DIRECTIVE_OPTION = re.compile(r"^\s*:[\w-]+:")

_LATEX_HEADINGS = {
    "part": 1, "chapter": 1, "section": 2, "subsection": 3, "subsubsection": 4,
    "paragraph": 5, "subparagraph": 5,
}  # fmt: skip
_LATEX_LISTS = frozenset({"itemize", "enumerate", "description", "compactitem", "enumerate*"})
# Environments whose content is no running text: floats, tables, code, pictures.
_LATEX_SKIPPED = frozenset(
    {"figure", "figure*", "table", "table*", "tabular", "tabular*", "tabularx", "longtable",
     "tikzpicture", "picture", "verbatim", "lstlisting", "minted", "comment", "thebibliography",
     "filecontents"}
)  # fmt: skip
_LATEX_BREAKS = frozenset({"par", "bigskip", "medskip", "smallskip", "newpage", "clearpage"})
_BLANK_LINE = re.compile(r"\n[ \t]*\n")


def handout_of(text: str, rel: str) -> Handout | None:
    """The handout `text` (the document `rel` names) as marked lines, when its format is
    markup this module reads; None for plain text and PDFs."""
    suffix = PurePosixPath(rel).suffix.lower()
    try:
        if suffix in MARKDOWN_SUFFIXES or (
            suffix == ".txt" and _MARKDOWN_HEADING.search(text) is not None
        ):
            return markdown_handout(text)
        if suffix in LATEX_SUFFIXES:
            return latex_handout(text)
        if suffix in HTML_SUFFIXES:
            return html_handout(text)
    except (RecursionError, ValueError, IndexError, AttributeError, TypeError):
        return None  # markup its parser cannot follow: read as plain text
    return None


# --- Markdown -------------------------------------------------------------------------


def markdown_handout(text: str) -> Handout:
    title, body = _front_matter(text)
    lines: list[Line] = []
    tokens = MarkdownIt("commonmark").enable("table").parse(body)
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
        meta = yaml.safe_load(text[3:end])
    except yaml.YAMLError:
        return "", text
    title = meta.get("title") if isinstance(meta, dict) else None
    return (str(title).strip() if title else ""), text[text.find("\n", end + 1) + 1 :]


def _markdown_lines(tokens: list[Token], lines: list[Line]) -> None:
    depth = 0  # lists open around the current token
    item_open: list[bool] = []  # per open list item: whether its first line was given
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
                    lines.append(Line(first, "item", depth))
                else:
                    lines.append(Line(first, "more"))
                lines += [Line(part, "more") for part in rest]
            else:
                lines += [Line(part) for part in text.split("\n")]
        elif kind == "paragraph_close" and not item_open:
            lines.append(Line("", "break"))
        elif kind == "fence" and _PROSE_DIRECTIVE.match(token.info):
            body = "\n".join(
                line for line in token.content.splitlines() if not _DIRECTIVE_OPTION.match(line)
            )
            _markdown_lines(MarkdownIt("commonmark").parse(body), lines)
            lines.append(Line("", "break"))
        elif kind in ("fence", "code_block", "html_block", "hr"):
            lines.append(Line("", "break"))
        elif kind == "table_open":
            skip_until = "table_close"


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
            opened.append((len(parts), before.isalnum() or before == ")"))
            parts.append("")
        elif child.type in ("em_close", "strong_close") and opened:
            start, in_word = opened.pop()
            after = _first_char(children[index + 1 :])
            if in_word or after.isalnum() or after == "(":
                # `b1*exp(-b2*x)` is a formula CommonMark reads as emphasis: keep its stars
                parts[start] = child.markup
                parts.append(child.markup)
    text = _ROLE.sub("", "".join(parts))
    return _INLINE_MATH.sub(lambda m: latex_text(m.group(1)), text, count=MAX_MATH)


def _first_char(children: list[Token]) -> str:
    """The first character the tokens print."""
    for child in children:
        if child.type in ("text", "code_inline") and child.content:
            return child.content[0]
        if child.type in ("softbreak", "hardbreak"):
            return "\n"
    return ""


# --- LaTeX ----------------------------------------------------------------------------

_LATEX_TEXT = LatexNodes2Text(math_mode="text", strict_latex_spaces=False)


@lru_cache(maxsize=4096)
def latex_text(source: str) -> str:
    """LaTeX source as the text it prints (`a_{th}=g\\sin\\alpha` is "a_th=g sinα")."""
    try:
        return " ".join(_LATEX_TEXT.latex_to_text(source).split())
    except (RecursionError, ValueError, IndexError, AttributeError, TypeError):
        return source


def _latex_context():  # type: ignore[no-untyped-def]
    """pylatexenc's macros, with every sectioning command taking its star (`\\part*{}`)."""
    context = get_default_latex_context_db()
    context.add_context_category(
        "handout", macros=[MacroSpec(name, "*[{") for name in _LATEX_HEADINGS], prepend=True
    )
    return context


_LATEX_CONTEXT = _latex_context()


def latex_handout(text: str) -> Handout:
    walker = LatexWalker(text, latex_context=_LATEX_CONTEXT, tolerant_parsing=True)
    nodes, _, _ = walker.get_latex_nodes()
    title = ""
    for node in nodes:
        if isinstance(node, LatexMacroNode) and node.macroname == "title":
            title = _argument_text(node)
    body = next(
        (n.nodelist for n in nodes
         if isinstance(n, LatexEnvironmentNode) and n.environmentname == "document"),
        nodes,
    )  # fmt: skip
    walker = _LatexLines()
    walker.walk(body)
    walker.flush()
    if not title:
        title = next((line.text for line in walker.lines if line.kind == "heading"), "")
    return Handout(title=title, lines=walker.lines)


def _argument_text(node: LatexMacroNode) -> str:
    """The text of a macro's last argument (`\\section*{Tasks}` gives "Tasks")."""
    arguments = [a for a in (node.nodeargd.argnlist if node.nodeargd else []) if a is not None]
    if not arguments:
        return ""
    return " ".join(_LATEX_TEXT.nodelist_to_text([arguments[-1]]).split())


class _LatexLines:
    """Walks pylatexenc's nodes into Lines: running text is gathered and turned into text
    by LatexNodes2Text when a heading, an item, a list or a paragraph break ends it."""

    def __init__(self) -> None:
        self.lines: list[Line] = []
        self.pending: list[LatexNode] = []
        self.depth = 0
        self.in_item = False
        self.item_started = False

    def walk(self, nodes: list[LatexNode]) -> None:
        for node in nodes:
            if isinstance(node, LatexCommentNode):
                continue
            if isinstance(node, LatexMacroNode):
                self._macro(node)
            elif isinstance(node, LatexEnvironmentNode):
                self._environment(node)
            else:
                self.pending.append(node)

    def _macro(self, node: LatexMacroNode) -> None:
        name = node.macroname
        if name in _LATEX_HEADINGS:
            self.flush()
            self.in_item = False
            self.lines.append(Line(_argument_text(node), "heading", _LATEX_HEADINGS[name]))
        elif name == "item":
            self.flush()
            self.in_item, self.item_started = True, False
        elif name in _LATEX_BREAKS:
            self.flush()
        elif name == "\\":
            self.pending.append(_NEWLINE)
        else:
            self.pending.append(node)

    def _environment(self, node: LatexEnvironmentNode) -> None:
        name = node.environmentname
        if name in _LATEX_SKIPPED:
            self.flush()
            return
        if name in _LATEX_LISTS:
            self.flush()
            outer = (self.in_item, self.item_started)
            self.depth += 1
            self.in_item = False
            self.walk(node.nodelist)
            self.flush()
            self.depth -= 1
            self.in_item, self.item_started = outer[0], True
            if self.depth == 0:
                self.in_item = False
                self.lines.append(Line("", "break"))
            return
        self.walk(node.nodelist)

    def flush(self) -> None:
        """The gathered text as lines: an item's first line and the rest of it, or plain
        lines with a break at each blank line."""
        if not self.pending:
            return
        text = "".join(
            "\n" if node is _NEWLINE else _LATEX_TEXT.nodelist_to_text([node])
            for node in self.pending
        )
        self.pending = []
        for paragraph in _BLANK_LINE.split(text):
            rows = [" ".join(row.split()) for row in paragraph.split("\n")]
            rows = [row for row in rows if row]
            if not rows:
                continue
            if self.in_item:
                kind: Kind = "more" if self.item_started else "item"
                self.item_started = True
                self.lines.append(Line(rows[0], kind, self.depth))
                self.lines += [Line(row, "more") for row in rows[1:]]
            else:
                self.lines += [Line(row) for row in rows]
                self.lines.append(Line("", "break"))


_NEWLINE = LatexCommentNode(comment="", comment_post_space="")  # a `\\` line break, marked


# --- HTML -----------------------------------------------------------------------------


def html_handout(text: str) -> Handout:
    reader = _HtmlLines()
    reader.feed(text)
    reader.close()
    reader.end_block()
    title = reader.title or next(
        (line.text for line in reader.lines if line.kind == "heading" and line.depth == 1), ""
    )
    return Handout(title=title, lines=reader.lines)


class _HtmlLines(HTMLParser):
    _HEADINGS: ClassVar[dict[str, int]] = {f"h{n}": n for n in range(1, 7)}
    _BLOCKS = frozenset({"p", "div", "br", "tr", "section", "article", "blockquote", "dd",
                         "dt", "table", "hr", "form", "main", "header", "footer"})  # fmt: skip
    _SKIPPED = frozenset({"script", "style", "svg", "template", "noscript", "pre", "head"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[Line] = []
        self.title = ""
        self.buffer: list[str] = []
        self.kind: Kind = "text"
        self.level = 0
        self.depth = 0
        self.skipping = 0
        self.in_title = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "title":
            self.in_title = True
        elif tag in self._SKIPPED:
            self.skipping += 1
        elif tag in self._HEADINGS:
            self.end_block()
            self.kind, self.level = "heading", self._HEADINGS[tag]
        elif tag in ("ul", "ol"):
            self.end_block()
            self.depth += 1
        elif tag == "li":
            self.end_block()
            self.kind, self.level = "item", self.depth
        elif tag in self._BLOCKS:
            self.end_block()

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self.in_title = False
        elif tag in self._SKIPPED:
            self.skipping = max(0, self.skipping - 1)
        elif tag in ("ul", "ol"):
            self.end_block()
            self.depth = max(0, self.depth - 1)
        elif tag in self._HEADINGS or tag == "li" or tag in self._BLOCKS:
            self.end_block()

    def handle_data(self, data: str) -> None:
        if self.in_title:
            self.title = " ".join((self.title + " " + data).split())
        elif not self.skipping:
            self.buffer.append(data)

    def end_block(self) -> None:
        text = " ".join("".join(self.buffer).split())
        self.buffer = []
        if text:
            if self.kind == "item":
                self.lines.append(Line(text, "item", max(1, self.level)))
            elif self.kind == "heading":
                self.lines.append(Line(text, "heading", self.level))
            else:
                self.lines.append(Line(text))
        if text or self.kind != "text":
            self.lines.append(Line("", "break"))
        # text after a closed item or heading, before the next block, is plain text
        self.kind, self.level = "text", 0
