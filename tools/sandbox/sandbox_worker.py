"""The warm figure worker: numpy and matplotlib imported once, one sandbox forked per figure.

`FigureWorker` starts `serve()` in a fresh interpreter with a built environment. The worker
builds the seccomp filter, proves with a probe run that the sandbox can be built here (a
host that forbids user namespaces learns why in milliseconds, before the imports), imports
and exercises the plotting libraries, and then serves one request per line: it forks the
supervisor of `labscribe.tools.sandbox.sandbox_run`, maps its user namespace, and waits for it with
a backstop.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import tempfile
import time
from typing import Any

from labscribe.tools.sandbox import confine, lockdown
from labscribe.tools.sandbox.kernel_calls import SetupFailed
from labscribe.tools.sandbox.sandbox_host import is_privileged, sandbox_problem
from labscribe.tools.sandbox.sandbox_limits import TAIL_CHARS
from labscribe.tools.sandbox.sandbox_protocol import (
    SandboxContext,
    failure_of,
    ids_for,
    kill_and_reap,
    receive,
)
from labscribe.tools.sandbox.sandbox_run import supervise


def serve() -> None:
    """Worker main loop: probe and warm up, then one JSON request per line in, one reply out."""
    proto_out = os.fdopen(os.dup(1), "w", buffering=1)
    # Anything the libraries print must not corrupt the protocol: fd 1 becomes stderr.
    os.dup2(2, 1)
    privileged = is_privileged()
    try:
        context = SandboxContext(privileged, os.open("/proc", os.O_PATH), lockdown.seccomp_filter())
    except SetupFailed as exc:
        error = sandbox_problem(exc.step, exc.errno, privileged=privileged)
        proto_out.write(json.dumps({"ready": False, "error": error}) + "\n")
        return
    # Before the warm-up: a host that forbids the namespaces is told so in milliseconds.
    problem = _probe(context, proto_out.fileno())
    if problem is not None:
        proto_out.write(json.dumps({"ready": False, "error": problem}) + "\n")
        return
    _warm_up()
    proto_out.write(json.dumps({"ready": True}) + "\n")
    for line in sys.stdin:
        request = json.loads(line)
        try:
            reply = _run_one(context, request, proto_fd=proto_out.fileno())
        except Exception as exc:  # reported to the parent, which raises SandboxUnavailable
            reply = {"error": f"{type(exc).__name__}: {exc}"}
        proto_out.write(json.dumps(reply) + "\n")


def _warm_up() -> None:
    """Import and exercise numpy/matplotlib once, so each forked figure starts hot."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    with contextlib.suppress(ImportError):
        import pandas  # noqa: F401  (allowed for the code; only warmed when installed)
    import csv  # noqa: F401
    import math  # noqa: F401
    import statistics  # noqa: F401

    import PIL.PngImagePlugin  # noqa: F401

    fig, ax = plt.subplots()
    ax.plot(np.arange(3), np.arange(3))
    ax.set_title("warm")
    ax.set_xlabel("x")
    fig.savefig(os.path.join(os.environ.get("HOME", "/tmp"), "warm.png"))
    plt.close("all")


def _probe(context: SandboxContext, proto_fd: int) -> str | None:
    """Build one whole sandbox and run no code in it: None if it held, else why it cannot."""
    with tempfile.TemporaryDirectory(prefix="labscribe-probe-") as staging:
        for part in ("root", "out", "data"):
            os.mkdir(os.path.join(staging, part))
        request = {
            "code": None,
            "data_dir": os.path.join(staging, "data"),
            "staging": staging,
            "timeout": 10.0,
        }
        reply = _run_one(context, request, proto_fd=proto_fd)
        if reply.get("error"):
            return str(reply["error"])
        if not os.path.exists(os.path.join(staging, "out", "status.json")):
            log = os.path.join(staging, "out", "supervisor.log")
            with open(log, errors="replace") as handle:
                return f"the figure sandbox failed its probe run: {handle.read()[-TAIL_CHARS:]}"
    return None


# --------------------------------------------------------------------------- worker side


def _run_one(context: SandboxContext, request: dict[str, Any], *, proto_fd: int) -> dict[str, Any]:
    """Fork the supervisor for one figure, map its namespace, wait (backstop: timeout + 10 s)."""
    timeout = float(request["timeout"])
    from_supervisor, to_worker = os.pipe()
    from_worker, to_supervisor = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(from_supervisor)
        os.close(to_supervisor)
        supervise(context, request, proto_fd, report=to_worker, go=from_worker)
    os.close(to_worker)
    os.close(from_worker)
    deadline = time.monotonic() + timeout + 10
    ids = ids_for(pid, context.privileged)
    try:
        message = receive(from_supervisor, deadline)
        failed = failure_of(message)
        if failed is None and message is not None:
            try:
                confine.write_id_maps(context.proc_fd, pid, ids.uid_map, ids.gid_map)
            except OSError as exc:
                failed = SetupFailed("uid map", exc.errno or 0)
            else:
                # A supervisor that died meanwhile shows as end of file below.
                with contextlib.suppress(BrokenPipeError):
                    os.write(to_supervisor, b"M")
                failed = failure_of(receive(from_supervisor, deadline))
    finally:
        os.close(to_supervisor)
        os.close(from_supervisor)
    if failed is not None:
        kill_and_reap(pid)
        error = sandbox_problem(failed.step, failed.errno, privileged=context.privileged)
        return {"error": error}
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return {"supervisor_status": status}
        if time.monotonic() > deadline:
            kill_and_reap(pid)
            return {"timed_out": True}
        time.sleep(0.005)
