"""Backend of the explorer's `read_file` tool: one bounded window of a file's text.

Any file in the data folder may be huge, oddly encoded, a PDF or not text at all, and
the model pays for every character it is shown. So a read streams only the lines it
needs, detects the encoding from a bounded prefix, and always tells the model exactly
how to continue.
"""

from __future__ import annotations

import codecs
import contextlib
import io
import json
import os
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import BinaryIO

import pypdf
from charset_normalizer import from_bytes
from pypdf import PdfReader
from pypdf.errors import DependencyError, LimitReachedError

from labscribe.tools.base import Answer, Folder, ToolError, human_size, open_regular, os_reason
from labscribe.tools.line_index import LINE_INDEXES, LineIndex

# A window the explorer can afford per call (roughly 2k tokens); more is one offset away.
READ_CHARS = 7000
# The model-facing default of read_file's `limit`; the continuation note omits it when unchanged.
DEFAULT_LIMIT = 200
# More lines than this never fit in READ_CHARS anyway, so a larger limit is capped, not refused.
MAX_LIMIT = 2000
# What one PDF may cost to decode (pypdf's defaults allow 75 MB per stream). A page of text
# is kilobytes of content stream; 8 MB is thousands of pages' worth, and its text extraction
# stays well under a second.
_PDF_BYTES = 8 * 1024 * 1024
PDF_LIMITS = {
    **{f"{codec}_maximum_output_length": _PDF_BYTES
       for codec in ("zlib", "lzw", "run_length", "brotli", "jbig2")},
    "maximum_declared_stream_length": _PDF_BYTES,
    "array_based_stream_maximum_output_length": _PDF_BYTES,
    "image_maximum_buffer_size": _PDF_BYTES,
    "stream_decoding_work_maximum_length": 4 * _PDF_BYTES,
    "stream_parsing_work_maximum_count": 200_000,
    "xform_maximum_invocations_per_extraction": 500,
}  # fmt: skip
# Detection looks at this much of the file and no more, whatever the file's size.
SNIFF_BYTES = 64 * 1024
# Text files up to this size are read to the end so the header can give the line count;
# beyond it, counting would cost time proportional to the file and the header says "≥".
COUNT_BYTES = 1024 * 1024
# Unit in which the unread rest of an over-long line is skipped, so memory stays bounded.
_SKIP_CHARS = 64 * 1024
# Below this many non-ASCII bytes charset-normalizer often mistakes GBK for Korean, Big5
# or UTF-16 (measured on short lab-style Chinese lines), so GB18030 wins without asking.
_CJK_GUESS_MIN_BYTES = 128

_ASCII = bytes(range(128))
_CJK_CHAR = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
# The Windows and ISO code pages of European labs' exports, the commonest first.
_SINGLE_BYTE = ["cp1252", "cp1250", "iso8859_2", "cp1251", "cp1257", "latin_1"]
_LAB_SIGNS = frozenset("°µ²³±·×÷€£§¹¼½¾")
# Chinese text has some one-character words and some beside Latin letters ("U电压"); text
# where most are is a single-byte code page read as GB.
FOREIGN_CJK_SHARE = 0.6
# GB's common characters are pairs of high bytes; a code page's accents mostly stand alone.
LONE_BYTE_SHARE = 0.3
FEW_HIGH_BYTES = 8  # below it ("Größe"), the characters alone decide
# A code page's reading this plausible (of a point per high byte) is taken before any guess.
PLAUSIBLE_SHARE = 0.8

# Canonical codec names (codecs.lookup(...).name) of the GB family; gb18030 decodes all.
_GB_CODECS = frozenset({"gb2312", "gbk", "gb18030", "hz"})
# Other CJK encodings whose bytes also decode as GB18030. charset-normalizer tells them
# apart reliably on longer samples. Johab is left out on purpose: it is charset-normalizer's
# favourite wrong answer for short GBK text and almost never met in practice.
_OTHER_CJK_CODECS = frozenset(
    {
        "big5",
        "big5hkscs",
        "cp950",
        "cp932",
        "shift_jis",
        "shift_jis_2004",
        "shift_jisx0213",
        "euc_jp",
        "euc_jis_2004",
        "euc_jisx0213",
        "iso2022_jp",
        "euc_kr",
        "cp949",
    }
)

