"""Backend of the explorer's `read_file` tool: one bounded window of a file's text.

Any file in the data folder may be huge, oddly encoded, a PDF or not text at all, and
the model pays for every character it is shown. So a read streams only the lines it
needs, detects the encoding from a bounded prefix (`encoding`), and always tells the model
exactly how to continue (`text_window`); a PDF is read as its extracted text (`pdf_text`).
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

from labscribe.tools.base import Answer, ToolError, cannot_read, human_size, open_regular
from labscribe.tools.explorer.byte_budget import READ_BYTES, READ_LINES, ByteBudget
from labscribe.tools.explorer.line_index import LINE_INDEXES, LineIndex
from labscribe.tools.explorer.text_window import (
    DEFAULT_LIMIT,
    check_offset,
    render,
    take_window,
    text_lines,
)
from labscribe.tools.formats.encoding import SNIFF_BYTES, detect_encoding
from labscribe.tools.formats.pdf_text import PDF_READ_BYTES, PDF_SECONDS, read_pdf
from labscribe.tools.formats.signatures import PDF_SIGNATURE
from labscribe.tools.messages import (
    BEYOND_BUDGET_ERROR,
    HOLE_ERROR,
    HOLE_NOTE,
    LIMIT_TOO_SMALL,
    OFFSET_NEGATIVE,
    PDF_TIMEOUT_ERROR,
)
from labscribe.tools.tool import Folder
from labscribe.tools.worker import answer_in_worker

# A window the explorer can afford per call (roughly 2k tokens); more is one offset away.
READ_CHARS = 7000
# More lines than this never fit in READ_CHARS anyway, so a larger limit is capped, not refused.
MAX_LIMIT = 2000
# Text files up to this size are read to the end so the header can give the line count;
# beyond it, counting would cost time proportional to the file and the header says "≥".
COUNT_BYTES = 1024 * 1024


def read_in(
    folder: Folder, rel: str, limit: int = DEFAULT_LIMIT, max_chars: int = READ_CHARS
) -> str:
    """The first `limit` lines of the file `rel` names in `folder`, read as read_file reads:
    through the path guard and `Folder.open`. Raises ToolError as read_file does."""
    target = folder.resolve(rel)
    return read_part(target, 0, limit, max_chars, display_name=rel, fd=folder.open(target)).text


def read_part(
    path: Path,
    offset: int = 0,
    limit: int = DEFAULT_LIMIT,
    max_chars: int = READ_CHARS,
    display_name: str | None = None,
    *,
    fd: int | None = None,
) -> Answer:
    """Lines [offset, offset + limit) of the text of `path`, and which lines were shown.

    The result starts with a one-line header (name, line range, line count when it was
    cheap to learn, encoding or PDF page count) and, when lines remain, ends with a note
    naming the exact `read_file` call that continues. The lines shown, each counted with
    its newline, stay within `max_chars` characters, except that the first line is always
    shown: cut to `max_chars` characters if it is longer, and the note says so. PDFs are
    read as extracted text with a `--- page N ---` line before each page.

    Memory does not grow with the file's size: lines are streamed, and detection reads
    at most SNIFF_BYTES. Nor does time grow with `offset` once some read has reached it:
    a sparse line index (see line_index) lets later reads of the unchanged file seek near
    it. `display_name` (default: the file's name) is how the header and the note name the
    file; it should be the path the model used.

    `fd`, when given, is `path` already opened (`Folder.open`: checked inside the folder);
    it is read and closed. Without it, `path` is opened here without blocking and refused
    unless it is a regular file.

    Raises ToolError, for the model to read, when the arguments are invalid, the file
    cannot be read, is binary, is an unreadable PDF, or `offset` is past its end.
    """
    name = display_name if display_name is not None else (path.name or str(path))
    if max_chars < 1:
        raise ValueError(f"max_chars must be at least 1, got {max_chars}")
    if offset < 0:
        raise ToolError(OFFSET_NEGATIVE.format(offset=offset))
    if limit < 1:
        raise ToolError(LIMIT_TOO_SMALL.format(limit=limit))
    limit = min(limit, MAX_LIMIT)

    try:
        with os.fdopen(fd if fd is not None else open_regular(path, name), "rb") as raw:
            info = os.fstat(raw.fileno())
            size = info.st_size
            if size == 0:
                return Answer(f"[{name}: empty file (0 bytes)]")
            prefix = raw.read(SNIFF_BYTES)
            raw.seek(0)
            # The file ends where it ended when opened, and one call reads at most its
            # budget: a file that grows, or a hole of gigabytes, cannot hold the read.
            if prefix.startswith(PDF_SIGNATURE):  # pypdf in a worker: it can be made to spin
                pdf = ByteBudget(raw.raw, size, PDF_READ_BYTES, strict=True)
                try:
                    return answer_in_worker(PDF_SECONDS, _pdf_text, io.BufferedReader(pdf),
                                            name, offset, limit, max_chars)  # fmt: skip
                except TimeoutError:
                    stopped = PDF_TIMEOUT_ERROR.format(name=name, seconds=PDF_SECONDS)
                    raise ToolError(stopped) from None
            budget = ByteBudget(raw.raw, size, READ_BYTES)
            encoding = detect_encoding(prefix, at_eof=len(prefix) >= size, name=name)
            count_rest = size <= COUNT_BYTES
            # A file read to its end on every call anyway (to count its lines) gains nothing
            # from a kept index, so it gets a throwaway one and leaves the cache's slots to the
            # large files (other nodes read the heads of many small tables). The stat is the
            # open file's: a kept index must describe the very file that is open.
            index = (
                LineIndex() if count_rest else LINE_INDEXES.index_for(path, info, encoding.codec)
            )
            # newline=None: \r\n and lone \r end lines too, so instrument exports from any
            # platform page the same way. errors="replace": a bad byte never stops a read.
            with io.TextIOWrapper(
                io.BufferedReader(budget), encoding=encoding.codec, errors="replace", newline=None
            ) as text:
                first, position = index.start_for(offset)
                if first:
                    text.seek(position)
                # a file small enough to count whole has no more lines than bytes
                most = COUNT_BYTES if count_rest else READ_LINES
                lines = _Budgeted(text_lines(text, max_chars, index, first), most)
                window = take_window(
                    iter(lines),
                    offset,
                    limit,
                    max_chars,
                    count_rest=count_rest,
                    first=first,
                )
    except OSError as exc:
        raise cannot_read(name, exc) from exc

    if budget.hole is not None:  # a hole ended the read: what follows it is zeros, unread
        start, end = budget.hole
        if not window.lines:
            raise ToolError(HOLE_ERROR.format(line=offset + 1, name=name, start=start,
                                              hole=human_size(end - start)))  # fmt: skip
        window = replace(window, more=False, total=None)
    elif budget.spent or lines.spent:  # a budget, not the file, ended the read
        if not window.lines:
            raise ToolError(
                BEYOND_BUDGET_ERROR.format(
                    line=offset + 1, name=name, budget=f"{human_size(READ_BYTES)} or "
                    f"{READ_LINES:,} lines",
                    reached=window.next_offset, offset=max(0, window.next_offset - 1),
                )
            )  # fmt: skip
        window = replace(window, more=True, total=None)
    if window.total == 0:
        return Answer(f"[{name}: empty (no text), encoding {encoding.label}]")
    check_offset(window, name, offset, limit)
    size_note = "" if window.total is not None else f", {human_size(size)}"
    if budget.hole is not None:
        start, end = budget.hole
        size_note += HOLE_NOTE.format(hole=human_size(end - start), start=start)
    return render(name, window, offset, limit, max_chars, f"{size_note}, encoding {encoding.label}")


class _Budgeted:
    """At most `budget` of `lines`; `spent` once the budget, not the lines, ran out."""

    def __init__(self, lines: Iterator[tuple[str, bool]], budget: int) -> None:
        self.lines, self.left, self.spent = lines, budget, False

    def __iter__(self) -> Iterator[tuple[str, bool]]:
        for line in self.lines:
            if self.left <= 0:
                self.spent = True
                return
            self.left -= 1
            yield line


def _pdf_text(raw: io.BufferedReader, name: str, offset: int, limit: int, max_chars: int) -> Answer:
    """`read_pdf` in its worker, a failure to read the file as the model reads it."""
    try:
        return read_pdf(raw, name, offset, limit, max_chars)
    except OSError as exc:
        raise cannot_read(name, exc) from exc
