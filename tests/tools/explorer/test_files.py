import os
import threading
import time
from pathlib import Path

import pytest
from asuser import as_normal_user

from labscribe.guards.detectors import ToolClass
from labscribe.tools import DECLARED_CLASSES, EXPLORE_TOOLS, Folder
from labscribe.tools.base import human_size
from labscribe.tools.explorer import reading
from labscribe.tools.explorer.byte_budget import READ_LINES
from labscribe.tools.explorer.files import LIST_DIR, LIST_LIMIT, READ_FILE, ListDirArgs
from labscribe.tools.explorer.finish import FINISH_EXPLORATION
from labscribe.tools.explorer.fitting import FIT
from labscribe.tools.formats.pdf_text import PDF_READ_BYTES
from labscribe.tools.messages import (
    BEYOND_BUDGET_ERROR,
    HOLE_ERROR,
    PATH_OUTSIDE_ERROR,
    TIMEOUT_ERROR,
)
from labscribe.tools.tool import Tool


@pytest.fixture
def folder(tmp_path: Path) -> Folder:
    root = tmp_path / "data"
    (root / "raw").mkdir(parents=True)
    (root / "raw" / "sweep.csv").write_text("f,V\n1,2\n")
    (root / "notes.md").write_text("hello\n")
    (tmp_path / "secret.txt").write_text("top secret\n")
    (root / "escape.txt").symlink_to(tmp_path / "secret.txt")
    return Folder(root)


def test_list_dir_lists_entries_with_sizes(folder: Folder) -> None:
    outcome = LIST_DIR.invoke(folder, {"path": "."})
    assert outcome.ok
    assert outcome.content.splitlines() == [
        ".: 3 entries",
        "escape.txt -> link outside the data folder (not readable)",
        "notes.md  (6 B)",
        "raw/",
    ]


def test_list_dir_caps_long_listings(tmp_path: Path) -> None:
    for n in range(LIST_LIMIT + 5):
        (tmp_path / f"f{n:04}.txt").write_text("x")
    outcome = LIST_DIR.invoke(Folder(tmp_path), {})
    assert outcome.content.splitlines()[-1] == "... 5 more entries not shown"


@pytest.mark.parametrize("path", ["..", "../secret.txt", "/etc", "escape.txt", "raw/../../"])
def test_tools_refuse_paths_outside_as_readable_errors(folder: Folder, path: str) -> None:
    for tool in (LIST_DIR, READ_FILE):
        outcome = tool.invoke(folder, {"path": path})
        assert not outcome.ok
        assert outcome.content == "Error: " + PATH_OUTSIDE_ERROR.format(path=path)


def test_read_file_reads_inside(folder: Folder) -> None:
    outcome = READ_FILE.invoke(folder, {"path": "raw/sweep.csv"})
    assert outcome.ok
    assert "1,2" in outcome.content
    assert "raw/sweep.csv" in outcome.content


def test_read_file_on_a_folder_points_to_list_dir(folder: Folder) -> None:
    outcome = READ_FILE.invoke(folder, {"path": "raw"})
    assert outcome.content == "Error: 'raw' is a folder; list it with list_dir"


def test_read_file_missing_path_argument_is_a_readable_error(folder: Folder) -> None:
    outcome = READ_FILE.invoke(folder, {"offset": 3})
    assert not outcome.ok
    assert outcome.content.startswith(
        "Error: invalid arguments for read_file: path: Field required"
    )


def test_version_changes_when_the_target_changes(folder: Folder) -> None:
    before = READ_FILE.prepare(folder, {"path": "notes.md"}).version
    (folder.root / "notes.md").write_text("hello again, longer\n")
    assert READ_FILE.prepare(folder, {"path": "notes.md"}).version != before


def test_version_is_none_for_invalid_targets(folder: Folder) -> None:
    assert READ_FILE.prepare(folder, {"path": "../secret.txt"}).version is None
    assert READ_FILE.prepare(folder, {"offset": "x"}).version is None


def test_every_tool_declares_its_class_and_one_is_terminal() -> None:
    assert DECLARED_CLASSES == {
        "list_dir": ToolClass.READ_ONLY,
        "read_file": ToolClass.READ_ONLY,
        "read_image": ToolClass.READ_ONLY,
        "fit": ToolClass.READ_ONLY,
        "derive": ToolClass.READ_ONLY,
        "make_figure": ToolClass.MUTATING,
        "finish_exploration": ToolClass.TERMINAL,
    }


def test_finish_exploration_requires_the_three_slots(folder: Folder) -> None:
    outcome = FINISH_EXPLORATION.invoke(folder, {"experiment": "RLC"})
    assert not outcome.ok
    assert "goal: Field required" in outcome.content
    assert "key_findings: Field required" in outcome.content


def test_finish_exploration_accepts_a_single_finding_string(folder: Folder) -> None:
    outcome = FINISH_EXPLORATION.invoke(
        folder, {"experiment": "RLC", "goal": "f0", "key_findings": "f0 = 5.03 kHz"}
    )
    assert outcome.ok
    assert outcome.args.key_findings == ["f0 = 5.03 kHz"]


