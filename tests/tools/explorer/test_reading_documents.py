"""read_part (what read_file shows) on documents that are not text: a PDF per page, one
without text, encrypted, broken or whose extraction spins; a picture and a spreadsheet,
each pointed to its tool."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from asuser import as_normal_user
from pypdf import PdfWriter

from labscribe.tools.base import ToolError
from labscribe.tools.explorer.reading import read_part
from labscribe.tools.messages import PDF_TIMEOUT_ERROR


def _tiny_pdf(pages: list[list[str]]) -> bytes:
    """A minimal valid PDF: one page per entry, each line drawn in Helvetica."""
    count = len(pages)
    kids = " ".join(f"{4 + 2 * i} 0 R" for i in range(count))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        f"<< /Type /Pages /Kids [{kids}] /Count {count} >>".encode(),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    for i, lines in enumerate(pages):
        shows = " 0 -16 Td ".join(f"({text}) Tj" for text in lines)
        content = f"BT /F1 12 Tf 72 720 Td {shows} ET".encode()
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
            b"/Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>" % (5 + 2 * i)
        )
        objects.append(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content))
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)


def test_read_window_extracts_pdf_text_per_page(tmp_path: Path) -> None:
    path = tmp_path / "report.pdf"
    path.write_bytes(_tiny_pdf([["Sample A1", "Temperature 25 C"], ["Second page text"]]))

    result = read_part(path).text

    assert result.startswith("[report.pdf: lines 1-")
    assert ", PDF with 2 pages, text extracted by pypdf]" in result.splitlines()[0]
    body = [line for line in result.splitlines() if not line.startswith("[")]
    assert body[0] == "--- page 1 ---"
    assert "Sample A1" in body
    assert "Temperature 25 C" in body
    assert body.index("--- page 2 ---") > body.index("Temperature 25 C")
    assert body[-1] == "Second page text"


def test_read_window_pdf_without_text_suggests_read_image(tmp_path: Path) -> None:
    writer = PdfWriter()
    writer.add_blank_page(width=200, height=200)
    buffer = io.BytesIO()
    writer.write(buffer)
    path = tmp_path / "scan.pdf"
    path.write_bytes(buffer.getvalue())

    result = read_part(path).text

    assert "scan.pdf: PDF with 1 page but no extractable text" in result
    assert "read_image" in result


def test_read_window_refuses_encrypted_pdf(tmp_path: Path) -> None:
    writer = PdfWriter()
    writer.add_blank_page(width=200, height=200)
    writer.encrypt("secret", algorithm="RC4-128")
    buffer = io.BytesIO()
    writer.write(buffer)
    path = tmp_path / "locked.pdf"
    path.write_bytes(buffer.getvalue())

    with pytest.raises(ToolError, match=r"locked\.pdf is a password-protected PDF"):
        read_part(path)


def test_read_window_refuses_broken_pdf(tmp_path: Path) -> None:
    path = tmp_path / "broken.pdf"
    path.write_bytes(b"%PDF-1.4\nthis is not really a PDF\n")

    with pytest.raises(ToolError, match=r"cannot parse broken\.pdf as a PDF"):
        read_part(path)


def test_read_window_refuses_png_and_points_to_read_image(tmp_path: Path) -> None:
    path = tmp_path / "notes.bin"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(64))

    with pytest.raises(ToolError) as error:
        read_part(path)

    assert str(error.value) == (
        "notes.bin looks like a binary file (PNG image), not text; use read_image for images"
    )


def test_read_window_names_xlsx_without_mentioning_read_image(tmp_path: Path) -> None:
    path = tmp_path / "data.xlsx"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        archive.writestr("xl/workbook.xml", "<workbook/>")

    with pytest.raises(ToolError) as error:
        read_part(path)

    assert (
        str(error.value) == "data.xlsx looks like a binary file (Excel workbook (xlsx)), not text"
    )


def test_a_pdf_whose_text_extraction_spins_is_stopped_at_its_bound(user_dir: Path) -> None:
    # pypdf walks a file in Python: text extraction that holds the interpreter (here a stand-in
    # for it) is a worker killed at PDF_SECONDS, not a read that never answers; in a process
    # of its own, as a normal user, so a regression fails by the timeout instead of a hang
    (user_dir / "sheet.pdf").write_bytes(_tiny_pdf([["Task 1: fit a line"]]))
    code = f"""
import time
from pathlib import Path
from labscribe.tools.explorer import reading
from labscribe.tools.base import ToolError
reading.PDF_SECONDS = 1
reading.read_pdf = lambda *args: str(9**9**9)
started = time.monotonic()
try:
    reading.read_part(Path({str(user_dir / "sheet.pdf")!r}))
except ToolError as exc:
    print(exc)
print(time.monotonic() - started < 10)
"""
    done = as_normal_user(code, owns=[user_dir], timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        PDF_TIMEOUT_ERROR.format(name="sheet.pdf", seconds=1),
        "True",
    ], done.stdout
