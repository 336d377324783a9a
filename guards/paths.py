"""Path guard: every path the model names must resolve inside the data folder; and the paths
a user names (the data folder, OUT, the checkpoint database) get a clear message, before
anything is written, when they cannot be used.
"""

from __future__ import annotations

import itertools
import os
import posixpath
import re
from pathlib import Path

# Quotes and backticks models wrap paths in ("`data/sweep.csv`"), stripped with blanks.
WRAPPERS = " \t\r\n\"'`"
MAX_CASE_SCAN = 10_000
"""Entries of one folder compared when a spelling is matched letter case aside."""
# A byte `printable` escaped: only the high bytes a non-UTF-8 name can hold.
_BYTE_ESCAPE = re.compile(r"\\x([89a-fA-F][0-9a-fA-F])")


def resolve_under(base: str, requested: str | os.PathLike[str] | None) -> Path | None:
    """Resolve `requested` against the real folder `base` (resolved and checked by the
    caller, so the folder is not looked up by its name again); return it only if it exists
    inside `base`.

    Normalises, joins and resolves symlinks, so `..`, absolute paths and links that
    point out of the folder all fail the same way: by returning None, which the
    caller turns into a tool result the model can read. A spelling that names nothing
    is tried again as models mean it: without surrounding blanks or quotes, then with
    Windows separators read as `/`, then letter case aside where one entry alone matches.
    """
    real = _real_inside(base, requested)
    return Path(real) if real is not None else None


def canonical_path(
    root: Path, requested: str | os.PathLike[str] | None, *, real: str | None = None
) -> str:
    """How the path guard understands `requested`: the real path relative to `root`.

    One file spelled five ways (`./data/x.csv`, `data//x.csv`, `data/x.csv  `, ...) gives one
    answer. A path that resolves to nothing inside the folder is normalised as written, so
    its spellings still agree; it can never equal a real file's answer, which has no `..`
    and no leading `/` unless it is the folder itself, `.`. `real` is where the path guard
    already resolved `requested`, so it is not resolved again.
    """
    base = real_path(os.fspath(root))
    real = real if real is not None else _real_inside(base, requested)
    if real is not None:
        return real[len(base) :].lstrip(os.sep).replace(os.sep, "/") or "."
    spelled = _spellings(requested)
    return "!" + posixpath.normpath(spelled[-1] or ".") if spelled else "!"


def relative_to(root: Path, path: Path) -> str:
    """`path` (resolved, inside `root`) as the model names it: relative, POSIX separators,
    printable (`printable`)."""
    return printable(path.relative_to(root.resolve()).as_posix() or ".")


def printable(name: str) -> str:
    """`name` as text every model, checkpoint and terminal accepts.

    A file name that is not valid UTF-8 reaches Python with its bad bytes as lone surrogates,
    which no JSON, msgpack or UTF-8 writer takes. They are shown as `\\xNN` escapes instead,
    and the path guard reads such a spelling back as the bytes it names.
    """
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return os.fsencode(name).decode("utf-8", "backslashreplace")
    return name


def is_inside(base: str, real: str) -> bool:
    """Whether the real path `real` is the real folder `base` or lies below it."""
    return real == base or real.startswith(base.rstrip(os.sep) + os.sep)


def opened_path(fd: int) -> str | None:
    """The real path of the file open as `fd`, as the kernel knows it; None without /proc."""
    try:
        return os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return None


def real_path(path: str) -> str:
    """The real path of the existing `path`, every symlink followed; OSError if it is none.

    The kernel resolves it (an O_PATH descriptor, read back through /proc), which costs a
    third of walking the components in Python; elsewhere, `os.path.realpath`.
    """
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except AttributeError:  # no O_PATH on this platform
        return os.path.realpath(path, strict=True)
    try:
        return os.readlink(f"/proc/self/fd/{fd}")
    except FileNotFoundError:  # no /proc
        return os.path.realpath(path, strict=True)
    finally:
        os.close(fd)


def _real_inside(base: str, requested: str | os.PathLike[str] | None) -> str | None:
    """The real path `requested` names under the real folder `base`, if it exists there."""
    spellings = _spellings(requested)
    for spelling in spellings:
        try:
            # os.path.join drops `base` for an absolute spelling; realpath then follows
            # every symlink, so the containment check sees the real target.
            real = real_path(os.path.join(base, spelling))
        except (OSError, ValueError):
            continue
        return real if is_inside(base, real) else None
    return _by_case(base, spellings[-1]) if spellings else None