# Signatures of common binary formats, checked before any decoding. Only signatures that
# cannot plausibly start a text file are listed; NUL bytes catch the rest.
_MAGIC: tuple[tuple[bytes, str], ...] = (
    (b"\x89PNG\r\n\x1a\n", "PNG image"),
    (b"\xff\xd8\xff", "JPEG image"),
    (b"GIF87a", "GIF image"),
    (b"GIF89a", "GIF image"),
    (b"II*\x00", "TIFF image"),
    (b"MM\x00*", "TIFF image"),
    (b"PK\x03\x04", "ZIP archive"),
    (b"PK\x05\x06", "ZIP archive"),
    (b"\x1f\x8b", "gzip archive"),
    (b"\xfd7zXZ\x00", "xz archive"),
    (b"7z\xbc\xaf\x27\x1c", "7-Zip archive"),
    (b"Rar!\x1a\x07", "RAR archive"),
    (b"\x7fELF", "ELF executable"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "legacy Office document (xls/doc/ppt)"),
    (b"SQLite format 3\x00", "SQLite database"),
    (b"\x89HDF\r\n\x1a\n", "HDF5 data file"),
    (b"\x93NUMPY", "NumPy array"),
)
# Office Open XML files are ZIPs; the first member names, stored uncompressed near the
# start, say which kind.
_ZIP_KINDS: tuple[tuple[bytes, str], ...] = (
    (b"xl/", "Excel workbook (xlsx)"),
    (b"word/", "Word document (docx)"),
    (b"ppt/", "PowerPoint presentation (pptx)"),
)
_IMAGE_KINDS = frozenset({"PNG image", "JPEG image", "GIF image", "TIFF image", "WebP image"})

# Byte-order marks, longest first: the UTF-32 LE mark begins with the UTF-16 LE one.
_BOMS: tuple[tuple[bytes, str, str], ...] = (
    (codecs.BOM_UTF32_LE, "utf-32", "utf-32-le with BOM"),
    (codecs.BOM_UTF32_BE, "utf-32", "utf-32-be with BOM"),
    (codecs.BOM_UTF8, "utf-8-sig", "utf-8 with BOM"),
    (codecs.BOM_UTF16_LE, "utf-16", "utf-16-le with BOM"),
    (codecs.BOM_UTF16_BE, "utf-16", "utf-16-be with BOM"),
)


@dataclass(frozen=True)
class _Encoding:
    """How to decode a file: the Python codec, and the name the header shows."""

    codec: str
    label: str


@dataclass(frozen=True)
class _Window:
    """The lines a read shows, and what is known about the rest of the file."""

    lines: list[str]
    next_offset: int  # the first line not shown
    more: bool  # lines remain at next_offset
    by_chars: bool  # the window stopped at max_chars rather than at `limit`
    cut_line: int | None  # index of a shown line that was longer than max_chars and cut
    total: int | None  # line count of the whole file, when known


def read_in(
    folder: Folder, rel: str, limit: int = DEFAULT_LIMIT, max_chars: int = READ_CHARS
) -> str:
    """The first `limit` lines of the file `rel` names in `folder`, read as read_file reads:
    through the path guard and `Folder.open`. Raises ToolError as read_file does."""
    target = folder.resolve(rel)
    return read_part(target, 0, limit, max_chars, display_name=rel, fd=folder.open(target)).text


