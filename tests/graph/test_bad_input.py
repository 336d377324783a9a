"""Inputs that crashed a run, or every resume after it: each now gets a clear answer and the
run goes on (SPEC section 8)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest
from asuser import as_normal_user
from clirun import COMMAND, endpoint_flags, labscribe, measured, read_events, read_record
from scripted import ScriptedChatModel, call, latex, reply
from scripted_server import ScriptedEndpoint, text_reply, tool_reply

from labscribe.graph.resume import resume_thread
from labscribe.tools import Folder, ToolError
from labscribe.tools.explorer.files import READ_FILE
from labscribe.tools.messages import PATH_OUTSIDE_ERROR

FINISH = call("finish_exploration", experiment="RLC", goal="f0", key_findings=["f0"])
WRITER = [text_reply(latex())]


def tool_messages(out: Path) -> list[dict]:
    history = json.loads((out / "history.json").read_text())
    return [m["data"] for m in history if m["type"] == "tool"]


# 8. a file name that is not valid UTF-8 ------------------------------------------------------


def test_a_file_name_that_is_not_utf8_is_shown_escaped_and_can_be_read(
    data: Path, run, tmp_path: Path
) -> None:
    odd = os.fsencode(data) + b"/caf\xe9-\xff.csv"
    with open(odd, "wb") as handle:
        handle.write(b"t,v\n1,2\n")
    explorer = ScriptedChatModel(
        replies=[
            reply(call("list_dir")),
            reply(call("read_file", path="caf\\xe9-\\xff.csv")),
            reply(FINISH),
        ]
    )
    result = run(data, explorer)
    assert result.record["status"] == "completed"
    listing, read = (m["content"] for m in tool_messages(result.out)[:2])
    assert "caf\\xe9-\\xff.csv  (8 B)" in listing
    assert read.startswith("[caf\\xe9-\\xff.csv: lines 1-2 of 2") and "1,2" in read
    events = read_events(result.out)
    scanned = next(e for e in events if e["event"] == "milestone" and e["stage"] == "scan")
    assert "caf\\xe9-\\xff.csv" in scanned["detail"]
    assert (result.out / "history.json").read_bytes().decode("utf-8")  # valid UTF-8 throughout


# 9. an offset past sys.maxsize, and any tool error ---------------------------------------------


@pytest.mark.parametrize(
    ("offset", "said"),
    [
        (10**18, "Error: invalid arguments for read_file: offset: Input should be less than"),
        (2**63 + 5, "Error: the arguments of read_file could not be used (an argument is an "
                    "integer too large"),
    ],
)  # fmt: skip
def test_an_offset_beyond_any_file_is_an_invalid_argument_not_a_crash(
    data: Path, run, offset: int, said: str
) -> None:
    huge = reply(call("read_file", path="notes.md", offset=offset))
    result = run(data, ScriptedChatModel(replies=[huge, reply(FINISH)]))
    first = tool_messages(result.out)[0]["content"]
    assert first.startswith(said)
    assert result.record["status"] == "completed"


def test_a_tool_that_fails_unexpectedly_answers_with_an_error_and_the_thread_moves_on(
    data: Path, run, monkeypatch: pytest.MonkeyPatch
) -> None:
    import labscribe.tools.explorer.files as files

    def broken(*args: object, **kwargs: object) -> object:
        raise IndexError("an odd file the reader did not foresee")

    monkeypatch.setattr(files, "read_part", broken)
    explorer = ScriptedChatModel(replies=[reply(call("read_file", path="notes.md")), reply(FINISH)])
    result = run(data, explorer)
    first = tool_messages(result.out)[0]
    assert first["status"] == "error"
    assert "read_file failed on these arguments (IndexError: an odd file" in first["content"]
    assert result.record["exploration"]["termination"] == "finished"


# 10 and 11. arguments that are not an object, or cannot enter the checkpoint ----------------

BAD_ARGUMENTS = {
    "a list": "[1, 2]",
    "a string": '"notes.md"',
    "a number": "42",
    "null": "null",
    "an integer of 2**64": '{"path": "notes.md", "offset": 18446744073709551616}',
    "nested 400 deep": '{"path": ' + "[" * 400 + "]" * 400 + "}",
    "nested 2000 deep": "[" * 2000 + "]" * 2000,
}


@pytest.mark.parametrize("shape", list(BAD_ARGUMENTS))
def test_tool_arguments_of_any_shape_come_back_as_an_error_the_model_can_fix(
    data: Path, tmp_path: Path, shape: str
) -> None:
    out = tmp_path / "out"
    finish = ("finish_exploration", {"experiment": "x", "goal": "y", "key_findings": ["z"]})
    script = {
        "explorer": [tool_reply(("read_file", BAD_ARGUMENTS[shape])), tool_reply(finish)],
        "writer": WRITER,
    }
    with ScriptedEndpoint(script) as server:
        done = labscribe("run", str(data), "--out", str(out), "--thread", "t-args",
                         "--db", str(tmp_path / "db.sqlite"), *endpoint_flags(server))  # fmt: skip
    assert done.returncode == 0, done.stderr
    answer = tool_messages(out)[0]
    assert answer["status"] == "error"
    assert "read_file" in answer["content"] and "Error:" in answer["content"]
    assert read_record(out)["exploration"]["termination"] == "finished"


# 12. a symlink loop ----------------------------------------------------------------------------


def test_a_self_referencing_symlink_is_listed_and_skipped_not_a_crash(data: Path, run) -> None:
    (data / "loop").symlink_to("loop")
    (data / "a").symlink_to("b")
    (data / "b").symlink_to("a")
    explorer = ScriptedChatModel(
        replies=[reply(call("list_dir")), reply(call("read_file", path="loop")), reply(FINISH)]
    )
    result = run(data, explorer)
    listing, read = (m["content"] for m in tool_messages(result.out)[:2])
    assert "loop -> broken link (not readable)" in listing
    assert "a -> broken link (not readable)" in listing
    assert read == "Error: " + PATH_OUTSIDE_ERROR.format(path="loop")
    scanned = next(e for e in read_events(result.out) if e["event"] == "milestone")
    assert "loop (broken link)" in scanned["detail"]
    assert result.record["status"] == "completed"


# 13. tables of any shape -------------------------------------------------------------------------

TABLES = {
    "a field over 128 KiB": "name,value\n" + "x" * 140_000 + ",1\nb,2\n",
    "300,000 columns": ",".join(f"c{n}" for n in range(300_000)) + "\n",
    "one line of 40 MB": "1," * 20_000_000,
    "binary bytes": "\x00\x01\x02" * 1000,
}


@pytest.mark.parametrize("shape", list(TABLES))
def test_a_table_of_any_shape_leaves_the_report_and_memory_bounded(
    data: Path, tmp_path: Path, shape: str
) -> None:
    (data / "odd.csv").write_text(TABLES[shape])
    out = tmp_path / "out"
    findings = {"experiment": "x", "goal": "y", "key_findings": ["z"], "requirements": "a table"}
    script = {"explorer": [tool_reply(("finish_exploration", findings))], "writer": WRITER * 3}
    done, took, peak_kb = measured_run(data, out, script)
    assert done.returncode == 0, done.stderr
    assert read_record(out)["status"] == "completed"
    assert peak_kb < 600_000, f"{shape}: {peak_kb} kB at peak in {took:.0f}s"


def measured_run(
    data: Path, out: Path, script: dict
) -> tuple[subprocess.CompletedProcess[str], float, int]:
    """`labscribe run` of `data` against a scripted endpoint: the process, its wall time in
    seconds, and its peak memory in kB (`measured` prints it last on stderr)."""
    with ScriptedEndpoint(script) as server:
        started = time.monotonic()
        done = subprocess.run(
            measured([*COMMAND, "run", str(data), "--out", str(out),
                      "--db", str(out.parent / "db.sqlite"), *endpoint_flags(server)]),
            capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        took = time.monotonic() - started
    return done, took, int(done.stderr.strip().splitlines()[-1])


def test_an_unreadable_table_as_a_normal_user_leaves_a_report(user_dir: Path) -> None:
    data = user_dir / "data"
    data.mkdir()
    (data / "notes.md").write_text("Resonance near 5 kHz.\n")
    (data / "locked.csv").write_text("t,v\n1,2\n")
    (data / "locked.csv").chmod(0)
    code = (
        "import sys; sys.path.insert(0, 'tests')\n"
        "from pathlib import Path\n"
        "from scripted import ScriptedChatModel, call, latex, reply\n"
        "from labscribe.graph import Context, Models, run_folder\n"
        "finish = call('finish_exploration', experiment='x', goal='y', key_findings=['z'],"
        " requirements='tables')\n"
        "explorer = ScriptedChatModel(replies=[reply(call('read_file', path='locked.csv')),"
        " reply(finish)])\n"
        "writer = ScriptedChatModel(replies=[reply(content=latex())])\n"
        "context = Context(models=Models(explore=explorer, write=writer), reflect=0,"
        " compile=False, figures=False)\n"
        f"result = run_folder(Path({str(data)!r}), out=Path({str(user_dir / 'out')!r}),"
        f" db=Path({str(user_dir / 'db.sqlite')!r}), context=context)\n"
        "print(result.record['status'])\n"
        "print(explorer.requests[1][-1].content)\n"
    )
    done = as_normal_user(code, owns=[user_dir])
    assert done.returncode == 0, done.stderr
    status, answer = done.stdout.splitlines()[:2]
    assert status == "completed"
    assert answer == "Error: cannot read locked.csv: permission denied"


# 14. a FIFO, a socket and a device are not files -----------------------------------------------


@pytest.mark.parametrize("tool", ["read_image", "read_file"])
def test_a_fifo_is_refused_at_once_not_read_for_the_whole_tool_timeout(
    data: Path, run, tool: str
) -> None:
    os.mkfifo(data / "pipe.png")
    explorer = ScriptedChatModel(replies=[reply(call(tool, path="pipe.png")), reply(FINISH)])
    running = set(threading.enumerate())  # others' threads (a session's server) are not counted
    started = time.monotonic()
    result = run(data, explorer, tool_timeout=20)
    assert time.monotonic() - started < 10
    answer = tool_messages(result.out)[0]["content"]
    assert answer == "Error: cannot read pipe.png: not a regular file (a device, pipe or socket)"
    assert not set(threading.enumerate()) - running  # no reader thread left blocked on the FIFO


def test_a_listening_socket_in_the_folder_is_refused(data: Path, run) -> None:
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(data / "control.sock"))
    server.listen()
    try:
        explorer = ScriptedChatModel(
            replies=[reply(call("read_file", path="control.sock")), reply(FINISH)]
        )
        answer = tool_messages(run(data, explorer).out)[0]["content"]
    finally:
        server.close()
    assert answer.endswith("not a regular file (a device, pipe or socket)")


# 6. a symlink swapped in after the path guard's check ----------------------------------------


def test_a_file_swapped_for_a_link_out_after_the_check_is_refused_not_read(
    tmp_path: Path,
) -> None:
    root = tmp_path / "data"
    root.mkdir()
    (tmp_path / "secret.txt").write_text("TOP SECRET\n")
    (root / "notes.md").write_text("notes\n")
    folder = Folder(root)
    checked = folder.resolve("notes.md")  # the path guard's check passes
    (root / "notes.md").unlink()  # a second writer swaps the file for a link out
    (root / "notes.md").symlink_to(tmp_path / "secret.txt")
    with pytest.raises(ToolError, match="outside the data folder"):
        folder.open(checked)
    outcome = READ_FILE.invoke(folder, {"path": "notes.md"})
    assert not outcome.ok and "TOP SECRET" not in outcome.content


def test_a_folder_swapped_for_a_link_out_after_the_check_is_refused(tmp_path: Path) -> None:
    root = tmp_path / "data"
    (root / "runs").mkdir(parents=True)
    (tmp_path / "private").mkdir()
    (tmp_path / "private" / "diary.txt").write_text("x\n")
    folder = Folder(root)
    checked = folder.resolve("runs")
    (root / "runs").rmdir()
    (root / "runs").symlink_to(tmp_path / "private")
    with pytest.raises(ToolError, match="outside the data folder"):
        folder.open(checked, directory=True)


# 15. a PDF bomb -------------------------------------------------------------------------------


def pdf_bomb(path: Path, inflated_mb: int = 55) -> None:
    """A one-page PDF whose content stream inflates from about 200 KB to `inflated_mb` MB."""
    import zlib

    body = b"BT /F1 12 Tf 72 712 Td (lab report text here and more words) Tj ET\n"
    stream = zlib.compress(body * (inflated_mb * 1_000_000 // len(body)), 9)
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream) + stream
        + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]  # fmt: skip
    out, offsets = b"%PDF-1.4\n", []
    for number, body_of in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body_of + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    path.write_bytes(out)


def test_a_pdf_bomb_costs_the_writing_stages_no_time_and_no_memory(
    data: Path, tmp_path: Path
) -> None:
    pdf_bomb(data / "handout.pdf")
    assert (data / "handout.pdf").stat().st_size < 400_000
    out = tmp_path / "out"
    script = {"explorer": [tool_reply(("read_file", {"path": "handout.pdf"})),
              tool_reply(("finish_exploration", {"experiment": "x", "goal": "y",
              "key_findings": ["z"]}))], "writer": WRITER}  # fmt: skip
    done, took, peak_kb = measured_run(data, out, script)
    assert done.returncode == 0, done.stderr
    answer = tool_messages(out)[0]["content"]
    assert "no text could be extracted (page 1: it exceeds the decoding limits)" in answer
    assert peak_kb < 400_000, peak_kb
    assert took < 60, took


def test_resume_after_a_bad_call_never_runs_it_again(data: Path, tmp_path: Path, writer) -> None:
    from labscribe.graph import Context, Models, run_folder

    explorer = ScriptedChatModel(
        replies=[reply(call("read_file", path="notes.md", offset=2**70)), reply(FINISH)],
        by_turn=True,
    )
    models = Models(explore=explorer, write=writer)
    first = run_folder(data, out=tmp_path / "out", thread_id="t-bad", context=Context(
        models=models, reflect=0, compile=False, figures=False))  # fmt: skip
    assert first.record["status"] == "completed"
    again = resume_thread("t-bad", models=models)
    assert again.record["status"] == "completed"  # finished: the outputs are written again
    assert len(explorer.requests) == 2


def test_a_tree_deeper_than_the_recursion_limit_is_scanned_and_reported(
    data: Path, tmp_path: Path
) -> None:
    """1,500 levels, within PATH_MAX: the scan's walk once recursed and died at 1,000."""
    levels = [data / Path(*["d"] * depth) for depth in range(1, 1_501)]
    for level in levels:
        level.mkdir()
    bottom = levels[-1] / "bottom.csv"
    bottom.write_text("t_s,V\n" + "".join(f"{t},{2 * t}\n" for t in range(10)))
    out = tmp_path / "out"
    try:
        done = subprocess.run(
            [*COMMAND, "run", str(data), "--out", str(out), "--no-model", "--no-compile"],
            capture_output=True, text=True, timeout=300,
        )  # fmt: skip
    finally:  # pytest's own clean-up of old temporary folders recurses, and would die here
        bottom.unlink()
        for level in reversed(levels):
            level.rmdir()
    assert done.returncode == 0, done.stderr[-2000:]
    assert "RecursionError" not in done.stderr
    assert read_record(out)["status"] == "completed"  # --no-model: the data report alone
    assert "4 files" in done.stderr  # the scan's summary counts the one at the bottom


def test_a_folder_whose_name_fills_a_file_name_gets_its_default_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / ("a" * 250)  # its thread id, and the OUT/ it names, must still fit
    folder.mkdir()
    (folder / "t.csv").write_text("x,y\n1,2\n2,3\n3,5\n")
    monkeypatch.chdir(tmp_path)
    done = labscribe("run", str(folder), "--no-model", "--no-compile", "--no-figures")
    assert done.returncode == 0, done.stderr
    (out,) = (tmp_path / "labscribe-out").iterdir()
    assert out.name.startswith("a" * 64 + "-") and len(out.name) == 64 + 9
    assert read_record(out)["status"] in ("completed", "degraded")
