"""A window of a file's lines, as read_file shows it: at most `limit` lines and
`max_chars` characters, with a header and the exact call that continues.

The model pays for every character it is shown, and a small model pages badly unless told
exactly where to go next, so every read (of text or of a PDF's extracted text) is cut the
same way, streamed so that no line lands in memory whole, and ends with the next call
spelled out.
"""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import islice

from labscribe.tools.base import Answer, ToolError
from labscribe.tools.explorer.line_index import LineIndex
from labscribe.tools.messages import PAST_THE_END

# The model-facing default of read_file's `limit`; the continuation note omits it when unchanged.
DEFAULT_LIMIT = 200
# Unit in which the unread rest of an over-long line is skipped, so memory stays bounded
# (a few MB). Smaller steps cost more per step than they read: 64 K-character steps skip a
# gigabyte without a newline (a sparse file's hole) in 8.5 s, 1 M-character steps in 1.3 s.
_SKIP_CHARS = 1024 * 1024


@dataclass(frozen=True)
class Window:
    """The lines a read shows, and what is known about the rest of the file."""

    lines: list[str]
    next_offset: int  # the first line not shown
    more: bool  # lines remain at next_offset
    by_chars: bool  # the window stopped at max_chars rather than at `limit`
    cut_line: int | None  # index of a shown line that was longer than max_chars and cut
    total: int | None  # line count of the whole file, when known


def text_lines(
    text: io.TextIOWrapper, cap: int, index: LineIndex, first: int
) -> Iterator[tuple[str, bool]]:
    """Yield each line of `text`, which is positioned at the start of line `first`, without
    its newline, cut to `cap` characters, and whether it was cut. Reads are bounded, so a
    file with no newlines never lands in memory whole.

    `first` is a line the index knows or wants (a multiple of its step), so the lines come
    in blocks of `index.step`, and where a block starts that the index lacks, the position
    is recorded on the way: checking per block, not per line, keeps the first pass cheap.
    """
    block_start = first
    while True:
        if block_start == index.next_wanted():
            # tell() fails only for a decoder whose state it cannot capture (none of the
            # stdlib's text codecs, all checked; a third-party one could): the index then
            # stops here, and reads stream past it as they did before there was an index.
            with contextlib.suppress(OSError):
                index.record(block_start, text.tell())
        for _ in range(index.step):
            piece = text.readline(cap + 1)
            if not piece:
                return
            if piece.endswith("\n"):
                yield piece[:-1], False
            elif len(piece) <= cap:
                yield piece, False  # the last line, without a final newline
            else:
                # Longer than cap: skip the rest of the line in bounded steps.
                while True:
                    rest = text.readline(_SKIP_CHARS)
                    if not rest or rest.endswith("\n"):
                        break
                yield piece[:cap], True
        block_start += index.step


def take_window(
    lines: Iterator[tuple[str, bool]],
    offset: int,
    limit: int,
    max_chars: int,
    count_rest: bool,
    first: int = 0,
) -> Window:
    """Skip to line `offset`, then keep lines until `limit` lines or `max_chars` characters.

    `lines` starts at line `first` (at most `offset`). The first line kept is always kept,
    even cut, so every call makes progress. One line past the window is read to learn
    whether more follow; with `count_rest` the rest is counted too (callers allow that only
    when it is cheap).
    """
    skipped = first + sum(1 for _ in islice(lines, offset - first))
    if skipped < offset:
        return Window([], skipped, False, False, None, skipped)
    shown: list[str] = []
    used = 0
    cut_line: int | None = None
    for text, was_cut in lines:
        cost = len(text) + 1  # the newline that joins it to the next line
        if len(shown) == limit or (shown and used + cost > max_chars):
            by_chars = len(shown) < limit
            end = offset + len(shown)
            total = end + 1 + sum(1 for _ in lines) if count_rest else None
            return Window(shown, end, True, by_chars, cut_line, total)
        if was_cut:
            cut_line = offset + len(shown)
        shown.append(text)
        used += cost
    end = offset + len(shown)
    return Window(shown, end, False, False, cut_line, end)


def check_offset(window: Window, name: str, offset: int, limit: int) -> None:
    """Raise ToolError if `offset` was past the last line, saying how many lines there are."""
    if window.lines or window.total is None:
        return
    total = window.total
    last = max(0, total - limit)
    lines = "lines" if total != 1 else "line"
    call = _call(name, last, limit)
    raise ToolError(PAST_THE_END.format(offset=offset, name=name, total=total, lines=lines,
                                        last=total - 1, call=call))  # fmt: skip


def render(
    name: str, window: Window, offset: int, limit: int, max_chars: int, about: str
) -> Answer:
    """Header, lines and continuation note, as the model sees them, and the lines shown."""
    last = offset + len(window.lines)
    of = str(window.total) if window.total is not None else f"≥{last + 1}"
    parts = [f"[{name}: lines {offset + 1}-{last} of {of}{about}]", *window.lines]
    notes: list[str] = []
    if window.cut_line is not None:
        notes.append(
            f"line {window.cut_line + 1} was cut at {max_chars} characters "
            "(the rest of that line cannot be shown)"
        )
    elif window.more:
        notes.append(
            f"truncated at {max_chars} characters" if window.by_chars else "more lines follow"
        )
    if window.more:
        notes.append(f"continue with {_call(name, window.next_offset, limit)}")
    shown = "\n".join(parts)
    if not notes:
        return Answer(shown, (offset + 1, last))
    return Answer(f"{shown}\n[{'; '.join(notes)}]", (offset + 1, last), compared=len(shown))


def _call(name: str, offset: int, limit: int) -> str:
    """The read_file call that reads from `offset`, as the model should write it."""
    extra = f", limit={limit}" if limit != DEFAULT_LIMIT else ""
    return f"read_file(path={json.dumps(name, ensure_ascii=False)}, offset={offset}{extra})"