def read_window(
    path: Path,
    offset: int = 0,
    limit: int = DEFAULT_LIMIT,
    max_chars: int = READ_CHARS,
    display_name: str | None = None,
) -> str:
    """The text of `read_part`: lines [offset, offset + limit) of `path`, for the model."""
    return read_part(path, offset, limit, max_chars, display_name).text


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
        raise ToolError(f"offset must be 0 or more (0 is the first line), got {offset}")
    if limit < 1:
        raise ToolError(f"limit must be at least 1 line, got {limit}")
    limit = min(limit, MAX_LIMIT)

    try:
        with os.fdopen(fd if fd is not None else open_regular(path, name), "rb") as raw:
            info = os.fstat(raw.fileno())
            size = info.st_size
            if size == 0:
                return Answer(f"[{name}: empty file (0 bytes)]")
            prefix = raw.read(SNIFF_BYTES)
            if prefix.startswith(b"%PDF-"):
                return _read_pdf(raw, name, offset, limit, max_chars)
            encoding = _detect_encoding(prefix, at_eof=len(prefix) >= size, name=name)
            count_rest = size <= COUNT_BYTES
            # A file read to its end on every call anyway (to count its lines) gains nothing
            # from a kept index, so it gets a throwaway one and leaves the cache's slots to the
            # large files (other nodes read the heads of many small tables). The stat is the
            # open file's: a kept index must describe the very file that is open.
            index = (
                LineIndex() if count_rest else LINE_INDEXES.index_for(path, info, encoding.codec)
            )
            raw.seek(0)
            # newline=None: \r\n and lone \r end lines too, so instrument exports from any
            # platform page the same way. errors="replace": a bad byte never stops a read.
            with io.TextIOWrapper(
                raw, encoding=encoding.codec, errors="replace", newline=None
            ) as text:
                first, position = index.start_for(offset)
                if first:
                    text.seek(position)
                window = _take_window(
                    _text_lines(text, max_chars, index, first),
                    offset,
                    limit,
                    max_chars,
                    count_rest=count_rest,
                    first=first,
                )
    except OSError as exc:
        raise ToolError(f"cannot read {name}: {os_reason(exc)}") from exc

    if window.total == 0:
        return Answer(f"[{name}: empty (no text), encoding {encoding.label}]")
    _check_offset(window, name, offset, limit)
    size_note = "" if window.total is not None else f", {human_size(size)}"
    return _render(
        name, window, offset, limit, max_chars, f"{size_note}, encoding {encoding.label}"
    )


def text_encoding(prefix: bytes, *, at_eof: bool, name: str) -> str:
    """The codec that decodes a text file, judged from its first bytes (SNIFF_BYTES of them
    suffice) as read_file judges it; ToolError, naming the file `name`, if it looks binary."""
    return _detect_encoding(prefix, at_eof, name).codec


def _detect_encoding(prefix: bytes, at_eof: bool, name: str) -> _Encoding:
    """The encoding of a text file judged from its first bytes, or ToolError if binary.

    Order matters: binary signatures, byte-order marks, BOM-less UTF-16 (by where NUL
    bytes fall), other NULs (binary), strict UTF-8, GB18030 (Chinese lab instruments
    commonly write GBK), and finally charset-normalizer for other legacy encodings.
    `at_eof` says `prefix` is the whole file, so a character cut at its end is an error.
    """
    kind = _binary_kind(prefix)
    if kind is not None:
        hint = "; use read_image for images" if kind in _IMAGE_KINDS else ""
        raise ToolError(f"{name} looks like a binary file ({kind}), not text{hint}")
    for bom, codec, label in _BOMS:
        if prefix.startswith(bom):
            return _Encoding(codec, label)
    utf16 = _utf16_without_bom(prefix)
    if utf16 is not None:
        return _Encoding(utf16, f"{utf16} without BOM")
    if b"\x00" in prefix:
        raise ToolError(f"{name} looks like a binary file (contains NUL bytes), not text")
    if _decodes(prefix, "utf-8", at_eof):
        return _Encoding("utf-8", "utf-8")
    gb = _decodes(prefix, "gb18030", at_eof)
    if gb and not _reads_as_chinese(prefix):
        codec = _single_byte(prefix)
        return _Encoding(codec, f"{codec} (guessed)")
    if gb:
        # Big5, Shift-JIS and EUC-KR bytes usually decode as GB18030 too; only a
        # confident guess on a long enough sample overrides the likelier GB reading.
        non_ascii = len(prefix.translate(None, _ASCII))
        guess = _guess_codec(prefix) if non_ascii >= _CJK_GUESS_MIN_BYTES else None
        if guess in _OTHER_CJK_CODECS:
            return _Encoding(guess, f"{guess} (guessed)")
        return _Encoding("gb18030", "gb18030")
    european = _single_byte(prefix)
    high = len(prefix.translate(None, _ASCII))
    if _plausibility(prefix.decode(european, errors="replace")) >= PLAUSIBLE_SHARE * high:
        return _Encoding(european, f"{european} (guessed)")
    guess = _guess_codec(prefix)
    if guess is None or guess in _GB_CODECS:
        # GB-family text that failed strict decoding has stray bad bytes: read it as GB.
        if guess in _GB_CODECS:
            return _Encoding("gb18030", "gb18030 (some bytes invalid, replaced)")
        return _Encoding("utf-8", "utf-8 (not recognised; invalid bytes replaced)")
    return _Encoding(guess, f"{guess} (guessed)")


