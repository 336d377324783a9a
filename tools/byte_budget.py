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

# What one read_file call reads at most, wherever it starts. Enough to page to the end of a
# 1 GB export in one call (bench/bench_machinery.py: about 6 s of decoding lines); a hole
# or a line without end stops here after a few seconds, inside the tool timeout.
READ_BYTES = 1536 * 1024 * 1024


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

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def seek(self, offset: int, whence: int = os.SEEK_SET) -> int:
        if whence == os.SEEK_END:  # the end it had when opened, not where a writer is now
            return self.source.seek(self.end + offset)
        return self.source.seek(offset, whence)

    def tell(self) -> int:
        return self.source.tell()

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        room = min(len(buffer), self.end - self.tell(), self.left)
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
