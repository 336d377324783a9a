"""The OS sandbox behind `make_figure`: run model-written matplotlib code, get back one PNG.

Layering. `labscribe.guards.figure_policy` refuses suspicious code statically; this module is
the boundary that holds when that check is bypassed (`check_policy=False`). Each figure runs
in a process that, before the model's code starts:

* lives in fresh PID, mount, network, IPC and UTS namespaces (`unshare(2)` via libc). It is
  PID 1 of its PID namespace, so when it dies or is killed every process it forked dies too
  (a fork bomb cannot outlive the run). The network namespace has only a down loopback: no
  connection anywhere, 127.0.0.1 included.
* is `chroot`ed into a private tmpfs root that holds only read-only, `nosuid`/`nodev` bind
  mounts of `/usr` and the Python installation (stdlib and the venv), the data folder at
  `/figure/data` (read-only), and a writable, size-capped tmpfs `/figure` as its cwd. `/etc`,
  `/root`, `/home`, `/proc`, `/tmp`, the repository and the host's other files do not exist
  there; nothing written outside `/figure` is possible, and `/figure` vanishes with the run.
* drops root to a fresh, unnamed uid/gid (one per run), clears supplementary groups and sets
  `PR_SET_NO_NEW_PRIVS`, so it holds no capabilities and setuid binaries under `/usr` give
  nothing. Its rlimits: address space, CPU seconds, file size, open files, processes (per
  uid, so it counts only this run's processes because the uid is fresh), no core dumps.
* has a scrubbed environment (PATH, HOME, MPLBACKEND, MPLCONFIGDIR, LANG, thread caps): the
  worker that forks it was itself started with that environment, so the parent's secrets
  (API keys) are in neither its environment nor its memory.
* is killed (SIGKILL, which ends its whole PID namespace) by a trusted supervisor process
  after `timeout` seconds of wall time; the caller adds a backstop on top.

Only regular `*.png` files at the top of `/figure` are copied out (no symlinks followed, size
capped); the chosen one is checked with Pillow (a real PNG, non-zero size, more than one
colour) and copied to `out_dir/<name>.png`.

Not enforced: the child can still read the world-readable files under `/usr` and the Python
installation (no secrets live there), and can use CPU and memory up to its rlimits (no cgroup:
this host has only cgroup v1); there is no seccomp syscall filter.

Latency: `FigureWorker` keeps one process that imported numpy and matplotlib once and forks
a sandboxed child per figure; `run_figure` without a worker starts one for a single figure.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import re
import select
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

from labscribe.guards.figure_policy import check_figure_code

MEMORY_LIMIT = 1536 * 1024 * 1024
"""RLIMIT_AS of the figure process in bytes; numpy + matplotlib + a figure fit well inside."""
FILE_SIZE_LIMIT = 50 * 1024 * 1024
"""RLIMIT_FSIZE: the largest file the figure code may write."""
WORK_SIZE = "128m"
"""Size cap of the private tmpfs `/figure`: bounds the total written, not only one file."""
OPEN_FILES_LIMIT = 64
PROCESS_LIMIT = 16
"""RLIMIT_NPROC for the run's fresh uid: threads count too, so keep BLAS single-threaded."""
MAX_PNGS = 8
"""PNG files copied out of one run at most; the rest are ignored."""
MAX_PIXELS = 40_000_000
"""A larger image is refused before decoding (Pillow would otherwise decode it in full)."""
TAIL_CHARS = 2000
DATA_DIR_IN_SANDBOX = "data"
"""Where the data folder appears, relative to the code's working directory."""
HARNESS_PNG = ".labscribe-figure.png"
SANDBOX_CWD = "/figure"
"""The code's working directory inside the sandbox (a private tmpfs)."""

_UID_BASE = 200_000
"""Run uids are `_UID_BASE + supervisor pid`: unique among live runs, named in no passwd."""
_CLONE_NEWNS = 0x00020000
_CLONE_NEWUTS = 0x04000000
_CLONE_NEWIPC = 0x08000000
_CLONE_NEWPID = 0x20000000
_CLONE_NEWNET = 0x40000000
_MS_RDONLY = 1
_MS_NOSUID = 2
_MS_NODEV = 4
_MS_NOEXEC = 8
_MS_REMOUNT = 32
_MS_BIND = 4096
_MS_REC = 16384
_MS_PRIVATE = 1 << 18
_PR_SET_PDEATHSIG = 1
_PR_SET_NO_NEW_PRIVS = 38