def test_tool_schemas_keep_the_spec_signatures() -> None:
    schemas = {t.name: t.openai_schema()["function"]["parameters"] for t in EXPLORE_TOOLS}
    assert list(schemas) == [
        "list_dir", "read_file", "read_image", "fit", "derive", "make_figure",
        "finish_exploration",
    ]  # fmt: skip
    assert schemas["fit"]["required"] == ["path", "x", "y", "formula"]  # SPEC section 2
    assert schemas["derive"]["required"] == ["name", "expression"]
    assert schemas["derive"]["properties"]["unit"]["default"] == ""
    assert schemas["make_figure"]["required"] == ["code", "name"]
    assert schemas["make_figure"]["properties"]["caption"]["default"] == ""
    assert schemas["read_image"]["required"] == ["path"]
    assert schemas["read_file"]["properties"]["offset"]["default"] == 0
    assert schemas["read_file"]["properties"]["limit"]["default"] == 200
    assert schemas["read_file"]["required"] == ["path"]
    assert schemas["list_dir"]["properties"]["path"]["default"] == "."
    assert schemas["finish_exploration"]["required"] == ["experiment", "goal", "key_findings"]
    assert set(schemas["finish_exploration"]["properties"]) == {
        "experiment", "goal", "key_findings", "requirements", "method", "template_report",
    }  # fmt: skip


def test_tool_that_overruns_its_time_limit_answers_with_a_timeout(folder: Folder) -> None:
    def stuck(folder: Folder, args: ListDirArgs) -> str:
        time.sleep(5)
        return "too late"

    slow = Tool(
        name="slow",
        description="",
        args_schema=ListDirArgs,
        run=stuck,
        tool_class=ToolClass.READ_ONLY,
    )
    started = time.monotonic()
    outcome = slow.invoke(folder, {}, timeout=0.2)
    assert time.monotonic() - started < 2
    assert not outcome.ok
    assert outcome.content == TIMEOUT_ERROR.format(tool="slow", seconds=0.2)


def test_tool_errors_inside_the_time_limit_are_still_tool_errors(folder: Folder) -> None:
    outcome = READ_FILE.invoke(folder, {"path": "../secret.txt"}, timeout=5)
    assert outcome.content == "Error: " + PATH_OUTSIDE_ERROR.format(path="../secret.txt")


def test_read_file_stops_at_a_huge_hole_where_it_begins(folder: Folder) -> None:
    # Text past the encoding sniff, then 50 GB that read as zeros and were never written:
    # the read stops where the hole begins (SEEK_DATA), instead of reading zeros for seconds
    sparse = folder.root / "sparse.csv"
    with sparse.open("w") as handle:
        handle.write("t,V\n" + "0,1\n" * 20_000)
        handle.truncate(50 * 2**30)
    start = os.lseek(os.open(sparse, os.O_RDONLY), 0, os.SEEK_HOLE)
    assert start < 2**20  # the file system keeps the hole (ext4, xfs, tmpfs, btrfs do)
    last = READ_FILE.invoke(folder, {"path": "sparse.csv", "offset": 19_990}, timeout=30)
    assert last.ok, last.content
    header = last.content.splitlines()[0]
    assert header == (
        f"[sparse.csv: lines 19991-{header.split('-')[1].split()[0]} of ≥"
        f"{header.split('≥')[1].split(',')[0]}, 50.0 GB; a hole of "
        f"{human_size(50 * 2**30 - start)} (no text) from byte {start:,} on is not read, "
        "encoding utf-8]"
    )
    assert "0,1" in last.content
    beyond = READ_FILE.invoke(folder, {"path": "sparse.csv", "offset": 40_000}, timeout=30)
    assert beyond.content == "Error: " + HOLE_ERROR.format(
        line=40_001, name="sparse.csv", start=start, hole=human_size(50 * 2**30 - start)
    )


