"""Running the real `labscribe` command in a process of its own, for CLI tests."""

from __future__ import annotations

import atexit
import json
import locale
import multiprocessing
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from scripted_server import ScriptedEndpoint

from labscribe.graph.cli import main

COMMAND = [sys.executable, "-m", "labscribe.graph.cli"]

# A command's process is forked from a server that imported labscribe once: each of the
# suite's hundred commands would otherwise spend about 2.7 s of CPU importing it again.
# Forked, not started: its own pid, signals, leases and exit code, as a subprocess's.
_FORKS = multiprocessing.get_context("forkserver")
_FORKS.set_forkserver_preload(["labscribe.graph.cli", "clirun"])


def labscribe(
    *args: str, timeout: float = 180, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """`labscribe *args` run to its end in a process of its own, with `env` or this test's
    environment, and its working folder: its exit code and what it wrote to stdout and
    stderr."""
    with tempfile.TemporaryDirectory(prefix="labscribe-cli-") as where:
        out, err = Path(where) / "stdout", Path(where) / "stderr"
        environment, folder = dict(os.environ if env is None else env), os.getcwd()
        child = _FORKS.Process(target=_command, args=(args, environment, folder, out, err))
        child.start()
        child.join(timeout)
        if child.is_alive():
            child.kill()
            child.join()
            raise subprocess.TimeoutExpired([*COMMAND, *args], timeout)
        said = [path.read_text(locale.getpreferredencoding(False)) for path in (out, err)]
        return subprocess.CompletedProcess([*COMMAND, *args], child.exitcode, *said)


def _command(args: tuple[str, ...], environment: dict[str, str], folder: str, out: Path,
             err: Path) -> None:  # fmt: skip
    """In the forked process: the command as `python -m labscribe.graph.cli` runs it."""
    os.environ.clear()
    os.environ.update(environment)
    os.chdir(folder)
    sys.stdout.flush()
    sys.stderr.flush()
    for fd, path in ((1, out), (2, err)):
        written = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(written, fd)
        os.close(written)
    sys.argv = ["labscribe", *args]
    try:
        code = main(list(args))
    except SystemExit as exit_:  # argparse's refusals, as `python -m` would exit on them
        code = 0 if exit_.code is None else exit_.code if isinstance(exit_.code, int) else 1
    finally:
        atexit._run_exitfuncs()  # os._exit skips them: the figure worker, the local model
        sys.stdout.flush()
        sys.stderr.flush()
    os._exit(code)


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
