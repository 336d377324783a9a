"""Output checks for the writer: a complete LaTeX document, with no tool-call markup in it."""

from __future__ import annotations

import re
import zlib

from labscribe.guards.messages import (
    BODY_TOO_SHORT,
    DOCUMENT_TWICE,
    NO_DOCUMENT_BODY,
    NO_DOCUMENT_END,
    NO_DOCUMENTCLASS,
    REPEATING_ITSELF,
    TOOL_MARKUP_FOUND,
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
_BEGIN = "\\documentclass"
_END = "\\end{document}"
_BODY_START = "\\begin{document}"
# The \documentclass line: what a complete document starts with, and where preamble goes.
CLASS_LINE = re.compile(r"\\documentclass\s*(\[[^\]]*\])?\s*\{[^}]+\}[^\n]*\n?")
_BODY = re.compile(r"\\begin\{document\}(.*)\\end\{document\}", re.DOTALL)
# The least a report body holds: a title and a few sentences. Shorter is an empty shell
# (a small model once answered "\documentclass.\end{document}").
MIN_BODY_CHARS = 200


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
    anything after `\\end{document}` anyway.
    """
    text = _FENCE.sub("", text.strip())
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
    body = _BODY.search(text)
    if body is None:
        problems.append(NO_DOCUMENT_BODY)
    elif len("".join(body.group(1).split())) < MIN_BODY_CHARS:
        problems.append(BODY_TOO_SHORT.format(chars=MIN_BODY_CHARS))
    markup = find_tool_markup(text)
    if markup:
        problems.append(TOOL_MARKUP_FOUND.format(markup=markup))
    if not text.rstrip().endswith(_END):
        problems.append(NO_DOCUMENT_END)
    if text.count(_END) > 1 or text.count(_BODY_START) > 1:
        # TeX stops at the first \end{document}: what follows it never reaches the PDF.
        problems.append(DOCUMENT_TWICE)
    if is_degenerate(text):
        problems.append(REPEATING_ITSELF)
    return problems
