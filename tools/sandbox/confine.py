"""Where the figure code lives: its namespaces and the root built for it, in kernel calls.

Each call is small and keeps one promise; `labscribe.tools.sandbox.sandbox_run` makes them in the
order that is the security argument. User, mount, PID, network, IPC and UTS namespaces,
bind mounts made read-only with mount_setattr(2), and pivot_root(2) need no root: for a
normal user the namespaces are unprivileged user namespaces, and root makes the same calls
(it only gets to map a fresh uid for the figure code). What the process itself gives up
before the code runs is in `labscribe.tools.sandbox.lockdown`.
"""

from __future__ import annotations

import ctypes
import os

from labscribe.tools.sandbox.kernel_calls import check, libc, syscall

CLONE_NEWNS = 0x00020000
CLONE_NEWUTS = 0x04000000
CLONE_NEWIPC = 0x08000000
CLONE_NEWUSER = 0x10000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000

_MS_NOSUID = 2
_MS_NODEV = 4
_MS_NOEXEC = 8
_MS_BIND = 4096
_MS_REC = 16384
_MS_PRIVATE = 1 << 18
_MNT_DETACH = 2
_AT_FDCWD = -100
_AT_RECURSIVE = 0x8000
_MOUNT_ATTR_RDONLY = 0x1
_MOUNT_ATTR_NOSUID = 0x2
_MOUNT_ATTR_NODEV = 0x4
_MOUNT_ATTR_NOEXEC = 0x8

NAMESPACES = CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS
"""The namespaces the supervisor enters at once; the user namespace is created first and
owns the others, so it holds every capability over them and nothing outside."""


# --------------------------------------------------------------------------- namespaces


def unshare(flags: int) -> None:
    """Move this process into new namespaces of the kinds in `flags`."""
    check(libc().unshare(flags), "unshare")


def write_id_maps(proc_fd: int, pid: int, uid_map: str, gid_map: str) -> None:
    """Map `pid`'s new user namespace: `setgroups` denied, then its uid and gid maps.

    `proc_fd` is an open /proc (the supervisor's root no longer holds one). Each map is one
    write, as the kernel requires.
    """
    for name, text in (("setgroups", "deny"), ("uid_map", uid_map), ("gid_map", gid_map)):
        fd = os.open(f"{pid}/{name}", os.O_WRONLY, dir_fd=proc_fd)
        try:
            os.write(fd, text.encode())
        finally:
            os.close(fd)


# --------------------------------------------------------------------------- mounts


def _mount(source: str | None, target: str, fstype: str | None, flags: int, data: str) -> None:
    enc = os.fsencode
    check(
        libc().mount(
            enc(source) if source else None,
            enc(target),
            enc(fstype) if fstype else None,
            ctypes.c_ulong(flags),
            enc(data) if data else None,
        ),
        f"mount {source} on {target}",
    )


class _MountAttr(ctypes.Structure):
    _fields_ = [
        ("attr_set", ctypes.c_uint64),
        ("attr_clr", ctypes.c_uint64),
        ("propagation", ctypes.c_uint64),
        ("userns_fd", ctypes.c_uint64),
    ]


def _set_mount_flags(target: str, flags: int, *, recursive: bool) -> None:
    # mount_setattr(2) only adds flags, so it never trips over the atime flags a user
    # namespace locks on copied mounts (a MS_REMOUNT would have to repeat them).
    attr = _MountAttr(attr_set=flags)
    check(
        syscall(
            "mount_setattr",
            _AT_FDCWD,
            os.fsencode(target),
            _AT_RECURSIVE if recursive else 0,
            ctypes.byref(attr),
            ctypes.sizeof(attr),
        ),
        f"mount_setattr {target}",
    )


def make_mounts_private() -> None:
    """Stop mounts made from now on from propagating back to the host."""
    _mount(None, "/", None, _MS_REC | _MS_PRIVATE, "")


def mount_tmpfs(target: str, options: str) -> None:
    """A fresh tmpfs at `target`: nosuid, nodev, noexec; `options` as for mount(8)."""
    _mount("tmpfs", target, "tmpfs", _MS_NOSUID | _MS_NODEV | _MS_NOEXEC, options)


def bind_readonly(source: str, target: str, *, noexec: bool) -> None:
    """Bind `source` and every mount below it at `target`: read-only, nosuid, nodev."""
    _mount(source, target, None, _MS_BIND | _MS_REC, "")
    flags = _MOUNT_ATTR_RDONLY | _MOUNT_ATTR_NOSUID | _MOUNT_ATTR_NODEV
    _set_mount_flags(target, flags | (_MOUNT_ATTR_NOEXEC if noexec else 0), recursive=True)


def seal_readonly(target: str) -> None:
    """Make the mount at `target` itself (not the mounts below it) read-only."""
    _set_mount_flags(target, _MOUNT_ATTR_RDONLY, recursive=False)


def pivot_root(new_root: str) -> None:
    """Make `new_root` this mount namespace's root and detach the old root entirely.

    Unlike chroot, nothing of the host's tree stays reachable in the namespace.
    """
    os.chdir(new_root)
    # pivot_root(".", ".") stacks the old root on the new one; detaching "." then drops it.
    check(syscall("pivot_root", b".", b"."), "pivot_root")
    check(libc().umount2(b".", _MNT_DETACH), "umount old root")
    os.chdir("/")


def set_hostname(name: str) -> None:
    """Name this UTS namespace, so the code does not learn the host's name."""
    raw = name.encode()
    check(libc().sethostname(raw, len(raw)), "sethostname")
