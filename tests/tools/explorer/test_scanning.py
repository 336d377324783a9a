from pathlib import Path

from labscribe.tools.explorer.scanning import (
    LISTED_PER_BUCKET,
    bucket_of,
    files_with_suffix,
    scan_folder,
)


def test_scan_buckets_by_extension(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    for name in ("a.csv", "sub/b.PDF", "c.png", "d.ini", "e.bin", "notes.md"):
        (tmp_path / name).write_text("12345")
    result = scan_folder(tmp_path)
    counts = {name: bucket.count for name, bucket in result.buckets.items()}
    assert counts == {"documents": 2, "images": 1, "data": 2, "other": 1}
    assert result.buckets["documents"].files == ["notes.md", "sub/b.PDF"]
    assert result.total_bytes == 30


def test_scan_never_follows_links_out(tmp_path: Path) -> None:
    root = tmp_path / "data"
    root.mkdir()
    (root / "a.csv").write_text("x")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.csv").write_text("x")
    (root / "out").symlink_to(outside)
    (root / "loop").symlink_to(root)
    result = scan_folder(root)
    assert result.total_files == 1
    assert result.skipped == ["loop/ (link to a folder inside)", "out (link outside the folder)"]


def test_scan_summary_lists_a_bounded_number_of_files(tmp_path: Path) -> None:
    for n in range(LISTED_PER_BUCKET + 3):
        (tmp_path / f"r{n:03}.csv").write_text("x")
    summary = scan_folder(tmp_path).summary()
    assert (
        summary.splitlines()[0]
        == f"{LISTED_PER_BUCKET + 3} files, {LISTED_PER_BUCKET + 3} B in all"
    )
    assert summary.endswith("… 3 more")


def test_bucket_of_unknown_extension() -> None:
    assert bucket_of("x.weird") == "other"


def test_files_with_suffix_sees_past_the_summary_listing(tmp_path: Path) -> None:
    for n in range(LISTED_PER_BUCKET + 10):
        (tmp_path / f"r{n:03}.csv").write_text("x")
    (tmp_path / "notes.md").write_text("x")
    found = files_with_suffix(tmp_path, frozenset({".csv"}))
    assert len(found) == LISTED_PER_BUCKET + 10
    assert files_with_suffix(tmp_path, frozenset({".csv"}), limit=3) == [
        "r000.csv",
        "r001.csv",
        "r002.csv",
    ]
