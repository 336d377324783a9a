"""What one figure run may use, and where it finds things inside the sandbox.

The parent (`sandbox`, `figure_output`) and the processes inside (`sandbox_run`,
`figure_process`) must agree on these exactly: the one enforces a limit the other explains
to the model, and both name the same paths. The environment is here too, because it is
built, never copied, on both sides of the boundary.
"""

from __future__ import annotations

import os

MEMORY_LIMIT = 1536 * 1024 * 1024
"""RLIMIT_AS of the figure process in bytes; numpy + matplotlib + a figure fit well inside."""
FILE_SIZE_LIMIT = 50 * 1024 * 1024
"""RLIMIT_FSIZE: the largest file the figure code may write."""
WORK_SIZE = "128m"
"""Size cap of the private tmpfs `/figure`: bounds the total written, not only one file."""
WORK_INODES = 4096
"""Files and directories `/figure` may hold: tmpfs counts only data against its size, and a
million empty files would pin a gigabyte of kernel memory (inodes, and the xattrs charged to
them) outside RLIMIT_AS. A figure needs a handful, and matplotlib's font cache one."""
OPEN_FILES_LIMIT = 64
PROCESS_LIMIT = 1
"""RLIMIT_NPROC of the figure process. The kernel counts it per user namespace and uid, and
the run's namespace is fresh: 1 means no other process or thread, so RLIMIT_AS bounds the
whole run. Measured on Linux 6.18 with the filter's process rules off: fork and
pthread_create fail with EAGAIN (the seccomp filter refuses them first, with EPERM)."""
MAX_PNGS = 8
"""PNG files copied out of one run at most; the rest are ignored."""
TAIL_CHARS = 2000
DATA_DIR_IN_SANDBOX = "data"
"""Where the data folder appears, relative to the code's working directory."""
HARNESS_PNG = ".labscribe-figure.png"
SANDBOX_CWD = "/figure"
"""The code's working directory inside the sandbox (a private tmpfs), its only writable tree."""
SANDBOX_DATA = "/data"
"""Where the data folder is mounted; outside `/figure`, so Landlock keeps it unwritable."""
SANDBOX_UID = 1000
"""The code's uid in its own user namespace: any uid but 0, so it is no namespace's root."""


def scrubbed_env(home: str) -> dict[str, str]:
    """The only environment the worker and its sandboxes see: nothing copied from ours."""
    return {
        "PATH": "/usr/bin:/bin",
        "HOME": home,
        "MPLBACKEND": "Agg",
        "MPLCONFIGDIR": os.path.join(home, "mpl"),
        "LANG": "C.UTF-8",
        # The figure process may have no thread, and BLAS pools do not survive fork well.
        "OPENBLAS_NUM_THREADS": "1",
        "OMP_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
    }
