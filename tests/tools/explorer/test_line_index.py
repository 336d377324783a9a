"""The sparse line index behind read_file: same text as streaming, without re-reading."""

from __future__ import annotations

import codecs
import io
import os
import random
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from labscribe.tools.base import ToolError
from labscribe.tools.explorer.files import READ_FILE
from labscribe.tools.explorer.line_index import (
    LINE_INDEXES,
    LINE_STEP,
    MAX_FILES,
    LineIndex,
    LineIndexCache,
)
from labscribe.tools.explorer.reading import COUNT_BYTES, read_part
from labscribe.tools.formats.encoding import SNIFF_BYTES
from labscribe.tools.tool import Folder

LINES = 300_000
# What a read that seeks near its offset may read besides the sniffed prefix: the lines from
# the indexed line up to the window, the window, and the text wrapper's read-ahead.
SEEK_SLACK = 128 * 1024


class ReadCounter:
    """Counts the bytes read_part reads from disk, by wrapping every binary descriptor it
    reads through (read_part opens with os.open and reads through os.fdopen)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.bytes = 0
        counter = self
        original_fdopen = os.fdopen

        class CountingFile(io.FileIO):
            def readinto(self, buffer: bytearray | memoryview) -> int | None:
                got = super().readinto(buffer)
                counter.bytes += got or 0
                return got

        def counting_fdopen(fd: int, mode: str = "r", *args: object, **kwargs: object) -> object:
            if mode != "rb":
                return original_fdopen(fd, mode, *args, **kwargs)
            return io.BufferedReader(CountingFile(fd, "rb"))

        monkeypatch.setattr(os, "fdopen", counting_fdopen)

    def during(self, read: Callable[[], object]) -> int:
        """Bytes read while `read` ran."""
        before = self.bytes
        read()
        return self.bytes - before


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> ReadCounter:
    return ReadCounter(monkeypatch)


def _numbered_lines(count: int) -> list[str]:
    return [f"line {i}" for i in range(count)]


def _write_lines(path: Path, lines: list[str]) -> Path:
    path.write_bytes("".join(line + "\n" for line in lines).encode())
    return path


def _streamed_result(name: str, lines: list[str], offset: int, limit: int, size: int) -> str:
    """What read_file showed for a UTF-8 file over COUNT_BYTES of short lines, computed naively
    from the list of its lines: the window, the header and the continuation note."""
    shown = lines[offset : offset + limit]
    end = offset + len(shown)
    if end == len(lines):  # the read reached the end, so the line count is known
        return "\n".join([f"[{name}: lines {offset + 1}-{end} of {end}, encoding utf-8]", *shown])
    header = (
        f"[{name}: lines {offset + 1}-{end} of ≥{end + 1}, "
        f"{size / 1024 / 1024:.1f} MB, encoding utf-8]"
    )
    note = f'[more lines follow; continue with read_file(path="{name}", offset={end})]'
    return "\n".join([header, *shown, note])


def _line_starts(lines: list[str]) -> list[int]:
    """Byte offset of each line's start in the UTF-8 file `_write_lines` makes of `lines`."""
    starts, position = [], 0
    for line in lines:
        starts.append(position)
        position += len(line.encode()) + 1
    return starts


def test_read_file_at_any_offset_shows_what_streaming_from_the_start_shows(
    tmp_path: Path,
) -> None:
    lines = _numbered_lines(LINES)
    path = _write_lines(tmp_path / "log.txt", lines)
    size = path.stat().st_size
    folder = Folder(tmp_path)
    # Cold near the end (builds the index), warm near the end, then below and between
    # indexed lines, at the very end, and on both sides of an indexed line.
    offsets = [0, LINES - 150, LINES - 150, 150_000, 1, LINES - 1, 1023, 1024, 1025, 77_777]

    for offset in offsets:
        outcome = READ_FILE.invoke(folder, {"path": "log.txt", "offset": offset}, timeout=60)

        assert outcome.ok, outcome.content
        assert outcome.content == _streamed_result("log.txt", lines, offset, 200, size)


def test_read_file_past_the_end_reports_the_line_count_with_or_without_index(
    tmp_path: Path,
) -> None:
    path = _write_lines(tmp_path / "log.txt", _numbered_lines(LINES))
    expected = (
        f"offset {LINES + 5} is past the end of log.txt: it has {LINES} lines "
        f'(offsets 0-{LINES - 1}); read its last lines with read_file(path="log.txt", '
        f"offset={LINES - 200})"
    )

    for _ in ("cold: streams to the end", "warm: seeks to the last indexed line"):
        with pytest.raises(ToolError) as error:
            read_part(path, offset=LINES + 5)
        assert str(error.value) == expected


