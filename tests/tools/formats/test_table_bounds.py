"""What reading a table refuses or bounds: fields, columns and lines past any sane size,
files that hold no table, links out of the folder or swapped in after the check, files a
normal user may not read. Each refusal is a clear message; nothing is read outside the
folder."""

import time
import tracemalloc
from pathlib import Path

import pytest
from asuser import as_normal_user
from table_cases import one_table

from labscribe.tools.base import ToolError
from labscribe.tools.formats.tables import MAX_COLUMNS, NoTable, read_data
from labscribe.tools.tool import Folder


def test_read_tables_reads_past_a_128_kib_field(tmp_path: Path) -> None:
    rows = [f"{i},{2 * i},{3 * i}" for i in range(10)]
    rows.insert(3, "3," + "x" * (128 * 1024) + ",9")
    (tmp_path / "field.csv").write_text("a,b,c\n" + "\n".join(rows) + "\n")
    table = one_table(tmp_path, "field.csv")
    assert table.summary.rows == 11
    assert table.frame["b"].isna().tolist() == [False] * 3 + [True] + [False] * 7


def test_read_tables_keeps_the_first_columns_of_300000(tmp_path: Path) -> None:
    width = 300_000
    lines = [",".join(f"c{i}" for i in range(width))]
    lines += [",".join(str(i + j) for i in range(width)) for j in range(3)]
    (tmp_path / "wide.csv").write_text("\n".join(lines) + "\n")
    started = time.perf_counter()
    table = one_table(tmp_path, "wide.csv")
    assert time.perf_counter() - started < 5
    assert len(table.summary.columns) == MAX_COLUMNS
    assert table.summary.notes == [f"{width} columns; the first {MAX_COLUMNS} read"]


def test_read_tables_reads_a_40_mb_line_in_bounded_memory(tmp_path: Path) -> None:
    with (tmp_path / "line.csv").open("w") as out:
        for _ in range(40):
            out.write("1,2," * (256 * 1024))
    tracemalloc.start()
    try:
        with pytest.raises(NoTable) as refused:
            read_data(Folder(tmp_path), "line.csv")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert str(refused.value) == "line.csv has no complete line of text in its first 8.0 MB"
    assert peak < 32 * 1024 * 1024  # the 8 MB prefix, decoded once


def test_read_tables_reads_the_prefix_of_a_long_table(tmp_path: Path) -> None:
    rows = "".join(f"{i},{i % 7}\n" for i in range(1_500_000))
    (tmp_path / "long.csv").write_text("n,v\n" + rows)
    table = one_table(tmp_path, "long.csv")
    assert table.summary.notes == [
        "only the first 8.0 MB of 13.2 MB read",
        "only the first 200000 lines read",
    ]
    assert table.summary.rows == 200_000 - 1  # the line cap binds before the byte cap


def test_read_tables_reads_an_unbalanced_quote_as_text(tmp_path: Path) -> None:
    (tmp_path / "quote.csv").write_text('a,b\n1,"2\n3,4\n5,6\n7,8\n')
    assert one_table(tmp_path, "quote.csv").frame["b"].tolist() == [2.0, 4.0, 6.0, 8.0]


def test_read_tables_finds_no_table_in_prose(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("Resonance near 5 kHz.\nQuality factor about 5.\n")
    with pytest.raises(NoTable, match=r"^notes\.txt has no run of 3 or more numeric rows$"):
        read_data(Folder(tmp_path), "notes.txt")


def test_read_tables_refuses_an_empty_file(tmp_path: Path) -> None:
    (tmp_path / "empty.csv").write_text("")
    with pytest.raises(NoTable, match=r"^empty\.csv is empty$"):
        read_data(Folder(tmp_path), "empty.csv")


def test_read_tables_refuses_a_binary_file(tmp_path: Path) -> None:
    (tmp_path / "dump.dat").write_bytes(bytes(range(256)) * 8)
    with pytest.raises(ToolError, match=r"dump\.dat looks like a binary file \(contains NUL"):
        read_data(Folder(tmp_path), "dump.dat")


def test_read_tables_refuses_a_link_out_of_the_folder(tmp_path: Path) -> None:
    root = tmp_path / "data"
    root.mkdir()
    (tmp_path / "secret.csv").write_text("a,b\n1,2\n3,4\n5,6\n")
    (root / "sweep.csv").symlink_to(tmp_path / "secret.csv")
    with pytest.raises(ToolError, match="outside the data folder"):
        read_data(Folder(root), "sweep.csv")


class SwappingFolder(Folder):
    """A folder whose file is swapped for a link out just after the path guard's check."""

    def resolve(self, requested: str | None) -> Path:
        checked = super().resolve(requested)
        checked.unlink()
        checked.symlink_to(self.root.parent / "secret.csv")
        return checked


def test_read_tables_refuses_a_link_swapped_in_after_the_check(tmp_path: Path) -> None:
    root = tmp_path / "data"
    root.mkdir()
    (tmp_path / "secret.csv").write_text("a,b\n1,2\n3,4\n5,6\n")
    (root / "sweep.csv").write_text("f,V\n1,2\n2,3\n3,4\n")
    with pytest.raises(ToolError, match="outside the data folder"):
        read_data(SwappingFolder(root), "sweep.csv")


def test_read_tables_says_permission_denied_to_a_normal_user(user_dir: Path) -> None:
    # chmod 000 proves nothing as root (root reads it anyway): the read runs as a normal user.
    (user_dir / "secret.csv").write_text("a,b\n1,2\n3,4\n5,6\n")
    (user_dir / "secret.csv").chmod(0)
    code = (
        "from pathlib import Path\n"
        "from labscribe.tools.base import ToolError\n"
        "from labscribe.tools.tool import Folder\n"
        "from labscribe.tools.formats.tables import read_data\n"
        "try:\n"
        f"    read_data(Folder(Path({str(user_dir)!r})), 'secret.csv').tables\n"
        "except ToolError as exc:\n"
        "    print(exc)\n"
    )
    done = as_normal_user(code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "cannot read secret.csv: permission denied"
