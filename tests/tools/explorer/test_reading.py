"""read_part (what read_file shows): paging, truncation, encodings, refusals and bounded
memory. Documents that are not text: test_reading_documents.py."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import pytest
from asuser import as_normal_user

from labscribe.tools.base import ToolError
from labscribe.tools.explorer.reading import read_part


def _numbered(path: Path, count: int) -> Path:
    """Write `count` lines `line 0` .. `line {count-1}` to `path`."""
    path.write_text("".join(f"line {i}\n" for i in range(count)), encoding="utf-8")
    return path


def _body(result: str) -> list[str]:
    """The file lines of a result: everything but the bracketed header and notes."""
    return [line for line in result.splitlines() if not line.startswith("[")]


def test_read_window_pages_through_consecutive_disjoint_windows(tmp_path: Path) -> None:
    path = _numbered(tmp_path / "notes.md", 450)

    first = read_part(path, offset=0, limit=200, display_name="notes.md").text
    second = read_part(path, offset=200, limit=200, display_name="notes.md").text

    assert first.startswith("[notes.md: lines 1-200 of 450, encoding utf-8]")
    assert first.endswith(
        '[more lines follow; continue with read_file(path="notes.md", offset=200)]'
    )
    assert second.startswith("[notes.md: lines 201-400 of 450, encoding utf-8]")
    assert second.endswith(
        '[more lines follow; continue with read_file(path="notes.md", offset=400)]'
    )
    assert _body(first) + _body(second) == [f"line {i}" for i in range(400)]


def test_read_window_last_window_has_no_continuation(tmp_path: Path) -> None:
    path = _numbered(tmp_path / "notes.md", 450)

    result = read_part(path, offset=400).text

    assert result.startswith("[notes.md: lines 401-450 of 450, encoding utf-8]")
    assert _body(result) == [f"line {i}" for i in range(400, 450)]
    assert "continue with" not in result


def test_read_window_continuation_repeats_a_non_default_limit(tmp_path: Path) -> None:
    path = _numbered(tmp_path / "notes.md", 100)

    result = read_part(path, offset=10, limit=5).text

    assert _body(result) == [f"line {i}" for i in range(10, 15)]
    assert 'continue with read_file(path="notes.md", offset=15, limit=5)]' in result


def test_read_window_truncates_at_max_chars_with_next_offset(tmp_path: Path) -> None:
    path = tmp_path / "notes.md"
    # 99 characters plus the newline: ten lines would need 1000 characters, 9 fit in 999.
    path.write_text("".join(f"{i:03d}" + "x" * 96 + "\n" for i in range(50)), encoding="utf-8")

    first = read_part(path, max_chars=999).text
    second = read_part(path, offset=9, max_chars=999).text

    assert len(_body(first)) == 9
    assert first.endswith(
        '[truncated at 999 characters; continue with read_file(path="notes.md", offset=9)]'
    )
    assert _body(second)[0].startswith("009x")


def test_read_window_cuts_a_line_longer_than_max_chars(tmp_path: Path) -> None:
    path = tmp_path / "wide.csv"
    path.write_text("a" * 20_000 + "\nnext line\n", encoding="utf-8")

    first = read_part(path, max_chars=100).text
    second = read_part(path, offset=1, max_chars=100).text

    assert _body(first) == ["a" * 100]
    assert first.endswith(
        "[line 1 was cut at 100 characters (the rest of that line cannot be shown); "
        'continue with read_file(path="wide.csv", offset=1)]'
    )
    assert _body(second) == ["next line"]


def test_read_window_decodes_gbk(tmp_path: Path) -> None:
    path = tmp_path / "仪器.txt"
    path.write_bytes("温度：25.3℃\n样品编号：A-01\n".encode("gbk"))

    result = read_part(path).text

    assert result.startswith("[仪器.txt: lines 1-2 of 2, encoding gb18030]")
    assert _body(result) == ["温度：25.3℃", "样品编号：A-01"]


def test_read_window_decodes_utf16_with_bom(tmp_path: Path) -> None:
    path = tmp_path / "export.txt"
    path.write_bytes("Temperatur: 25 °C\n温度\n".encode("utf-16"))  # native order, with BOM

    result = read_part(path).text

    assert "with BOM]" in result.splitlines()[0]
    assert _body(result) == ["Temperatur: 25 °C", "温度"]


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_read_window_decodes_utf16_without_bom(tmp_path: Path, codec: str) -> None:
    path = tmp_path / "export.txt"
    path.write_bytes("Time,Voltage\r\n0.0,3.30\r\n0.1,3.31\r\n".encode(codec))

    result = read_part(path).text

    assert result.startswith(f"[export.txt: lines 1-3 of 3, encoding {codec} without BOM]")
    assert _body(result) == ["Time,Voltage", "0.0,3.30", "0.1,3.31"]


def test_read_window_strips_utf8_bom(tmp_path: Path) -> None:
    path = tmp_path / "notes.md"
    path.write_bytes("\ufeffTitle: Messung\nzweite Zeile\n".encode())

    result = read_part(path).text

    assert result.startswith("[notes.md: lines 1-2 of 2, encoding utf-8 with BOM]")
    assert _body(result) == ["Title: Messung", "zweite Zeile"]


def test_read_window_guesses_a_legacy_latin_encoding(tmp_path: Path) -> None:
    path = tmp_path / "protokoll.txt"
    line = "Müller maß die Temperatur: 25 °C, die Größe ändert sich. Übung.\n"
    path.write_bytes((line * 5).encode("cp1252"))

    result = read_part(path).text

    assert "(guessed)]" in result.splitlines()[0]
    assert _body(result)[0] == line.rstrip("\n")


def test_read_window_refuses_nul_bytes_as_binary(tmp_path: Path) -> None:
    path = tmp_path / "dump.dat"
    path.write_bytes(bytes(range(256)) * 4)

    with pytest.raises(ToolError, match=r"dump\.dat looks like a binary file \(contains NUL"):
        read_part(path)


def test_read_window_reports_permission_denied(user_dir: Path) -> None:
    # chmod 000 proves nothing as root (root reads it anyway): the read runs as a normal user.
    path = _numbered(user_dir / "secret.txt", 3)
    path.chmod(0)
    code = (
        "from pathlib import Path\n"
        "from labscribe.tools.base import ToolError\n"
        "from labscribe.tools.explorer.reading import read_part\n"
        "try:\n"
        f"    read_part(Path({str(path)!r}))\n"
        "except ToolError as exc:\n"
        "    print(exc)\n"
    )
    done = as_normal_user(code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "cannot read secret.txt: permission denied"


def test_read_window_refuses_a_directory(tmp_path: Path) -> None:
    (tmp_path / "runs").mkdir()

    with pytest.raises(ToolError, match="cannot read runs: it is a directory; use list_dir"):
        read_part(tmp_path / "runs")


def test_read_window_streams_a_huge_file_in_bounded_memory(tmp_path: Path) -> None:
    path = tmp_path / "huge.csv"
    # ~200 MB of real CSV lines, written in 1 MB chunks: well under a second on any disk
    # cache, and a whole-file read would show up in tracemalloc as >200 MB.
    chunk = "".join(f"{i:09d},23.456,1.2345,ok\n" for i in range(40_000)).encode()
    with path.open("wb") as out:
        for _ in range(190):
            out.write(chunk)
    size = path.stat().st_size
    assert size > 190 * 1024 * 1024

    try:
        tracemalloc.start()
        try:
            result = read_part(path, offset=1000, limit=50).text
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
    finally:
        path.unlink()  # pytest keeps recent tmp_path folders; do not leave 200 MB behind

    assert peak < 20 * 1024 * 1024
    # Too big to count cheaply: the header gives a lower bound and the size instead.
    megabytes = size / 1024 / 1024
    assert result.startswith(
        f"[huge.csv: lines 1001-1050 of ≥1051, {megabytes:.1f} MB, encoding utf-8]"
    )
    assert _body(result)[0] == "000001000,23.456,1.2345,ok"
    assert result.endswith('continue with read_file(path="huge.csv", offset=1050, limit=50)]')


def test_read_window_cuts_a_huge_single_line_in_bounded_memory(tmp_path: Path) -> None:
    # Minified JSON or a newline-less instrument dump: one line of ~50 MB.
    path = tmp_path / "dump.json"
    path.write_bytes(b'{"a": [' + b"1.2345, " * 6_000_000 + b"0]}")

    try:
        tracemalloc.start()
        try:
            result = read_part(path).text
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
    finally:
        path.unlink()

    assert peak < 20 * 1024 * 1024
    assert result.startswith("[dump.json: lines 1-1 of 1, encoding utf-8]")
    assert result.endswith(
        "[line 1 was cut at 7000 characters (the rest of that line cannot be shown)]"
    )


def test_read_window_reports_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "empty.txt"
    path.write_bytes(b"")

    assert read_part(path).text == "[empty.txt: empty file (0 bytes)]"


def test_read_window_reports_line_count_when_offset_is_past_end(tmp_path: Path) -> None:
    path = _numbered(tmp_path / "notes.md", 120)

    with pytest.raises(ToolError) as error:
        read_part(path, offset=500)

    assert str(error.value) == (
        "offset 500 is past the end of notes.md: it has 120 lines (offsets 0-119); "
        'read its last lines with read_file(path="notes.md", offset=0)'
    )


def test_read_window_rejects_negative_offset(tmp_path: Path) -> None:
    path = _numbered(tmp_path / "notes.md", 3)

    with pytest.raises(ToolError, match=r"offset must be 0 or more \(0 is the first line\)"):
        read_part(path, offset=-1)


def test_read_window_rejects_limit_below_one(tmp_path: Path) -> None:
    path = _numbered(tmp_path / "notes.md", 3)

    with pytest.raises(ToolError, match="limit must be at least 1 line, got 0"):
        read_part(path, limit=0)


def test_read_window_caps_limit_at_2000_lines(tmp_path: Path) -> None:
    path = _numbered(tmp_path / "notes.md", 3000)

    result = read_part(path, limit=5000, max_chars=1_000_000).text

    assert len(_body(result)) == 2000
    assert 'continue with read_file(path="notes.md", offset=2000, limit=2000)]' in result


def test_read_window_normalises_crlf_line_endings(tmp_path: Path) -> None:
    path = tmp_path / "log.txt"
    path.write_bytes(b"first\r\nsecond\rthird\n")

    result = read_part(path).text

    assert _body(result) == ["first", "second", "third"]
