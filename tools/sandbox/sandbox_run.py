"""One sandboxed figure: the supervisor and the figure process, their steps in order.

The warm worker (`labscribe.tools.sandbox.sandbox_worker`) forks the supervisor and, once it has
entered its namespaces, writes their uid/gid maps with setgroups denied: root maps itself and
a fresh uid for the code (`sandbox_protocol.ids_for`); a normal user can map only itself. The
order of the steps below is the security argument; the kernel calls are in
`labscribe.tools.sandbox.confine` and `labscribe.tools.sandbox.lockdown`.

Supervisor (root of the new user namespace, no model code):
1. enters new user, mount, PID, network, IPC and UTS namespaces in one unshare(2); the user
   namespace owns the others, and holds nothing outside them;
2. builds a private tmpfs root: read-only, nosuid, nodev binds of /usr and the Python
   installation (never the repository), the data folder read-only and noexec at /data, a
   size-capped writable noexec tmpfs /figure as the cwd (`data` there links to /data); the
   root is then sealed read-only and the hostname set to "figure";
3. pivot_root(2)s into it and detaches the old root: the host's tree is not in the
   namespace at all (not /etc, /proc, /tmp, /home, the repository);
4. forks the figure process (PID 1 of the new PID namespace, so all it could start dies with
   it), writes its nested uid map, waits `timeout` seconds, SIGKILLs it, and copies out only
   regular top-level PNGs, never following a link.

Figure process (`labscribe.tools.sandbox.figure_process`), before the model's code runs:
5. (root's runs) takes the fresh uid, then enters a nested user namespace in which it is uid
   `SANDBOX_UID`, not root: that namespace owns none of the others;
6. sets rlimits on address space, CPU, file size, open files, core dumps, POSIX queues, and
   RLIMIT_NPROC=1, which the kernel counts per user namespace and uid: no other process or
   thread can exist, so RLIMIT_AS bounds the memory of the whole run;
7. joins a fresh session keyring, closes every inherited descriptor, scrubs the environment;
8. drops every capability (bounding, ambient, effective, permitted, inheritable), sets
   no_new_privs, restricts writes to /figure with Landlock where the kernel has it, and
   loads the seccomp filter last.

A step that fails stops the run before any model code (`SetupFailed`, sent to the worker as
a message); the worker turns it into SandboxUnavailable with the cause and the fix.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import select
import signal
import stat
import sys
import time
import traceback
from typing import Any, NoReturn

from labscribe.tools.sandbox import confine
from labscribe.tools.sandbox.figure_process import run_confined
from labscribe.tools.sandbox.kernel_calls import SetupFailed, step
from labscribe.tools.sandbox.sandbox_host import root_links, system_dirs
from labscribe.tools.sandbox.sandbox_limits import (
    DATA_DIR_IN_SANDBOX,
    FILE_SIZE_LIMIT,
    MAX_PNGS,
    SANDBOX_CWD,
    SANDBOX_DATA,
    WORK_INODES,
    WORK_SIZE,
)
from labscribe.tools.sandbox.sandbox_protocol import (
    Ids,
    SandboxContext,
    failure_of,
    ids_for,
    kill_and_reap,
    receive,
    send,
)

_ROOT_SIZE = "size=4m,mode=755"
"""The root skeleton holds only directories and links."""


# --------------------------------------------------------------------------- supervisor


def supervise(
    context: SandboxContext, request: dict[str, Any], proto_fd: int, *, report: int, go: int
) -> NoReturn:
    """Trusted process (runs no model code): build the sandbox, run the figure, copy out.

    Never returns, whatever fails: it is a fork of the worker.
    """
    exit_code = 70
    try:
        exit_code = _supervisor_steps(context, request, proto_fd, report=report, go=go)
    except SetupFailed as exc:
        traceback.print_exc()
        exit_code = 72
        with contextlib.suppress(OSError):
            send(report, step=exc.step, errno=exc.errno)
    except BaseException:
        traceback.print_exc()
    finally:
        os._exit(exit_code)


def _supervisor_steps(
    context: SandboxContext, request: dict[str, Any], proto_fd: int, *, report: int, go: int
) -> int:
    """Steps 1 to 4 of the module docstring, then `status.json`; the supervisor's exit code."""
    staging = request["staging"]
    os.setsid()
    os.close(proto_fd)
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(devnull, 1)
    log = os.path.join(staging, "out", "supervisor.log")
    os.dup2(os.open(log, os.O_WRONLY | os.O_CREAT, 0o600), 2)
    ids = ids_for(os.getpid(), context.privileged)
    if ids.privileged:
        os.setgroups([])  # root's supplementary groups: once inside, no one can drop them
    with step("unshare"):
        confine.unshare(confine.NAMESPACES)
    send(report, step="unshared")
    if os.read(go, 1) != b"M":
        return 73  # the worker could not map the namespace, and reports why
    out_fd = os.open(os.path.join(staging, "out"), os.O_RDONLY | os.O_DIRECTORY)
    with step("mount"):
        confine.make_mounts_private()
        root = _build_root(staging, request["data_dir"], request.get("data_identity"), ids)
    with step("hostname"):
        confine.set_hostname("figure")
    with step("pivot_root"):
        confine.pivot_root(root)
    status = _run_figure_process(context, request, ids, report)
    status["pngs"] = _copy_out(out_fd)
    fd = os.open("status.json", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600, dir_fd=out_fd)
    with os.fdopen(fd, "w") as handle:
        json.dump(status, handle)
    return 0


