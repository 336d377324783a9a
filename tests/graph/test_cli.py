"""The real CLI in a subprocess, over real HTTP to a scripted OpenAI-compatible server."""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from clirun import endpoint_flags, labscribe, start
from scripted import latex
from scripted_server import Hang, ScriptedEndpoint, text_reply, tool_reply

from labscribe.graph.checkpoint import open_checkpointer
from labscribe.graph.cli import _parser
from labscribe.graph.cli_options import run_flags_of, run_settings

FINISH = ("finish_exploration", {"experiment": "RLC", "goal": "f0", "key_findings": ["5 kHz"]})
WRITER = [text_reply(latex("CLI report."))]


def test_cli_run_writes_the_outputs_with_json_events(data: Path, tmp_path: Path) -> None:
    script = [tool_reply(("list_dir", {"path": "."})), tool_reply(FINISH)]
    out = tmp_path / "out"
    with ScriptedEndpoint({"explorer": script, "writer": WRITER}) as server:
        done = labscribe("run", str(data), "--out", str(out), "--json", *endpoint_flags(server))
    assert done.returncode == 0, done.stderr
    printed = [json.loads(line) for line in done.stdout.splitlines()]
    assert [e["stage"] for e in printed if e["event"] == "milestone"] == [
        "scan",
        "explore",
        "draft",
        "bib",
    ]
    assert printed[-1]["event"] == "end"
    record = json.loads((out / "run.json").read_text())
    assert set(record) >= {
        "thread_id", "status", "reason", "stages", "model_calls", "tool_calls",
        "guard", "tokens", "degraded", "outputs",
    }  # fmt: skip
    assert record["status"] == "completed"
    assert record["model_calls"] == {"explore": 2, "write": 1}
    assert record["tokens"] == {"input": 300, "output": 60}
    assert record["guard"] == {"warned": 0, "blocked": 0, "halted": False, "halt": None}
    assert (out / "report.tex").read_text() == latex("CLI report.")
    assert server.calls_to("explorer") == 2


def test_cli_progress_bar_on_stderr(data: Path, tmp_path: Path) -> None:
    with ScriptedEndpoint({"explorer": [tool_reply(FINISH)], "writer": WRITER}) as server:
        done = labscribe("run", str(data), "--out", str(tmp_path / "o"), *endpoint_flags(server))
    assert done.returncode == 0
    assert "[########################] 5/5 bib" in done.stderr
    assert "completed: the explorer called finish_exploration" in done.stderr


@pytest.mark.parametrize("thread", ["t-ask", "-rf"])
def test_cli_ask_halts_then_resume_with_a_nudge_completes(
    data: Path, tmp_path: Path, thread: str
) -> None:
    """The hint the halt prints works typed as printed, for a thread named like an option."""
    again = tool_reply(("list_dir", {"path": "."}))
    script = [again] * 5 + [tool_reply(FINISH)]
    out = tmp_path / "out"
    with ScriptedEndpoint({"explorer": script, "writer": WRITER}) as server:
        flags = endpoint_flags(server)
        halted = labscribe(
            "run", str(data), "--out", str(out), f"--thread={thread}", "--on-collapse", "ask",
            *flags,
        )  # fmt: skip
        assert halted.returncode == 3, halted.stderr
        record = json.loads((out / "run.json").read_text())
        assert record["status"] == "halted"
        assert record["guard"]["halt"]["tool"] == "list_dir"
        hint = record["reason"].split("resume with: ")[1]
        assert hint in halted.stderr
        assert not (out / "report.tex").exists()

        status = json.loads(labscribe("status", "--", thread).stdout)
        assert status["state"] == "interrupted"
        assert status["next"] == ["await_human"]

        nudge = "Stop listing. Read sweep.csv once, then call finish_exploration."
        typed = shlex.split(hint.replace("[--nudge TEXT]", f"--nudge {shlex.quote(nudge)}"))
        assert typed[:2] == ["labscribe", "resume"]
        resumed = labscribe(*typed[1:])
        assert resumed.returncode == 0, resumed.stderr
        assert server.calls_to("explorer") == 6
    record = json.loads((out / "run.json").read_text())
    assert record["status"] == "completed"
    assert record["guard"]["halted"] is True
    history = json.loads((out / "history.json").read_text())
    humans = [m["data"]["content"] for m in history if m["type"] == "human"]
    assert humans[-1] == nudge
    # The nudge was in the request that followed it.
    last_request = server.requests[-2]["messages"]
    assert last_request[-1] == {"role": "user", "content": nudge}
    assert "finished" in labscribe("threads").stdout
    assert len(labscribe("history", "--", thread).stdout.splitlines()) > 10


