"""A handout in LaTeX as lines (tools/assignment/handout_lines.py): pylatexenc's walker gives its
structure (sections, `\\item`s, environments; comments and floats dropped) and its
LatexNodes2Text the text each prints (`$a_{th}$` is "a_th")."""

from __future__ import annotations

import re
from functools import lru_cache

from pylatexenc.latex2text import LatexNodes2Text, MacroTextSpec
from pylatexenc.latex2text import get_default_latex_context_db as get_default_text_context_db
from pylatexenc.latexwalker import (
    LatexCommentNode,
    LatexEnvironmentNode,
    LatexMacroNode,
    LatexNode,
    LatexWalker,
    get_default_latex_context_db,
)
from pylatexenc.macrospec import MacroSpec

from labscribe.tools.assignment.handout_lines import Handout, Kind, Line

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
# `$...$` in Markdown and plain text is LaTeX math (MyST, Jupyter, GitHub): read as text.
# One way to match a run of non-dollars keeps this linear.
INLINE_MATH = re.compile(r"\$\$?([^$\n]+)\$\$?")
MAX_MATH = 200  # `$...$` spans read as text per paragraph; the rest stay as written
_FRACTIONS = ("frac", "dfrac", "tfrac", "cfrac")
# siunitx's quantities print their number and unit: `\\SI{589.3}{nm}` is "589.3 nm"
_QUANTITIES = {"SI": "[{{", "qty": "[{{", "si": "[{", "num": "[{"}
# siunitx's units and prefixes as their symbols: `\SI{589.3}{\nano\metre}` is "589.3 nm".
_SIUNITX = {
    "yocto": "y", "nano": "n", "micro": "µ", "milli": "m", "centi": "c", "kilo": "k",
    "mega": "M", "giga": "G", "pico": "p", "femto": "f", "metre": "m", "meter": "m",
    "second": "s", "gram": "g", "ampere": "A", "kelvin": "K", "mole": "mol", "hertz": "Hz",
    "newton": "N", "pascal": "Pa", "joule": "J", "watt": "W", "coulomb": "C", "volt": "V",
    "farad": "F", "ohm": "Ω", "siemens": "S", "tesla": "T", "henry": "H", "litre": "L",
    "liter": "L", "degreeCelsius": "°C", "celsius": "°C", "electronvolt": "eV",
    "minute": "min", "hour": "h", "degree": "°", "radian": "rad", "percent": "%", "per": "/",
    "squared": "²", "cubed": "³",
}  # fmt: skip
# A fraction's side that is one symbol or number needs no brackets around it: `1/2`, `a/b`.
_ONE_TERM = re.compile(r"[^\W\d](?:_\w+)?|\d+(?:[.,]\d+)?")


def _fraction(node: LatexMacroNode, l2tobj: LatexNodes2Text) -> str:
    """`\\frac{p\\,q}{p+q}` as "(p q)/(p+q)": as plain text, each side in brackets unless it
    is one term, so that the fraction keeps its meaning."""
    sides = [l2tobj.nodelist_to_text([arg]).strip() if arg is not None else ""
             for arg in node.nodeargd.argnlist[-2:]]  # fmt: skip
    return "/".join(side if _ONE_TERM.fullmatch(side) else f"({side})" for side in sides)


def _latex_context():  # type: ignore[no-untyped-def]
    """pylatexenc's macros, with every sectioning command taking its star (`\\part*{}`), and
    the fractions and siunitx quantities pylatexenc does not know taking their arguments."""
    context = get_default_latex_context_db()
    macros = [MacroSpec(name, "*[{") for name in _LATEX_HEADINGS]
    macros += [MacroSpec(name, "{{") for name in _FRACTIONS[1:]]
    macros += [MacroSpec(name, arguments) for name, arguments in _QUANTITIES.items()]
    context.add_context_category("handout", macros=macros, prepend=True)
    return context


def _text_context():  # type: ignore[no-untyped-def]
    context = get_default_text_context_db()
    quantities = [
        MacroTextSpec(name, simplify_repl="%(2)s %(3)s" if len(arguments) == 3 else "%(2)s")
        for name, arguments in _QUANTITIES.items()
    ]
    units = [MacroTextSpec(name, simplify_repl=symbol) for name, symbol in _SIUNITX.items()]
    context.add_context_category(
        "handout",
        macros=[MacroTextSpec(name, simplify_repl=_fraction) for name in _FRACTIONS]
        + quantities
        + units,
        prepend=True,
    )
    return context


_LATEX_CONTEXT = _latex_context()
_LATEX_TEXT = LatexNodes2Text(
    math_mode="text", strict_latex_spaces=False, latex_context=_text_context()
)


@lru_cache(maxsize=4096)
def latex_text(source: str) -> str:
    """LaTeX source as the text it prints (`a_{th}=g\\sin\\alpha` is "a_th=g sinα")."""
    try:
        printed = _LATEX_TEXT.latex_to_text(source, latex_context=_LATEX_CONTEXT)
    except (RecursionError, ValueError, IndexError, AttributeError, TypeError):
        return source
    return " ".join(printed.split())


def inline_math_text(text: str) -> str:
    """`text` with its `$...$` spans as the text they print (`$U_{34}$` is "U_34")."""
    return INLINE_MATH.sub(lambda m: latex_text(m.group(1)), text, count=MAX_MATH)


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
        self.numbers: list[int | None] = []  # per open list: the next item's number, if enumerate
        self.mark = ""

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
            number = self.numbers[-1] if self.numbers else None
            if number is not None:
                self.numbers[-1] = number + 1
            # `\item[(a)]` gives its own label, counted or not
            self.mark = _argument_text(node) or ("" if number is None else str(number))
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
            self.numbers.append(1 if name.startswith("enumerate") else None)
            self.walk(node.nodelist)
            self.flush()
            self.numbers.pop()
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
                self.lines.append(
                    Line(rows[0], kind, self.depth, self.mark if kind == "item" else "")
                )
                self.lines += [Line(row, "more") for row in rows[1:]]
            else:
                self.lines += [Line(row) for row in rows]
                self.lines.append(Line("", "break"))


_NEWLINE = LatexCommentNode(comment="", comment_post_space="")  # a `\\` line break, marked
