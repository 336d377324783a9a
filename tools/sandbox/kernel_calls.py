"""How the sandbox reaches the kernel from Python, and what a failed call means.

The confinement needs calls the standard library lacks (unshare, mount_setattr, pivot_root,
capset, Landlock, keyctl), so it calls libc through ctypes and makes raw syscalls by the
numbers libseccomp knows for this architecture. Every step of the confinement runs inside
`step`, so a call that fails stops the run as SetupFailed before any model code: the code
never runs half-confined.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
from collections.abc import Iterator
from functools import cache
from types import ModuleType


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
def libc() -> ctypes.CDLL:
    """The C library, with errno kept for `check` to read."""
    loaded = ctypes.CDLL(None, use_errno=True)
    loaded.syscall.restype = ctypes.c_long
    return loaded


def libseccomp() -> ModuleType:
    """pyseccomp, which loads libseccomp.so.2 on import (RuntimeError when it is missing)."""
    try:
        import pyseccomp
    except RuntimeError as exc:
        raise SetupFailed("libseccomp", errno.ENOENT) from exc
    return pyseccomp


@cache
def _nr(name: str) -> int:
    seccomp = libseccomp()
    number = seccomp.resolve_syscall(seccomp.Arch.NATIVE, name)
    if number < 0:
        raise OSError(errno.ENOSYS, f"{name} is unknown on this architecture")
    return number


def syscall(name: str, *args: object) -> int:
    """Make the syscall `name`, which libc may not wrap; its raw result."""
    return int(libc().syscall(_nr(name), *args))


def check(result: int, what: str) -> int:
    """`result`, or OSError with the call's errno if it is negative (failed)."""
    if result < 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")
    return result


def prctl(option: int, arg: int = 0) -> int:
    """prctl(2) with one argument; its raw result."""
    return libc().prctl(option, ctypes.c_ulong(arg), ctypes.c_ulong(0), 0, 0)
