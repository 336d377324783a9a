"""Graphics: every \\includegraphics target exists, and graphicx is loaded when one is used."""

from __future__ import annotations

import re
from collections.abc import Collection

from labscribe.guards.output import add_to_preamble

# Each pattern stops where the next opening of its kind starts: linear on any draft.
INCLUDE = re.compile(r"\\includegraphics\s*(\[[^\[\]]*\])?\s*\{([^{}]*)\}")
FIGURE = re.compile(
    r"\\begin\{figure\*?\}(?:(?!\\begin\{figure).)*?\\end\{figure\*?\}\s*", re.DOTALL
)
GRAPHICX = "\\usepackage{graphicx}\n"


def resolve_graphics(report: str, available: Collection[str]) -> tuple[str, list[str], list[str]]:
    """(`report` with only existing targets, targets kept, targets removed).

    A target matches with or without its extension ("figures/a" is "figures/a.png").
    """
    stems = {_stem(path): path for path in available}
    kept: list[str] = []
    removed: list[str] = []

    def replace(include: re.Match[str]) -> str:
        target = include.group(2).strip()
        path = stems.get(_stem(target))
        if path is None:
            removed.append(target)
            return ""
        kept.append(path)
        return f"\\includegraphics{include.group(1) or ''}{{{path}}}"

    def drop_empty(figure: re.Match[str]) -> str:
        """A figure environment whose every graphic is missing goes whole, caption and all."""
        targets = [m.group(2).strip() for m in INCLUDE.finditer(figure.group(0))]
        if targets and all(_stem(t) not in stems for t in targets):
            removed.extend(targets)
            return ""
        return figure.group(0)

    text = INCLUDE.sub(replace, FIGURE.sub(drop_empty, report))
    if kept and "graphicx" not in text:
        text = add_to_preamble(text, GRAPHICX)
    return text, kept, removed


def _stem(path: str) -> str:
    path = path.strip().removeprefix("./")
    return path.rsplit(".", 1)[0] if "." in path.rsplit("/", 1)[-1] else path
