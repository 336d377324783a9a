"""The one writer of everything labscribe prints: messages, the progress bar, JSON lines,
the batch table and errors.

What it prints comes from data and from models (folder and file names, a file's text, a
model's reply or tool call), and a terminal acts on control characters: an ESC sequence
clears the screen or sets the window title, a carriage return overwrites the line, a bidi
override reorders what the reader sees. So every control character but newline and tab is
written as a `\\uXXXX` escape: it shows, it does not act. In a JSON line that escape is the
same JSON, so `--json` output keeps its values.
"""

from __future__ import annotations

import re
import sys
from typing import TextIO

# C0 but tab and newline, DEL, C1, and the bidi controls (marks, embeddings, overrides,
# isolates).
_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def escaped(text: str) -> str:
    """`text` with every control character but newline and tab written as `\\uXXXX`."""
    return _CONTROLS.sub(lambda found: f"\\u{ord(found.group()):04x}", text)


def say(text: str, *, file: TextIO | None = None, end: str = "\n", lead: str = "") -> None:
    """Print `text` escaped. `lead` is labscribe's own control (the progress line's
    carriage return), written as it is."""
    print(lead + escaped(text), end=end, file=file or sys.stdout, flush=True)
