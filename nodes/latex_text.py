"""Text made safe for LaTeX, and the blocks a generated report is built from.

Everything here compiles with xelatex's default Latin Modern fonts, which have Latin-1 but
lack Greek and most other symbols: those are set in math mode, where Latin Modern Math has
them, so a unit in Ω or a note with → costs no missing-character warning (and no fix
round). Chinese text is left as it is: the compile step loads xeCJK when there is any.

`escape_latex` is the one way text from data or a model enters the LaTeX labscribe writes.
Whatever the text holds, the result compiles and says what the text said: a character that
would act rather than print (a control, a bidi override, a zero-width format character) or
that no font of the report has (emoji, dingbats) is written visibly as `\\uXXXX`, as the
terminal writes it; line breaks become spaces, so a blank line is no paragraph break (one
inside a caption or a table cell stops the compile); and a long token may break.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from itertools import chain, cycle, repeat

from labscribe.guards.output import find_tool_markup
from labscribe.tools.sandbox.latex import CJK

_SPECIALS = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
    "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
}  # fmt: skip
# Latin-1 (±, °, µ, ×, ², Å ...) is in Latin Modern; these are not.
_MATH = {
    "−": "-", "→": r"\rightarrow", "←": r"\leftarrow", "↔": r"\leftrightarrow",
    "⇒": r"\Rightarrow", "≈": r"\approx", "≤": r"\leq", "≥": r"\geq", "≠": r"\neq",
    "√": r"\surd", "∞": r"\infty", "∝": r"\propto", "∆": r"\Delta", "∑": r"\sum",
    "∫": r"\int", "∂": r"\partial", "℃": r"^\circ\mathrm{C}", "⁻": "^-", "∼": r"\sim",
    "⋅": r"\cdot", "∠": r"\angle", "′": r"'", "″": r"''", "⊥": r"\perp", "∥": r"\parallel",
    "∓": r"\mp", "≪": r"\ll", "≫": r"\gg", "∇": r"\nabla", "≡": r"\equiv", "∈": r"\in",
    "⟨": r"\langle", "⟩": r"\rangle",
}  # fmt: skip
_GREEK_NAME = re.compile(r"GREEK (?P<case>SMALL|CAPITAL) LETTER (?P<letter>(?:FINAL )?[A-Z]+)")
_SPELLED = {"LAMDA": "LAMBDA", "FINAL SIGMA": "SIGMA"}  # Unicode's spelling, LaTeX's
_LOOKALIKE = {"Alpha": "A", "Beta": "B", "Epsilon": "E", "Zeta": "Z", "Eta": "H", "Iota": "I",
              "Kappa": "K", "Mu": "M", "Nu": "N", "Omicron": "O", "Rho": "P", "Tau": "T",
              "Chi": "X"}  # fmt: skip
_GREEK_UPRIGHT = {"Gamma", "Delta", "Theta", "Lambda", "Xi", "Pi", "Sigma", "Upsilon", "Phi",
                  "Psi", "Omega"}  # fmt: skip


# A token longer than any word (a hash, a path, a name of 10,000 letters) may break every
# BREAK_EVERY characters, so it wraps in its column rather than running off the page. Words
# are left whole: TeX hyphenates them where they should break.
LONG_TOKEN = 40
BREAK_EVERY = 20
# A break that ends its line ragged (\hfil), and is nothing where no break is taken (\hfil
# and \hfilneg cancel): a line of one token has no space to stretch, so a bare
# \allowbreak there leaves it overfull, off the page.
_BREAK = r"\hfil\penalty0\hfilneg{}"
_SPACES = re.compile(r"(\s+)")
# Symbols the report's fonts have: ASCII's, Latin-1's, and those of the punctuation,
# letterlike, number-form and arrow blocks (most of which Latin Modern has); CJK symbols
# print in the CJK font. Other symbols (emoji, dingbats, pictographs) are in no font the
# report loads.
_PRINTED_SYMBOLS = (" ", "\u00ff"), ("\u2000", "\u21ff")
# Variation selectors only choose how the character before them is drawn (an emoji's colour).
_SELECTORS = ("\ufe00", "\ufe0f"), ("\U000e0100", "\U000e01ef")


def escape_latex(text: str) -> str:
    """`text` as LaTeX that prints it, inline: specials made literal, Greek letters and
    symbols set in math mode, line breaks as spaces (a blank line too), controls and
    characters no font has as visible `\\uXXXX`, long tokens breakable, and any
    tool-call markup the material quotes broken by an empty group (`D{}SML` prints as
    DSML), so quoting it never fails the output checks."""
    escaped = "".join(_breakable(piece) for piece in _SPACES.split(text) if piece)
    while markup := find_tool_markup(escaped):
        escaped = escaped.replace(markup, f"{markup[0]}{{}}{markup[1:]}")
    return escaped


def _breakable(token: str) -> str:
    if len(token) <= LONG_TOKEN or token.isspace():
        return _escaped(token)
    pieces = (token[at : at + BREAK_EVERY] for at in range(0, len(token), BREAK_EVERY))
    return _BREAK.join(_escaped(piece) for piece in pieces)


# A negative power in superscripts (`10⁻²³`): Latin Modern has ¹²³ but no ⁻, so the whole
# exponent is set in math, one superscript, not a minus beside raised digits.
_NEGATIVE_POWER = re.compile(r"⁻([⁰¹²³⁴⁵⁶⁷⁸⁹]+)")
_SUPERSCRIPT_DIGITS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")


def _escaped(text: str) -> str:
    parts = _NEGATIVE_POWER.split(text)  # text, digits, text, digits, ...
    return "".join(
        f"\\ensuremath{{^{{-{part.translate(_SUPERSCRIPT_DIGITS)}}}}}" if odd
        else "".join(_escape_char(char) for char in part)
        for odd, part in zip(cycle((False, True)), parts)
    )  # fmt: skip


def _escape_char(char: str) -> str:
    if char.isspace():  # a line break is a space: two in a row would be a \par
        return char if unicodedata.category(char) == "Zs" else " "
    if char in _SPECIALS:
        return _SPECIALS[char]
    if char in _MATH:
        return f"\\ensuremath{{{_MATH[char]}}}"
    if "\u0370" <= char <= "\u03ff" and (greek := _greek(char)):
        return f"\\ensuremath{{{greek}}}"
    return _visible(char) if _unprintable(char) else char


def _unprintable(char: str) -> bool:
    """A control, format, private-use, unassigned or surrogate character (it acts, or has
    no glyph), or a symbol none of the report's fonts has."""
    kind = unicodedata.category(char)
    if kind[0] == "C" or any(low <= char <= high for low, high in _SELECTORS):
        return True
    return (
        kind[0] == "S"
        and not any(low <= char <= high for low, high in _PRINTED_SYMBOLS)
        and not CJK.match(char)
    )