def test_second_read_near_the_end_seeks_instead_of_rereading(
    tmp_path: Path, reads: ReadCounter
) -> None:
    lines = _numbered_lines(LINES)
    path = _write_lines(tmp_path / "log.txt", lines)
    size = path.stat().st_size
    near_end = LINES - 150

    first = reads.during(lambda: read_part(path, offset=near_end).text)
    second = reads.during(lambda: read_part(path, offset=near_end).text)
    middle = reads.during(lambda: read_part(path, offset=150_000).text)

    assert first > 0.99 * size  # the first read had to decode its way there once
    assert second < SNIFF_BYTES + SEEK_SLACK
    assert middle < SNIFF_BYTES + SEEK_SLACK


def test_a_read_past_the_indexed_lines_extends_the_index_from_its_last_position(
    tmp_path: Path, reads: ReadCounter
) -> None:
    lines = _numbered_lines(LINES)
    path = _write_lines(tmp_path / "log.txt", lines)
    starts = _line_starts(lines)
    index = LINE_INDEXES.index_for(path, path.stat(), "utf-8")

    read_part(path, offset=100_000)
    indexed_before = index.indexed_lines
    extending = reads.during(lambda: read_part(path, offset=250_000).text)

    assert 100_000 - LINE_STEP < indexed_before <= 100_000
    assert 250_000 - LINE_STEP < index.indexed_lines <= 250_000
    # Only the lines from the last indexed one on were read, not those before it.
    assert extending < SNIFF_BYTES + (starts[250_000] - starts[indexed_before]) + SEEK_SLACK
    assert extending > starts[250_000] - starts[indexed_before]