_WORKER_ENV_KEYS = ("PATH", "HOME", "MPLBACKEND", "MPLCONFIGDIR", "LANG")


@dataclass(frozen=True)
class FigureResult:
    """One figure run.

    `ok` is True exactly when `png` is a verified, non-blank PNG at `out_dir/<name>.png`.
    Otherwise `error` says, for the model, what to change. `stdout`/`stderr` are the last
    characters the code printed; `elapsed` is wall seconds including the policy check.
    """

    ok: bool
    png: Path | None
    error: str
    stdout: str = ""
    stderr: str = ""
    elapsed: float = 0.0


class SandboxUnavailable(RuntimeError):
    """The host cannot build the sandbox (no namespaces, not root): figures cannot run safely."""


def sanitize_name(name: str) -> str:
    """`name` as a safe file stem: letters, digits, `-` and `_` only, at most 64, never empty."""
    stem = name.strip()
    if stem.lower().endswith(".png"):
        stem = stem[:-4]
    stem = re.sub(r"[^A-Za-z0-9_-]+", "_", stem).strip("_")[:64]
    return stem or "figure"


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
        env = _scrubbed_env(self._home)
        # -I: no PYTHON* variables, no user site, no cwd on sys.path; the venv's site-packages
        # (and so matplotlib) still load. The worker gets no secret: env is built, not copied.
        self._proc = subprocess.Popen(
            [sys.executable, "-I", "-c", "from labscribe.tools.sandbox import _serve; _serve()"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=open(os.path.join(self._home, "worker.log"), "wb"),  # noqa: SIM115
            env=env,
            cwd=self._home,
            text=True,
            start_new_session=True,
            close_fds=True,
        )
        ready = self._read_line(self._proc, timeout=120)
        if ready is None or json.loads(ready).get("ready") is not True:
            log = self._log_tail()
            self._stop()
            raise SandboxUnavailable(f"figure worker failed to start: {log}")
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
    ) -> FigureResult:
        """Run `code` in a fresh sandbox and keep its figure as `out_dir/<sanitised name>.png`.

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
                "staging": str(staging),
                "timeout": float(timeout),
            }
            with self._lock:
                reply = self._exchange(request, backstop=float(timeout) + 15)
            result = _collect(staging, reply, Path(out_dir), sanitize_name(name), timeout)
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


def run_figure(
    code: str,
    *,
    data_dir: Path,
    out_dir: Path,
    name: str,
    timeout: float = 30,
    check_policy: bool = True,
    worker: FigureWorker | None = None,
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
        )


def _scrubbed_env(home: str) -> dict[str, str]:
    """The only environment the worker and its sandboxes see: nothing copied from ours."""
    return {
        "PATH": "/usr/bin:/bin",
        "HOME": home,
        "MPLBACKEND": "Agg",
        "MPLCONFIGDIR": os.path.join(home, "mpl"),
        "LANG": "C.UTF-8",
        # Threads count against RLIMIT_NPROC and BLAS pools do not survive fork well.
        "OPENBLAS_NUM_THREADS": "1",
        "OMP_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
    }


def _read_tail(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")[-TAIL_CHARS:]
    except OSError:
        return ""


def _collect(
    staging: Path, reply: dict[str, Any], out_dir: Path, stem: str, timeout: float
) -> FigureResult:
    """Turn what the supervisor copied out into a FigureResult; copy the PNG on success."""
    out = staging / "out"
    stdout = _read_tail(out / "stdout.txt")
    stderr = _read_tail(out / "stderr.txt")
    status: dict[str, Any] = {}
    with contextlib.suppress(OSError, ValueError):
        status = json.loads((out / "status.json").read_text())
    if reply.get("error"):
        raise SandboxUnavailable(str(reply["error"]))

    def fail(error: str) -> FigureResult:
        return FigureResult(False, None, error, stdout, stderr)

    if reply.get("timed_out") or status.get("timed_out"):
        return fail(
            f"Error: the figure code did not finish within {timeout:g} s and was stopped "
            "(all its processes were killed). Make it faster: fewer points, no endless loops."
        )
    if reply.get("worker_failed") or not status:
        # The supervisor's own traceback is for the operator, not the model.
        log = _read_tail(out / "supervisor.log")
        return FigureResult(
            False,
            None,
            "Error: the figure sandbox failed before the code finished; try again.",
            stdout,
            f"{stderr}\n[sandbox] {log}".strip(),
        )
    error_text = _read_tail(out / "error.txt").strip()
    if error_text:
        return fail(f"Error: the figure code raised an exception:\n{error_text}")
    signum = status.get("signal")
    if signum:
        return fail(_signal_error(int(signum)))
    if status.get("exit_code") not in (0, None):
        return fail(f"Error: the figure code exited with status {status.get('exit_code')}.")
    chosen = _choose_png(out, status.get("pngs", []))
    if chosen is None:
        return fail(
            "Error: the code made no figure. Draw with matplotlib (plt.plot, ...); the "
            "current figure is saved for you, or call plt.savefig('figure.png')."
        )
    problem = verify_png(chosen)
    if problem is not None:
        return fail(f"Error: {problem}")
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / f"{stem}.png"
    shutil.copyfile(chosen, target)
    return FigureResult(True, target, "", stdout, stderr)


def _signal_error(signum: int) -> str:
    name = signal.Signals(signum).name if signum in signal.valid_signals() else str(signum)
    hint = {
        signal.SIGKILL: "it was killed, most likely for using too much memory or CPU time",
        signal.SIGXCPU: "it used more CPU time than allowed",
        signal.SIGXFSZ: f"it wrote a file larger than {FILE_SIZE_LIMIT // 2**20} MB",
        signal.SIGSEGV: f"it crashed, most likely out of memory ({MEMORY_LIMIT // 2**20} MB)",
    }.get(signum, "it was stopped by the sandbox")
    return f"Error: the figure code was terminated by {name}: {hint}. Use less data or memory."


def _choose_png(out: Path, pngs: list[str]) -> Path | None:
    """The figure to keep: the last PNG the code saved itself, else the harness's capture."""
    saved = [out / "png" / p for p in pngs if p != HARNESS_PNG]
    if saved:
        return saved[-1]
    harness = out / "png" / HARNESS_PNG
    return harness if HARNESS_PNG in pngs else None


