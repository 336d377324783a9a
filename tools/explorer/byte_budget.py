"""A file read within a byte budget: what was there when it was opened, and no more than
one call may afford.

A file in the data folder may grow while it is read (a logger appending without end) or
hold a hole of gigabytes that reads as zeros (`truncate -s 50G`). Read to its end, either
outlasts any timeout; and a timed-out read cannot be stopped, only abandoned, still reading.
So a streamed read sees the file end where it ended when opened, and stops after its budget.
"""

from __future__ import annotations

import io
import os

from labscribe.tools.base import human_size

# What one read_file call decodes at most, wherever it starts: about a second of work
# either way (bench/bench_machinery.py), long lines by their bytes, short ones by their
# count (3.5 million lines a second), so a file a logger fills as fast as it can (`yes >`)
# answers in about a second; a 1 GB export of 30-byte lines pages to its end in 17 calls,
# each going on from the line index where the last one stopped.
READ_BYTES = 256 * 1024 * 1024
READ_LINES = 2 * 1024 * 1024
# A run of unallocated bytes (a hole, `truncate -s 50G`) at least this long ends a read: it
# holds no text, only zeros the file system makes up, and reading it costs seconds a GB.
MIN_HOLE_BYTES = 1024 * 1024


class BudgetSpent(OSError):
    """A strict `ByteBudget` was asked for more than its budget."""


class ByteBudget(io.RawIOBase):
    """The unbuffered file `source` as a raw stream that ends at `end` (its size when opened)
    and after `budget` bytes read in all. `spent` says whether the budget, not the file,
    ended it. `strict`: a read past the budget raises BudgetSpent instead, for a reader
    that would take the early end for a short file and search it on, backwards, forever.
    Closing it leaves `source` open: its owner closes it."""

    def __init__(
        self, source: io.RawIOBase, end: int, budget: int, *, strict: bool = False
    ) -> None:
        super().__init__()
        self.source, self.end, self.budget, self.left = source, end, budget, budget
        self.strict = strict
        self.spent = False
        self.hole: tuple[int, int] | None = None
        """(start, end) of the hole that ended the read, if one did."""
        self._data_until = -1  # where the data found at the last look run out

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def seek(self, offset: int, whence: int = os.SEEK_SET) -> int:
        self._data_until = -1  # the data found so far may not be where the read goes on
        if whence == os.SEEK_END:  # the end it had when opened, not where a writer is now
            return self.source.seek(self.end + offset)
        return self.source.seek(offset, whence)

    def tell(self) -> int:
        return self.source.tell()

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        if self.hole is not None or self._in_a_hole():
            if self.strict:  # a reader that searches on, backwards, would search the hole
                start, end = self.hole  # type: ignore[misc]
                raise BudgetSpent(f"it holds a hole of {human_size(end - start)} (no data) "
                                  f"from byte {start:,} on")  # fmt: skip
            return 0
        # up to the next hole at most, so that a hole is found where it starts
        here = self.tell()
        room = min(len(buffer), self.end - here, self.left, max(self._data_until - here, 0))
        if room <= 0:
            self.spent = self.spent or (self.left <= 0 and self.tell() < self.end)
            if self.spent and self.strict:
                raise BudgetSpent(
                    f"it needs more than the {human_size(self.budget)} one read reads"
                )
            return 0
        got = self.source.readinto(memoryview(buffer)[:room]) or 0
        self.left -= got
        return got

    def _in_a_hole(self) -> bool:
        """Whether the read stands at a hole of MIN_HOLE_BYTES or more (then `hole` says
        where), asking the file system only where the data it last named run out. A file
        system that cannot tell (no SEEK_DATA) has no holes to skip."""
        here = self.tell()
        if here < self._data_until or here >= self.end:
            return False
        fd = self.source.fileno()
        try:
            data = os.lseek(fd, here, os.SEEK_DATA)
        except OSError:  # ENXIO: no data after `here`, a hole to the end; or no SEEK_DATA
            data = self.end if _holes_known(fd) else here
        try:
            if data - here >= MIN_HOLE_BYTES:
                self.hole = (here, min(data, self.end))
                return True
            self._data_until = os.lseek(fd, data, os.SEEK_HOLE)
            return False
        except OSError:
            self._data_until = self.end
            return False
        finally:
            self.source.seek(here)


def _holes_known(fd: int) -> bool:
    """Whether the file system answers SEEK_HOLE for `fd` (ENXIO from SEEK_DATA then means
    that no data follow, not that it cannot tell)."""
    try:
        os.lseek(fd, 0, os.SEEK_HOLE)
    except OSError:
        return False
    return True