def _by_case(base: str, spelling: str) -> str | None:
    """The real path of the relative `spelling` under `base` with letter case aside: each
    component that names nothing is the one entry of its folder that matches it but for
    case (`Notes.md`, `./NOTES.md` and `notes.MD` are `notes.md`), or nothing at all."""
    if os.path.isabs(spelling):
        return None
    current = base
    for part in posixpath.normpath(spelling).split("/"):
        if part in ("", "."):
            continue
        if part == ".." or not is_inside(base, current):
            return None
        here = os.path.join(current, part)
        if not os.path.lexists(here):
            matches = _same_but_case(current, part)
            if len(matches) != 1:
                return None
            here = os.path.join(current, matches[0])
        try:
            current = real_path(here)
        except (OSError, ValueError):
            return None
    return current if is_inside(base, current) and current != base else None


def _same_but_case(folder: str, name: str) -> list[str]:
    """The entries of `folder` named `name` but for letter case; the first MAX_CASE_SCAN
    entries are looked at, so a huge folder costs no more than that."""
    wanted, found = name.casefold(), []
    try:
        with os.scandir(folder) as entries:
            for entry in itertools.islice(entries, MAX_CASE_SCAN):
                if entry.name.casefold() == wanted:
                    found.append(entry.name)
    except OSError:
        return []
    return found


def _spellings(requested: str | os.PathLike[str] | None) -> list[str]:
    try:
        given = os.fspath(requested) if requested is not None else "."
    except TypeError:
        return []
    if not isinstance(given, str):
        return []
    stripped = given.strip(WRAPPERS) or "."
    spellings = [given or ".", stripped]
    if _BYTE_ESCAPE.search(stripped):  # a name `printable` showed with \xNN escapes
        # os.fsdecode keeps a byte that is not UTF-8 as the lone surrogate U+DC00 + byte.
        spellings.append(_BYTE_ESCAPE.sub(lambda m: chr(0xDC00 + int(m.group(1), 16)), stripped))
    spellings.append(stripped.replace("\\", "/"))
    return list(dict.fromkeys(spellings))


def folder_problem(folder: str | os.PathLike[str]) -> str | None:
    """Why `folder` cannot be explored, or None when it can."""
    path = Path(folder).expanduser()
    if not path.exists():
        return f"the data folder {str(path)!r} does not exist"
    if not path.is_dir():
        return f"{str(path)!r} is a file, not a folder: pass the folder that holds the material"
    if not os.access(path, os.R_OK | os.X_OK):
        return f"the data folder {str(path)!r} is not readable (check its permissions)"
    try:
        if not any(path.iterdir()):
            return f"the data folder {str(path)!r} is empty: there is nothing to report on"
    except OSError as exc:
        return f"the data folder {str(path)!r} cannot be listed: {exc.strerror or exc}"
    return None


def out_problem(out: str | os.PathLike[str], folder: str | os.PathLike[str]) -> str | None:
    """Why the report cannot be written to `out`, or None when it can. The data folder is
    the user's own work: an `out` that is it, or lies inside it, would overwrite its files
    (a report.tex, a references.bib of the user's) and would be read as material."""
    path = Path(out).expanduser().absolute()
    if in_data_folder(path, folder):
        return (
            f"--out {str(path)!r} is the data folder or inside it, where the outputs would "
            "overwrite the material: write them somewhere else"
        )
    if path.exists() and not path.is_dir():
        return f"--out {str(path)!r} is a file, not a folder"
    existing = next(p for p in (path, *path.parents) if p.exists())
    if not existing.is_dir() or not os.access(existing, os.W_OK | os.X_OK):
        return f"cannot write the report to {str(path)!r}: {str(existing)!r} is not writable"
    return None


def db_problem(db: str | os.PathLike[str], folder: str | os.PathLike[str]) -> str | None:
    """Why a run on `folder` cannot keep its checkpoints in the SQLite file `db`, or None.
    Inside the data folder (directly, or through a link) the checkpoints, the model's
    replies among them, would be written into the user's material and read back as it."""
    path = Path(db).expanduser().absolute()
    if in_data_folder(path, folder):
        return (
            f"--db {str(path)!r} is inside the data folder, where the checkpoints would be "
            "written into the material: keep them somewhere else"
        )
    return None


def in_data_folder(path: Path, folder: str | os.PathLike[str]) -> bool:
    """Whether `path` is the data folder or lies below it, links followed on both sides."""
    data = os.path.realpath(Path(folder).expanduser())
    return is_inside(data, os.path.realpath(path))
