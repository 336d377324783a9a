"""What the sandbox's tests share (their fixtures are in conftest.py): a valid figure, the
figure an escape appends, the syscalls' numbers, and rendering with the policy off."""

from __future__ import annotations

import ctypes
import os
from pathlib import Path
from typing import Any

import pyseccomp

from labscribe.guards.figure_policy import check_figure_code
from labscribe.tools.sandbox.figure_output import FigureResult
from labscribe.tools.sandbox.figure_sandbox import FigureWorker

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


def nr(name: str) -> int:
    return int(pyseccomp.resolve_syscall(pyseccomp.Arch.NATIVE, name))


def landlock_abi() -> int:
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    return int(libc.syscall(nr("landlock_create_ruleset"), None, 0, 1))


def render(
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


def blocked_by_policy(code: str) -> bool:
    return bool(check_figure_code(code))


def render_escape(
    worker: FigureWorker, dirs: tuple[Path, Path], code: str, **options: Any
) -> FigureResult:
    """An escape rendered with the policy off, once the policy is seen to refuse it first:
    what it reaches is what the OS layer alone lets through."""
    assert blocked_by_policy(code)
    return render(worker, dirs, code, **options)
