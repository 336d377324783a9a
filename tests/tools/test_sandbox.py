"""The figure sandbox: valid figures render; every escape fails at the OS layer on its own.

Escape tests run with `check_policy=False`, so they prove the OS boundary, not the AST check;
each also asserts that the policy would have refused the same code first. The sandbox is
built from user namespaces, so it must work for a normal user as well as for root (CI):
`test_sandbox_confines_the_same_for_root_and_a_normal_user` runs a corpus of attacks as the
caller, as nobody and as uid 0 of a user namespace.
"""

from __future__ import annotations

import ast
import ctypes
import errno
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyseccomp
import pytest
from PIL import Image

import labscribe.tools
from labscribe.guards.figure_policy import check_figure_code
from labscribe.tools.figure_names import sanitize_name
from labscribe.tools.figure_output import FigureResult, SandboxUnavailable
from labscribe.tools.sandbox import FigureWorker, run_figure
from labscribe.tools.sandbox_host import sandbox_problem
from labscribe.tools.sandbox_protocol import _UID_BASE

SINE = """\
import matplotlib.pyplot as plt
import numpy as np

x = np.linspace(0, 2 * np.pi, 200)
fig, ax = plt.subplots(figsize=(4, 3), dpi=100)
ax.plot(x, np.sin(x))
ax.set_xlabel("t / s")
ax.set_ylabel("U / V")
"""

# A figure any escape test appends, so a run that is not stopped would succeed visibly.
PLOT = "\nimport matplotlib.pyplot as plt\nplt.plot([0, 1], [1, 0])\n"
IN_CI = bool(os.environ.get("CI"))
NOBODY = 65534
EPERM = "PermissionError: [Errno 1] Operation not permitted"


def _nr(name: str) -> int:
    return int(pyseccomp.resolve_syscall(pyseccomp.Arch.NATIVE, name))


def _landlock_abi() -> int:
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    return int(libc.syscall(_nr("landlock_create_ruleset"), None, 0, 1))


@pytest.fixture(scope="module")
def worker() -> Iterator[FigureWorker]:
    with FigureWorker() as warm:
        try:
            warm.start()
        except SandboxUnavailable as exc:
            if IN_CI:
                raise
            pytest.skip(f"this host cannot build the sandbox: {exc}")
        yield warm


@pytest.fixture
def dirs(tmp_path: Path) -> tuple[Path, Path]:
    data = tmp_path / "data"
    data.mkdir()
    (data / "run1.csv").write_text("t,u\n0,1\n1,2\n")
    (tmp_path / "secret.txt").write_text("TOP-SECRET-OUTSIDE-DATA")
    return data, tmp_path / "out"


def _run(
    worker: FigureWorker,
    dirs: tuple[Path, Path],
    code: str,
    *,
    timeout: float = 10,
    name: str = "fig",
) -> FigureResult:
    data, out = dirs
    return worker.render(
        code, data_dir=data, out_dir=out, name=name, timeout=timeout, check_policy=False
    )


def _blocked_by_policy(code: str) -> bool:
    return bool(check_figure_code(code))


# --- valid figures ------------------------------------------------------------------------


def test_run_figure_renders_png_of_requested_size(
    worker: FigureWorker, dirs: tuple[Path, Path]
) -> None:
    data, out = dirs
    result = worker.render(SINE, data_dir=data, out_dir=out, name="sine")
    assert result.ok, result
    assert result.png == out / "sine.png"
    with Image.open(result.png) as image:
        assert image.format == "PNG"
        assert image.size == (400, 300)
        assert image.getcolors(maxcolors=1) is None


@pytest.mark.usefixtures("worker")  # skips where the host cannot build the sandbox
def test_run_figure_cold_process_renders(dirs: tuple[Path, Path]) -> None:
    data, out = dirs
    result = run_figure(SINE, data_dir=data, out_dir=out, name="cold")
    assert result.ok, result
    assert result.png == out / "cold.png"