def _readonly_sources() -> list[str]:
    """Host directories the figure process must read: system libraries and Python itself."""
    # Not sys.path: an editable install may put the repository (and its secrets) there.
    paths = {*system_dirs(), os.path.realpath(sys.base_prefix), os.path.realpath(sys.prefix)}
    # Keep only the outermost paths: a bind of /usr already covers /usr/lib/python3.
    kept: list[str] = []
    for path in sorted(paths, key=len):
        if not any(path == k or path.startswith(k.rstrip("/") + "/") for k in kept):
            kept.append(path)
    return kept


def _build_root(staging: str, data_dir: str, identity: list[int] | None, ids: Ids) -> str:
    """The sandbox's root under `staging/root`, complete and sealed; returns its path."""
    root = os.path.join(staging, "root")
    confine.mount_tmpfs(root, _ROOT_SIZE)
    for source in _readonly_sources():
        os.makedirs(root + source, exist_ok=True)
        confine.bind_readonly(source, root + source, noexec=False)
    for link, target in root_links():
        os.symlink(target, root + link)
    data = root + SANDBOX_DATA
    os.mkdir(data)
    _bind_data(data_dir, identity, data)
    work = root + SANDBOX_CWD
    os.mkdir(work)
    owner = f"uid={ids.code_id},gid={ids.code_id}"
    confine.mount_tmpfs(work, f"size={WORK_SIZE},nr_inodes={WORK_INODES},mode=700,{owner}")
    # `data/...` from the cwd, while the data itself is outside the one writable tree.
    os.symlink(SANDBOX_DATA, os.path.join(work, DATA_DIR_IN_SANDBOX))
    os.mkdir(os.path.join(work, ".mpl"))
    os.chown(os.path.join(work, ".mpl"), ids.code_id, ids.code_id)
    # Complete: freeze the skeleton so the code cannot add files beside the cwd.
    confine.seal_readonly(root)
    return root


def _bind_data(data_dir: str, identity: list[int] | None, target: str) -> None:
    """Bind the data folder at `target` if it is still the run's (`identity`), opened once
    and bound through that descriptor: a folder swapped for a link or another folder after
    the check is not the one bound. Otherwise `target` stays empty."""
    fd = os.open(data_dir, os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        info = os.fstat(fd)
        if identity is None or [info.st_dev, info.st_ino] == list(identity):
            confine.bind_readonly(f"/proc/self/fd/{fd}", target, noexec=True)
    finally:
        os.close(fd)


def _run_figure_process(
    context: SandboxContext, request: dict[str, Any], ids: Ids, report: int
) -> dict[str, Any]:
    """Fork the figure process, map its nested namespace, wait for it; its exit status."""
    timeout = float(request["timeout"])
    from_child, to_supervisor = os.pipe()
    from_supervisor, to_child = os.pipe()
    started = time.monotonic()
    child = os.fork()
    if child == 0:
        os.close(from_child)
        os.close(to_child)
        run_confined(
            context, request["code"], ids, timeout, report=to_supervisor, go=from_supervisor
        )
    os.close(to_supervisor)
    os.close(from_supervisor)
    deadline = started + timeout
    message = receive(from_child, deadline)
    failed = failure_of(message)
    if failed is None and message is not None:
        with step("nested uid map"):
            confine.write_id_maps(context.proc_fd, child, ids.nested_map, ids.nested_map)
        os.write(to_child, b"M")
        message = receive(from_child, deadline)
        failed = failure_of(message)
    os.close(to_child)
    os.close(context.proc_fd)
    if failed is not None:
        kill_and_reap(child)
        raise failed
    if message is not None:
        send(report, step="running")
    status = _wait_child(child, max(0.0, deadline - time.monotonic()))
    os.close(from_child)
    status["elapsed"] = time.monotonic() - started
    return status


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


def _copy_out(out_fd: int) -> list[str]:
    """Copy the run's top-level regular PNGs and its text outputs out; return PNG names.

    Symlinks are never followed (O_NOFOLLOW + fstat): the code could point one anywhere.
    """
    os.mkdir("png", dir_fd=out_fd)
    png_fd = os.open("png", os.O_RDONLY | os.O_DIRECTORY, dir_fd=out_fd)
    entries = sorted(
        os.scandir(SANDBOX_CWD), key=lambda e: e.stat(follow_symlinks=False).st_mtime_ns
    )
    pngs: list[str] = []
    for entry in entries:
        name = entry.name
        if name.endswith(".png") and len(pngs) < MAX_PNGS:
            safe = re.sub(r"[^A-Za-z0-9._-]", "_", name)[-80:]
            if _copy_regular(entry.path, safe, png_fd, FILE_SIZE_LIMIT):
                pngs.append(safe)
    for name, target in (
        (".stdout", "stdout.txt"),
        (".stderr", "stderr.txt"),
        (".error", "error.txt"),
    ):
        source = os.path.join(SANDBOX_CWD, name)
        _copy_regular(source, target, out_fd, 64 * 1024, tail=True)
    os.close(png_fd)
    return pngs


def _copy_regular(source: str, target: str, dir_fd: int, limit: int, *, tail: bool = False) -> bool:
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
        flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
        out = os.open(target, flags, 0o600, dir_fd=dir_fd)
        with os.fdopen(os.dup(fd), "rb") as reader, os.fdopen(out, "wb") as writer:
            writer.write(reader.read(limit))
        return True
    finally:
        os.close(fd)
