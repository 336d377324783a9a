"""What the warm worker, a run's supervisor and its figure process share: the context built
once per worker, the id maps of each run's user namespaces, and the messages on their pipes.

The three are forks of one another and talk only through pipes, one JSON line per message,
so a step that fails in either child reaches the worker as the step's name and errno
(`SetupFailed`), and the worker can say why the host refused it.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from labscribe.tools.sandbox.kernel_calls import SetupFailed
from labscribe.tools.sandbox.sandbox_limits import SANDBOX_UID

if TYPE_CHECKING:
    import pyseccomp

_UID_BASE = 200_000
"""Root's runs give the code uid `_UID_BASE + supervisor pid`: unique among live runs, named
in no passwd, and never 0 (the kernel exempts uid 0 from RLIMIT_NPROC)."""


@dataclass(frozen=True)
class Ids:
    """How one run's user namespaces map ids: the outer maps, and the code's id in them."""

    uid_map: str
    gid_map: str
    code_id: int
    privileged: bool

    @property
    def nested_map(self) -> str:
        return f"{SANDBOX_UID} {self.code_id} 1\n"


def ids_for(supervisor: int, privileged: bool) -> Ids:
    """The maps of `supervisor`'s namespace. Root maps itself (it must reach root-only
    folders) and a fresh uid for the code; a normal user can map only itself."""
    if privileged:
        fresh = _UID_BASE + supervisor
        outer = f"0 0 1\n{SANDBOX_UID} {fresh} 1\n"
        return Ids(outer, outer, code_id=SANDBOX_UID, privileged=True)
    uid_map, gid_map = f"0 {os.geteuid()} 1\n", f"0 {os.getegid()} 1\n"
    return Ids(uid_map, gid_map, code_id=0, privileged=False)


@dataclass
class SandboxContext:
    """What every run of one warm worker shares, built once when it starts."""

    privileged: bool
    """Root of the initial user namespace, which may map a fresh uid for the code."""
    proc_fd: int
    """The host's /proc, where the id maps of each run's namespaces are written."""
    syscall_filter: pyseccomp.SyscallFilter
    """`lockdown.seccomp_filter()`, loaded by each figure process last."""


# --------------------------------------------------------------------------- messages


def send(fd: int, **message: object) -> None:
    """Write `message` as one JSON line to the pipe `fd`."""
    # One short write: atomic on a pipe, so a reader never sees half a message.
    os.write(fd, (json.dumps(message) + "\n").encode())


def receive(fd: int, deadline: float) -> dict[str, Any] | None:
    """The next message on `fd`, or None at end of file or past `deadline`."""
    ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
    if not ready:
        return None
    raw = os.read(fd, 4096)
    return dict(json.loads(raw)) if raw else None


def failure_of(message: dict[str, Any] | None) -> SetupFailed | None:
    """The failed step a message reports, or None for any other message."""
    if message is not None and "errno" in message:
        return SetupFailed(str(message["step"]), int(message["errno"]))
    return None


# --------------------------------------------------------------------------- processes


def kill_and_reap(pid: int) -> None:
    """SIGKILL the child `pid` and the process group it leads (if it does), then reap it."""
    for kill in (os.kill, os.killpg):
        with contextlib.suppress(ProcessLookupError):
            kill(pid, signal.SIGKILL)
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, 0)