def _reads_as_chinese(prefix: bytes) -> bool:
    """Whether `prefix`, which decodes as GB18030, reads as Chinese. A Windows code page's
    accented letters stand alone between ASCII bytes ("Wyd\\xb3u\\xbfenie"), while GB
    writes every common character as two high bytes; read as GB, those lone bytes pair up
    with their neighbours into characters that stand alone or inside Latin words
    ("Obciążenie" becomes "Obci箍enie", "(°C)" becomes "(癈)"). Both signs must agree; in a
    text with only a few high bytes ("Größe"), the code page's reading must be all letters."""
    high = [i for i, byte in enumerate(prefix) if byte >= 0x80]
    if not high:
        return True
    text = prefix.decode("gb18030", errors="replace")
    chinese = [i for i, ch in enumerate(text) if _CJK_CHAR.match(ch)]

    def foreign(i: int) -> bool:
        around = [text[j] for j in (i - 1, i + 1) if 0 <= j < len(text)]
        latin = any(ch.isascii() and ch.isalpha() for ch in around)
        return latin or not any(_CJK_CHAR.match(ch) for ch in around)

    if sum(foreign(i) for i in chinese) < FOREIGN_CJK_SHARE * len(chinese):
        return True
    if len(high) < FEW_HIGH_BYTES:
        best = _single_byte(prefix)
        return _plausibility(prefix.decode(best, errors="replace")) < len(high)
    lone = sum(
        1 for i in high
        if (i == 0 or prefix[i - 1] < 0x80) and (i + 1 >= len(prefix) or prefix[i + 1] < 0x80)
    )  # fmt: skip
    return lone < LONE_BYTE_SHARE * len(high)


def _binary_kind(prefix: bytes) -> str | None:
    """The kind of binary file `prefix` starts, if it carries a known signature."""
    for magic, kind in _MAGIC:
        if prefix.startswith(magic):
            if kind == "ZIP archive":
                for member, office_kind in _ZIP_KINDS:
                    if member in prefix:
                        return office_kind
            return kind
    if prefix.startswith(b"RIFF") and prefix[8:12] == b"WEBP":
        return "WebP image"
    if prefix.startswith(b"RIFF") and prefix[8:12] == b"WAVE":
        return "WAV audio"
    return None


