"""The user's work is never lost or overwritten: a full disk, an --out inside the data, one
database under two names, a damaged database, SIGTERM and a cancel during the compile."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from clirun import COMMAND, endpoint_flags, labscribe, read_record, start
from scripted import latex
from scripted_server import Hang, ScriptedEndpoint, text_reply, tool_reply

FINISH = ("finish_exploration", {"experiment": "RLC", "goal": "f0", "key_findings": ["5 kHz"]})
WRITER = [text_reply(latex("Kept report."))]
needs_namespaces = pytest.mark.skipif(
    shutil.which("unshare") is None and not os.environ.get("CI"),
    reason="a full disk is simulated with a tmpfs in a user namespace (util-linux unshare)",
)


def on_full_disk(mount: Path, command: list[str]) -> list[str]:
    """`command`, run where `mount` is a tmpfs with no space left (a user namespace of our
    own, so it needs no root and leaves nothing behind)."""
    fill = (
        f'mount -t tmpfs -o size=64k tmpfs "{mount}" '
        f'&& dd if=/dev/zero of="{mount}/fill" bs=4k 2>/dev/null; exec "$@"'
    )
    return ["unshare", "--user", "--map-root-user", "--mount", "sh", "-c", fill, "sh", *command]


# 16. a full disk at --out ----------------------------------------------------------------


@needs_namespaces
def test_outputs_that_a_full_disk_refuses_are_written_again_by_a_resume(
    data: Path, tmp_path: Path
) -> None:
    full, db = tmp_path / "full", str(tmp_path / "db.sqlite")
    full.mkdir()
    with ScriptedEndpoint({"explorer": [tool_reply(FINISH)], "writer": WRITER}) as server:
        flags = [*endpoint_flags(server), "--db", db, "--thread", "t-full"]
        done = subprocess.run(
            on_full_disk(full, [*COMMAND, "run", str(data), "--out", str(full), *flags]),
            capture_output=True, text=True, timeout=180,
        )  # fmt: skip
        assert done.returncode == 1, done.stderr
        line = done.stderr.strip().splitlines()[-1]
        assert "cannot write the outputs to" in line and "No space left on device" in line
        assert "labscribe resume t-full --out DIR" in line
        again = labscribe("resume", "t-full", "--db", db, "--out", str(tmp_path / "elsewhere"))
    assert again.returncode == 0, again.stderr
    assert (tmp_path / "elsewhere" / "report.tex").read_text() == latex("Kept report.")
    record = read_record(tmp_path / "elsewhere")
    assert record["status"] == "completed" and record["thread_id"] == "t-full"
    assert not list(full.iterdir())  # outside the namespace: the tmpfs and its debris are gone


def test_a_resume_of_a_finished_thread_writes_its_outputs_again(data: Path, tmp_path: Path) -> None:
    out, db = tmp_path / "out", str(tmp_path / "db.sqlite")
    with ScriptedEndpoint({"explorer": [tool_reply(FINISH)], "writer": WRITER}) as server:
        first = labscribe("run", str(data), "--out", str(out), "--thread", "t-done",
                          "--db", db, *endpoint_flags(server))  # fmt: skip
    assert first.returncode == 0, first.stderr
    (out / "report.tex").unlink()
    again = labscribe("resume", "t-done", "--db", db)
    assert again.returncode == 0, again.stderr
    assert (out / "report.tex").read_text() == latex("Kept report.")


# 17. --out is the data folder, or inside it ------------------------------------------------


@pytest.mark.parametrize("inside", [".", "reports"])
def test_an_out_inside_the_data_folder_is_refused_and_nothing_is_touched(
    data: Path, tmp_path: Path, inside: str
) -> None:
    (data / "report.tex").write_text("my own report\n")
    before = {p.name: p.read_bytes() for p in data.iterdir()}
    with ScriptedEndpoint({"explorer": [tool_reply(FINISH)], "writer": WRITER}) as server:
        done = labscribe("run", str(data), "--out", str(data / inside),
                         "--db", str(tmp_path / "db.sqlite"), *endpoint_flags(server))  # fmt: skip
    assert done.returncode == 2
    assert "is the data folder or inside it" in done.stderr
    assert {p.name: p.read_bytes() for p in data.iterdir()} == before


# 18. one database under two names -----------------------------------------------------------


def test_the_lease_is_the_real_database_file_not_its_spelling(data: Path, tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite"
    (tmp_path / "alias").mkdir()
    link = tmp_path / "alias" / "same.sqlite"
    hang = Hang(then=tool_reply(FINISH))
    with ScriptedEndpoint({"explorer": [tool_reply(("list_dir", {})), hang],
                           "writer": WRITER}) as server:  # fmt: skip
        first = start("run", str(data), "--out", str(tmp_path / "out"), "--thread", "t-lease",
                      "--db", str(db), *endpoint_flags(server))  # fmt: skip
        assert hang.reached.wait(timeout=60)
        link.symlink_to(db)
        second = labscribe("resume", "t-lease", "--db", str(link))
        hang.release.set()
        first.wait(timeout=60)
    assert second.returncode == 2, second.stderr
    assert "'t-lease' is being run by another worker" in second.stderr


@pytest.mark.parametrize(
    "where", ["the user's own file", "a new file", "a link to it", "LABSCRIBE_DB"]
)
def test_a_checkpoint_database_inside_the_data_folder_is_refused(
    data: Path, tmp_path: Path, where: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    own = data / "results.sqlite"
    with sqlite3.connect(own) as connection:
        connection.execute("CREATE TABLE runs (voltage REAL)")
    before = {p.name: p.read_bytes() for p in data.iterdir()}
    db = {"the user's own file": own, "a new file": data / "new.sqlite",
          "a link to it": tmp_path / "link.sqlite", "LABSCRIBE_DB": own}[where]  # fmt: skip
    if where == "a link to it":
        db.symlink_to(own)
    flags = ["--db", str(db)]
    if where == "LABSCRIBE_DB":
        monkeypatch.setenv("LABSCRIBE_DB", str(db))
        flags = []
    done = labscribe("run", str(data), "--out", str(tmp_path / "out"), "--no-model", *flags)
    assert done.returncode == 2, done.stderr
    assert "is inside the data folder, where the checkpoints would be written" in done.stderr
    assert {p.name: p.read_bytes() for p in data.iterdir()} == before
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("through", ["directly", "a link"])
def test_a_batch_out_inside_a_data_folder_is_refused(
    data: Path, tmp_path: Path, through: str
) -> None:
    course = tmp_path / "course"
    for name in ("ada", "ben"):
        shutil.copytree(data, course / name)
    out = course / "ben" / "reports"
    if through == "a link":
        out = tmp_path / "reports"
        out.symlink_to(course / "ben")
    before = sorted(p.relative_to(course) for p in course.rglob("*"))
    done = labscribe("batch", str(course), "--out", str(out), "--no-model")
    assert done.returncode == 2, done.stderr
    assert "is the data folder or inside it" in done.stderr
    assert sorted(p.relative_to(course) for p in course.rglob("*")) == before


# 19. a damaged database, or one on a full disk ----------------------------------------------


@pytest.mark.parametrize("command", ["run", "threads", "status", "resume", "history"])
def test_a_damaged_database_is_one_clear_line_and_exit_2(
    data: Path, tmp_path: Path, command: str
) -> None:
    db = tmp_path / "db.sqlite"
    db.write_bytes(b"this is not a database, it is a shopping list\n" * 100)
    args = {"run": ["run", str(data), "--out", str(tmp_path / "out"), "--no-compile"],
            "threads": ["threads"], "status": ["status", "t"], "resume": ["resume", "t"],
            "history": ["history", "t"]}[command]  # fmt: skip
    done = labscribe(*args, "--db", str(db))
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr
    assert "not a labscribe checkpoint database, or it is damaged" in lines[0]
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("command", ["threads", "status", "resume", "history"])
def test_a_mistyped_database_is_refused_by_reading_commands_and_never_created(
    tmp_path: Path, command: str
) -> None:
    db = tmp_path / "typo" / "db.sqlite"
    args = {"threads": ["threads"], "status": ["status", "t"], "resume": ["resume", "t"],
            "history": ["history", "t"]}[command]  # fmt: skip
    done = labscribe(*args, "--db", str(db))
    assert done.returncode == 2, done.stderr
    assert (
        done.stderr.strip()
        == f"labscribe: no checkpoint database at {db}: check --db (or LABSCRIBE_DB)"
    )
    assert not (tmp_path / "typo").exists()  # no database, no folder, no lease


@needs_namespaces
def test_a_database_on_a_full_disk_is_one_clear_line_and_exit_2(data: Path, tmp_path: Path) -> None:
    full = tmp_path / "full"
    full.mkdir()
    command = [*COMMAND, "run", str(data), "--out", str(tmp_path / "out"),
               "--db", str(full / "db.sqlite"), "--no-compile"]  # fmt: skip
    done = subprocess.run(on_full_disk(full, command), capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert "its disk is full" in done.stderr and "Traceback" not in done.stderr


@contextlib.contextmanager
def locked(db: Path, *, journal: str = "WAL") -> Iterator[None]:
    """`db` held locked by another program, as an open `sqlite3 db 'BEGIN EXCLUSIVE;'` holds
    it: in WAL mode (labscribe's) readers may still read; in rollback mode nobody may."""
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute(f"PRAGMA journal_mode={journal}")
    holder.execute("BEGIN EXCLUSIVE")
    try:
        yield
    finally:
        holder.close()


@pytest.fixture
def thread_db(data: Path, tmp_path: Path) -> Path:
    """A database that holds one finished thread, 't'."""
    db = tmp_path / "db.sqlite"
    done = labscribe("run", str(data), "--out", str(tmp_path / "first"), "--thread", "t",
                     "--db", str(db), "--no-model", "--no-compile", "--no-figures")  # fmt: skip
    assert done.returncode == 0, done.stderr
    return db


@pytest.mark.parametrize("command", ["run", "resume", "batch"])
def test_a_database_another_program_holds_locked_is_refused_before_any_work(
    data: Path, tmp_path: Path, thread_db: Path, command: str
) -> None:
    out = tmp_path / "out"
    args = {"run": ["run", str(data), "--out", str(out), "--no-model"],
            "resume": ["resume", "t", "--out", str(out)],
            "batch": ["batch", str(data), "--out", str(out), "--no-model"]}[command]  # fmt: skip
    with locked(thread_db):
        done = labscribe(*args, "--db", str(thread_db))
    assert done.returncode == 2, done.stderr
    assert done.stderr == (
        f"labscribe: cannot use the checkpoint database {str(thread_db)!r} (database is locked):"
        " another program holds a lock on it (still after 2 s), such as an open sqlite3 shell"
        " or viewer: close it, or pass another --db\n"
    )
    assert not out.exists()


@pytest.mark.parametrize("command", ["status", "history", "threads"])
def test_reading_commands_read_a_database_another_program_is_writing(
    thread_db: Path, command: str
) -> None:
    with locked(thread_db):
        done = labscribe(command, *(["t"] if command != "threads" else []), "--db", str(thread_db))
    assert done.returncode == 0, done.stderr
    assert "finished" in done.stdout or command == "history"


@pytest.mark.parametrize("command", ["status", "history", "threads"])
def test_reading_commands_refuse_a_database_locked_against_readers(
    tmp_path: Path, command: str
) -> None:
    db = tmp_path / "db.sqlite"
    with locked(db, journal="DELETE"):
        done = labscribe(command, *(["t"] if command != "threads" else []), "--db", str(db))
    assert done.returncode == 2, done.stderr
    assert "(database is locked): another program holds a lock on it" in done.stderr


# 20. SIGTERM, and a cancel while latexmk runs --------------------------------------------------


def test_sigterm_cancels_like_ctrl_c_and_the_thread_resumes(data: Path, tmp_path: Path) -> None:
    out, db = tmp_path / "out", str(tmp_path / "db.sqlite")
    hang = Hang(then=tool_reply(FINISH))
    with ScriptedEndpoint({"explorer": [tool_reply(("list_dir", {})), hang],
                           "writer": WRITER}) as server:  # fmt: skip
        run = start("run", str(data), "--out", str(out), "--thread", "t-term", "--db", db,
                    *endpoint_flags(server))  # fmt: skip
        assert hang.reached.wait(timeout=60)
        run.send_signal(signal.SIGTERM)
        hang.release.set()
        assert run.wait(timeout=60) == 3
        assert read_record(out)["status"] == "cancelled"
        resumed = labscribe("resume", "t-term", "--db", db)
    assert resumed.returncode == 0, resumed.stderr
    assert read_record(out)["status"] == "completed"


@pytest.mark.skipif(
    shutil.which("xelatex") is None and not os.environ.get("CI"),
    reason="needs xelatex (CI installs it: .ci/run)",
)
def test_ctrl_c_during_the_compile_stops_latexmk_at_once(data: Path, tmp_path: Path) -> None:
    endless = latex("\\def\\spin{\\spin}\\spin")  # a tail call: TeX goes round for ever
    out, db = tmp_path / "out", str(tmp_path / "db.sqlite")
    with ScriptedEndpoint({"explorer": [tool_reply(FINISH)],
                           "writer": [text_reply(endless)]}) as server:  # fmt: skip
        flags = [f for f in endpoint_flags(server) if f != "--no-compile"]
        run = start("run", str(data), "--out", str(out), "--thread", "t-tex", "--db", db, *flags)
        deadline = time.monotonic() + 120
        while not list((out / "build").glob("*/report.log")):  # the draft's proof, or after
            assert time.monotonic() < deadline and run.poll() is None, "no compile started"
            time.sleep(0.2)
        time.sleep(1)
        asked = time.monotonic()
        run.send_signal(signal.SIGINT)
        code = run.wait(timeout=60)
        took = time.monotonic() - asked
    assert code == 3, run.stderr.read() if run.stderr else ""
    assert took < 15, f"the cancel waited {took:.0f} s"
    assert read_record(out)["status"] == "cancelled"
    leftovers = subprocess.run(["pgrep", "-f", str(out / "build")], capture_output=True)
    assert leftovers.stdout == b""  # no latexmk or xelatex outlived the run
    assert json.loads((out / "run.json").read_text())["thread_id"] == "t-tex"
