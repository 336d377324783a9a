"""Escapes through resources, processes and the kernel: bombs, threads, exec, syscalls and
native code each fail at the OS layer on their own (`check_policy=False`)."""

from __future__ import annotations

import ast
import errno
import os
import socket
import sys
import threading
import time
from pathlib import Path

import pytest
from sandbox_cases import (
    EPERM,
    IN_CI,
    PLOT,
    blocked_by_policy,
    landlock_abi,
    nr,
    render,
    render_escape,
)

from labscribe.guards.figure_policy import check_figure_code
from labscribe.tools.sandbox.figure_sandbox import FigureWorker, run_figure
from labscribe.tools.sandbox.sandbox_protocol import _UID_BASE


def _sandbox_processes() -> dict[int, int]:
    """pid -> uid of every process running under a fresh sandbox uid (root's runs)."""
    found = {}
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            for line in status.read_text().splitlines():
                if line.startswith("Uid:") and int(line.split()[1]) >= _UID_BASE:
                    found[int(status.parent.name)] = int(line.split()[1])
        except (OSError, ValueError):
            continue
    return found


def _descends_from(pid: int, ancestor: int) -> bool:
    while pid > 1:
        if pid == ancestor:
            return True
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            return False
        pid = int(next(line.split()[1] for line in status.splitlines() if line.startswith("PPid:")))
    return False


def _watch_own_uids(worker: FigureWorker, seen: set[int], done: threading.Event) -> None:
    """Collect the sandbox uids of this worker's renders (uid = base + supervisor pid), so
    that another test's sandbox running alongside (pytest-xdist) is never counted."""
    assert worker._proc is not None
    while not done.is_set():
        for uid in set(_sandbox_processes().values()) - seen:
            if _descends_from(uid - _UID_BASE, worker._proc.pid):
                seen.add(uid)
        time.sleep(0.02)


# --- escapes through resources, processes and the kernel ---------------------------------


def test_escape_fork_bomb_is_contained(worker: FigureWorker, dirs: tuple[Path, Path]) -> None:
    code = (
        "import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass\n"
    )
    assert blocked_by_policy(code)
    ours: set[int] = set()
    done = threading.Event()
    watcher = threading.Thread(target=_watch_own_uids, args=(worker, ours, done))
    watcher.start()
    started = time.monotonic()
    try:
        result = render(worker, dirs, code, timeout=3)
    finally:
        done.set()
        watcher.join()
    assert time.monotonic() - started < 8
    assert not result.ok
    assert result.error.startswith("Error: the figure code did not finish within 3 s")
    assert ours or os.geteuid() != 0  # root's runs map a fresh uid, seen while it ran
    time.sleep(0.2)
    assert [pid for pid, uid in _sandbox_processes().items() if uid in ours] == []


def test_escape_memory_bomb_is_refused(worker: FigureWorker, dirs: tuple[Path, Path]) -> None:
    code = "x = bytearray(8 * 1024**3)\n" + PLOT
    result = render(worker, dirs, code)
    assert not result.ok
    assert "MemoryError" in result.error


def test_escape_numpy_memory_bomb_is_refused(worker: FigureWorker, dirs: tuple[Path, Path]) -> None:
    code = "import numpy as np\nblocks = [np.ones(10**8) for _ in range(40)]\n" + PLOT
    result = render(worker, dirs, code)
    assert not result.ok
    assert "MemoryError" in result.error or "terminated by" in result.error


def test_escape_infinite_loop_times_out(worker: FigureWorker, dirs: tuple[Path, Path]) -> None:
    started = time.monotonic()
    result = render(worker, dirs, "while True:\n    pass\n", timeout=2)
    assert time.monotonic() - started < 6
    assert result.error == (
        "Error: the figure code did not finish within 2 s and was stopped (all its processes "
        "were killed). Make it faster: fewer points, no endless loops."
    )


def test_escape_huge_file_stopped_by_fsize(worker: FigureWorker, dirs: tuple[Path, Path]) -> None:
    code = (
        "f = open('big.bin', 'wb')\nblock = b'0' * 2**20\n"
        "for _ in range(10 * 1024):\n    f.write(block)\n    f.flush()\n"
    )
    result = render_escape(worker, dirs, code)
    assert not result.ok
    assert "OSError: [Errno 27] File too large" in result.error


