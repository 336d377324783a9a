"""Run Python as a normal user, for what concerns permissions: users are not root, CI is.

As root, the code runs in a child process dropped to `nobody` with setpriv; as a normal user,
in a child process as that user. Either way it is the same interpreter and the same checkout.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

NOBODY = 65534


def as_normal_user(
    code: str, *, owns: list[Path] = (), timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    """Run `code` with `python -c` as a normal user; `owns` are handed to that user first."""
    command = [sys.executable, "-c", code]
    if os.geteuid() == 0:
        if shutil.which("setpriv") is None:
            raise RuntimeError("setpriv (util-linux) is needed to drop root")
        for path in owns:
            for folder, _dirs, files in os.walk(path):
                os.chown(folder, NOBODY, NOBODY)
                for name in files:
                    os.chown(os.path.join(folder, name), NOBODY, NOBODY)
        command = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", *command]
    env = {key: value for key, value in os.environ.items() if key != "HOME"} | {"HOME": "/tmp"}
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout, env=env)