def test_run_figure_reads_data_folder(worker: FigureWorker, dirs: tuple[Path, Path]) -> None:
    code = "import numpy as np\nprint(np.loadtxt('data/run1.csv', delimiter=',', skiprows=1))"
    result = _run(worker, dirs, code + PLOT)
    assert result.ok, result
    assert "[[0. 1.]" in result.stdout


def test_run_figure_binds_no_data_folder_but_the_runs(
    worker: FigureWorker, dirs: tuple[Path, Path], tmp_path: Path
) -> None:
    # The folder was swapped for another after the caller checked it: the sandbox checks the
    # folder it binds, so the code finds no data rather than the other folder's.
    data, out = dirs
    started_with = (data.stat().st_dev, data.stat().st_ino)
    data.rename(tmp_path / "kept")
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "run1.csv").write_text("t,u\nTOP-SECRET,1\n")
    data.symlink_to(tmp_path / "other")
    code = "import os\nprint(sorted(os.listdir('data')))"
    result = worker.render(
        code + PLOT, data_dir=data, out_dir=out, name="fig", check_policy=False,
        data_identity=started_with,
    )  # fmt: skip
    assert result.ok, result
    assert result.stdout.strip() == "[]"


def test_run_figure_keeps_code_saved_png_only_as_name(
    worker: FigureWorker, dirs: tuple[Path, Path]
) -> None:
    code = SINE + "fig.savefig('mine.png', dpi=50)\n"
    result = _run(worker, dirs, code, name="../Evil Name.png")
    assert result.ok, result
    assert sorted(p.name for p in dirs[1].iterdir()) == ["Evil_Name.png"]
    with Image.open(dirs[1] / "Evil_Name.png") as image:
        assert image.size == (200, 150)


def test_run_figure_rejects_blank_figure(worker: FigureWorker, dirs: tuple[Path, Path]) -> None:
    result = _run(worker, dirs, "import matplotlib.pyplot as plt\nplt.figure()\n")
    assert not result.ok
    assert result.error == "Error: the figure is blank (a single colour); plot some data on it"


def test_run_figure_reports_no_figure(worker: FigureWorker, dirs: tuple[Path, Path]) -> None:
    result = _run(worker, dirs, "x = 1\n")
    assert not result.ok
    assert result.error.startswith("Error: the code made no figure.")


def test_run_figure_reports_exception_readably(
    worker: FigureWorker, dirs: tuple[Path, Path]
) -> None:
    result = _run(worker, dirs, "x = 1\ny = x / 0\n")
    assert not result.ok
    assert result.error.startswith("Error: the figure code raised an exception:")
    assert 'File "figure.py", line 2' in result.error
    assert "ZeroDivisionError: division by zero" in result.error
    assert "sandbox.py" not in result.error


def test_run_figure_refuses_policy_violation_without_running(dirs: tuple[Path, Path]) -> None:
    data, out = dirs
    result = run_figure("import os\n" + SINE, data_dir=data, out_dir=out, name="x")
    assert not result.ok
    assert result.error == (
        "The figure code was not run:\n- line 1: import of 'os' is not allowed; "
        "allowed: numpy, pandas, matplotlib, math, statistics, csv, json"
    )
    assert not out.exists()


def test_sanitize_name_strips_path_and_suffix() -> None:
    assert sanitize_name("../../etc/passwd") == "etc_passwd"
    assert sanitize_name("Fig 1.png") == "Fig_1"
    assert sanitize_name("///") == "figure"


def test_figure_worker_serves_many_figures(worker: FigureWorker, dirs: tuple[Path, Path]) -> None:
    for index in range(3):
        assert _run(worker, dirs, SINE, name=f"s{index}").ok


# --- escapes: each blocked by the policy AND at the OS layer ---------------------------------


