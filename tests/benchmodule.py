"""A bench script of bench/, imported by the test that keeps its promise: the scripts are
run as files, not installed, so each is loaded under a name of its own."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).resolve().parents[1] / "bench"


def load(relative: str, name: str) -> ModuleType:
    """bench/`relative` as the module `name` (dataclasses look their module up by name)."""
    path = BENCH / relative
    sys.path.insert(0, str(path.parent))  # its sibling modules (a corpus generator)
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