def test_escape_ctypes_has_no_root(worker: FigureWorker, dirs: tuple[Path, Path]) -> None:
    code = (
        "import ctypes\nlibc = ctypes.CDLL(None)\n"
        "header = (ctypes.c_uint32 * 2)(0x20080522, 0)\ndata = (ctypes.c_uint32 * 6)()\n"
        "libc.capget(header, data)\n"
        "bounding = [c for c in range(64) if libc.prctl(23, c, 0, 0, 0) == 1]\n"
        "print(libc.getuid(), libc.setuid(0), libc.unshare(0x10000000), list(data), bounding)\n"
        + PLOT
    )
    result = render_escape(worker, dirs, code)
    assert result.ok, result
    # uid 1000 of a nested user namespace, no capability in any set, no way back to root.
    assert result.stdout.split(maxsplit=3)[:3] == ["1000", "-1", "-1"]
    assert result.stdout.split(maxsplit=3)[3].strip() == "[0, 0, 0, 0, 0, 0] []"


@pytest.mark.usefixtures("worker")  # skips where the host cannot build the sandbox
def test_escape_environment_secret_not_visible(
    dirs: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DEEPSEEK_API_KEY", "sk-test-secret-123")
    code = (
        "import os\nprint(sorted(os.environ))\nprint(os.environ.get('DEEPSEEK_API_KEY'))\n"
        "try:\n    print(open('/proc/self/environ').read())\n"
        "except OSError as e:\n    print('blocked', type(e).__name__)\n" + PLOT
    )
    assert blocked_by_policy(code)
    data, out = dirs
    result = run_figure(code, data_dir=data, out_dir=out, name="env", check_policy=False)
    assert result.ok, result
    assert "sk-test-secret" not in result.stdout
    assert "DEEPSEEK_API_KEY" not in result.stdout
    assert "blocked FileNotFoundError" in result.stdout


def test_escape_inherited_file_descriptors_are_closed(
    worker: FigureWorker, dirs: tuple[Path, Path]
) -> None:
    code = (
        "import os\nopen_fds = []\nfor fd in range(3, 256):\n    try:\n"
        "        os.fstat(fd)\n        open_fds.append(fd)\n    except OSError:\n"
        "        pass\nprint(open_fds)\n" + PLOT
    )
    result = render_escape(worker, dirs, code)
    assert result.ok, result
    assert result.stdout.strip() == "[]"


def test_escape_pickle_written_by_numpy_runs_confined(
    worker: FigureWorker, dirs: tuple[Path, Path], tmp_path: Path
) -> None:
    target = tmp_path / "pwned-pickle"
    payload = f"cos\nsystem\n(S'id > {target}'\ntR."
    code = (
        "import numpy as np\nimport pandas as pd\n"
        f"np.frombuffer({payload.encode()!r}, dtype=np.uint8).tofile('p.pkl')\n"
        "print(pd.read_pickle('p.pkl'))\n" + PLOT
    )
    assert "'.read_pickle' is not allowed" in check_figure_code(code)[0]
    result = render(worker, dirs, code)
    assert result.ok, result
    # The payload ran, inside: system() could not start a shell (32512: exit status 127).
    assert result.stdout.strip() == "32512"
    assert not target.exists()


def test_escape_np_load_allow_pickle_runs_confined(
    worker: FigureWorker, dirs: tuple[Path, Path]
) -> None:
    payload = "cos\nlistdir\n(S'/'\ntR."
    code = (
        "import numpy as np\n"
        f"np.frombuffer({payload.encode()!r}, dtype=np.uint8).tofile('p.npy')\n"
        "print(sorted(np.load('p.npy', allow_pickle=True)))\n" + PLOT
    )
    assert check_figure_code(code)[0].endswith(
        "allow_pickle must be False: pickle runs code from the file it loads; read CSV, JSON "
        "or .npy files"
    )
    result = render(worker, dirs, code)
    assert result.ok, result
    listing = set(ast.literal_eval(result.stdout.strip()))
    assert {"figure", "data", "usr"} <= listing
    # The path down to the Python installation exists (a CI clone may sit under /tmp).
    python_roots = {Path(p).parts[1] for p in (sys.prefix, sys.base_prefix, sys.executable)}
    assert not listing & ({"etc", "home", "proc", "tmp", "dev"} - python_roots)


def test_escape_pd_eval_dunders_reach_only_the_sandbox(
    worker: FigureWorker, dirs: tuple[Path, Path], tmp_path: Path
) -> None:
    target = tmp_path / "pwned-eval"
    code = (
        "import pandas as pd\n"
        "subclasses = pd.eval('x.__class__.__base__.__subclasses__()', local_dict={'x': 1},"
        " engine='python')\n"
        "wrap = [c for c in subclasses if c.__name__ == '_wrap_close'][0]\n"
        f"print(wrap.__init__.__globals__['system']('id > {target}'))\n" + PLOT
    )
    problems = check_figure_code(code)
    assert problems[0].startswith("line 2: '.eval' is not allowed: it evaluates a string")
    result = render(worker, dirs, code)
    assert result.stdout.strip() == "32512"
    assert not target.exists()


def test_escape_backend_registry_module_is_confined(
    worker: FigureWorker, dirs: tuple[Path, Path], tmp_path: Path
) -> None:
    target = tmp_path / "pwned-backend"
    code = (
        "import matplotlib\n"
        "os = matplotlib.backends.backend_registry.load_backend_module('module://os')\n"
        f"print(os.system('id > {target}'), sorted(os.listdir('/')))\n" + PLOT
    )
    result = render_escape(worker, dirs, code)
    assert result.ok, result
    assert result.stdout.startswith("32512 ")
    assert "'etc'" not in result.stdout
    assert not target.exists()


def test_escape_forked_children_cannot_hold_memory_together(
    worker: FigureWorker, dirs: tuple[Path, Path]
) -> None:
    # Before: each of up to 16 children could hold RLIMIT_AS; eight 400 MiB children held
    # 3.2 GB beside the figure process. Now the figure process is the run's only process.
    code = (
        "import os, select, time\nr, w = os.pipe()\nkids = 0\nfor _ in range(8):\n"
        "    try:\n        pid = os.fork()\n    except OSError as e:\n"
        "        print('fork:', e)\n        break\n"
        "    if pid == 0:\n        block = bytearray(400 << 20)\n        os.write(w, b'1')\n"
        "        time.sleep(30)\n    kids += 1\nheld = 0\n"
        "while kids and select.select([r], [], [], 2)[0]:\n    held += len(os.read(r, 16))\n"
        "    if held >= kids:\n        break\nprint('children holding 400 MiB:', held)\n" + PLOT
    )
    result = render_escape(worker, dirs, code)
    assert result.ok, result
    assert result.stdout.splitlines() == [
        "fork: [Errno 1] Operation not permitted",
        "children holding 400 MiB: 0",
    ]


def test_escape_threads_cannot_start(worker: FigureWorker, dirs: tuple[Path, Path]) -> None:
    code = (
        "import threading\nt = threading.Thread(target=lambda: bytearray(1 << 30))\nt.start()\n"
        + PLOT
    )
    result = render_escape(worker, dirs, code)
    assert not result.ok
    assert "RuntimeError: can't start new thread" in result.error


def test_escape_memory_outside_the_address_space_is_refused(
    worker: FigureWorker, dirs: tuple[Path, Path]
) -> None:
    # memfd files, SysV segments and POSIX queues hold kernel memory RLIMIT_AS does not count.
    code = (
        "import ctypes, os\nlibc = ctypes.CDLL(None, use_errno=True)\n"
        "print(libc.shmget(0, 1 << 30, 0o1600), ctypes.get_errno())\n"
        "print(libc.mq_open(b'/q', 0o100, 0o600, None), ctypes.get_errno())\n"
        "os.memfd_create('hold')\n" + PLOT
    )
    result = render_escape(worker, dirs, code)
    assert result.stdout.splitlines() == ["-1 1", "-1 1"]
    assert EPERM in result.error


def test_escape_empty_files_cannot_pin_kernel_memory(
    worker: FigureWorker, dirs: tuple[Path, Path]
) -> None:
    # tmpfs counts data against its size, not inodes: without an inode cap a million empty
    # files would hold a gigabyte of kernel memory outside RLIMIT_AS.
    code = (
        "n = 0\ntry:\n    while n < 100_000:\n        open(f'f{n}', 'w').close()\n"
        "        n += 1\nexcept OSError as e:\n    print(n < 4096, e.strerror)\n"
    )
    result = render_escape(worker, dirs, code)
    assert result.stdout.strip() == "True No space left on device"


def test_escape_unix_socket_in_data_folder_is_refused(
    worker: FigureWorker, dirs: tuple[Path, Path]
) -> None:
    # A host process listening in the data folder (an agent, a database): the read-only
    # bind mount does not stop connect(2), and the socket is writable by anyone.
    path = dirs[0] / "agent.sock"
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(path))
    path.chmod(0o777)
    server.listen()
    server.settimeout(0.5)
    code = (
        "import socket\ns = socket.socket(socket.AF_UNIX)\ns.connect('data/agent.sock')\n"
        "s.sendall(b'stolen')\n" + PLOT
    )
    assert blocked_by_policy(code)
    try:
        result = render(worker, dirs, code)
        with pytest.raises(TimeoutError):
            server.accept()
    finally:
        server.close()
    assert not result.ok
    assert EPERM in result.error


