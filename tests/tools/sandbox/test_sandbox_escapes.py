"""Escapes through files, names and the network: each fails at the OS layer on its own
(rendered with `check_policy=False`), and the policy would have refused it first."""

from __future__ import annotations

import ast
import os
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

from sandbox_cases import (
    EPERM,
    PLOT,
    blocked_by_policy,
    render,
    render_escape,
)

from labscribe.tools.sandbox.figure_sandbox import FigureWorker

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
    assert blocked_by_policy(code)
    try:
        result = render(worker, dirs, code)
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
    assert blocked_by_policy(code)
    render(worker, dirs, code)
    assert not target.exists()


def test_escape_format_string_reaches_nothing_outside(
    worker: FigureWorker, dirs: tuple[Path, Path]
) -> None:
    code = "g = (i for i in [1])\nprint('{0.gi_frame.f_globals}'.format(g))" + PLOT
    result = render_escape(worker, dirs, code)
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
    result = render_escape(worker, dirs, code)
    assert not result.ok
    assert "root:" not in result.stdout
    assert "FileNotFoundError" in result.error


def test_escape_matplotlib_os_system_cannot_write_host(
    worker: FigureWorker, dirs: tuple[Path, Path], tmp_path: Path
) -> None:
    target = tmp_path / "pwned-mpl-os"
    code = f"import matplotlib\nmatplotlib.os.system('id > {target}')\n" + PLOT
    result = render_escape(worker, dirs, code)
    assert not target.exists()
    assert result.ok  # the command failed harmlessly inside; only the figure came back
    assert sorted(p.name for p in dirs[1].iterdir()) == ["fig.png"]


def test_escape_savefig_outside_cwd_never_lands_on_host(
    worker: FigureWorker, dirs: tuple[Path, Path], tmp_path: Path
) -> None:
    target = tmp_path / "escaped.png"
    code = PLOT + f"plt.savefig('/tmp/../{target}')\n"
    result = render_escape(worker, dirs, code)
    assert not result.ok
    assert not target.exists()
    assert "FileNotFoundError" in result.error


def test_escape_savefig_parent_dir_is_read_only(
    worker: FigureWorker, dirs: tuple[Path, Path]
) -> None:
    code = PLOT + "plt.savefig('../up.png')\n"
    result = render_escape(worker, dirs, code)
    assert not result.ok
    assert "Read-only file system" in result.error
    assert not dirs[1].exists() or list(dirs[1].iterdir()) == []


def test_escape_open_etc_passwd_fails(worker: FigureWorker, dirs: tuple[Path, Path]) -> None:
    code = "print(open('/etc/passwd').read())" + PLOT
    result = render_escape(worker, dirs, code)
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
    result = render_escape(worker, dirs, code)
    assert "TOP-SECRET" not in result.stdout
    assert result.stdout.count("blocked FileNotFoundError") == 4


def test_escape_write_into_data_folder_fails(worker: FigureWorker, dirs: tuple[Path, Path]) -> None:
    code = "open('data/run1.csv', 'w').write('tampered')" + PLOT
    result = render_escape(worker, dirs, code)
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
    result = render_escape(worker, dirs, code)
    time.sleep(0.3)  # a connection that got through would be accepted by now
    done.set()
    thread.join()
    server.close()
    assert not result.ok
    assert EPERM in result.error  # no socket at all: seccomp refuses socket(2)
    assert accepted == []