def _utf16_without_bom(prefix: bytes) -> str | None:
    """The codec, utf-16-le or utf-16-be, if NUL bytes fall as in BOM-less UTF-16 text.

    Text that is mostly Latin script in UTF-16 has a NUL in nearly every high byte and
    almost none in the low bytes. Binary data with that pattern (arrays of small 16-bit
    integers) decodes to control characters, so those must also be rare.
    """
    if len(prefix) < 4:
        return None
    even, odd = prefix[0::2], prefix[1::2]
    nul_even, nul_odd = even.count(0) / len(even), odd.count(0) / len(odd)
    if nul_odd > 0.3 and nul_even < 0.05:
        codec = "utf-16-le"
    elif nul_even > 0.3 and nul_odd < 0.05:
        codec = "utf-16-be"
    else:
        return None
    sample = prefix[: len(prefix) - len(prefix) % 2].decode(codec, errors="replace")
    odd_chars = sum(1 for ch in sample if (ch < " " and ch not in "\t\n\r\f") or ch == "\ufffd")
    return codec if odd_chars <= 0.05 * len(sample) else None


def _decodes(prefix: bytes, codec: str, at_eof: bool) -> bool:
    """Whether `prefix` decodes strictly, allowing a character cut at its end unless at EOF."""
    decoder = codecs.getincrementaldecoder(codec)(errors="strict")
    try:
        decoder.decode(prefix, final=at_eof)
    except UnicodeDecodeError:
        return False
    return True


def _single_byte(prefix: bytes) -> str:
    """The European code page whose reading of `prefix` reads best (`_plausibility`);
    cp1252 wins a tie: it is the commonest."""
    return max(
        _SINGLE_BYTE,
        key=lambda codec: (
            _plausibility(prefix.decode(codec, errors="replace")),
            -_SINGLE_BYTE.index(codec),
        ),
    )


def _plausibility(text: str) -> float:
    """How well `text` reads as a European language, by its runs of non-ASCII characters:
    a run of Latin letters inside a word ("Gr|öß|e") or of a lab's signs ("°", "±") counts
    +1 a character, a letter of another script away from Latin letters +½, anything else
    −1 (a stray symbol, letters standing alone as a word, Cyrillic inside a Latin word)."""
    total = 0.0
    for run in re.finditer(r"[^\x00-\x7f]+", text):
        chars = run[0]
        before = text[run.start() - 1 : run.start()]
        after = text[run.end() : run.end() + 1]
        in_word = any(ch.isascii() and ch.isalpha() for ch in before + after)
        latin = all(unicodedata.name(ch, "").startswith("LATIN") for ch in chars)
        if all(ch in _LAB_SIGNS for ch in chars) or (latin and in_word):
            total += len(chars)
        elif all(ch.isalpha() for ch in chars) and not latin and not in_word:
            total += 0.5 * len(chars)
        else:
            total -= len(chars)
    return total


def _guess_codec(prefix: bytes) -> str | None:
    """charset-normalizer's best guess for `prefix`, as a canonical codec name, if any."""
    best = from_bytes(prefix).best()
    if best is None:
        return None
    try:
        return codecs.lookup(best.encoding).name
    except LookupError:
        return None


