"""`labscribe` commands in processes forked from a server that imported labscribe once.

A batch runs each folder as a `labscribe` command of its own. Started as a fresh interpreter,
each would spend seconds of CPU importing labscribe again (`bench/bench_batch.py`); forked
from multiprocessing's forkserver, which imports the command's module once when the first
starts, each starts at once and is still a process of its own: its own pid, memory, signals,
leases and exit code, in the batch's process group, so a Ctrl-C reaches it as it reaches
the batch. The command runs as `python -m labscribe.graph.cli` runs it.
"""

from __future__ import annotations

import atexit
import importlib
import multiprocessing
import os
import sys
from collections.abc import Mapping, Sequence
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path

COMMAND_MODULE = "labscribe.graph.cli"
"""The command, named as a command line names it: the batch it runs is one of its commands."""
FIRST_USE_MODULE = "labscribe.graph.first_use"
"""Imported by the server too: its import builds what each run would otherwise build on
first use (its docstring lists what), so that a run forked from the server inherits it. If
it ever fails to import, multiprocessing skips it: the runs then build those parts
themselves."""
FORKS = multiprocessing.get_context("forkserver")
FORKS.set_forkserver_preload([COMMAND_MODULE, FIRST_USE_MODULE])

Output = Path | Connection
"""Where a command's stdout or stderr goes: a file written anew, or a pipe's write end."""


def start_command(
    args: Sequence[str], environment: Mapping[str, str], outputs: tuple[Output, Output]
) -> BaseProcess:
    """`labscribe *args` started in a forked process with `environment` and this process's
    working folder, its stdout and stderr sent to `outputs`."""
    child = FORKS.Process(target=_command,
                          args=(tuple(args), dict(environment), os.getcwd(), outputs))  # fmt: skip
    child.start()
    return child


def _command(
    args: tuple[str, ...], environment: dict[str, str], folder: str, outputs: tuple[Output, Output]
) -> None:
    """In the forked process: the command as `python -m labscribe.graph.cli` runs it."""
    os.environ.clear()
    os.environ.update(environment)
    os.chdir(folder)
    sys.stdout.flush()
    sys.stderr.flush()
    for fd, output in zip((1, 2), outputs, strict=True):
        if isinstance(output, Path):
            written = os.open(output, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        else:
            written = os.dup(output.fileno())
            output.close()
        os.dup2(written, fd)
        os.close(written)
    sys.argv = ["labscribe", *args]
    try:
        code = importlib.import_module(COMMAND_MODULE).main(list(args))
    except SystemExit as exit_:  # argparse's refusals, as `python -m` would exit on them
        code = 0 if exit_.code is None else exit_.code if isinstance(exit_.code, int) else 1
    finally:
        atexit._run_exitfuncs()  # os._exit skips them: the figure worker, the local model
        sys.stdout.flush()
        sys.stderr.flush()
    os._exit(code)