def test_escape_dunder_import_sees_no_host_filesystem(
    worker: FigureWorker, dirs: tuple[Path, Path]
) -> None:
    marker = Path(tempfile.gettempdir()) / f"labscribe-host-marker-{os.getpid()}"
    marker.write_text("host")
    code = (
        "os = __import__('os')\n"
        "print(sorted(os.listdir('/')))\n"
        f"print(os.path.exists({str(marker)!r}))\n"
        "print(os.uname().nodename)\n"
    ) + PLOT
    assert _blocked_by_policy(code)
    try:
        result = _run(worker, dirs, code)
    finally:
        marker.unlink()
    listing, marker_seen, hostname = result.stdout.splitlines()[:3]
    # Only the skeleton exists: the cwd, the data, /usr (and its merged-/usr links) and the
    # path down to the Python installation, wherever that lives (a CI clone may sit in /tmp).
    python_roots = {Path(p).parts[1] for p in (sys.prefix, sys.base_prefix, sys.executable)}
    allowed = {"figure", "data", "usr", "bin", "lib", "lib64", "sbin"} | python_roots
    assert set(ast.literal_eval(listing)) <= allowed
    assert "figure" in listing
    for host_only in ("etc", "home", "proc", "dev", "root"):
        assert f"'{host_only}'" not in listing or host_only in python_roots
    assert marker_seen == "False"  # the host's /tmp is not there, even when a path crosses it
    assert hostname == "figure"  # a UTS namespace of its own, not the host's name


def test_escape_subclasses_cannot_write_host(
    worker: FigureWorker, dirs: tuple[Path, Path], tmp_path: Path
) -> None:
    target = tmp_path / "pwned-subclasses"
    code = (
        "k = [c for c in ().__class__.__bases__[0].__subclasses__()"
        " if c.__name__ == '_wrap_close'][0]\n"
        f"k.__init__.__globals__['system']('echo x > {target}')\n"
        f"print(k.__init__.__globals__['listdir']('/'))\n" + PLOT
    )
    assert _blocked_by_policy(code)
    _run(worker, dirs, code)
    assert not target.exists()


def test_escape_format_string_reaches_nothing_outside(
    worker: FigureWorker, dirs: tuple[Path, Path]
) -> None:
    code = "g = (i for i in [1])\nprint('{0.gi_frame.f_globals}'.format(g))" + PLOT
    assert _blocked_by_policy(code)
    result = _run(worker, dirs, code)
    # In-process introspection is the policy's job; the OS layer only promises that what
    # it reaches is the sandboxed process itself: no secrets, no host files.
    assert "DEEPSEEK" not in result.stdout


def test_escape_frame_globals_open_is_confined(
    worker: FigureWorker, dirs: tuple[Path, Path]
) -> None:
    code = (
        "def f():\n    yield 1\n"
        "b = f().gi_frame.f_globals['__builtins__']\n"
        "print(b.open('/etc/passwd').read())\n" + PLOT
    )
    assert _blocked_by_policy(code)
    result = _run(worker, dirs, code)
    assert not result.ok
    assert "root:" not in result.stdout
    assert "FileNotFoundError" in result.error


def test_escape_matplotlib_os_system_cannot_write_host(
    worker: FigureWorker, dirs: tuple[Path, Path], tmp_path: Path
) -> None:
    target = tmp_path / "pwned-mpl-os"
    code = f"import matplotlib\nmatplotlib.os.system('id > {target}')\n" + PLOT
    assert _blocked_by_policy(code)
    result = _run(worker, dirs, code)
    assert not target.exists()
    assert result.ok  # the command failed harmlessly inside; only the figure came back
    assert sorted(p.name for p in dirs[1].iterdir()) == ["fig.png"]


def test_escape_savefig_outside_cwd_never_lands_on_host(
    worker: FigureWorker, dirs: tuple[Path, Path], tmp_path: Path
) -> None:
    target = tmp_path / "escaped.png"
    code = PLOT + f"plt.savefig('/tmp/../{target}')\n"
    assert _blocked_by_policy(code)
    result = _run(worker, dirs, code)
    assert not result.ok
    assert not target.exists()
    assert "FileNotFoundError" in result.error


