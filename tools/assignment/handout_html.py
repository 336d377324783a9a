"""A handout in HTML as lines (tools/assignment/handout_lines.py), read by the standard library's
parser: its title, headings, list items and blocks of text; scripts, styles and code
dropped."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import ClassVar

from labscribe.tools.assignment.handout_lines import Handout, Kind, Line


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
        self.numbers: list[int | None] = []  # per open list: the next item's number, if <ol>
        self.mark = ""
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
            start = dict(attrs).get("start") or "1"
            self.numbers.append(int(start) if tag == "ol" and start.isdigit() else None)
        elif tag == "li":
            self.end_block()
            self.kind, self.level = "item", self.depth
            number = self.numbers[-1] if self.numbers else None
            self.mark = "" if number is None else str(number)
            if number is not None:
                self.numbers[-1] = number + 1
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
            if self.numbers:
                self.numbers.pop()
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
                self.lines.append(Line(text, "item", max(1, self.level), self.mark))
            elif self.kind == "heading":
                self.lines.append(Line(text, "heading", self.level))
            else:
                self.lines.append(Line(text))
        if text or self.kind != "text":
            self.lines.append(Line("", "break"))
        # text after a closed item or heading, before the next block, is plain text
        self.kind, self.level = "text", 0