def test_escape_fifo_in_data_folder_cannot_be_written(
    worker: FigureWorker, dirs: tuple[Path, Path]
) -> None:
    if landlock_abi() < 1 and not IN_CI:
        pytest.skip("this kernel has no Landlock, which is what refuses writes to FIFOs")
    # A FIFO a host process reads: opening it for writing is no write to the read-only mount.
    fifo = dirs[0] / "control.fifo"
    os.mkfifo(fifo)
    fifo.chmod(0o666)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    code = "open('data/control.fifo', 'w').write('rm -rf ~')\n" + PLOT
    assert blocked_by_policy(code)
    try:
        result = render(worker, dirs, code)
        received = os.read(reader, 100)
    finally:
        os.close(reader)
    assert received == b""
    assert "PermissionError: [Errno 13] Permission denied: 'data/control.fifo'" in result.error


def test_escape_denied_syscalls_fail_with_eperm(
    worker: FigureWorker, dirs: tuple[Path, Path]
) -> None:
    # Made with zero arguments: an allowed call would fail otherwise (EFAULT, EINVAL) or do
    # nothing (unshare(0)); EPERM from every one is the seccomp filter's answer.
    names = (
        "socket", "socketpair", "clone3", "execve", "unshare", "setns", "mount", "umount2",
        "pivot_root", "chroot", "ptrace", "process_vm_readv", "keyctl", "add_key",
        "request_key", "bpf", "perf_event_open", "userfaultfd", "io_uring_setup",
        "memfd_create", "shmget", "inotify_init1", "open_by_handle_at", "mknodat",
        "kexec_load", "syslog", "sethostname",
    )  # fmt: skip
    numbers = {name: nr(name) for name in names}
    code = (
        "import ctypes\nlibc = ctypes.CDLL(None, use_errno=True)\n"
        "libc.syscall.restype = ctypes.c_long\n"
        f"for name, nr in {numbers!r}.items():\n"
        "    ctypes.set_errno(0)\n"
        "    print(name, libc.syscall(nr, 0, 0, 0, 0, 0, 0), ctypes.get_errno())\n" + PLOT
    )
    result = render_escape(worker, dirs, code)
    assert result.ok, result
    assert result.stdout.splitlines() == [f"{name} -1 {errno.EPERM}" for name in names]


def test_escape_exec_is_refused(worker: FigureWorker, dirs: tuple[Path, Path]) -> None:
    code = "import os\nos.execv('/usr/bin/true', ['true'])\n"
    result = render_escape(worker, dirs, code)
    assert EPERM in result.error


def test_escape_native_code_written_to_the_cwd_cannot_load(
    worker: FigureWorker, dirs: tuple[Path, Path]
) -> None:
    code = (
        "import ctypes, _ctypes, shutil\nshutil.copyfile(_ctypes.__file__, 'mine.so')\n"
        "ctypes.CDLL('./mine.so')\n"
    )
    result = render_escape(worker, dirs, code)
    assert "failed to map segment from shared object" in result.error  # /figure is noexec