def test_escape_savefig_parent_dir_is_read_only(
    worker: FigureWorker, dirs: tuple[Path, Path]
) -> None:
    code = PLOT + "plt.savefig('../up.png')\n"
    assert _blocked_by_policy(code)
    result = _run(worker, dirs, code)
    assert not result.ok
    assert "Read-only file system" in result.error
    assert not dirs[1].exists() or list(dirs[1].iterdir()) == []


def test_escape_open_etc_passwd_fails(worker: FigureWorker, dirs: tuple[Path, Path]) -> None:
    code = "print(open('/etc/passwd').read())" + PLOT
    assert _blocked_by_policy(code)
    result = _run(worker, dirs, code)
    assert not result.ok
    assert "root:" not in result.stdout
    assert "FileNotFoundError: [Errno 2] No such file or directory: '/etc/passwd'" in result.error


def test_escape_read_outside_data_folder_fails(
    worker: FigureWorker, dirs: tuple[Path, Path], tmp_path: Path
) -> None:
    code = (
        "for p in ['data/../secret.txt', '../secret.txt', "
        f"'{tmp_path / 'secret.txt'}', '/work/main/pyproject.toml']:\n"
        "    try:\n        print(open(p).read())\n"
        "    except OSError as e:\n        print('blocked', type(e).__name__)\n" + PLOT
    )
    assert _blocked_by_policy(code)
    result = _run(worker, dirs, code)
    assert "TOP-SECRET" not in result.stdout
    assert result.stdout.count("blocked FileNotFoundError") == 4


def test_escape_write_into_data_folder_fails(worker: FigureWorker, dirs: tuple[Path, Path]) -> None:
    code = "open('data/run1.csv', 'w').write('tampered')" + PLOT
    assert _blocked_by_policy(code)
    result = _run(worker, dirs, code)
    assert not result.ok
    assert "Read-only file system" in result.error
    assert (dirs[0] / "run1.csv").read_text() == "t,u\n0,1\n1,2\n"


def test_escape_socket_to_localhost_fails(worker: FigureWorker, dirs: tuple[Path, Path]) -> None:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    server.settimeout(0.2)
    port = server.getsockname()[1]
    accepted: list[object] = []
    done = threading.Event()

    def serve() -> None:
        while not done.is_set() and not accepted:
            try:
                accepted.append(server.accept())
            except TimeoutError:
                continue

    thread = threading.Thread(target=serve)
    thread.start()
    code = (
        f"import socket\ns = socket.create_connection(('127.0.0.1', {port}), timeout=2)\n"
        "s.sendall(b'stolen')\n" + PLOT
    )
    assert _blocked_by_policy(code)
    result = _run(worker, dirs, code)
    time.sleep(0.3)  # a connection that got through would be accepted by now
    done.set()
    thread.join()
    server.close()
    assert not result.ok
    assert EPERM in result.error  # no socket at all: seccomp refuses socket(2)
    assert accepted == []


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


def test_escape_fork_bomb_is_contained(worker: FigureWorker, dirs: tuple[Path, Path]) -> None:
    code = (
        "import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass\n"
    )
    assert _blocked_by_policy(code)
    ours: set[int] = set()
    done = threading.Event()
    watcher = threading.Thread(target=_watch_own_uids, args=(worker, ours, done))
    watcher.start()
    started = time.monotonic()
    try:
        result = _run(worker, dirs, code, timeout=3)
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
    result = _run(worker, dirs, code)
    assert not result.ok
    assert "MemoryError" in result.error


def test_escape_numpy_memory_bomb_is_refused(worker: FigureWorker, dirs: tuple[Path, Path]) -> None:
    code = "import numpy as np\nblocks = [np.ones(10**8) for _ in range(40)]\n" + PLOT
    result = _run(worker, dirs, code)
    assert not result.ok
    assert "MemoryError" in result.error or "terminated by" in result.error


