"""The figure sandbox: valid figures render; every escape fails at the OS layer on its own.

Escape tests run with `check_policy=False`, so they prove the OS boundary, not the AST check;
each also asserts that the policy would have refused the same code first.
"""

from __future__ import annotations

import ast
import os
import socket
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image

from labscribe.guards.figure_policy import check_figure_code
from labscribe.tools.sandbox import (
    FigureResult,
    FigureWorker,
    SandboxUnavailable,
    run_figure,
    sanitize_name,
)

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


def _can_sandbox() -> str | None:
    if os.geteuid() != 0:
        return "the sandbox needs root for namespaces, chroot and a fresh uid"
    if not Path("/proc/self/ns/net").exists():
        return "no namespace support"
    return None


@pytest.fixture(scope="module")
def worker() -> Iterator[FigureWorker]:
    reason = _can_sandbox()
    if reason and os.environ.get("CI") != "true":
        pytest.skip(reason)
    with FigureWorker() as warm:
        try:
            warm.start()
        except SandboxUnavailable as exc:
            if os.environ.get("CI") == "true":
                raise
            pytest.skip(str(exc))
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


def test_run_figure_cold_process_renders(dirs: tuple[Path, Path]) -> None:
    if _can_sandbox() and os.environ.get("CI") != "true":
        pytest.skip(str(_can_sandbox()))
    data, out = dirs
    result = run_figure(SINE, data_dir=data, out_dir=out, name="cold")
    assert result.ok, result
    assert result.png == out / "cold.png"


def test_run_figure_reads_data_folder(worker: FigureWorker, dirs: tuple[Path, Path]) -> None:
    code = "import numpy as np\nprint(np.loadtxt('data/run1.csv', delimiter=',', skiprows=1))"
    result = _run(worker, dirs, code + PLOT)
    assert result.ok, result
    assert "[[0. 1.]" in result.stdout


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
    ) + PLOT
    assert _blocked_by_policy(code)
    try:
        result = _run(worker, dirs, code)
    finally:
        marker.unlink()
    listing, marker_seen = result.stdout.splitlines()[:2]
    # Only the skeleton exists: the cwd, /usr (and its merged-/usr links) and the path down
    # to the Python installation, wherever that lives (a CI clone may sit under /tmp).
    python_roots = {Path(p).parts[1] for p in (sys.prefix, sys.base_prefix, sys.executable)}
    allowed = {"figure", "usr", "bin", "lib", "lib64", "sbin"} | python_roots
    assert set(ast.literal_eval(listing)) <= allowed
    assert "figure" in listing
    for host_only in ("etc", "home", "proc", "dev", "root"):
        assert f"'{host_only}'" not in listing or host_only in python_roots
    assert marker_seen == "False"  # the host's /tmp is not there, even when a path crosses it


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
    assert "OSError: [Errno 101] Network is unreachable" in result.error
    assert accepted == []


def _sandbox_uids_alive() -> list[int]:
    alive = []
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            for line in status.read_text().splitlines():
                if line.startswith("Uid:") and int(line.split()[1]) >= 200_000:
                    alive.append(int(status.parent.name))
        except (OSError, ValueError):
            continue
    return alive


def test_escape_fork_bomb_is_contained(worker: FigureWorker, dirs: tuple[Path, Path]) -> None:
    code = (
        "import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass\n"
    )
    assert _blocked_by_policy(code)
    started = time.monotonic()
    result = _run(worker, dirs, code, timeout=3)
    assert time.monotonic() - started < 8
    assert not result.ok
    assert result.error.startswith("Error: the figure code did not finish within 3 s")
    time.sleep(0.2)
    assert _sandbox_uids_alive() == []


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
        "print(libc.getuid(), libc.setuid(0), libc.unshare(0x40000000))\n" + PLOT
    )
    assert _blocked_by_policy(code)
    result = _run(worker, dirs, code)
    uid, setuid, unshare = (int(v) for v in result.stdout.split())
    assert uid >= 200_000
    assert setuid == -1
    assert unshare == -1


def test_escape_environment_secret_not_visible(
    dirs: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    if _can_sandbox() and os.environ.get("CI") != "true":
        pytest.skip(str(_can_sandbox()))
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