def _text_lines(
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


def _take_window(
    lines: Iterator[tuple[str, bool]],
    offset: int,
    limit: int,
    max_chars: int,
    count_rest: bool,
    first: int = 0,
) -> _Window:
    """Skip to line `offset`, then keep lines until `limit` lines or `max_chars` characters.

    `lines` starts at line `first` (at most `offset`). The first line kept is always kept,
    even cut, so every call makes progress. One line past the window is read to learn
    whether more follow; with `count_rest` the rest is counted too (callers allow that only
    when it is cheap).
    """
    skipped = first + sum(1 for _ in islice(lines, offset - first))
    if skipped < offset:
        return _Window([], skipped, False, False, None, skipped)
    shown: list[str] = []
    used = 0
    cut_line: int | None = None
    for text, was_cut in lines:
        cost = len(text) + 1  # the newline that joins it to the next line
        if len(shown) == limit or (shown and used + cost > max_chars):
            by_chars = len(shown) < limit
            end = offset + len(shown)
            total = end + 1 + sum(1 for _ in lines) if count_rest else None
            return _Window(shown, end, True, by_chars, cut_line, total)
        if was_cut:
            cut_line = offset + len(shown)
        shown.append(text)
        used += cost
    end = offset + len(shown)
    return _Window(shown, end, False, False, cut_line, end)


def _check_offset(window: _Window, name: str, offset: int, limit: int) -> None:
    """Raise ToolError if `offset` was past the last line, saying how many lines there are."""
    if window.lines or window.total is None:
        return
    total = window.total
    last = max(0, total - limit)
    raise ToolError(
        f"offset {offset} is past the end of {name}: it has {total} "
        f"line{'s' if total != 1 else ''} (offsets 0-{total - 1}); "
        f"read its last lines with {_call(name, last, limit)}"
    )


def _render(
    name: str, window: _Window, offset: int, limit: int, max_chars: int, about: str
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


class _PdfText:
    """The lines of a PDF's extracted text, page by page, extracted only as far as read."""

    def __init__(self, reader: PdfReader, cap: int) -> None:
        self.reader = reader
        self.cap = cap
        self.has_text = False  # some page had text, among those extracted so far
        self.failed: list[str] = []  # why pages failed to extract, among those so far

    def lines(self) -> Iterator[tuple[str, bool]]:
        """Yield `--- page N ---`, then that page's lines cut to `cap`, for every page."""
        for number, page in enumerate(self.reader.pages, start=1):
            try:
                text = page.extract_text() or ""
            except Exception as exc:  # pypdf raises many types on malformed pages
                reason = (
                    "it exceeds the decoding limits"
                    if isinstance(exc, LimitReachedError)
                    else str(exc)
                )
                self.failed.append(f"page {number}: {reason}")
                yield f"--- page {number} (text extraction failed: {reason}) ---", False
                continue
            yield f"--- page {number} ---", False
            if text.strip():
                self.has_text = True
            for line in text.splitlines():
                yield line[: self.cap], len(line) > self.cap


def _read_pdf(raw: BinaryIO, name: str, offset: int, limit: int, max_chars: int) -> Answer:
    """The window of a PDF's extracted text, or ToolError if it is encrypted or broken.

    Decoding runs under PDF_LIMITS: a small file whose stream inflates to tens of megabytes
    (a PDF bomb) gets a page that failed to extract, not seconds of CPU and a heap to match.
    """
    with pypdf.apply_configuration(**PDF_LIMITS):
        return _pdf_window(raw, name, offset, limit, max_chars)


def _pdf_window(raw: BinaryIO, name: str, offset: int, limit: int, max_chars: int) -> Answer:
    try:
        reader = PdfReader(raw)
        if reader.is_encrypted and not reader.decrypt(""):
            raise ToolError(f"{name} is a password-protected PDF; its text cannot be read")
        pages = len(reader.pages)
    except ToolError:
        raise
    except DependencyError as exc:
        raise ToolError(
            f"{name} is an encrypted PDF that cannot be decrypted here ({exc})"
        ) from exc
    except Exception as exc:  # pypdf signals broken files with many exception types
        raise ToolError(f"cannot parse {name} as a PDF (it may be damaged): {exc}") from exc

    pdf = _PdfText(reader, max_chars)
    try:
        # Counting the rest would mean extracting every page: not cheap, so not done.
        window = _take_window(pdf.lines(), offset, limit, max_chars, count_rest=False)
    except Exception as exc:  # a broken page tree fails while pages are being iterated
        raise ToolError(f"cannot parse {name} as a PDF (it may be damaged): {exc}") from exc
    pages_note = f"{pages} page{'s' if pages != 1 else ''}"
    if window.total is not None and not pdf.has_text and pdf.failed:
        return Answer(
            f"[{name}: PDF with {pages_note}; no text could be extracted "
            f"({'; '.join(pdf.failed[:3])}): it may be damaged, or compressed to expand beyond "
            "what is read here]"
        )
    if window.total is not None and not pdf.has_text:
        return Answer(
            f"[{name}: PDF with {pages_note} but no extractable text; it may be a scanned "
            "document, so try read_image instead]"
        )
    _check_offset(window, name, offset, limit)
    return _render(
        name, window, offset, limit, max_chars, f", PDF with {pages_note}, text extracted by pypdf"
    )
