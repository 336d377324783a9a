"""Kernel mechanisms behind the figure sandbox, each a small call with one promise.

`labscribe.tools.sandbox_worker` strings them together; the order there is the security
argument. Everything here goes to the kernel through libc or libseccomp: user, mount, PID,
network, IPC and UTS namespaces, bind mounts made read-only with mount_setattr(2),
pivot_root(2), capabilities, the session keyring, Landlock and a seccomp filter. Nothing
needs root: for a normal user the namespaces are unprivileged user namespaces, and root
makes the same calls (it only gets to map a fresh uid for the figure code).
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pyseccomp

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

_PR_SET_PDEATHSIG = 1
_PR_CAPBSET_READ = 23
_PR_CAPBSET_DROP = 24
_PR_SET_NO_NEW_PRIVS = 38
_PR_CAP_AMBIENT = 47
_PR_CAP_AMBIENT_CLEAR_ALL = 4
_LINUX_CAPABILITY_VERSION_3 = 0x20080522
_KEYCTL_JOIN_SESSION_KEYRING = 1

_LANDLOCK_CREATE_RULESET_VERSION = 1
_LANDLOCK_RULE_PATH_BENEATH = 1
_LL_EXECUTE = 1 << 0
_LL_WRITE_FILE = 1 << 1
_LL_REMOVE_DIR = 1 << 4
_LL_REMOVE_FILE = 1 << 5
_LL_MAKE_CHAR = 1 << 6
_LL_MAKE_DIR = 1 << 7
_LL_MAKE_REG = 1 << 8
_LL_MAKE_SOCK = 1 << 9
_LL_MAKE_FIFO = 1 << 10
_LL_MAKE_BLOCK = 1 << 11
_LL_MAKE_SYM = 1 << 12
_LL_REFER = 1 << 13  # Landlock ABI 2
_LL_TRUNCATE = 1 << 14  # ABI 3
_LL_IOCTL_DEV = 1 << 15  # ABI 5
_LL_NET_TCP = (1 << 0) | (1 << 1)  # ABI 4: bind and connect
_LL_SCOPES = (1 << 0) | (1 << 1)  # ABI 6: abstract UNIX sockets and signals

NAMESPACES = CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS
"""The namespaces the supervisor enters at once; the user namespace is created first and
owns the others, so it holds every capability over them and nothing outside."""

DENIED_SYSCALLS: dict[str, tuple[str, ...]] = {
    # The code needs no socket; refusing their creation closes the UNIX sockets a host
    # process may listen on in the data folder (a read-only mount does not stop connect(2)).
    "sockets": ("socket", "socketpair"),
    # One process, one thread: RLIMIT_AS then bounds the memory of the whole run.
    "processes": ("clone", "clone3", "fork", "vfork", "execve", "execveat"),
    "namespaces and mounts": (
        "unshare", "setns", "mount", "umount2", "pivot_root", "chroot", "open_tree",
        "move_mount", "fsopen", "fsconfig", "fsmount", "fspick", "mount_setattr",
    ),
    "other processes": ("ptrace", "process_vm_readv", "process_vm_writev", "kcmp", "pidfd_getfd"),
    # The caller's keys: the session keyring is replaced too, this refuses every key call.
    "keyrings": ("keyctl", "add_key", "request_key"),
    "kernel attack surface": (
        "bpf", "perf_event_open", "userfaultfd", "io_uring_setup", "io_uring_enter",
        "io_uring_register",
    ),
    # Memory RLIMIT_AS does not count: memfd files, SysV and POSIX IPC objects (the fresh
    # IPC namespace holds none, so refusing their creation refuses them all), and inotify
    # watches, which pin one inode each and are limited only per user.
    "memory outside the address space": (
        "memfd_create", "memfd_secret", "shmget", "msgget", "semget", "mq_open",
        "inotify_init", "inotify_init1",
    ),
    "files by handle and device nodes": (
        "open_by_handle_at", "name_to_handle_at", "mknod", "mknodat",
    ),
    "host administration": (
        "kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module",
        "reboot", "swapon", "swapoff", "acct", "quotactl", "quotactl_fd", "syslog",
        "sethostname", "setdomainname", "settimeofday", "clock_settime", "clock_adjtime",
        "adjtimex", "iopl", "ioperm", "vhangup", "lookup_dcookie", "uselib",
        "migrate_pages", "move_pages",
    ),
}  # fmt: skip
"""Syscalls the figure process never makes, refused with EPERM by name. The filter allows
the rest, so a syscall newer than the installed libseccomp is not on this list."""

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
        "profile that allows `userns,` for this Python",
    ),
)
"""Host settings that forbid user namespaces (Debian, any kernel, Ubuntu 24.04), each with
the value that forbids them and the fix. Only the maximum also binds root."""


USERNS_STEPS = frozenset(
    {"unshare", "uid map", "mount", "hostname", "pivot_root", "nested user namespace",
     "nested uid map", "figure ids"}
)  # fmt: skip
"""Confinement steps that fail when the host restricts user namespaces (AppArmor lets the
namespace be created and then refuses the mounts in it)."""


class SetupFailed(Exception):
    """A confinement step failed: the figure code must not run (not even half-confined)."""

    def __init__(self, step: str, err: int) -> None:
        super().__init__(f"{step}: {os.strerror(err)}")
        self.step = step
        self.errno = err


@contextlib.contextmanager
def step(name: str) -> Iterator[None]:
    """Turn an OSError inside the block into SetupFailed naming the step."""
    try:
        yield
    except OSError as exc:
        raise SetupFailed(name, exc.errno or errno.EIO) from exc


@cache
def _libc() -> ctypes.CDLL:
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    return libc


def _libseccomp() -> ModuleType:
    """pyseccomp, which loads libseccomp.so.2 on import (RuntimeError when it is missing)."""
    try:
        import pyseccomp
    except RuntimeError as exc:
        raise SetupFailed("libseccomp", errno.ENOENT) from exc
    return pyseccomp


@cache
def _nr(name: str) -> int:
    seccomp = _libseccomp()
    number = seccomp.resolve_syscall(seccomp.Arch.NATIVE, name)
    if number < 0:
        raise OSError(errno.ENOSYS, f"{name} is unknown on this architecture")
    return number


def _syscall(name: str, *args: object) -> int:
    return int(_libc().syscall(_nr(name), *args))


def _check(result: int, what: str) -> int:
    if result < 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")
    return result


def _prctl(option: int, arg: int = 0) -> int:
    return _libc().prctl(option, ctypes.c_ulong(arg), ctypes.c_ulong(0), 0, 0)


# --------------------------------------------------------------------------- namespaces


def unshare(flags: int) -> None:
    """Move this process into new namespaces of the kinds in `flags`."""
    _check(_libc().unshare(flags), "unshare")


def in_initial_user_namespace() -> bool:
    """Whether this process sees all uids as they are (not inside a container's namespace)."""
    try:
        return Path("/proc/self/uid_map").read_text().split() == ["0", "0", "4294967295"]
    except OSError:
        return False


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


def _read_sysctl(name: str) -> str | None:
    try:
        return Path("/proc/sys", name).read_text().strip()
    except OSError:
        return None


def sandbox_problem(
    step_name: str,
    err: int,
    *,
    privileged: bool,
    sysctl: Callable[[str], str | None] = _read_sysctl,
) -> str:
    """One sentence for the operator: why the sandbox cannot be built here, and the fix."""
    if step_name == "libseccomp":
        return (
            "the figure sandbox needs libseccomp (libseccomp.so.2) for its syscall filter, "
            "and it is not installed: apt install libseccomp2 (Debian/Ubuntu)"
        )
    detail = f"{step_name}: {os.strerror(err)}"
    if step_name not in USERNS_STEPS:
        return f"the figure sandbox cannot be built here ({detail})"
    what = f"the figure sandbox cannot build its user namespaces ({detail})"
    for name, forbidding, fix in _SYSCTL_FIXES:
        binds_root = name == "user/max_user_namespaces"
        if (binds_root or not privileged) and sysctl(name) == forbidding:
            setting = name.replace("/", ".")
            return f"{what}: {setting}={forbidding} forbids them; allow them with {fix}"
    if err == errno.ENOSPC:
        limit = sysctl("user/max_user_namespaces")
        return f"{what}: the limit user.max_user_namespaces={limit} is used up; {_RAISE_LIMIT}"
    return (
        f"{what}: something on this host refuses them (in a container, its seccomp profile: "
        "Docker's default refuses unshare); run where unprivileged user namespaces are allowed"
    )


# --------------------------------------------------------------------------- mounts


def _mount(source: str | None, target: str, fstype: str | None, flags: int, data: str) -> None:
    enc = os.fsencode
    _check(
        _libc().mount(
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
    _check(
        _syscall(
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
    _check(_syscall("pivot_root", b".", b"."), "pivot_root")
    _check(_libc().umount2(b".", _MNT_DETACH), "umount old root")
    os.chdir("/")


def set_hostname(name: str) -> None:
    """Name this UTS namespace, so the code does not learn the host's name."""
    raw = name.encode()
    _check(_libc().sethostname(raw, len(raw)), "sethostname")


# --------------------------------------------------------------------------- the process


def set_parent_death_signal(signum: int) -> None:
    """Have the kernel send `signum` to this process when its parent dies."""
    _check(_prctl(_PR_SET_PDEATHSIG, signum), "PR_SET_PDEATHSIG")


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [
        ("effective", ctypes.c_uint32),
        ("permitted", ctypes.c_uint32),
        ("inheritable", ctypes.c_uint32),
    ]


def drop_capabilities() -> None:
    """Leave no capability: bounding and ambient sets emptied, then all three sets zero."""
    cap = 0
    while _prctl(_PR_CAPBSET_READ, cap) >= 0:  # every capability this kernel knows
        _check(_prctl(_PR_CAPBSET_DROP, cap), f"drop capability {cap} from the bounding set")
        cap += 1
    _check(_prctl(_PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL), "clear ambient capabilities")
    header = _CapHeader(_LINUX_CAPABILITY_VERSION_3, 0)
    data = (_CapData * 2)()
    _check(_libc().capset(ctypes.byref(header), data), "capset")


def set_no_new_privs() -> None:
    """No execve can grant privileges again (setuid bits, file capabilities)."""
    _check(_prctl(_PR_SET_NO_NEW_PRIVS, 1), "PR_SET_NO_NEW_PRIVS")


def join_fresh_session_keyring() -> None:
    """Replace the session keyring inherited from the caller with a new, empty one."""
    _check(_syscall("keyctl", _KEYCTL_JOIN_SESSION_KEYRING, None), "keyctl join session")


class _RulesetAttr(ctypes.Structure):
    _fields_ = [
        ("handled_access_fs", ctypes.c_uint64),
        ("handled_access_net", ctypes.c_uint64),
        ("scoped", ctypes.c_uint64),
    ]


class _PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def restrict_writes_beneath(path: str) -> None:
    """Landlock: writes only beneath `path`, no execve, no TCP, no signal out of the domain.

    Opening any file for writing counts, FIFOs included, which read-only mounts do not
    stop. Reads are left to the mount layout. Needs no_new_privs first. A kernel without
    Landlock (before 5.13, or with it off) gets nothing here; the mounts still hold.
    """
    abi = _syscall("landlock_create_ruleset", None, 0, _LANDLOCK_CREATE_RULESET_VERSION)
    if abi < 0:
        if ctypes.get_errno() in (errno.ENOSYS, errno.EOPNOTSUPP):
            return
        _check(abi, "landlock version")
    writes = _LL_WRITE_FILE | _LL_REMOVE_DIR | _LL_REMOVE_FILE | _LL_MAKE_DIR | _LL_MAKE_REG
    writes |= _LL_TRUNCATE if abi >= 3 else 0
    handled = writes | _LL_EXECUTE | _LL_MAKE_CHAR | _LL_MAKE_SOCK | _LL_MAKE_FIFO
    handled |= _LL_MAKE_BLOCK | _LL_MAKE_SYM | (_LL_REFER if abi >= 2 else 0)
    handled |= _LL_IOCTL_DEV if abi >= 5 else 0
    attr = _RulesetAttr(handled, _LL_NET_TCP if abi >= 4 else 0, _LL_SCOPES if abi >= 6 else 0)
    ruleset = _check(
        _syscall("landlock_create_ruleset", ctypes.byref(attr), ctypes.sizeof(attr), 0),
        "landlock ruleset",
    )
    beneath_fd = os.open(path, os.O_PATH | os.O_DIRECTORY)
    try:
        rule = ctypes.byref(_PathBeneath(writes, beneath_fd))
        _check(
            _syscall("landlock_add_rule", ruleset, _LANDLOCK_RULE_PATH_BENEATH, rule, 0),
            "landlock rule",
        )
        _check(_syscall("landlock_restrict_self", ruleset, 0), "landlock restrict")
    finally:
        os.close(beneath_fd)
        os.close(ruleset)


def seccomp_filter() -> pyseccomp.SyscallFilter:
    """The figure process's filter: DENIED_SYSCALLS fail with EPERM, others are allowed.

    Built once in the warm worker; each figure process loads it (`.load()`) last.
    """
    seccomp = _libseccomp()
    deny = seccomp.ERRNO(errno.EPERM)
    flt = seccomp.SyscallFilter(seccomp.ALLOW)
    # A syscall made through another ABI (int 0x80 on x86-64) escapes a filter by name.
    flt.set_attr(seccomp.Attr.ACT_BADARCH, seccomp.KILL_PROCESS)
    for names in DENIED_SYSCALLS.values():
        for name in names:
            # Negative: unknown to this libseccomp, or absent on this architecture.
            if seccomp.resolve_syscall(seccomp.Arch.NATIVE, name) >= 0:
                flt.add_rule(deny, name)
    return flt
