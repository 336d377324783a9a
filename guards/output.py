"""Output checks for the writer: a complete LaTeX document, with no tool-call markup in it."""

from __future__ import annotations

import math
import re
import unicodedata
import zlib

from labscribe.guards.messages import (
    BODY_TOO_SHORT,
    DOCUMENT_TWICE,
    NO_DOCUMENT_BODY,
    NO_DOCUMENT_END,
    NO_DOCUMENTCLASS,
    REPEATING_ITSELF,
    TOOL_MARKUP_FOUND,
    TYPESETS_TOO_LITTLE,
)

# Markup a model emits when it tries to call tools it was not given: DeepSeek's DSML and
# its <｜tool▁calls▁begin｜> family (full-width bars or ASCII bars, ▁ or _), OpenAI-style
# `tool_calls` keys, Hermes/Qwen <tool_call> tags, and reasoning <think> blocks.
TOOL_MARKUP = re.compile(
    r"DSML"
    r"|<\s*[|｜]\s*tool[▁_ ]?(?:calls?|outputs?)[▁_ ]?(?:begin|end)\s*[|｜]\s*>"
    r"|<\s*[|｜]\s*tool[▁_ ]?sep\s*[|｜]\s*>"
    r"|\btool_calls\b"
    r"|</?\s*tool_call\s*>"
    r"|</?\s*think\s*>"
    r"|</?\s*function_calls\s*>",
    re.IGNORECASE,
)
# A model that has collapsed into repeating itself writes text that compresses far better
# than prose or LaTeX ever does: measured ratios are ~0.45-0.55 for reports and tables of
# numbers, ~0.02 for a small model's looping output.
DEGENERATE_RATIO = 0.12
DEGENERATE_WINDOW = 3_000  # characters, from the end: where a loop shows first
DEGENERATE_MIN = 1_000  # shorter text is never judged

_FENCE = re.compile(r"^\s*```[a-zA-Z]*\s*\n|\n\s*```\s*$")
# What TeX refuses in a source ("Text line contains an invalid character"), and the form feed
# it reads as an \outer \par, fatal inside any argument: C0 controls but tab, line feed and
# carriage return, and DEL. A model that copies them from the data never means them.
_REFUSED_BY_TEX = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_BEGIN = "\\documentclass"
_END = "\\end{document}"
_BODY_START = "\\begin{document}"
# Every spelling that ends the document: TeX skips spaces after a command name, and
# \enddocument is what \end{document} runs.
_ENDS = re.compile(r"\\end\s*\{\s*document\s*\}|\\enddocument(?![A-Za-z@])")
# The \documentclass line: what a complete document starts with, and where preamble goes.
# Patterns on a model's text stop where the next opening of their kind starts (`[^[\]]`,
# `[^{}]`): 10,000 unclosed `\documentclass[` cost one pass, not 10,000.
CLASS_LINE = re.compile(r"\\documentclass\s*(\[[^\[\]]*\])?\s*\{[^{}]+\}[^\n]*\n?")
# The least a report body holds: a title and a few sentences. Shorter is an empty shell
# (a small model once answered "\documentclass.\end{document}").
MIN_BODY_CHARS = 200

# What a body's words are, for judging what its PDF shows: comments dropped, the arguments
# of commands that take names rather than text (environments, labels, keys, files, options)
# dropped, command names dropped. Words shorter than 4 letters are too common to tell.
_COMMENT = re.compile(r"(?<!\\)%[^\n]*")
_NAME_ARGUMENT = re.compile(
    r"\\(?:begin|end|label|ref|eqref|pageref|autoref|cref|Cref|cite[a-zA-Z]*|nocite"
    r"|includegraphics|input|include|usepackage|bibliography|bibliographystyle|setlength"
    r"|addtolength|setcounter|color|definecolor|hypersetup|vspace|hspace)\*?"
    r"\s*(?:\[[^\[\]]*\]\s*)*\{[^{}]*\}"
)
_COMMAND_NAME = re.compile(r"\\(?:[A-Za-z@]+\*?|.)")
_WORD = re.compile(r"[^\W_]{4,}")
_NOT_WORD = re.compile(r"[\W_]+")
# A report's body shows nearly all its words; unit macros, column specifications and the
# like make the few that never reach the page. A body hidden from TeX (\iffalse, a box
# never shipped out, an early end of the document) shows almost none of them.
MIN_TYPESET_SHARE = 0.5
TYPESET_SAMPLE = 400  # distinct words checked, evenly spread over the body: bounded cost


