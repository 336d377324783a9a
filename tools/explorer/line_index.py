"""Sparse line indexes: where every LINE_STEP-th line of a text file starts.

Without one, reading line N of a file means decoding lines 0..N-1 first, on every call, so
paging through a huge file costs time quadratic in its length. The reader records a
position every LINE_STEP lines as it streams; a later read seeks to the nearest recorded
line at or below its offset and decodes at most LINE_STEP - 1 lines to get there.

Positions are `io.TextIOWrapper.tell()` cookies taken at line starts. For a stateless
codec (UTF-8, GB18030, Latin-1, UTF-16-LE, ...) at a clean line start the cookie is simply
the byte offset in the file; where the decoder carries state (the byte order a UTF-16 BOM
chose, bytes it holds buffered, a CR waiting to see whether LF follows) the cookie packs
that state with the offset. So a position is exact for the codec it was taken with,
however wide that codec's newline is, and `TextIOWrapper.seek()` restores it. That is why
an index belongs to one version of a file decoded with one codec, and nothing else.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from pathlib import Path

from labscribe.tools.tool import stat_version

# One position per this many lines. A read then decodes at most LINE_STEP - 1 lines it does
# not show (about 50 KB of typical CSV: about a millisecond), while a 1 GB file of 21M lines
# needs only ~21k positions (0.8 MB measured). Recording is checked once per LINE_STEP lines,
# not per line, which keeps the first pass within ~10% of plain streaming.
LINE_STEP = 1024
# Files whose index is kept; the least recently read is dropped first. An exploration pages
# through a handful of large files, so 64 covers a run, and even 64 indexes of 1 GB files of
# short lines hold only ~50 MB.
MAX_FILES = 64


class LineIndex:
    """Start positions of lines 0, LINE_STEP, 2·LINE_STEP, ... of one file, as far as read.

    Positions are appended strictly in order, so the known lines are always a prefix of
    the file and a read past them extends the index from the last known position.
    """

    def __init__(self, step: int = LINE_STEP) -> None:
        self.step = step
        self._positions = [0]  # line 0 starts where a freshly opened file does
        self._lock = threading.Lock()

    def start_for(self, line: int) -> tuple[int, int]:
        """The indexed line nearest at or below `line`, and the position where it starts."""
        with self._lock:
            slot = min(line // self.step, len(self._positions) - 1)
            return slot * self.step, self._positions[slot]

    def next_wanted(self) -> int:
        """The first line whose start is not yet recorded (a multiple of `step`)."""
        with self._lock:
            return len(self._positions) * self.step

    def record(self, line: int, position: int) -> None:
        """Note that `line` starts at `position`, if it is the next line the index wants.

        Another thread reading the same file may have recorded it already; it found the
        same position, so the second report is simply dropped.
        """
        with self._lock:
            if line == len(self._positions) * self.step:
                self._positions.append(position)

    @property
    def indexed_lines(self) -> int:
        """The last line whose start is recorded: a read up to here skips at most `step`."""
        with self._lock:
            return (len(self._positions) - 1) * self.step


class LineIndexCache:
    """The line indexes of the `max_files` files read most recently, one version each.

    An index is looked up by the file's resolved path and used only while the file's version
    (`base.stat_version`: its identity, size, mtime and ctime) and the codec match those it
    was built under; a file that changed gets a fresh index, so positions of an older
    version are never served.
    """

    def __init__(self, max_files: int = MAX_FILES, step: int = LINE_STEP) -> None:
        self.max_files = max_files
        self.step = step
        self._entries: OrderedDict[str, tuple[tuple[str, str], LineIndex]] = OrderedDict()
        self._lock = threading.Lock()

    def index_for(self, path: Path, info: os.stat_result, codec: str) -> LineIndex:
        """The index of `path` as `info` (its stat) describes it, decoded with `codec`."""
        key = str(path.resolve())
        version = (stat_version(info), codec)
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None and entry[0] == version:
                self._entries.move_to_end(key)
                return entry[1]
            index = LineIndex(self.step)
            self._entries[key] = (version, index)
            self._entries.move_to_end(key)
            while len(self._entries) > self.max_files:
                self._entries.popitem(last=False)
            return index

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries)


LINE_INDEXES = LineIndexCache()
"""The process-wide cache read_file uses; tools run in threads, so it is locked."""
