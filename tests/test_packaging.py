"""The package as pip builds it from a clean copy of the sources: no warnings, every module."""

from __future__ import annotations

import email
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FLOORS = ("graph", "nodes", "tools", "guards")


def test_the_wheel_builds_without_warnings_and_holds_every_module(tmp_path: Path) -> None:
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, source / name)
    for floor in FLOORS:
        shutil.copytree(ROOT / floor, source / floor, ignore=shutil.ignore_patterns("__pycache__"))
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(tmp_path),
         str(source)],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "warning" not in done.stderr.lower(), done.stderr  # setuptools' deprecations say so
    [wheel] = tmp_path.glob("labscribe-*.whl")
    with zipfile.ZipFile(wheel) as built:
        names = set(built.namelist())
        [metadata] = [name for name in names if name.endswith(".dist-info/METADATA")]
        fields = email.message_from_bytes(built.read(metadata))
    modules = {f"labscribe/{path.relative_to(ROOT)}" for floor in FLOORS
               for path in (ROOT / floor).rglob("*.py")}  # fmt: skip
    assert modules <= names, sorted(modules - names)[:5]
    assert fields["License-Expression"] == "MIT"
