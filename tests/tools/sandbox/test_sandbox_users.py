"""A normal user, and root: the same attacks fail for both, as the caller, as nobody and as
uid 0 of a user namespace."""

from __future__ import annotations

import errno
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from sandbox_cases import (
    EPERM,
    IN_CI,
    NOBODY,
    PLOT,
    SINE,
    nr,
)

import labscribe.tools

# --- a normal user, and root: the same attacks fail for both ---------------------------------

# Run by `_as_user`: a secret in this user's own session keyring (as `keyctl add user ...
# @s` leaves it), a UNIX socket server in the data folder, then each attack rendered with
# the policy off. Prints one JSON object.
_RUNNER = r"""
import ctypes, json, os, socket, sys
from pathlib import Path
from labscribe.tools.sandbox.figure_sandbox import FigureWorker

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
    keyctl = nr("keyctl")
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
            "keyctl": nr("keyctl"), "add_key": nr("add_key"),
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
