"""The host as both sandboxes need it: whether it lets them build user namespaces (and what
to change when it does not), and the system directories they show the code inside.

The figure sandbox (`sandbox_run`) and the TeX sandbox (`tex_sandbox`, bubblewrap) are built
from the same unprivileged user namespaces and on the same host's /usr, so a host that
forbids the one forbids the other for the same reason, and the operator is told one cause
and one fix whichever of them found out first.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Callable
from pathlib import Path

ROOT_DIRS = ("bin", "sbin", "lib", "lib32", "lib64", "libx32")
"""Top-level directories of programs and libraries: a merged-/usr host links them into /usr,
elsewhere they are directories of their own."""

_RAISE_LIMIT = "sudo sysctl -w user.max_user_namespaces=10000"
_SYSCTL_FIXES = (
    (
        "kernel/unprivileged_userns_clone",
        "0",
        "sudo sysctl -w kernel.unprivileged_userns_clone=1",
    ),
    ("user/max_user_namespaces", "0", _RAISE_LIMIT),
    (
        "kernel/apparmor_restrict_unprivileged_userns",
        "1",
        "sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0, or an AppArmor "
        "profile that allows `userns,` for {program}",
    ),
)
"""Host settings that forbid user namespaces (Debian, any kernel, Ubuntu 24.04), each with
the value that forbids them and the fix. Only the maximum also binds root."""

USERNS_STEPS = frozenset(
    {"unshare", "uid map", "mount", "hostname", "pivot_root", "nested user namespace",
     "nested uid map", "figure ids"}
)  # fmt: skip
"""Figure sandbox steps that fail when the host restricts user namespaces (AppArmor lets the
namespace be created and then refuses the mounts in it)."""


def system_dirs() -> list[str]:
    """/usr, and the ROOT_DIRS that are directories of their own (not links into /usr): what
    programs and the libraries they load need, for a sandbox to bind read-only."""
    return ["/usr"] + [f"/{name}" for name in ROOT_DIRS if os.path.isdir(f"/{name}")
                       and not os.path.islink(f"/{name}")]  # fmt: skip


def root_links() -> list[tuple[str, str]]:
    """The ROOT_DIRS the host has as links (merged /usr), each with its target: a sandbox
    makes the same links, so /bin/sh and /lib64's loader resolve into its bound /usr."""
    return [(f"/{name}", os.readlink(f"/{name}")) for name in ROOT_DIRS
            if os.path.islink(f"/{name}")]  # fmt: skip


def is_privileged() -> bool:
    """Whether this process is root of the initial user namespace, whom the settings that
    restrict unprivileged user namespaces do not bind (and who may map any uid)."""
    return os.geteuid() == 0 and _in_initial_user_namespace()


def _in_initial_user_namespace() -> bool:
    """Whether this process sees all uids as they are (not inside a container's namespace)."""
    try:
        return Path("/proc/self/uid_map").read_text().split() == ["0", "0", "4294967295"]
    except OSError:
        return False


def _read_sysctl(name: str) -> str | None:
    try:
        return Path("/proc/sys", name).read_text().strip()
    except OSError:
        return None


def userns_problem(
    *,
    privileged: bool,
    err: int = 0,
    program: str = "this Python",
    sysctl: Callable[[str], str | None] = _read_sysctl,
) -> str:
    """What on this host refuses user namespaces to `program`, and the fix: a setting that
    forbids them, else (`err` ENOSPC) a used-up limit, else something outside the kernel's
    settings."""
    for name, forbidding, fix in _SYSCTL_FIXES:
        binds_root = name == "user/max_user_namespaces"
        if (binds_root or not privileged) and sysctl(name) == forbidding:
            setting, allow = name.replace("/", "."), fix.format(program=program)
            return f"{setting}={forbidding} forbids them; allow them with {allow}"
    if err == errno.ENOSPC:
        limit = sysctl("user/max_user_namespaces")
        return f"the limit user.max_user_namespaces={limit} is used up; {_RAISE_LIMIT}"
    return (
        "something on this host refuses them (in a container, its seccomp profile: "
        "Docker's default refuses unshare); run where unprivileged user namespaces are allowed"
    )


def sandbox_problem(
    step_name: str,
    err: int,
    *,
    privileged: bool,
    sysctl: Callable[[str], str | None] = _read_sysctl,
) -> str:
    """One sentence for the operator: why the figure sandbox cannot be built here, and the
    fix."""
    if step_name == "libseccomp":
        return (
            "the figure sandbox needs libseccomp (libseccomp.so.2) for its syscall filter, "
            "and it is not installed: apt install libseccomp2 (Debian/Ubuntu)"
        )
    detail = f"{step_name}: {os.strerror(err)}"
    if step_name not in USERNS_STEPS:
        return f"the figure sandbox cannot be built here ({detail})"
    cause = userns_problem(privileged=privileged, err=err, sysctl=sysctl)
    return f"the figure sandbox cannot build its user namespaces ({detail}): {cause}"