def verify_png(path: Path) -> str | None:
    """None when `path` is a real PNG with non-zero size and more than one colour.

    Otherwise a sentence for the model. The header is read before decoding, so a
    decompression bomb is refused without being decoded.
    """
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(path) as probe:
            if probe.format != "PNG":
                return f"the saved file is {probe.format}, not a PNG; save as PNG"
            width, height = probe.size
            if width <= 0 or height <= 0:
                return "the figure has zero size"
            if width * height > MAX_PIXELS:
                return f"the figure is too large ({width}x{height} pixels); lower dpi or figsize"
            probe.verify()
        with Image.open(path) as image:
            image.load()
            if image.getcolors(maxcolors=1) is not None:
                return "the figure is blank (a single colour); plot some data on it"
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as exc:
        return f"the saved file is not a valid PNG ({exc})"
    return None


# --------------------------------------------------------------------------- worker side


def _serve() -> None:
    """Worker main loop: warm up, then one JSON request per line in, one reply per line out."""
    proto_out = os.fdopen(os.dup(1), "w", buffering=1)
    # Anything the libraries print must not corrupt the protocol: fd 1 becomes stderr.
    os.dup2(2, 1)
    _warm_up()
    proto_out.write(json.dumps({"ready": True}) + "\n")
    for line in sys.stdin:
        request = json.loads(line)
        try:
            reply = _run_one(request, proto_fd=proto_out.fileno())
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


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def _check(result: int, what: str) -> None:
    if result != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"{what}: {os.strerror(errno)}")


def _mount(source: str | None, target: str, fstype: str | None, flags: int, data: str) -> None:
    libc = _libc()
    enc = os.fsencode
    _check(
        libc.mount(
            enc(source) if source else None,
            enc(target),
            enc(fstype) if fstype else None,
            ctypes.c_ulong(flags),
            enc(data) if data else None,
        ),
        f"mount {source} on {target}",
    )


