"""The figure process: PID 1 of a run's namespaces, which confines itself further and then
runs the model's code.

It is the only process that ever runs model code, so everything it does before that is
steps 5 to 8 of `labscribe.tools.sandbox.sandbox_run`'s docstring, in that order, each inside
`step` so that a failure ends it before the code; the supervisor that forked it never runs
model code at all.
"""

from __future__ import annotations

import builtins
import contextlib
import errno
import os
import resource
import signal
import sys
import traceback
from typing import NoReturn

from labscribe.tools.sandbox import confine, lockdown
from labscribe.tools.sandbox.kernel_calls import SetupFailed, step
from labscribe.tools.sandbox.sandbox_limits import (
    FILE_SIZE_LIMIT,
    HARNESS_PNG,
    MEMORY_LIMIT,
    OPEN_FILES_LIMIT,
    PROCESS_LIMIT,
    SANDBOX_CWD,
    TAIL_CHARS,
    scrubbed_env,
)
from labscribe.tools.sandbox.sandbox_protocol import Ids, SandboxContext, send


def run_confined(
    context: SandboxContext, code: str | None, ids: Ids, timeout: float, *, report: int, go: int
) -> NoReturn:
    """PID 1 of the new namespace: finish confinement, run the model's code, save the figure.

    Never returns: it exits with the code's status (0 for the probe's None), or 71 before
    any code if a step failed.
    """
    exit_code = 71
    try:
        _confine(context, ids, timeout, report=report, go=go)
        exit_code = 0 if code is None else _execute(code)
    except SetupFailed as exc:
        with contextlib.suppress(OSError):
            send(report, step=exc.step, errno=exc.errno)
    finally:
        os._exit(exit_code)


def _confine(context: SandboxContext, ids: Ids, timeout: float, *, report: int, go: int) -> None:
    """Steps 5 to 8 of `sandbox_run`'s docstring; on return the code may run."""
    with step("figure ids"):
        if ids.privileged:
            os.setresgid(ids.code_id, ids.code_id, ids.code_id)
            os.setresuid(ids.code_id, ids.code_id, ids.code_id)
        # After the uid change, which clears it: if the supervisor dies, so does this.
        lockdown.set_parent_death_signal(signal.SIGKILL)
    with step("nested user namespace"):
        confine.unshare(confine.CLONE_NEWUSER)
    send(report, step="unshared")
    if os.read(go, 1) != b"M":
        raise SetupFailed("nested uid map", errno.EPERM)
    with step("limits"):
        os.chdir(SANDBOX_CWD)
        _set_limits(timeout)
    with step("keyring"):
        lockdown.join_fresh_session_keyring()
    with step("files"):
        _own_files_only(keep=report)
    with step("capabilities"):
        lockdown.drop_capabilities()
        lockdown.set_no_new_privs()
    with step("landlock"):
        lockdown.restrict_writes_beneath(SANDBOX_CWD)
    with step("seccomp"):
        context.syscall_filter.load()
    send(report, step="running")
    os.close(report)


def _set_limits(timeout: float) -> None:
    limits = {
        resource.RLIMIT_AS: MEMORY_LIMIT,
        resource.RLIMIT_CPU: int(timeout) + 2,
        resource.RLIMIT_FSIZE: FILE_SIZE_LIMIT,
        resource.RLIMIT_NOFILE: OPEN_FILES_LIMIT,
        resource.RLIMIT_CORE: 0,
        resource.RLIMIT_MSGQUEUE: 0,
        # Counted for this user namespace and uid, where this process is the only one.
        resource.RLIMIT_NPROC: PROCESS_LIMIT,
    }
    for which, value in limits.items():
        resource.setrlimit(which, (value, value))


def _own_files_only(*, keep: int) -> None:
    """stdout/stderr to files in the cwd, every other inherited descriptor closed."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
    os.dup2(os.open(f"{SANDBOX_CWD}/.stdout", flags, 0o600), 1)
    os.dup2(os.open(f"{SANDBOX_CWD}/.stderr", flags, 0o600), 2)
    # Not the supervisor's log, out folder or /proc, not the worker's pipes.
    os.closerange(3, keep)
    os.closerange(keep + 1, 65536)
    os.environ.clear()
    os.environ.update(scrubbed_env(SANDBOX_CWD))
    os.environ["MPLCONFIGDIR"] = f"{SANDBOX_CWD}/.mpl"
    os.environ["TMPDIR"] = SANDBOX_CWD


def _execute(code: str) -> int:
    """Run `code` as `figure.py`; save the current figure if the code saved no PNG itself."""
    import matplotlib.pyplot as plt

    plt.close("all")
    try:
        compiled = compile(code, "figure.py", "exec")
        exec(compiled, {"__name__": "__main__", "__builtins__": builtins})
        if plt.get_fignums() and not any(
            n.endswith(".png") for n in os.listdir(SANDBOX_CWD) if n != HARNESS_PNG
        ):
            plt.savefig(f"{SANDBOX_CWD}/{HARNESS_PNG}")
    except BaseException as exc:
        lines = traceback.format_exception(exc)
        # Only the model's own frames are useful to it; drop the harness frame.
        text = "".join(line for line in lines if __file__ not in line)
        with contextlib.suppress(OSError), open(f"{SANDBOX_CWD}/.error", "w") as handle:
            handle.write(text[-TAIL_CHARS:])
        return 1
    finally:
        with contextlib.suppress(Exception):
            sys.stdout.flush()
            sys.stderr.flush()
    return 0