def find_tool_markup(text: str) -> str | None:
    """The first piece of tool-call markup in `text`, or None."""
    match = TOOL_MARKUP.search(text)
    return match.group(0) if match else None


def add_to_preamble(tex: str, lines: str) -> str:
    """`tex` with `lines` right after its \\documentclass line (unchanged if it has none)."""
    line = CLASS_LINE.search(tex)
    return tex if line is None else tex[: line.end()] + lines + tex[line.end() :]


def is_degenerate(text: str) -> bool:
    """Whether the end of `text` is the model repeating itself rather than writing."""
    tail = text[-DEGENERATE_WINDOW:].encode("utf-8")
    if len(tail) < DEGENERATE_MIN:
        return False
    return len(zlib.compress(tail, 9)) / len(tail) < DEGENERATE_RATIO


def tidy_latex(text: str) -> str:
    """Strip what surrounds a LaTeX document in a chat reply: fences, leading prose, trailing chat.

    Only text outside `\\documentclass ... \\end{document}` is removed; LaTeX ignores
    anything after `\\end{document}` anyway. Inside, control characters TeX refuses are
    dropped.
    """
    text = _REFUSED_BY_TEX.sub("", _FENCE.sub("", text.strip()))
    start = text.find(_BEGIN)
    if start > 0:
        text = text[start:]
    end = text.rfind(_END)
    if end >= 0:
        text = text[: end + len(_END)]
    return text.strip() + "\n"


def latex_problems(text: str) -> list[str]:
    """Why `text` is not an acceptable report; empty when it is."""
    problems = []
    if not CLASS_LINE.search(text):
        problems.append(NO_DOCUMENTCLASS)
    body = document_body(text)
    if body is None:
        problems.append(NO_DOCUMENT_BODY)
    elif len("".join(plain_text(body).split())) < MIN_BODY_CHARS:
        problems.append(BODY_TOO_SHORT.format(chars=MIN_BODY_CHARS))
    markup = find_tool_markup(text)
    if markup:
        problems.append(TOOL_MARKUP_FOUND.format(markup=markup))
    if not text.rstrip().endswith(_END):
        problems.append(NO_DOCUMENT_END)
    if len(_ENDS.findall(text)) > 1 or text.count(_BODY_START) > 1:
        # TeX stops at the first \end{document}: what follows it never reaches the PDF.
        problems.append(DOCUMENT_TWICE)
    if is_degenerate(text):
        problems.append(REPEATING_ITSELF)
    return problems


def document_body(tex: str) -> str | None:
    """What lies between the first `\\begin{document}` and the last `\\end{document}`, or
    None without both."""
    start, end = tex.find(_BODY_START), tex.rfind(_END)
    return tex[start + len(_BODY_START) : end] if -1 < start < end else None


def plain_text(tex: str) -> str:
    """The text `tex` would print, roughly: comments, commands and their name arguments
    removed. A first filter only: what a document really prints, its PDF shows."""
    return _COMMAND_NAME.sub(" ", _NAME_ARGUMENT.sub(" ", _COMMENT.sub("", tex)))


def typeset_problems(tex: str, typeset: str) -> list[str]:
    """Why the PDF text `typeset` does not show the body of `tex`; empty when it does.

    A sample of the body's distinct words must be found in the PDF's text, compared with
    case, ligatures, spacing and hyphenation at line ends ignored."""
    body = document_body(tex)
    words = dict.fromkeys(_squashed(word) for word in _WORD.findall(plain_text(body or tex)))
    sample = list(words)[:: max(1, math.ceil(len(words) / TYPESET_SAMPLE))]
    page = _squashed(typeset)
    found = sum(word in page for word in sample)
    if found >= MIN_TYPESET_SHARE * len(sample):
        return []
    return [TYPESETS_TOO_LITTLE.format(found=found, checked=len(sample))]


def _squashed(text: str) -> str:
    return _NOT_WORD.sub("", unicodedata.normalize("NFKC", text).casefold())
