"""Which codec decodes a text file, judged from its first bytes.

Lab instruments write text in whatever their vendor's Windows used: UTF-8 and UTF-16, GBK
from Chinese instruments, the code pages of European labs. A wrong guess turns units and
names into mojibake the model then copies into the report, and a binary file decoded as
text costs the model a window of noise, so detection refuses binary data first and then
prefers the reading that makes sense as text. It sees a bounded prefix only, so it costs
the same for any file size.
"""

from __future__ import annotations

import codecs
import re
import unicodedata
from dataclasses import dataclass

from charset_normalizer import from_bytes

from labscribe.tools.base import ToolError
from labscribe.tools.formats.signatures import IMAGE_KINDS, binary_kind
from labscribe.tools.messages import BINARY_NOT_TEXT, NUL_BYTES, USE_READ_IMAGE

# Detection looks at this much of the file and no more, whatever the file's size.
SNIFF_BYTES = 64 * 1024
# Below this many non-ASCII bytes charset-normalizer often mistakes GBK for Korean, Big5
# or UTF-16 (measured on short lab-style Chinese lines), so GB18030 wins without asking.
_CJK_GUESS_MIN_BYTES = 128

_ASCII = bytes(range(128))
_CJK_CHAR = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_HIGH_BYTE = re.compile(rb"[\x80-\xff]")
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

# Byte-order marks, longest first: the UTF-32 LE mark begins with the UTF-16 LE one.
_BOMS: tuple[tuple[bytes, str, str], ...] = (
    (codecs.BOM_UTF32_LE, "utf-32", "utf-32-le with BOM"),
    (codecs.BOM_UTF32_BE, "utf-32", "utf-32-be with BOM"),
    (codecs.BOM_UTF8, "utf-8-sig", "utf-8 with BOM"),
    (codecs.BOM_UTF16_LE, "utf-16", "utf-16-le with BOM"),
    (codecs.BOM_UTF16_BE, "utf-16", "utf-16-be with BOM"),
)


@dataclass(frozen=True)
class Encoding:
    """How to decode a file: the Python codec, and the name the header shows."""

    codec: str
    label: str


def text_encoding(prefix: bytes, *, at_eof: bool, name: str) -> str:
    """The codec that decodes a text file, judged from its first bytes (SNIFF_BYTES of them
    suffice) as read_file judges it; ToolError, naming the file `name`, if it looks binary."""
    return detect_encoding(prefix, at_eof, name).codec


def detect_encoding(prefix: bytes, at_eof: bool, name: str) -> Encoding:
    """The encoding of a text file judged from its first bytes, or ToolError if binary.

    Order matters: binary signatures, byte-order marks, BOM-less UTF-16 (by where NUL
    bytes fall), other NULs (binary), strict UTF-8, GB18030 (Chinese lab instruments
    commonly write GBK), and finally charset-normalizer for other legacy encodings.
    `at_eof` says `prefix` is the whole file, so a character cut at its end is an error.
    """
    kind = binary_kind(prefix)
    if kind is not None:
        hint = USE_READ_IMAGE if kind in IMAGE_KINDS else ""
        raise ToolError(BINARY_NOT_TEXT.format(name=name, kind=kind, hint=hint))
    for bom, codec, label in _BOMS:
        if prefix.startswith(bom):
            return Encoding(codec, label)
    utf16 = _utf16_without_bom(prefix)
    if utf16 is not None:
        return Encoding(utf16, f"{utf16} without BOM")
    if b"\x00" in prefix:
        raise ToolError(BINARY_NOT_TEXT.format(name=name, kind=NUL_BYTES, hint=""))
    if _decodes(prefix, "utf-8", at_eof):
        return Encoding("utf-8", "utf-8")
    gb = _decodes(prefix, "gb18030", at_eof)
    if gb and not _reads_as_chinese(prefix):
        codec = _single_byte(prefix)
        return Encoding(codec, f"{codec} (guessed)")
    if gb:
        # Big5, Shift-JIS and EUC-KR bytes usually decode as GB18030 too; only a
        # confident guess on a long enough sample overrides the likelier GB reading.
        non_ascii = len(prefix.translate(None, _ASCII))
        guess = _guess_codec(prefix) if non_ascii >= _CJK_GUESS_MIN_BYTES else None
        if guess in _OTHER_CJK_CODECS:
            return Encoding(guess, f"{guess} (guessed)")
        return Encoding("gb18030", "gb18030")
    european = _single_byte(prefix)
    high = len(prefix.translate(None, _ASCII))
    if _plausibility(prefix.decode(european, errors="replace")) >= PLAUSIBLE_SHARE * high:
        return Encoding(european, f"{european} (guessed)")
    guess = _guess_codec(prefix)
    if guess is None or guess in _GB_CODECS:
        # GB-family text that failed strict decoding has stray bad bytes: read it as GB.
        if guess in _GB_CODECS:
            return Encoding("gb18030", "gb18030 (some bytes invalid, replaced)")
        return Encoding("utf-8", "utf-8 (not recognised; invalid bytes replaced)")
    return Encoding(guess, f"{guess} (guessed)")


def _reads_as_chinese(prefix: bytes) -> bool:
    """Whether `prefix`, which decodes as GB18030, reads as Chinese. A Windows code page's
    accented letters stand alone between ASCII bytes ("Wyd\\xb3u\\xbfenie"), while GB
    writes every common character as two high bytes; read as GB, those lone bytes pair up
    with their neighbours into characters that stand alone or inside Latin words
    ("Obciążenie" becomes "Obci箍enie", "(°C)" becomes "(癈)"). Both signs must agree; in a
    text with only a few high bytes ("Größe"), the code page's reading must be all letters."""
    high = [match.start() for match in _HIGH_BYTE.finditer(prefix)]
    if not high:
        return True
    text = prefix.decode("gb18030", errors="replace")
    chinese = [match.start() for match in _CJK_CHAR.finditer(text)]
    cjk = set(chinese)

    def foreign(i: int) -> bool:
        around = [text[j] for j in (i - 1, i + 1) if 0 <= j < len(text)]
        latin = any(ch.isascii() and ch.isalpha() for ch in around)
        return latin or not (i - 1 in cjk or i + 1 in cjk)

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