def test_escape_infinite_loop_times_out(worker: FigureWorker, dirs: tuple[Path, Path]) -> None:
    started = time.monotonic()
    result = _run(worker, dirs, "while True:\n    pass\n", timeout=2)
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
    assert _blocked_by_policy(code)
    result = _run(worker, dirs, code)
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
    assert _blocked_by_policy(code)
    result = _run(worker, dirs, code)
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
    assert _blocked_by_policy(code)
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
    assert _blocked_by_policy(code)
    result = _run(worker, dirs, code)
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
    result = _run(worker, dirs, code)
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
    result = _run(worker, dirs, code)
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
    result = _run(worker, dirs, code)
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
    assert _blocked_by_policy(code)
    result = _run(worker, dirs, code)
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
    assert _blocked_by_policy(code)
    result = _run(worker, dirs, code)
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
    assert _blocked_by_policy(code)
    result = _run(worker, dirs, code)
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
    assert _blocked_by_policy(code)
    result = _run(worker, dirs, code)
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
    assert _blocked_by_policy(code)
    result = _run(worker, dirs, code)
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
    assert _blocked_by_policy(code)
    try:
        result = _run(worker, dirs, code)
        with pytest.raises(TimeoutError):
            server.accept()
    finally:
        server.close()
    assert not result.ok
    assert EPERM in result.error


def test_escape_fifo_in_data_folder_cannot_be_written(
    worker: FigureWorker, dirs: tuple[Path, Path]
) -> None:
    if _landlock_abi() < 1 and not IN_CI:
        pytest.skip("this kernel has no Landlock, which is what refuses writes to FIFOs")
    # A FIFO a host process reads: opening it for writing is no write to the read-only mount.
    fifo = dirs[0] / "control.fifo"
    os.mkfifo(fifo)
    fifo.chmod(0o666)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    code = "open('data/control.fifo', 'w').write('rm -rf ~')\n" + PLOT
    assert _blocked_by_policy(code)
    try:
        result = _run(worker, dirs, code)
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
    numbers = {name: _nr(name) for name in names}
    code = (
        "import ctypes\nlibc = ctypes.CDLL(None, use_errno=True)\n"
        "libc.syscall.restype = ctypes.c_long\n"
        f"for name, nr in {numbers!r}.items():\n"
        "    ctypes.set_errno(0)\n"
        "    print(name, libc.syscall(nr, 0, 0, 0, 0, 0, 0), ctypes.get_errno())\n" + PLOT
    )
    assert _blocked_by_policy(code)
    result = _run(worker, dirs, code)
    assert result.ok, result
    assert result.stdout.splitlines() == [f"{name} -1 {errno.EPERM}" for name in names]


def test_escape_exec_is_refused(worker: FigureWorker, dirs: tuple[Path, Path]) -> None:
    code = "import os\nos.execv('/usr/bin/true', ['true'])\n"
    assert _blocked_by_policy(code)
    result = _run(worker, dirs, code)
    assert EPERM in result.error


def test_escape_native_code_written_to_the_cwd_cannot_load(
    worker: FigureWorker, dirs: tuple[Path, Path]
) -> None:
    code = (
        "import ctypes, _ctypes, shutil\nshutil.copyfile(_ctypes.__file__, 'mine.so')\n"
        "ctypes.CDLL('./mine.so')\n"
    )
    assert _blocked_by_policy(code)
    result = _run(worker, dirs, code)
    assert "failed to map segment from shared object" in result.error  # /figure is noexec


# --- a normal user, and root: the same attacks fail for both ---------------------------------

