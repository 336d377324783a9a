"""Text made safe for LaTeX, and the blocks a generated report is built from.

Everything here compiles with xelatex's default Latin Modern fonts, which have Latin-1 but
lack Greek and most other symbols: those are set in math mode, where Latin Modern Math has
them, so a unit in Ω or a note with → costs no missing-character warning (and no fix
round). Chinese text is left as it is: the compile step loads xeCJK when there is any.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from labscribe.guards.output import find_tool_markup

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
    "⋅": r"\cdot", "∠": r"\angle", "′": r"'", "″": r"''",
}  # fmt: skip
_GREEK_NAME = re.compile(r"GREEK (?P<case>SMALL|CAPITAL) LETTER (?P<letter>(?:FINAL )?[A-Z]+)")
_SPELLED = {"LAMDA": "LAMBDA", "FINAL SIGMA": "SIGMA"}  # Unicode's spelling, LaTeX's
_LOOKALIKE = {"Alpha": "A", "Beta": "B", "Epsilon": "E", "Zeta": "Z", "Eta": "H", "Iota": "I",
              "Kappa": "K", "Mu": "M", "Nu": "N", "Omicron": "O", "Rho": "P", "Tau": "T",
              "Chi": "X"}  # fmt: skip
_GREEK_UPRIGHT = {"Gamma", "Delta", "Theta", "Lambda", "Xi", "Pi", "Sigma", "Upsilon", "Phi",
                  "Psi", "Omega"}  # fmt: skip


def escape_latex(text: str) -> str:
    """`text` as LaTeX that prints it: specials made literal, Greek letters and symbols
    set in math mode, and any tool-call markup the material quotes broken by an empty
    group (`D{}SML` prints as DSML), so quoting it never fails the output checks."""
    escaped = "".join(_escape_char(char) for char in text)
    while markup := find_tool_markup(escaped):
        escaped = escaped.replace(markup, f"{markup[0]}{{}}{markup[1:]}")
    return escaped


def _escape_char(char: str) -> str:
    if char in _SPECIALS:
        return _SPECIALS[char]
    if char in _MATH:
        return f"\\ensuremath{{{_MATH[char]}}}"
    greek = _greek(char) if "\u0370" <= char <= "\u03ff" else None
    return f"\\ensuremath{{{greek}}}" if greek else char


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
    head = " & ".join(f"\\textbf{{{escape_latex(cell)}}}" for cell in header)
    body = "\n".join(_row(row, len(header)) for row in rows)
    title = f"\\caption{{{escape_latex(caption)}}}\\\\\n" if caption else ""
    return (
        f"\\begin{{longtable}}{{{spec}}}\n{title}\\toprule\n{head} \\\\\n\\midrule\n\\endhead\n"
        f"{body}\n\\bottomrule\n\\end{{longtable}}"
    )


class Group(str):
    """A row of `table` that heads the rows after it, across all columns."""


def _row(row: Sequence[str] | Group, columns: int) -> str:
    if isinstance(row, Group):
        return f"\\multicolumn{{{columns}}}{{l}}{{\\textit{{{escape_latex(row)}}}}} \\\\"
    # names_like_these may break after an underscore in a narrow column
    cells = (escape_latex(cell).replace(r"\_", r"\_\allowbreak{}") for cell in row)
    return " & ".join(cells) + r" \\"


def figure(path: str, caption: str) -> str:
    return (
        "\\begin{figure}[htbp]\n\\centering\n"
        f"\\includegraphics[width=0.75\\linewidth]{{{path}}}\n"
        f"\\caption{{{escape_latex(caption)}}}\n\\end{{figure}}"
    )


def boxed(text: str) -> str:
    return f"\\noindent\\fbox{{\\parbox{{\\dimexpr\\linewidth-2\\fboxsep\\relax}}{{{text}}}}}"
