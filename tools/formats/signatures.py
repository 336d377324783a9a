"""Binary file kinds told from their first bytes: the one table of file signatures.

A file's suffix is whatever its owner typed, so read_file (which must refuse binary data
before decoding it as text) and read_image (which must know a picture it can decode) both
judge a file by its signature instead, and by the same table, so they never disagree on
what a file is.
"""

from __future__ import annotations

HDF5_SIGNATURE = b"\x89HDF\r\n\x1a\n"
"""HDF5's, at the start of the file or after a user block (MATLAB v7.3 writes one)."""
MATLAB_73_HEADER = b"MATLAB 7."
"""The text a MATLAB v7.3 file's user block starts with: the file is HDF5."""
PDF_SIGNATURE = b"%PDF-"
"""Read as a document (read_file pages its text), never refused as binary data."""
ZIP_SIGNATURE = b"PK\x03\x04"
# Only signatures that cannot plausibly start a text file are listed; NUL bytes catch the
# rest.
_MAGIC: tuple[tuple[bytes, str], ...] = (
    (b"\x89PNG\r\n\x1a\n", "PNG image"),
    (b"\xff\xd8\xff", "JPEG image"),
    (b"GIF87a", "GIF image"),
    (b"GIF89a", "GIF image"),
    (b"II*\x00", "TIFF image"),
    (b"MM\x00*", "TIFF image"),
    (ZIP_SIGNATURE, "ZIP archive"),
    (b"PK\x05\x06", "ZIP archive"),
    (b"\x1f\x8b", "gzip archive"),
    (b"\xfd7zXZ\x00", "xz archive"),
    (b"7z\xbc\xaf\x27\x1c", "7-Zip archive"),
    (b"Rar!\x1a\x07", "RAR archive"),
    (b"\x7fELF", "ELF executable"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "legacy Office document (xls/doc/ppt)"),
    (b"SQLite format 3\x00", "SQLite database"),
    (HDF5_SIGNATURE, "HDF5 data file"),
    (b"\x93NUMPY", "NumPy array"),
)
# Office Open XML files are ZIPs; the first member names, stored uncompressed near the
# start, say which kind.
_ZIP_KINDS: tuple[tuple[bytes, str], ...] = (
    (b"xl/", "Excel workbook (xlsx)"),
    (b"word/", "Word document (docx)"),
    (b"ppt/", "PowerPoint presentation (pptx)"),
)
# RIFF containers name their kind in bytes 8 to 12.
_RIFF_KINDS: tuple[tuple[bytes, str], ...] = ((b"WEBP", "WebP image"), (b"WAVE", "WAV audio"))
# The header sizes a BMP's DIB header can have (core, info, v2-v5).
_BMP_DIB_SIZES = frozenset({12, 40, 52, 56, 64, 108, 124})

IMAGE_KINDS = frozenset(
    {"PNG image", "JPEG image", "GIF image", "TIFF image", "WebP image", "BMP image"}
)
"""The kinds read_image decodes."""
SIGNATURE_BYTES = 32
"""Enough of a file to recognise every signature (though not which Office document a ZIP
is: its first member's name may lie further in)."""


def binary_kind(prefix: bytes) -> str | None:
    """The kind of binary file `prefix` starts, if it carries a known signature."""
    for magic, kind in _MAGIC:
        if prefix.startswith(magic):
            if kind == "ZIP archive":
                for member, office_kind in _ZIP_KINDS:
                    if member in prefix:
                        return office_kind
            return kind
    if prefix.startswith(b"RIFF"):
        for riff, kind in _RIFF_KINDS:
            if prefix[8:12] == riff:
                return kind
    # "BM" alone could start a text file; the DIB header sizes that follow cannot.
    if prefix.startswith(b"BM") and int.from_bytes(prefix[14:18], "little") in _BMP_DIB_SIZES:
        return "BMP image"
    return None