# Run by `_as_user`: a secret in this user's own session keyring (as `keyctl add user ...
# @s` leaves it), a UNIX socket server in the data folder, then each attack rendered with
# the policy off. Prints one JSON object.
_RUNNER = r"""
import ctypes, json, os, socket, sys
from pathlib import Path
from labscribe.tools.sandbox import FigureWorker

config = json.loads(Path(sys.argv[1]).read_text())
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
libc.syscall(config["keyctl"], 1, b"labscribe-test")  # KEYCTL_JOIN_SESSION_KEYRING
secret = config["secret"].encode()
key = libc.syscall(config["add_key"], b"user", b"labscribe", secret, len(secret), -3)
data = Path(config["data"])
server = socket.socket(socket.AF_UNIX)
server.bind(str(data / "agent.sock"))
server.listen()
server.settimeout(0.2)
results = {"euid": os.geteuid(), "key": key}
with FigureWorker() as worker:
    for name, code in config["codes"].items():
        code = code.replace("KEY_ID", str(key))
        result = worker.render(code, data_dir=data, out_dir=Path(config["out"]), name=name,
                               timeout=10, check_policy=False)
        results[name] = {"ok": result.ok, "stdout": result.stdout, "error": result.error}
try:
    server.accept()
    results["accepted"] = True
except TimeoutError:
    results["accepted"] = False
print(json.dumps(results))
"""
_SECRET = "KEYRING-SECRET-4711"


def _attacks(home: Path) -> dict[str, str]:
    keyctl = _nr("keyctl")
    return {
        "sine": SINE,
        "reads_data": "import numpy as np\nprint(np.loadtxt('data/run1.csv', delimiter=',',"
        " skiprows=1).sum())\n" + PLOT,
        "keyring": (
            "import ctypes\nlibc = ctypes.CDLL(None, use_errno=True)\n"
            "libc.syscall.restype = ctypes.c_long\nbuf = ctypes.create_string_buffer(64)\n"
            f"print(libc.syscall({keyctl}, 11, KEY_ID, buf, 64), ctypes.get_errno(),"
            " buf.value)\n" + PLOT  # KEYCTL_READ
        ),
        "unix_socket": "import socket\ns = socket.socket(socket.AF_UNIX)\n"
        "s.connect('data/agent.sock')\n" + PLOT,
        "fork": "import os\nos.fork()\n",
        "thread": "import threading\nthreading.Thread(target=print).start()\n",
        "host_files": (
            f"for p in ['/etc/passwd', 'data/../secret.txt', '{home}/secret.txt']:\n"
            "    try:\n        print(open(p).read())\n"
            "    except OSError as e:\n        print(type(e).__name__)\n"
            f"open('{home}/pwned', 'w')\n"
        ),
        "identity": (
            "import ctypes, os\nlibc = ctypes.CDLL(None)\n"
            "header = (ctypes.c_uint32 * 2)(0x20080522, 0)\ndata = (ctypes.c_uint32 * 6)()\n"
            "libc.capget(header, data)\n"
            "print(os.getuid(), os.getgid(), libc.setuid(0), list(data))\n" + PLOT
        ),
    }


def _hidden_ancestors(paths: list[str]) -> dict[Path, set[str]]:
    """For each path, the first ancestor others cannot enter, and the child on the way."""
    hidden: dict[Path, set[str]] = {}
    for path in paths:
        parts = Path(path).resolve().parts
        for depth in range(1, len(parts)):
            ancestor = Path(*parts[:depth])
            if not os.stat(ancestor).st_mode & 0o001:
                hidden.setdefault(ancestor, set()).add(parts[depth])
                break
    return hidden