def _visible(char: str) -> str:
    """`\\u202e` for U+202E, as the terminal shows it (graph/terminal.py)."""
    return _SPECIALS["\\"] + f"u{ord(char):04x}"


def _greek(char: str) -> str | None:
    """`\\alpha` for α (and for ά, its accent dropped), `\\Omega` for Ω, a capital with no
    command of its own (Α) as the Latin letter it looks like; None for a Greek sign."""
    plain = unicodedata.normalize("NFD", char)[0]
    found = _GREEK_NAME.fullmatch(unicodedata.name(plain, ""))
    if found is None:
        return None
    letter = _SPELLED.get(found["letter"], found["letter"]).capitalize()
    if found["case"] == "SMALL":
        return "o" if letter == "Omicron" else f"\\{letter.lower()}"
    if letter in _GREEK_UPRIGHT:
        return f"\\{letter}"
    return f"\\mathrm{{{_LOOKALIKE.get(letter, 'X')}}}"


def section(title: str, body: str) -> str:
    return f"\\section{{{escape_latex(title)}}}\n{body}"


def paragraphs(*texts: str) -> str:
    return "\n\n".join(escape_latex(text) for text in texts if text)


def itemize(items: Sequence[str]) -> str:
    lines = "\n".join(f"  \\item {escape_latex(item)}" for item in items)
    return f"\\begin{{itemize}}\n{lines}\n\\end{{itemize}}"


