"""Bad input gets a clear message before anything is written."""

from __future__ import annotations

import os
from pathlib import Path

from labscribe.guards.paths import is_inside


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
