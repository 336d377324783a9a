import threading
import time
from pathlib import Path

import pytest

from labscribe.guards.ladder import ToolClass
from labscribe.guards.messages import PATH_OUTSIDE_ERROR, TIMEOUT_ERROR
from labscribe.tools import DECLARED_CLASSES, EXPLORE_TOOLS, Folder, reading
from labscribe.tools.base import Tool, human_size
from labscribe.tools.files import LIST_DIR, LIST_LIMIT, READ_FILE, ListDirArgs
from labscribe.tools.finish import FINISH_EXPLORATION
from labscribe.tools.pdf_text import PDF_READ_BYTES
from labscribe.tools.reading import BEYOND_BUDGET_ERROR


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
    before = READ_FILE.version_of(folder, {"path": "notes.md"})
    (folder.root / "notes.md").write_text("hello again, longer\n")
    assert READ_FILE.version_of(folder, {"path": "notes.md"}) != before


def test_version_is_none_for_invalid_targets(folder: Folder) -> None:
    assert READ_FILE.version_of(folder, {"path": "../secret.txt"}) is None
    assert READ_FILE.version_of(folder, {"offset": "x"}) is None


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


def test_read_file_answers_past_a_huge_hole_within_its_byte_budget(
    folder: Folder, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Text past the encoding sniff, then 50 GB that read as zeros: one line with no end, and
    # nothing on disk. A smaller budget reads the same way, sooner.
    monkeypatch.setattr(reading, "READ_BYTES", 64 * 2**20)
    sparse = folder.root / "sparse.csv"
    with sparse.open("w") as handle:
        handle.write("t,V\n" + "0,1\n" * 20_000)
        handle.truncate(50 * 2**30)
    cut = READ_FILE.invoke(folder, {"path": "sparse.csv", "offset": 20_001}, timeout=30)
    assert cut.ok, cut.content
    header, hole, note = cut.content.splitlines()
    assert header == "[sparse.csv: lines 20002-20002 of ≥20003, 50.0 GB, encoding utf-8]"
    assert hole == "\x00" * 7000
    assert note.startswith("[line 20002 was cut at 7000 characters")
    beyond = READ_FILE.invoke(folder, {"path": "sparse.csv", "offset": 20_002}, timeout=30)
    assert beyond.content == "Error: " + BEYOND_BUDGET_ERROR.format(
        budget="64.0 MB", name="sparse.csv", reached=20_002, line=20_003, offset=20_001
    )


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
    assert outcome.content.startswith("Error: offset 1000000000000 is past the end of logger.csv")


def test_read_file_of_a_pdf_that_is_one_huge_hole_is_refused_within_its_budget(
    folder: Folder,
) -> None:
    # A PDF's trailer is searched for backwards from its end: here, through 50 GB of zeros.
    with (folder.root / "manual.pdf").open("wb") as handle:
        handle.write(b"%PDF-1.4\n")
        handle.truncate(50 * 2**30)
    outcome = READ_FILE.invoke(folder, {"path": "manual.pdf"}, timeout=30)
    assert outcome.content == (
        "Error: cannot parse manual.pdf as a PDF (it may be damaged): it needs more than the "
        f"{human_size(PDF_READ_BYTES)} one read reads"
    )