def test_cli_ctrl_c_leaves_a_resumable_cancelled_thread(data: Path, tmp_path: Path) -> None:
    hang = Hang(then=tool_reply(FINISH))
    script = [tool_reply(("list_dir", {"path": "."})), hang]
    out = tmp_path / "out"
    with ScriptedEndpoint({"explorer": script, "writer": WRITER}) as server:
        process = start("run", str(data), "--out", str(out), "--thread", "t-int",
                        *endpoint_flags(server))  # fmt: skip
        assert hang.reached.wait(timeout=60)
        time.sleep(0.2)
        process.send_signal(signal.SIGINT)
        hang.release.set()
        assert process.wait(timeout=60) == 3
        record = json.loads((out / "run.json").read_text())
        assert record["status"] == "cancelled"
        assert "labscribe resume t-int" in record["reason"]
        resumed = labscribe("resume", "t-int")
        assert resumed.returncode == 0, resumed.stderr
    assert json.loads((out / "run.json").read_text())["status"] == "completed"


@pytest.mark.parametrize(
    ("make_folder", "message"),
    [
        (lambda tmp: tmp / "missing", "does not exist"),
        (lambda tmp: (tmp / "empty").mkdir() or tmp / "empty", "is empty"),
        (lambda tmp: (tmp / "f.csv").write_text("x") and tmp / "f.csv", "is a file, not a folder"),
    ],
)
def test_cli_bad_folder_exits_2_and_writes_nothing(tmp_path: Path, make_folder, message) -> None:
    folder = make_folder(tmp_path)
    done = labscribe("run", str(folder), "--out", str(tmp_path / "out"), "--base-url", "http://x")
    assert done.returncode == 2
    assert done.stderr.startswith("labscribe: ")
    assert message in done.stderr
    assert not (tmp_path / "out").exists()
    assert not Path(os.environ["LABSCRIBE_DB"]).exists()


def test_cli_unwritable_out_exits_2(data: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "blocker"
    blocker.write_text("a file where the output folder should go")
    done = labscribe("run", str(data), "--out", str(blocker / "out"), "--base-url", "http://x",
                     "--explore-model", "m")  # fmt: skip
    assert done.returncode == 2
    assert "is not writable" in done.stderr
    assert blocker.read_text() == "a file where the output folder should go"


def test_cli_with_a_missing_local_gguf_exits_2_and_says_so(
    data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LABSCRIBE_LOCAL_GGUF", str(tmp_path / "missing.gguf"))
    done = labscribe("run", str(data), "--out", str(tmp_path / "out"))
    assert done.returncode == 2
    assert done.stderr == (
        f"labscribe: LABSCRIBE_LOCAL_GGUF points at {str(tmp_path / 'missing.gguf')!r}, "
        "which is not a file\n"
    )
    assert not (tmp_path / "out").exists()


def test_cli_bad_option_values_exit_2(data: Path, tmp_path: Path) -> None:
    done = labscribe("run", str(data), "--max-tool-iters", "0", "--base-url", "http://x")
    assert done.returncode == 2
    assert "max_tool_iters must be at least 1, got 0" in done.stderr


def test_cli_resume_unknown_thread_exits_2() -> None:
    with open_checkpointer():  # the database is there; the thread is not
        pass
    done = labscribe("resume", "no-such-thread")
    assert done.returncode == 2
    assert "no thread 'no-such-thread'" in done.stderr


def test_console_script_is_installed() -> None:
    script = Path(sys.executable).with_name("labscribe")
    done = subprocess.run([str(script), "--help"], capture_output=True, text=True)
    assert done.returncode == 0
    assert "run" in done.stdout and "resume" in done.stdout


def test_batch_hands_its_runs_the_switches_it_was_given() -> None:
    args = _parser().parse_args(
        ["batch", "course", "--no-figures", "--all-stages", "--reflect", "1", "--no-compile"]
    )
    flags = run_flags_of(args)
    assert flags == ["--reflect", "1", "--no-figures", "--all-stages", "--no-compile"]
    again = _parser().parse_args(["run", "folder", *flags])
    assert run_settings(again) == run_settings(args)