def _as_user(user: str, script: Path, config: Path, stash: Path) -> subprocess.CompletedProcess:
    """Run `script config` with this interpreter as `user` (see `USERS`).

    nobody must reach the interpreter, and a CI checkout's Python may sit under /root (mode
    700): a private mount namespace shows the folders on the way at the same paths over a
    tmpfs, and nothing else of those parents. The sandbox then runs as nobody for real.
    """
    python = [sys.executable, "-I", str(script), str(config)]
    if user == "root of a user namespace":
        python = ["unshare", "--user", "--map-root-user", *python]
    if user != "nobody" or os.geteuid() != 0:
        return subprocess.run(python, capture_output=True, text=True, timeout=120)
    repo = str(Path(labscribe.tools.__file__).resolve().parents[1])
    lines = ["set -e"]
    for index, (ancestor, children) in enumerate(_hidden_ancestors(
        [sys.prefix, sys.base_prefix, os.path.realpath(sys.executable), repo]
    ).items()):  # fmt: skip
        for child in children:
            lines += [f"mkdir -p '{stash}/{index}/{child}'",
                      f"mount --rbind '{ancestor / child}' '{stash}/{index}/{child}'"]  # fmt: skip
        lines.append(f"mount -t tmpfs -o mode=755 tmpfs '{ancestor}'")
        for child in children:
            lines += [f"mkdir -p '{ancestor / child}'",
                      f"mount --move '{stash}/{index}/{child}' '{ancestor / child}'"]  # fmt: skip
    drop = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", "--"]
    env = ["env", "-i", "PATH=/usr/bin:/bin", "HOME=/tmp", "LANG=C.UTF-8"]
    lines.append('exec "$@"')
    command = ["unshare", "--mount", "--propagation", "private", "--", "sh", "-c",
               "\n".join(lines), "sh", *drop, *env, *python]  # fmt: skip
    return subprocess.run(command, capture_output=True, text=True, timeout=120)


USERS = ("caller", "nobody", "root of a user namespace")
"""Who runs the sandbox: the test's own user (root in CI: the fresh-uid path), nobody (a
normal user: one uid to map, nothing privileged), and uid 0 of a user namespace (root in a
rootless container: euid 0 without privilege over the host)."""


@pytest.mark.parametrize("user", USERS)
def test_sandbox_confines_the_same_for_root_and_a_normal_user(user: str) -> None:
    as_root = os.geteuid() == 0
    if user == "nobody" and not as_root and not IN_CI:
        pytest.skip("not root, so the caller is a normal user already (in CI: run as caller)")
    if shutil.which("unshare") is None and user != "caller" and not IN_CI:
        pytest.skip("unshare (util-linux) is needed to change user")
    home = Path(tempfile.mkdtemp(prefix="labscribe-sandbox-user-"))
    try:
        home.chmod(0o755)
        (home / "secret.txt").write_text("TOP-SECRET-OUTSIDE-DATA")
        data, out, stash = home / "data", home / "out", home / "stash"
        for folder in (data, out, stash):
            folder.mkdir()
        (data / "run1.csv").write_text("t,u\n0,1\n1,2\n")
        script, config = home / "runner.py", home / "config.json"
        script.write_text(_RUNNER)
        codes = _attacks(home)
        config.write_text(json.dumps({
            "data": str(data), "out": str(out), "codes": codes, "secret": _SECRET,
            "keyctl": _nr("keyctl"), "add_key": _nr("add_key"),
        }))  # fmt: skip
        if user == "nobody" and as_root:
            for path in (data, out, data / "run1.csv", home):
                os.chown(path, NOBODY, NOBODY)
        done = _as_user(user, script, config, stash)
        assert done.returncode == 0, done.stderr[-3000:]
        results: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
        pwned = (home / "pwned").exists()
    finally:
        shutil.rmtree(home, ignore_errors=True)
    expected_euid = {"nobody": NOBODY if as_root else os.geteuid(), "caller": os.geteuid()}
    assert results["euid"] == expected_euid.get(user, 0)
    assert results["key"] > 0  # the secret is in the user's session keyring
    assert results["sine"]["ok"], results["sine"]
    assert results["reads_data"]["stdout"].strip() == "4.0"
    assert results["keyring"]["ok"]
    assert results["keyring"]["stdout"].strip() == f"-1 {errno.EPERM} b''"
    assert EPERM in results["unix_socket"]["error"]
    assert results["accepted"] is False
    assert EPERM in results["fork"]["error"]
    assert "RuntimeError: can't start new thread" in results["thread"]["error"]
    assert results["host_files"]["stdout"].split() == ["FileNotFoundError"] * 3
    assert "FileNotFoundError" in results["host_files"]["error"]
    assert not pwned
    assert results["identity"]["stdout"].strip() == "1000 1000 -1 [0, 0, 0, 0, 0, 0]"
    assert _SECRET not in json.dumps(results)


