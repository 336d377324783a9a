"""TeX inside bubblewrap: the compile sees the TeX installation, its fonts and the build
folder, and nothing else.

kpathsea's paranoid mode (`openin_any=p`) stops xelatex itself from opening outside files,
but latexmk runs xdvipdfmx afterwards, which embeds whatever picture or PDF the .xdv names,
absolute paths included. So the whole compile runs in new namespaces (user where needed,
mount, PID, network, IPC, UTS) whose root holds read-only binds of /usr and the TeX and font
configuration, and the build folder read-write: the data folder, the user's home, /tmp and
the rest of the host do not exist there. No network, no capabilities, a clean environment,
and bwrap's children die with it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from functools import lru_cache
from pathlib import Path

from labscribe.tools.sandbox.sandbox_host import (
    is_privileged,
    root_links,
    system_dirs,
    userns_problem,
)

# Read by TeX, its fonts and latexmk (perl) beside the system's programs and libraries. Each
# is bound read-only where it exists.
READ_ONLY = (
    "/etc/texmf", "/etc/fonts", "/etc/perl", "/etc/alternatives", "/var/lib/texmf",
    "/var/cache/fontconfig",
)  # fmt: skip
# kpathsea reads these from the environment before texmf.cnf: p(aranoid) allows files in the
# working folder and below only; f(alse) forbids \write18 altogether. Kept inside the sandbox
# as a second wall.
CONFINED = {"openin_any": "p", "openout_any": "p", "shell_escape": "f"}
NO_BWRAP = (
    "TeX is compiled inside bubblewrap, which is not installed: `apt install bubblewrap` "
    "(Debian/Ubuntu) for PDFs"
)
NO_NAMESPACES = "bubblewrap cannot create namespaces here ({detail}): {cause}"


def confined(command: list[str], build: Path) -> list[str]:
    """`command`, to run in `build` inside the TeX sandbox."""
    where = str(build.resolve())
    binds = [part for path in _read_only_roots() for part in ("--ro-bind", path, path)]
    links = [part for name, target in root_links() for part in ("--symlink", target, name)]
    env = {"PATH": "/usr/bin:/bin", "HOME": where, "LANG": "C.UTF-8", **CONFINED}
    return [
        "bwrap", "--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL",
        *binds, *links, "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp",
        "--bind", where, where, "--chdir", where,
        "--clearenv", *[part for key, value in env.items() for part in ("--setenv", key, value)],
        "--", *command,
    ]  # fmt: skip


@lru_cache(maxsize=1)
def tex_confinement_problem() -> str | None:
    """Why TeX cannot be confined here, or None. Probed once per process, like xelatex."""
    if shutil.which("bwrap") is None:
        return NO_BWRAP
    try:
        with tempfile.TemporaryDirectory(prefix="labscribe-tex-probe-") as build:
            probe = subprocess.run(
                confined(["true"], Path(build)), capture_output=True, text=True, timeout=30
            )
    except (OSError, subprocess.TimeoutExpired) as exc:
        detail = str(exc)
    else:
        if probe.returncode == 0:
            return None
        detail = probe.stderr.strip() or f"exit {probe.returncode}"
    cause = userns_problem(privileged=is_privileged(), program="bwrap")
    return NO_NAMESPACES.format(detail=detail, cause=cause)


def _read_only_roots() -> list[str]:
    """The system's directories, the READ_ONLY paths that exist, and a TeX installation
    outside /usr (TeX Live's /opt/texlive/2024)."""
    roots = system_dirs() + [path for path in READ_ONLY if os.path.exists(path)]
    for program in ("xelatex", "latexmk", "xdvipdfmx"):
        found = shutil.which(program)
        if found is None:
            continue
        binary = Path(os.path.realpath(found))  # <install>/bin/<platform>/xelatex, or /usr/bin
        install = binary.parents[2] if binary.parents[1].name == "bin" else binary.parents[1]
        if not any(install == Path(root) or Path(root) in install.parents for root in roots):
            roots.append(str(install))
    return roots
