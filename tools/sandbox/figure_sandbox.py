"""The OS sandbox behind `make_figure`: run model-written matplotlib code, get back one PNG.

Layering. `labscribe.guards.figure_policy` refuses suspicious code statically; this module is
the boundary that holds when that check is bypassed (`check_policy=False`). It works the same
for root and for a normal user: the namespaces are user namespaces, which unprivileged users
may create. Each figure runs in a process that, before the model's code starts
(`labscribe.tools.sandbox.sandbox_run` has the steps in order, `labscribe.tools.sandbox.confine` and
`labscribe.tools.sandbox.lockdown` the kernel calls):

* lives in fresh user, PID, mount, network, IPC and UTS namespaces. It is PID 1 of its PID
  namespace, so everything it could start dies with it. The network namespace has only a
  down loopback, and the code cannot create a socket at all (seccomp).
* sees a private tmpfs root (pivot_root, the host's tree detached) holding only read-only,
  nosuid, nodev binds of `/usr` and the Python installation, the data folder read-only and
  noexec at `/data` (`data/` from the cwd), and a writable, size-capped, noexec tmpfs
  `/figure` as its cwd, which vanishes with the run. `/etc`, `/root`, `/home`, `/proc`,
  `/tmp`, `/dev` and the repository do not exist there.
* runs as a non-zero uid of a nested user namespace that owns nothing, with no capability
  at all, no_new_privs, a fresh session keyring, Landlock allowing writes only below
  `/figure` (where the kernel has Landlock), and a seccomp filter refusing the syscalls a
  plot never makes: sockets, new processes and threads, exec, namespaces, mounts, ptrace,
  the keyrings, bpf, io_uring, memfd and IPC objects. Root's runs also get a fresh uid
  (one per run), so nothing in the bound trees is theirs.
* has rlimits on address space, CPU seconds, file size, open files and core dumps, and
  RLIMIT_NPROC=1, counted per user namespace and uid: it is the run's only process and
  thread, so RLIMIT_AS bounds the memory of the whole run (plus the `/figure` tmpfs).
* has a scrubbed environment: the worker that forks it was started with a built one, so the
  parent's secrets (API keys) are in neither its environment nor its memory.
* is killed (SIGKILL, which ends its PID namespace) by a trusted supervisor after `timeout`
  seconds of wall time; the caller adds a backstop on top.

Only regular `*.png` files at the top of `/figure` are copied out (no symlinks followed, size
capped); the chosen one is checked with Pillow (a real PNG, non-zero size, more than one
colour) and copied to `out_dir/<name>.png`. A host that forbids user namespaces gets
SandboxUnavailable naming the setting and the fix; the code never runs unconfined.

Not enforced: the code can read the world-readable files under `/usr` and the Python
installation (and, for a normal user, what that user may read there), and the worker's
memory it was forked from (numpy, matplotlib, earlier figure requests; no secret).

Latency: `FigureWorker` keeps one process that imported numpy and matplotlib once and forks
a sandboxed child per figure; `run_figure` without a worker starts one for a single figure.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from labscribe.guards.figure_policy import check_figure_code
from labscribe.tools.sandbox.figure_names import sanitize_name
from labscribe.tools.sandbox.figure_output import FigureResult, SandboxUnavailable, collect
from labscribe.tools.sandbox.sandbox_limits import TAIL_CHARS, scrubbed_env

_WORKER_MAIN = "from labscribe.tools.sandbox.sandbox_worker import serve; serve()"
"""What the worker interpreter runs: `-c`, so nothing but the installed package is on its path."""


# --------------------------------------------------------------------------- parent side


class FigureWorker:
    """A warm worker: one process with numpy and matplotlib imported, one sandbox per figure.

    Started lazily on the first `render`; `close()` (or leaving a `with` block) stops it.
    Renders are serialised by a lock. A worker that dies or stops answering is killed and
    restarted on the next render.
    """

    def __init__(self) -> None:
        self._proc: subprocess.Popen[str] | None = None
        self._home: str | None = None
        self._lock = threading.Lock()

    def __enter__(self) -> FigureWorker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def start(self) -> None:
        """Start the worker process now (otherwise the first `render` does)."""
        with self._lock:
            self._ensure_started()

    def _ensure_started(self) -> subprocess.Popen[str]:
        if self._proc is not None and self._proc.poll() is None:
            return self._proc
        self._stop()
        self._home = tempfile.mkdtemp(prefix="labscribe-figworker-")
        env = scrubbed_env(self._home)
        # -I: no PYTHON* variables, no user site, no cwd on sys.path; the venv's site-packages
        # (and so matplotlib) still load. The worker gets no secret: env is built, not copied.
        self._proc = subprocess.Popen(
            [sys.executable, "-I", "-c", _WORKER_MAIN],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=open(os.path.join(self._home, "worker.log"), "wb"),  # noqa: SIM115
            env=env,
            cwd=self._home,
            text=True,
            start_new_session=True,
            close_fds=True,
        )
        line = self._read_line(self._proc, timeout=120)
        ready = json.loads(line) if line else {}
        if ready.get("ready") is not True:
            problem = ready.get("error") or f"figure worker failed to start: {self._log_tail()}"
            self._stop()
            raise SandboxUnavailable(problem)
        return self._proc

    def render(
        self,
        code: str,
        *,
        data_dir: Path,
        out_dir: Path,
        name: str,
        timeout: float = 30,
        check_policy: bool = True,
        data_identity: tuple[int, int] | None = None,
    ) -> FigureResult:
        """Run `code` in a fresh sandbox and keep its figure as `out_dir/<sanitised name>.png`.

        With `data_identity` (the data folder's st_dev, st_ino when the run started), a
        folder that is no longer that one is not bound: the code finds no data.

        Never raises for anything the code does; raises SandboxUnavailable only when the
        sandbox itself cannot be built on this host.
        """
        started = time.monotonic()
        if check_policy:
            problems = check_figure_code(code)
            if problems:
                error = "The figure code was not run:\n" + "\n".join(f"- {p}" for p in problems)
                return FigureResult(False, None, error, elapsed=time.monotonic() - started)
        staging = Path(tempfile.mkdtemp(prefix="labscribe-fig-"))
        try:
            (staging / "root").mkdir()
            (staging / "out").mkdir()
            request = {
                "code": code,
                "data_dir": str(Path(data_dir).resolve()),
                "data_identity": list(data_identity) if data_identity else None,
                "staging": str(staging),
                "timeout": float(timeout),
            }
            with self._lock:
                reply = self._exchange(request, backstop=float(timeout) + 15)
            result = collect(staging, reply, Path(out_dir), sanitize_name(name), timeout)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
        return FigureResult(
            result.ok,
            result.png,
            result.error,
            result.stdout,
            result.stderr,
            time.monotonic() - started,
        )

    def _exchange(self, request: dict[str, Any], *, backstop: float) -> dict[str, Any]:
        proc = self._ensure_started()
        assert proc.stdin is not None
        try:
            proc.stdin.write(json.dumps(request) + "\n")
            proc.stdin.flush()
        except (BrokenPipeError, OSError):
            self._stop()
            return {"worker_failed": True}
        line = self._read_line(proc, timeout=backstop)
        if line is None:
            # The supervisor enforces the timeout; reaching the backstop means the worker
            # itself is stuck, so its whole process group goes.
            self._stop()
            return {"timed_out": True, "worker_failed": True}
        return dict(json.loads(line))

    @staticmethod
    def _read_line(proc: subprocess.Popen[str], *, timeout: float) -> str | None:
        assert proc.stdout is not None
        ready, _, _ = select.select([proc.stdout], [], [], timeout)
        if not ready:
            return None
        line = proc.stdout.readline()
        return line or None

    def _log_tail(self) -> str:
        if self._home is None:
            return ""
        try:
            return Path(self._home, "worker.log").read_text(errors="replace")[-TAIL_CHARS:]
        except OSError:
            return ""

    def _stop(self) -> None:
        proc, self._proc = self._proc, None
        if proc is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)
            with contextlib.suppress(Exception):
                proc.wait(timeout=5)
            for stream in (proc.stdin, proc.stdout):
                with contextlib.suppress(Exception):
                    stream.close()  # type: ignore[union-attr]
        if self._home is not None:
            shutil.rmtree(self._home, ignore_errors=True)
            self._home = None

    def close(self) -> None:
        """Stop the worker process; the next `render` starts a new one."""
        with self._lock:
            self._stop()

    def kill(self) -> None:
        """Kill the worker and the figure it runs now, without waiting for the render in
        progress (a cancel): that render then ends with an error at once."""
        proc = self._proc
        if proc is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)


def run_figure(
    code: str,
    *,
    data_dir: Path,
    out_dir: Path,
    name: str,
    timeout: float = 30,
    check_policy: bool = True,
    worker: FigureWorker | None = None,
    data_identity: tuple[int, int] | None = None,
) -> FigureResult:
    """Run figure `code` sandboxed; on success the PNG is `out_dir/<sanitised name>.png`.

    With `worker`, its warm process forks the sandbox; without one, a worker is started for
    this figure alone and stopped after (cold: pays the numpy/matplotlib import).
    """
    with contextlib.nullcontext(worker) if worker is not None else FigureWorker() as runner:
        return runner.render(
            code,
            data_dir=data_dir,
            out_dir=out_dir,
            name=name,
            timeout=timeout,
            check_policy=check_policy,
            data_identity=data_identity,
        )
