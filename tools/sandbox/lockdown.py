"""What the figure process gives up before the model's code runs, in kernel calls.

The namespaces and the root (`labscribe.tools.sandbox.confine`) decide what the code can reach;
these decide what it can still do there: no capability, no new privileges, no key of the
caller's, writes only below its working folder (Landlock), no syscall a plot never makes
(seccomp), and death with its supervisor. Each holds on its own if another is bypassed.
"""

from __future__ import annotations

import ctypes
import errno
import os
from typing import TYPE_CHECKING

from labscribe.tools.sandbox.kernel_calls import check, libc, libseccomp, prctl, syscall

if TYPE_CHECKING:
    import pyseccomp

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


def set_parent_death_signal(signum: int) -> None:
    """Have the kernel send `signum` to this process when its parent dies."""
    check(prctl(_PR_SET_PDEATHSIG, signum), "PR_SET_PDEATHSIG")


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
    while prctl(_PR_CAPBSET_READ, cap) >= 0:  # every capability this kernel knows
        check(prctl(_PR_CAPBSET_DROP, cap), f"drop capability {cap} from the bounding set")
        cap += 1
    check(prctl(_PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL), "clear ambient capabilities")
    header = _CapHeader(_LINUX_CAPABILITY_VERSION_3, 0)
    data = (_CapData * 2)()
    check(libc().capset(ctypes.byref(header), data), "capset")


def set_no_new_privs() -> None:
    """No execve can grant privileges again (setuid bits, file capabilities)."""
    check(prctl(_PR_SET_NO_NEW_PRIVS, 1), "PR_SET_NO_NEW_PRIVS")


def join_fresh_session_keyring() -> None:
    """Replace the session keyring inherited from the caller with a new, empty one."""
    check(syscall("keyctl", _KEYCTL_JOIN_SESSION_KEYRING, None), "keyctl join session")


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
    abi = syscall("landlock_create_ruleset", None, 0, _LANDLOCK_CREATE_RULESET_VERSION)
    if abi < 0:
        if ctypes.get_errno() in (errno.ENOSYS, errno.EOPNOTSUPP):
            return
        check(abi, "landlock version")
    writes = _LL_WRITE_FILE | _LL_REMOVE_DIR | _LL_REMOVE_FILE | _LL_MAKE_DIR | _LL_MAKE_REG
    writes |= _LL_TRUNCATE if abi >= 3 else 0
    handled = writes | _LL_EXECUTE | _LL_MAKE_CHAR | _LL_MAKE_SOCK | _LL_MAKE_FIFO
    handled |= _LL_MAKE_BLOCK | _LL_MAKE_SYM | (_LL_REFER if abi >= 2 else 0)
    handled |= _LL_IOCTL_DEV if abi >= 5 else 0
    attr = _RulesetAttr(handled, _LL_NET_TCP if abi >= 4 else 0, _LL_SCOPES if abi >= 6 else 0)
    ruleset = check(
        syscall("landlock_create_ruleset", ctypes.byref(attr), ctypes.sizeof(attr), 0),
        "landlock ruleset",
    )
    beneath_fd = os.open(path, os.O_PATH | os.O_DIRECTORY)
    try:
        rule = ctypes.byref(_PathBeneath(writes, beneath_fd))
        check(
            syscall("landlock_add_rule", ruleset, _LANDLOCK_RULE_PATH_BENEATH, rule, 0),
            "landlock rule",
        )
        check(syscall("landlock_restrict_self", ruleset, 0), "landlock restrict")
    finally:
        os.close(beneath_fd)
        os.close(ruleset)


def seccomp_filter() -> pyseccomp.SyscallFilter:
    """The figure process's filter: DENIED_SYSCALLS fail with EPERM, others are allowed.

    Built once in the warm worker; each figure process loads it (`.load()`) last.
    """
    seccomp = libseccomp()
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