# --- hosts that forbid user namespaces: one clear message, and no figure code runs ----------

_FIXES = {
    "unprivileged": "sudo sysctl -w kernel.unprivileged_userns_clone=1",
    "max": "sudo sysctl -w user.max_user_namespaces=10000",
    "apparmor": (
        "sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0, or an AppArmor "
        "profile that allows `userns,` for this Python"
    ),
}


@pytest.mark.parametrize(
    ("sysctls", "step", "err", "privileged", "cause"),
    [
        (
            {"kernel/unprivileged_userns_clone": "0"},
            "unshare", errno.EPERM, False,
            f"kernel.unprivileged_userns_clone=0 forbids them; allow them with "
            f"{_FIXES['unprivileged']}",
        ),
        (
            {"user/max_user_namespaces": "0"},
            "unshare", errno.ENOSPC, True,
            f"user.max_user_namespaces=0 forbids them; allow them with {_FIXES['max']}",
        ),
        (
            {"kernel/apparmor_restrict_unprivileged_userns": "1"},
            "mount", errno.EPERM, False,
            "kernel.apparmor_restrict_unprivileged_userns=1 forbids them; allow them with "
            f"{_FIXES['apparmor']}",
        ),
        (
            {"user/max_user_namespaces": "1"},
            "nested user namespace", errno.ENOSPC, False,
            f"the limit user.max_user_namespaces=1 is used up; {_FIXES['max']}",
        ),
        (
            {},
            "unshare", errno.EPERM, False,
            "something on this host refuses them (in a container, its seccomp profile: "
            "Docker's default refuses unshare); run where unprivileged user namespaces are "
            "allowed",
        ),
    ],
    ids=["debian-sysctl", "max-zero", "ubuntu-apparmor", "max-used-up", "unknown"],
)  # fmt: skip
def test_sandbox_problem_names_the_cause_and_the_fix(
    sysctls: dict[str, str], step: str, err: int, privileged: bool, cause: str
) -> None:
    problem = sandbox_problem(step, err, privileged=privileged, sysctl=sysctls.get)
    assert problem == (
        f"the figure sandbox cannot build its user namespaces ({step}: {os.strerror(err)}): "
        + cause
    )


def test_sandbox_problem_ignores_unprivileged_settings_for_root() -> None:
    sysctls = {"kernel/apparmor_restrict_unprivileged_userns": "1"}
    problem = sandbox_problem("unshare", errno.EPERM, privileged=True, sysctl=sysctls.get)
    assert "apparmor" not in problem


def test_sandbox_problem_names_missing_libseccomp() -> None:
    assert sandbox_problem("libseccomp", errno.ENOENT, privileged=False) == (
        "the figure sandbox needs libseccomp (libseccomp.so.2) for its syscall filter, and it "
        "is not installed: apt install libseccomp2 (Debian/Ubuntu)"
    )


def test_figure_worker_refuses_to_start_without_user_namespaces(tmp_path: Path) -> None:
    if shutil.which("unshare") is None and not IN_CI:
        pytest.skip("unshare (util-linux) is needed to forbid user namespaces for one process")
    # A user namespace whose limit for further namespaces is 0: what the sysctl does to a host.
    code = (
        "from labscribe.tools.figure_output import SandboxUnavailable\n"
        "from labscribe.tools.sandbox import FigureWorker\n"
        "try:\n    FigureWorker().start()\n    print('started')\n"
        "except SandboxUnavailable as exc:\n    print(exc)\n"
    )
    shell = 'echo 0 > /proc/sys/user/max_user_namespaces && exec "$@"'
    done = subprocess.run(
        ["unshare", "-Ur", "sh", "-c", shell, "sh", sys.executable, "-I", "-c", code],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
    )  # fmt: skip
    assert done.stdout.strip() == (
        "the figure sandbox cannot build its user namespaces (unshare: No space left on "
        "device): user.max_user_namespaces=0 forbids them; allow them with "
        f"{_FIXES['max']}"
    ), done.stderr[-2000:]
