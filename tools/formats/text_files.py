"""A text file's tables: delimited text (CSV, TSV, instrument exports such as Gamry .DTA and
EC-Lab .mpt) read from a bounded prefix, a vendor's own layout, or one column of numbers.
"""

from __future__ import annotations

from labscribe.tools.base import human_size
from labscribe.tools.formats.encoding import SNIFF_BYTES, text_encoding
from labscribe.tools.formats.grid import tables_in
from labscribe.tools.formats.readers import NoTable, Read, file_prefix
from labscribe.tools.formats.single_column import one_column
from labscribe.tools.formats.text_tables import text_grid
from labscribe.tools.formats.vendor_readers import read_vendor
from labscribe.tools.tool import Folder

# What of a text file is read, whatever its shape: a 40 MB single line or 300,000 columns
# cost no more than this. 8 MB is about half a million rows of a few columns.
MAX_TABLE_BYTES = 8 * 1024 * 1024


def read_text(folder: Folder, rel: str) -> Read:
    """The tables of a text file, from its first MAX_TABLE_BYTES."""
    raw, size = file_prefix(folder, rel, MAX_TABLE_BYTES)
    if not raw:
        raise NoTable(f"{rel} is empty")
    codec = text_encoding(raw[:SNIFF_BYTES], at_eof=len(raw) >= size, name=rel)
    text = raw.decode(codec, errors="replace")
    notes = []
    if len(raw) < size:
        text = text[: text.rfind("\n") + 1]  # the last line was cut by the bound
        notes.append(f"only the first {human_size(MAX_TABLE_BYTES)} of {human_size(size)} read")
    if not text.strip():
        raise NoTable(f"{rel} has no complete line of text in its first {human_size(len(raw))}")
    if vendor := read_vendor(text):  # a layout of the vendor's own, not a table under a header
        return Read(vendor.found, vendor.metadata, codec, vendor.delimiter, ".", "text",
                    notes + vendor.notes, len(vendor.found))  # fmt: skip
    read = text_grid(text, notes)
    found, metadata, blocks = tables_in(read[0]) if read is not None else ([], [], 0)
    if not found and (single := one_column(text, notes, codec)) is not None:
        return single  # a stopwatch's timings, one to a line
    if read is None:
        raise NoTable(f"{rel} has no lines of delimited columns")
    layout = read[1]
    return Read(found, metadata, codec, layout.label, layout.decimal, "text", notes, blocks)
