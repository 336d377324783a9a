"""Path guard: every path the model names must resolve inside the data folder."""

from __future__ import annotations

import os
from pathlib import Path

PATH_OUTSIDE_ERROR = (
    "path does not exist or is outside the data folder: {path!r}. "
    "Use paths relative to the data folder, as list_dir shows them."
)


def resolve_inside(root: Path, requested: str | os.PathLike[str] | None) -> Path | None:
    """Resolve `requested` against `root`; return it only if it exists inside `root`.

    Normalises, joins and resolves symlinks, so `..`, absolute paths and links that
    point out of the folder all fail the same way: by returning None, which the
    caller turns into a tool result the model can read.
    """
    base = root.resolve()
    try:
        # os.path.join drops `base` for an absolute `requested`; resolve() then
        # follows every symlink, so the containment check sees the real target.
        target = Path(os.path.join(base, os.fspath(requested or "."))).resolve(strict=True)
    except (OSError, RuntimeError, ValueError, TypeError):
        return None
    if target == base or base in target.parents:
        return target
    return None