def _bind_readonly(source: str, target: str) -> None:
    """Bind `source` at `target`, then remount it read-only, nosuid, nodev."""
    _mount(source, target, None, _MS_BIND | _MS_REC, "")
    _mount(None, target, None, _MS_REMOUNT | _MS_BIND | _MS_RDONLY | _MS_NOSUID | _MS_NODEV, "")


def _readonly_sources() -> list[str]:
    """Host directories the figure process must read: system libraries and Python itself."""
    # Not sys.path: an editable install may put the repository (and its secrets) there.
    paths = {"/usr", os.path.realpath(sys.base_prefix), os.path.realpath(sys.prefix)}
    # Keep only the outermost paths: a bind of /usr already covers /usr/lib/python3.
    ordered = sorted(paths, key=len)
    kept: list[str] = []
    for path in ordered:
        if not any(path == k or path.startswith(k.rstrip("/") + "/") for k in kept):
            kept.append(path)
    return kept


def _run_one(request: dict[str, Any], *, proto_fd: int) -> dict[str, Any]:
    """Fork the supervisor for one figure and wait for it (backstop: timeout + 10 s)."""
    timeout = float(request["timeout"])
    pid = os.fork()
    if pid == 0:
        _supervise(request, proto_fd)
    deadline = time.monotonic() + timeout + 10
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return {"supervisor_status": status}
        if time.monotonic() > deadline:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return {"timed_out": True}
        time.sleep(0.005)


def _supervise(request: dict[str, Any], proto_fd: int) -> NoReturn:
    """Trusted process (runs no model code): build the sandbox, run the figure, copy out."""
    staging = request["staging"]
    out = os.path.join(staging, "out")
    try:
        os.setsid()
        os.close(proto_fd)
        devnull = os.open(os.devnull, os.O_RDWR)
        os.dup2(devnull, 0)
        os.dup2(devnull, 1)
        log = os.open(os.path.join(out, "supervisor.log"), os.O_WRONLY | os.O_CREAT, 0o600)
        os.dup2(log, 2)
        uid = _UID_BASE + os.getpid()
        libc = _libc()
        _check(
            libc.unshare(
                _CLONE_NEWNS | _CLONE_NEWPID | _CLONE_NEWNET | _CLONE_NEWIPC | _CLONE_NEWUTS
            ),
            "unshare",
        )
        # Without this, mounts made below would propagate back to the host's namespace.
        _mount(None, "/", None, _MS_REC | _MS_PRIVATE, "")
        root = os.path.join(staging, "root")
        _mount("tmpfs", root, "tmpfs", _MS_NOSUID | _MS_NODEV, "size=4m,mode=755")
        for source in _readonly_sources():
            target = root + source
            os.makedirs(target, exist_ok=True)
            _bind_readonly(source, target)
        for link in ("bin", "lib", "lib64", "sbin"):
            real = os.path.join("/", link)
            if os.path.islink(real):
                os.symlink(os.readlink(real), os.path.join(root, link))
        work = os.path.join(root, SANDBOX_CWD.lstrip("/"))
        os.mkdir(work)
        _mount(
            "tmpfs",
            work,
            "tmpfs",
            _MS_NOSUID | _MS_NODEV,
            f"size={WORK_SIZE},mode=700,uid={uid},gid={uid}",
        )
        data = os.path.join(work, DATA_DIR_IN_SANDBOX)
        os.mkdir(data)
        _bind_readonly(request["data_dir"], data)
        os.mkdir(os.path.join(work, ".mpl"))
        os.chown(os.path.join(work, ".mpl"), uid, uid)
        # The root skeleton is complete: freeze it so the code cannot add files beside the cwd.
        _mount(None, root, None, _MS_REMOUNT | _MS_RDONLY | _MS_NOSUID | _MS_NODEV, "")
        started = time.monotonic()
        child = os.fork()
        if child == 0:
            _confine_and_run(request["code"], root, uid, float(request["timeout"]))
        status = _wait_child(child, float(request["timeout"]))
        status["elapsed"] = time.monotonic() - started
        status["pngs"] = _copy_out(work, out)
        with open(os.path.join(out, "status.json"), "w") as handle:
            json.dump(status, handle)
    except BaseException:
        traceback.print_exc()
        os._exit(70)
    os._exit(0)


