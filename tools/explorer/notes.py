"""The experimenters' own notes (a lab diary, a logbook, a README), read to be quoted in the
report as they are: what was done, what went wrong, what was repeated."""

from __future__ import annotations

import os

from pydantic import BaseModel

from labscribe.tools.base import ToolError
from labscribe.tools.explorer.reading import read_part
from labscribe.tools.tool import Folder

NOTE_SUFFIXES = frozenset({".md", ".txt", ".rst", ".org"})
MAX_NOTES = 4
NOTE_LINES = 60
NOTE_CHARS = 1500  # a page of notes: what a report quotes, not a whole diary


class Note(BaseModel):
    path: str
    text: str
    """The note's opening, at most NOTE_CHARS, as written (any encoding, decoded)."""
    cut: bool = False
    """More of the note follows in the file."""


def read_notes(folder: Folder, candidates: list[str]) -> list[Note]:
    """The opening of each of `candidates` (paths of documents that are neither the
    assignment nor a table nor a parameter file), at most MAX_NOTES; a file that cannot be
    read is left out."""
    notes: list[Note] = []
    for rel in candidates:
        if len(notes) >= MAX_NOTES:
            break
        if os.path.splitext(rel)[1].lower() not in NOTE_SUFFIXES:
            continue
        try:
            target = folder.resolve(rel)
            # the header dropped below is one line only if the name shown in it is
            shown_name = " ".join(rel.split())
            answer = read_part(target, 0, NOTE_LINES, NOTE_CHARS, display_name=shown_name,
                               fd=folder.open(target))  # fmt: skip
        except ToolError:
            continue
        # as read_file shows it: a header line, the lines, and a note when more follows
        cut = answer.compared is not None
        shown = answer.text[: answer.compared] if cut else answer.text
        text = shown.partition("\n")[2].strip()
        if text:
            notes.append(Note(path=rel, text=text, cut=cut))
    return notes
