"""Running the real `labscribe` command in a subprocess, for CLI tests."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from scripted_server import ScriptedEndpoint

COMMAND = [sys.executable, "-m", "labscribe.graph.cli"]


def labscribe(*args: str, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*COMMAND, *args], capture_output=True, text=True, timeout=timeout)


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
