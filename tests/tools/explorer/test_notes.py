from pathlib import Path

from labscribe.tools.analysis.folder import analyse
from labscribe.tools.explorer.notes import NOTE_CHARS, read_notes
from labscribe.tools.tool import Folder


def test_analysis_quotes_the_notes_that_are_no_table_nor_settings(example: Path) -> None:
    notes = analyse(Folder(example)).lab_notes
    assert [note.path for note in notes] == ["logbook_gbk.txt", "notes_zh.md"]
    assert notes[0].text.splitlines()[0] == "实验四  RLC 串联谐振  仪器与操作记录"  # GBK, decoded
    assert not notes[0].cut


def test_read_notes_keeps_the_opening_of_a_long_note(tmp_path: Path) -> None:
    (tmp_path / "diary.md").write_text("".join(f"Day {i}: measured again.\n" for i in range(900)))
    [note] = read_notes(Folder(tmp_path), ["diary.md"])
    assert note.cut and len(note.text) <= NOTE_CHARS
    assert note.text.startswith("Day 0: measured again.")


def test_read_notes_leaves_out_what_cannot_be_read(tmp_path: Path) -> None:
    (tmp_path / "photo.md").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(64))
    (tmp_path / "empty.txt").write_text("")
    (tmp_path / "outside.md").symlink_to("/etc/hostname")
    assert read_notes(Folder(tmp_path), ["photo.md", "empty.txt", "outside.md", "x.csv"]) == []
