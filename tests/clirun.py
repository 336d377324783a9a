"""Running the real `labscribe` command in a process of its own, for CLI tests."""

from __future__ import annotations

import json
import locale
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from scripted_server import ScriptedEndpoint

from labscribe.graph.forked import start_command

COMMAND = [sys.executable, "-m", "labscribe.graph.cli"]


def labscribe(
    *args: str, timeout: float = 180, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """`labscribe *args` run to its end in a process of its own, with `env` or this test's
    environment, and its working folder: its exit code and what it wrote to stdout and
    stderr. The process is forked as a batch forks its runs (graph/forked.py): each of the
    suite's hundred commands would otherwise spend seconds importing labscribe again."""
    with tempfile.TemporaryDirectory(prefix="labscribe-cli-") as where:
        out, err = Path(where) / "stdout", Path(where) / "stderr"
        child = start_command(args, os.environ if env is None else env, (out, err))
        child.join(timeout)
        if child.is_alive():
            child.kill()
            child.join()
            raise subprocess.TimeoutExpired([*COMMAND, *args], timeout)
        said = [path.read_text(locale.getpreferredencoding(False)) for path in (out, err)]
        return subprocess.CompletedProcess([*COMMAND, *args], child.exitcode, *said)


def start(*args: str, new_session: bool = False) -> subprocess.Popen[str]:
    """`labscribe` in the background; `new_session` gives it a process group of its own, so a
    test can send it the Ctrl-C a terminal would."""
    return subprocess.Popen(
        [*COMMAND, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=new_session,
    )


def endpoint_flags(server: ScriptedEndpoint, key: str = "test-key") -> list[str]:
    """The scripted server's endpoint, with figures, reflect and the PDF off (tested apart)."""
    return [
        "--base-url", server.url, "--api-key", key,
        "--explore-model", "explorer", "--write-model", "writer",
        "--reflect", "0", "--no-compile", "--no-figures",
    ]  # fmt: skip


def read_events(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "events.jsonl").read_text().splitlines()]


def read_record(out: Path) -> dict:
    return json.loads((out / "run.json").read_text())


def tool_events(out: Path) -> list[dict]:
    return [e for e in read_events(out) if e["event"] == "tool"]


def tool_results(out: Path) -> list[dict]:
    history = json.loads((out / "history.json").read_text())
    return [m["data"] for m in history if m["type"] == "tool"]


MEASURED = (
    "import resource, subprocess, sys\n"
    "done = subprocess.run(sys.argv[1:])\n"
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)\n"
    "sys.exit(done.returncode)\n"
)


def measured(command: list[str]) -> list[str]:
    """`command`, run under a small Python parent that prints, as its last stderr line, the
    peak resident memory in kB of the command and whatever it started (no `time` needed)."""
    return [sys.executable, "-c", MEASURED, *command]
