"""What the path guards' tests share."""

from pathlib import Path

from labscribe.guards.paths import real_path, resolve_under


def resolve_inside(root: Path, requested: str | None) -> Path | None:
    """What the path guard resolves `requested` to in the folder `root` (as tools.tool's
    Folder asks it, on the folder's real path)."""
    return resolve_under(real_path(str(root)), requested)