def quoted(text: str) -> str:
    """`text` as written, line by line, in a quote: its paragraphs kept, its lines kept."""
    blocks = [block.strip("\n") for block in re.split(r"\n\s*\n", text) if block.strip()]
    body = "\n\n".join(
        "\\\\{}\n".join(escape_latex(line.strip()) for line in block.splitlines() if line.strip())
        for block in blocks
    )
    return f"\\begin{{quote}}\\small\n{body}\n\\end{{quote}}"


def table(
    header: Sequence[str],
    rows: Sequence[Sequence[str] | Group],
    widths: Sequence[float] | None = None,
    caption: str = "",
) -> str:
    """A booktabs longtable (it breaks across pages) of escaped cells; `widths` as shares of
    the line for wrapping columns, else every column as wide as its text."""
    if widths:
        spec = "".join(
            f">{{\\raggedright\\arraybackslash}}p{{{share:.2f}\\linewidth}}" for share in widths
        )
    else:
        spec = "l" * len(header)
    head = " & ".join(f"\\textbf{{{_cell(cell)}}}" for cell in header)
    limits = [max(MAX_CELL_CHARS, int(MAX_CELL_CHARS * share / NARROW_SHARE))
              for share in widths or [NARROW_SHARE] * len(header)]  # fmt: skip
    body = "\n".join(_row(row, limits) for row in rows)
    title = f"\\caption{{{escape_latex(caption)}}}\\\\\n" if caption else ""
    return (
        f"\\begin{{longtable}}{{{spec}}}\n{title}\\toprule\n{head} \\\\\n\\midrule\n\\endhead\n"
        f"{body}\n\\bottomrule\n\\end{{longtable}}"
    )


# A longtable breaks between rows, never inside one: a row taller than a page runs off it.
# A cell of this many characters (an assignment's longest task, tools/assignment/handout_tasks.py)
# fills some
# 45 lines of the narrowest text column (NARROW_SHARE of the line), under a page, and a
# wider column as many lines with more; the rest of a longer value (a column named by
# 10,000 letters) is left to the data file, and the cell says so.
MAX_CELL_CHARS = 600
NARROW_SHARE = 0.17
CELL_CUT = " … ({more} more characters)"


class Group(str):
    """A row of `table` that heads the rows after it, across all columns."""


def _row(row: Sequence[str] | Group, limits: list[int]) -> str:
    if isinstance(row, Group):
        return f"\\multicolumn{{{len(limits)}}}{{l}}{{\\textit{{{_cell(row)}}}}} \\\\"
    # names_like_these may break after an underscore in a narrow column
    cells = (
        _cell(cell, limit).replace(r"\_", r"\_\allowbreak{}")
        for cell, limit in zip(row, chain(limits, repeat(MAX_CELL_CHARS)), strict=False)
    )
    return " & ".join(cells) + r" \\"


def _cell(text: str, limit: int = MAX_CELL_CHARS) -> str:
    """`text` escaped, cut to `limit` characters with a note of what was left out."""
    if len(text) <= limit:
        return escape_latex(text)
    return escape_latex(text[:limit] + CELL_CUT.format(more=len(text) - limit))


def figure(path: str, caption: str) -> str:
    return (
        "\\begin{figure}[htbp]\n\\centering\n"
        f"\\includegraphics[width=0.75\\linewidth]{{{path}}}\n"
        f"\\caption{{{escape_latex(caption)}}}\n\\end{{figure}}"
    )


def boxed(text: str) -> str:
    return f"\\noindent\\fbox{{\\parbox{{\\dimexpr\\linewidth-2\\fboxsep\\relax}}{{{text}}}}}"