def test_read_file_answers_past_a_line_without_end_within_its_byte_budget(
    folder: Folder, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a line longer than one call's budget (written, not a hole): the next line is beyond it
    monkeypatch.setattr(reading, "READ_BYTES", 4 * 2**20)
    (folder.root / "long.csv").write_text("t,V\n" + "0,1\n" * 20_000 + "x" * 6 * 2**20 + "\n1,2\n")
    cut = READ_FILE.invoke(folder, {"path": "long.csv", "offset": 20_001}, timeout=30)
    assert cut.ok and "was cut at 7000 characters" in cut.content, cut.content[:300]
    beyond = READ_FILE.invoke(folder, {"path": "long.csv", "offset": 20_002}, timeout=30)
    assert beyond.content == "Error: " + BEYOND_BUDGET_ERROR.format(
        budget=f"4.0 MB or {READ_LINES:,} lines",
        name="long.csv",
        reached=20_002,
        line=20_003,
        offset=20_001,
    )


def test_read_file_decodes_at_most_its_budget_of_lines(
    folder: Folder, monkeypatch: pytest.MonkeyPatch
) -> None:
    # short lines cost by their count (a logger filled by `yes`): a far offset stops there
    monkeypatch.setattr(reading, "READ_LINES", 60_000)
    (folder.root / "yes.txt").write_text("y\n" * 600_000)  # past the size counted whole
    far = READ_FILE.invoke(folder, {"path": "yes.txt", "offset": 10**9}, timeout=30)
    assert far.content == "Error: " + BEYOND_BUDGET_ERROR.format(
        budget="256.0 MB or 60,000 lines",
        name="yes.txt",
        reached=60_000,
        line=10**9 + 1,
        offset=59_999,
    )
    # where the error says to go on, the lines are read, and from the line index kept
    # where this call stopped, the next goes on
    on = READ_FILE.invoke(folder, {"path": "yes.txt", "offset": 59_999}, timeout=30)
    assert on.ok and on.content.startswith("[yes.txt: lines 60000-60199 of"), on.content[:99]
    on = READ_FILE.invoke(folder, {"path": "yes.txt", "offset": 110_000}, timeout=30)
    assert on.ok and on.content.startswith("[yes.txt: lines 110001-110200 of"), on.content[:99]


def test_read_file_of_a_growing_file_answers_from_what_was_there(folder: Folder) -> None:
    log = folder.root / "logger.csv"
    log.write_text("t,V\n")
    stop = threading.Event()

    def append() -> None:  # a logger that never stops, held to 1 GB of disk if it did
        with log.open("a") as handle:
            for _ in range(16384):
                if stop.is_set():
                    return
                handle.write("1,2\n" * 2**14)

    writer = threading.Thread(target=append)
    writer.start()
    try:
        outcome = READ_FILE.invoke(folder, {"path": "logger.csv", "offset": 10**12}, timeout=30)
    finally:
        stop.set()
        writer.join()
    assert not outcome.ok
    assert outcome.content.startswith((
        "Error: offset 1000000000000 is past the end of logger.csv",  # read to where it ended
        "Error: line 1000000000001 of logger.csv lies beyond the",  # or to one call's budget
    ))  # fmt: skip


def test_read_file_of_a_pdf_that_is_one_huge_hole_is_refused_within_its_budget(
    folder: Folder,
) -> None:
    # A PDF's trailer is searched for backwards from its end: here, through 50 GB of zeros.
    with (folder.root / "manual.pdf").open("wb") as handle:
        handle.write(b"%PDF-1.4\n")
        handle.truncate(50 * 2**30)
    # Where the file system keeps holes, the search stops at the first one it meets;
    # elsewhere, after the budget.
    outcome = READ_FILE.invoke(folder, {"path": "manual.pdf"}, timeout=30)
    assert outcome.content.startswith(
        "Error: cannot parse manual.pdf as a PDF (it may be damaged): it holds a hole of "
    ) or outcome.content == (
        "Error: cannot parse manual.pdf as a PDF (it may be damaged): it needs more than the "
        f"{human_size(PDF_READ_BYTES)} one read reads"
    ), outcome.content


def test_an_isolated_tool_is_stopped_where_it_holds_the_interpreter(user_dir: Path) -> None:
    # a big-integer power holds the GIL, so a thread join would wait for it without end: as a
    # normal user, in a process of its own, so a regression fails by the timeout, not a hang
    code = f"""
import time
from pathlib import Path
from labscribe.guards.detectors import ToolClass
from labscribe.tools.tool import Folder, Tool
from labscribe.tools.explorer.files import ListDirArgs
tower = Tool(name="tower", description="", args_schema=ListDirArgs,
             run=lambda folder, args: str(9**9**9), tool_class=ToolClass.READ_ONLY,
             isolated=True)
started = time.monotonic()
print(tower.invoke(Folder(Path({str(user_dir)!r})), {{}}, timeout=1).content)
print(time.monotonic() - started < 10)
"""
    done = as_normal_user(code, owns=[user_dir], timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [TIMEOUT_ERROR.format(tool="tower", seconds=1), "True"]


def test_the_fit_tool_answers_from_its_worker_as_it_does_in_process() -> None:
    hall = Folder(Path(__file__).resolve().parents[2] / "data" / "real" / "hall")
    args = {"path": "hitsz_2-VH-IS.csv", "x": "IS", "y": "VH", "formula": "linear"}
    isolated = FIT.invoke(hall, args, timeout=60)
    in_process = FIT.invoke(hall, args)
    assert isolated.ok and isolated.content.startswith("Fit of ")
    assert (isolated.content, isolated.record) == (in_process.content, in_process.record)
    failed = FIT.invoke(hall, {**args, "x": "nothing"}, timeout=60)
    assert failed.content.startswith("Error: hitsz_2-VH-IS.csv has no column 'nothing'")
