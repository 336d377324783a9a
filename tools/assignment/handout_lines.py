"""The lines of a handout as its reader sees them, whatever markup it was written in: the
shape tools/assignment/handout_markup.py (and its LaTeX and HTML readers) give to
tools/assignment/handout_units.py."""

from __future__ import annotations

from typing import Literal, NamedTuple

Kind = Literal["heading", "item", "more", "break", "text"]


class Line(NamedTuple):
    """One line of a handout as its reader sees it. `kind` says what markup made it: a
    "heading"; the first line of a list "item" (nested `depth` deep, 1 for a top-level
    list); "more" of the item or paragraph before; a "break" between blocks; or plain
    "text", whose role tools/assignment/tasks.py tells by its own reading."""

    text: str
    kind: Kind = "text"
    depth: int = 0
    mark: str = ""
    """The label a list gives its "item" as written: the number of an ordered list ("3" of
    `3.`, `<li>` or `\\item`), an item's own (`\\item[(a)]`); "" in a bullet list."""


class Handout(NamedTuple):
    title: str
    """The title the markup gives (`\\title{}`, `<title>`, a front matter's `title:`, the
    first top-level heading); "" when it gives none."""
    lines: list[Line]
