"""The text of a PDF, for read_file: extracted page by page with pypdf, within limits.

Lab folders hold assignment sheets and manuals as PDFs, whose text the model needs as much
as a CSV's. A PDF is also the easiest file to make expensive (a small stream that inflates
to gigabytes), so extraction runs under decoding limits and stops at the window shown.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import BinaryIO

import pypdf
from pypdf import PdfReader
from pypdf.errors import DependencyError, LimitReachedError

from labscribe.tools.base import Answer, ToolError
from labscribe.tools.explorer.text_window import check_offset, render, take_window
from labscribe.tools.messages import PDF_DAMAGED, PDF_ENCRYPTED, PDF_PASSWORD

# What one PDF may cost to decode (pypdf's defaults allow 75 MB per stream). A page of text
# is kilobytes of content stream; 8 MB is thousands of pages' worth, and its text extraction
# stays well under a second.
_PDF_BYTES = 8 * 1024 * 1024
# What one read of a PDF reads of the file at most. pypdf looks for the trailer backwards a
# byte at a time in Python, which a file of zeros makes it do to its start: 16 MB is seconds
# at that pace, and holds the xref, page tree and text of thousands of pages read forwards.
PDF_READ_BYTES = 16 * 1024 * 1024
# What one read of a PDF may take, in CPU and on the wall clock, in its worker
# (tools.worker): its decoding limits bound the bytes, not the Python that walks them.
PDF_SECONDS = 20
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


def read_pdf(raw: BinaryIO, name: str, offset: int, limit: int, max_chars: int) -> Answer:
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
            raise ToolError(PDF_PASSWORD.format(name=name))
        pages = len(reader.pages)
    except ToolError:
        raise
    except DependencyError as exc:
        raise ToolError(PDF_ENCRYPTED.format(name=name, reason=exc)) from exc
    except Exception as exc:  # pypdf signals broken files with many exception types
        raise ToolError(PDF_DAMAGED.format(name=name, reason=exc)) from exc

    pdf = _PdfText(reader, max_chars)
    try:
        # Counting the rest would mean extracting every page: not cheap, so not done.
        window = take_window(pdf.lines(), offset, limit, max_chars, count_rest=False)
    except Exception as exc:  # a broken page tree fails while pages are being iterated
        raise ToolError(PDF_DAMAGED.format(name=name, reason=exc)) from exc
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
    check_offset(window, name, offset, limit)
    return render(
        name, window, offset, limit, max_chars, f", PDF with {pages_note}, text extracted by pypdf"
    )