def _wait_child(child: int, timeout: float) -> dict[str, Any]:
    """Wait for the figure process; SIGKILL it (ending its PID namespace) after `timeout`."""
    pidfd = os.pidfd_open(child)
    ready, _, _ = select.select([pidfd], [], [], timeout)
    timed_out = not ready
    if timed_out:
        with contextlib.suppress(ProcessLookupError):
            os.kill(child, signal.SIGKILL)
    _, status = os.waitpid(child, 0)
    os.close(pidfd)
    return {
        "timed_out": timed_out,
        "exit_code": os.WEXITSTATUS(status) if os.WIFEXITED(status) else None,
        "signal": os.WTERMSIG(status) if os.WIFSIGNALED(status) else None,
    }


def _copy_out(work: str, out: str) -> list[str]:
    """Copy the run's top-level regular PNGs and its text outputs out; return PNG names.

    Symlinks are never followed (O_NOFOLLOW + fstat): the code could point one at a host
    file, and this process is root outside the chroot.
    """
    png_dir = os.path.join(out, "png")
    os.mkdir(png_dir)
    entries = sorted(os.scandir(work), key=lambda e: e.stat(follow_symlinks=False).st_mtime_ns)
    pngs: list[str] = []
    for entry in entries:
        name = entry.name
        if name.endswith(".png") and len(pngs) < MAX_PNGS:
            safe = re.sub(r"[^A-Za-z0-9._-]", "_", name)[-80:]
            if _copy_regular(entry.path, os.path.join(png_dir, safe), FILE_SIZE_LIMIT):
                pngs.append(safe)
    for name, target in (
        (".stdout", "stdout.txt"),
        (".stderr", "stderr.txt"),
        (".error", "error.txt"),
    ):
        _copy_regular(os.path.join(work, name), os.path.join(out, target), 64 * 1024, tail=True)
    return pngs


def _copy_regular(source: str, target: str, limit: int, *, tail: bool = False) -> bool:
    try:
        fd = os.open(source, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return False
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return False
        if info.st_size > limit:
            if not tail:
                return False
            os.lseek(fd, info.st_size - limit, os.SEEK_SET)
        with os.fdopen(os.dup(fd), "rb") as reader, open(target, "wb") as writer:
            writer.write(reader.read(limit))
        return True
    finally:
        os.close(fd)


def _confine_and_run(code: str, root: str, uid: int, timeout: float) -> NoReturn:
    """PID 1 of the new namespace: finish confinement, run the model's code, save the figure."""
    try:
        libc = _libc()
        # If the supervisor dies, so does this process (and with it the namespace).
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        os.chroot(root)
        os.chdir(SANDBOX_CWD)
        import resource

        cpu = int(timeout) + 2
        limits = {
            resource.RLIMIT_AS: MEMORY_LIMIT,
            resource.RLIMIT_CPU: cpu,
            resource.RLIMIT_FSIZE: FILE_SIZE_LIMIT,
            resource.RLIMIT_NOFILE: OPEN_FILES_LIMIT,
            resource.RLIMIT_CORE: 0,
        }
        for which, value in limits.items():
            resource.setrlimit(which, (value, value))
        os.setgroups([])
        os.setresgid(uid, uid, uid)
        os.setresuid(uid, uid, uid)
        # Root ignores RLIMIT_NPROC, so it is set only once the process is the fresh uid.
        resource.setrlimit(resource.RLIMIT_NPROC, (PROCESS_LIMIT, PROCESS_LIMIT))
        _check(libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no_new_privs")
        flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
        os.dup2(os.open(f"{SANDBOX_CWD}/.stdout", flags, 0o600), 1)
        os.dup2(os.open(f"{SANDBOX_CWD}/.stderr", flags, 0o600), 2)
        # Nothing else inherited stays open: not the supervisor's log, not the worker's pipes.
        os.closerange(3, 65536)
        os.environ.clear()
        os.environ.update(_scrubbed_env(SANDBOX_CWD))
        os.environ["MPLCONFIGDIR"] = f"{SANDBOX_CWD}/.mpl"
        os.environ["TMPDIR"] = SANDBOX_CWD
    except BaseException:
        # Confinement failed: never run the code half-confined.
        os._exit(71)
    exit_code = _execute(code)
    os._exit(exit_code)


def _execute(code: str) -> int:
    """Run `code` as `figure.py`; save the current figure if the code saved no PNG itself."""
    import builtins

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