@pytest.mark.parametrize(
    "change", ["different size", "same size, new mtime", "same size and mtime, renamed over"]
)
def test_a_changed_file_gets_a_fresh_index(tmp_path: Path, change: str) -> None:
    old_lines = [f"line {i:06d}" for i in range(LINES)]
    path = _write_lines(tmp_path / "log.txt", old_lines)
    read_part(path, offset=120_000)  # index the old version well past line 100 000
    old = path.stat()
    # Lines twice as long, half as many: the same size, but each indexed position of the
    # old version is the start of a line with another number in the new one.
    new_lines = [f"row {i:019d}" for i in range(LINES // 2)]

    if change == "different size":
        new_lines.append("one more line")
        _write_lines(path, new_lines)
    elif change == "same size, new mtime":
        _write_lines(path, new_lines)
        os.utime(path, ns=(old.st_atime_ns, old.st_mtime_ns + 1_000_000_000))
    else:
        replacement = _write_lines(tmp_path / "log.txt.new", new_lines)
        os.utime(replacement, ns=(old.st_atime_ns, old.st_mtime_ns))
        os.replace(replacement, path)
    new = path.stat()
    assert (new.st_size == old.st_size) == (change != "different size")
    assert (new.st_mtime_ns == old.st_mtime_ns) == change.endswith("renamed over")

    result = read_part(path, offset=100_000, limit=3).text

    assert result.split("\n")[1:4] == new_lines[100_000:100_003]


@pytest.mark.parametrize(
    ("codec", "label"),
    [
        ("gbk", "gb18030"),
        ("utf-16", "utf-16-le with BOM"),
        ("utf-16-be with BOM", "utf-16-be with BOM"),
        ("utf-16-le", "utf-16-le without BOM"),
        ("utf-16-be", "utf-16-be without BOM"),
    ],
)
def test_gbk_and_utf16_files_read_right_at_a_high_offset(
    tmp_path: Path, reads: ReadCounter, codec: str, label: str
) -> None:
    lines = [f"样品 {i:06d}, T = 25.{i % 10} ℃" for i in range(LINES)]
    text = "".join(line + "\r\n" for line in lines)
    path = tmp_path / "export.txt"
    if codec == "utf-16-be with BOM":  # not the native order, so the BOM's choice must stick
        path.write_bytes(codecs.BOM_UTF16_BE + text.encode("utf-16-be"))
    else:
        path.write_bytes(text.encode(codec))
    offset = LINES - 10

    cold = read_part(path, offset=offset, limit=3).text
    warm_bytes = reads.during(lambda: read_part(path, offset=offset, limit=3).text)
    warm = read_part(path, offset=offset, limit=3).text
    middle = read_part(path, offset=150_001, limit=3).text

    assert label in cold.split("\n")[0]
    assert cold.split("\n")[1:4] == lines[offset : offset + 3]
    assert warm == cold
    assert warm_bytes < SNIFF_BYTES + SEEK_SLACK
    assert middle.split("\n")[1:4] == lines[150_001:150_004]


def _awkward_text() -> str:
    """Lines ending in CR LF, lone CR and LF, lines far longer than the cap, empty lines,
    non-ASCII characters, a line separator that is not a newline, and no final newline."""
    rng = random.Random(7)
    parts = []
    for i in range(1500):
        body = f"{i} " + "".join(rng.choice("ab温度℃é ,.") for _ in range(rng.choice([0, 5, 40])))
        if i % 97 == 0:
            body += "x" * 80_000  # cut at the cap; the rest must still count as one line
        if i % 89 == 0:
            body += "\u2028not a newline for read_file"
        parts.append(body + rng.choice(["\n", "\r\n", "\r", "\n\n"]))
    return "".join(parts) + "no final newline"


def _universal_lines(text: str) -> list[str]:
    """The lines of `text` as read_file numbers them: CR LF, CR and LF each end a line."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return lines[:-1] if text.endswith(("\n", "\r")) else lines


@pytest.mark.parametrize("codec", ["utf-8", "gb18030", "utf-16"])
def test_every_line_read_through_a_dense_index_matches_the_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, codec: str
) -> None:
    # A step of 7 puts indexed lines next to every kind of line ending, long line and
    # multi-byte character above, and the shuffled order both extends and reuses the index.
    monkeypatch.setattr(LINE_INDEXES, "step", 7)
    text = _awkward_text()
    path = tmp_path / "awkward.txt"
    path.write_bytes(text.encode(codec))
    assert path.stat().st_size > COUNT_BYTES  # smaller files are read whole, with no index
    expected = _universal_lines(text)
    offsets = list(range(len(expected)))
    random.Random(3).shuffle(offsets)

    for offset in offsets:
        result = read_part(path, offset=offset, limit=1, max_chars=1000).text
        assert result.split("\n")[1] == expected[offset][:1000], offset

    with pytest.raises(ToolError, match=f"it has {len(expected)} lines"):
        read_part(path, offset=len(expected))


def test_concurrent_reads_of_one_file_all_see_the_right_lines(tmp_path: Path) -> None:
    lines = _numbered_lines(LINES)
    path = _write_lines(tmp_path / "log.txt", lines)
    offsets = [random.Random(seed).randrange(LINES - 3) for seed in range(32)]

    def read(offset: int) -> list[str]:
        return read_part(path, offset=offset, limit=3).text.split("\n")[1:4]

    for _ in ("cold: threads extend one index together", "warm: threads seek with it"):
        with ThreadPoolExecutor(max_workers=8) as pool:
            results = list(pool.map(read, offsets))
        assert results == [lines[offset : offset + 3] for offset in offsets]


class _TellFails(io.TextIOWrapper):
    def tell(self) -> int:
        raise io.UnsupportedOperation("this decoder's state cannot be captured")


def test_a_codec_whose_position_cannot_be_told_is_streamed_without_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = _numbered_lines(LINES)
    path = _write_lines(tmp_path / "log.txt", lines)
    monkeypatch.setattr(io, "TextIOWrapper", _TellFails)

    for offset in (250_000, 250_000, 3_000):
        assert (
            read_part(path, offset=offset, limit=3).text.split("\n")[1:4]
            == lines[offset : offset + 3]
        )
    assert LINE_INDEXES.index_for(path, path.stat(), "utf-8").indexed_lines == 0


def test_the_cache_drops_the_least_recently_read_file(tmp_path: Path) -> None:
    cache = LineIndexCache(max_files=2)
    a_path, b_path, c_path = (_write_lines(tmp_path / f"{name}.txt", ["x"]) for name in "abc")

    def index_of(path: Path) -> LineIndex:
        return cache.index_for(path, path.stat(), "utf-8")

    a, b = index_of(a_path), index_of(b_path)
    assert index_of(a_path) is a  # read again: b is now the least recently read
    c = index_of(c_path)

    assert len(cache) == 2
    assert index_of(a_path) is a
    assert index_of(c_path) is c
    assert index_of(b_path) is not b  # dropped when c came in: a fresh index


def test_read_file_keeps_at_most_max_files_indexes(tmp_path: Path) -> None:
    just_too_large_to_count = b"x\n" * (COUNT_BYTES // 2 + 1)
    for n in range(MAX_FILES + 5):
        (tmp_path / f"f{n}.txt").write_bytes(just_too_large_to_count)
        read_part(tmp_path / f"f{n}.txt")

    assert len(LINE_INDEXES) == MAX_FILES


def test_a_file_read_whole_anyway_takes_no_cache_slot(tmp_path: Path) -> None:
    path = _write_lines(tmp_path / "small.csv", _numbered_lines(50_000))
    assert path.stat().st_size <= COUNT_BYTES
    kept = LINE_INDEXES.index_for(path, path.stat(), "utf-8")

    read_part(path, offset=40_000)

    assert kept.indexed_lines == 0  # the read used an index of its own, thrown away after


def test_a_line_start_reported_twice_or_out_of_order_is_recorded_once() -> None:
    index = LineIndex(step=4)

    index.record(4, 40)
    index.record(4, 40)  # a second thread reading the same file passed line 4 too
    index.record(12, 120)  # line 8 is not known yet, so line 12 cannot be placed

    assert index.start_for(100) == (4, 40)
    index.record(8, 80)
    assert index.start_for(100) == (8, 80)
    assert index.start_for(7) == (4, 40)
    assert index.start_for(3) == (0, 0)
