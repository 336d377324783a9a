"""labscribe's graph: state, context, builder, routing, runner and CLI.

The Python API:

    from labscribe.graph import Context, Models, build_graph, resume_thread, run_folder

Exports load on first use, so `nodes/` can import `graph.state` and `graph.progress`
without pulling in the builder that imports them.
"""

from importlib import import_module
from typing import Any

_EXPORTS = {
    "Context": "labscribe.graph.context",
    "Models": "labscribe.graph.models",
    "RunResult": "labscribe.graph.runner",
    "build_graph": "labscribe.graph.builder",
    "resume_thread": "labscribe.graph.resume",
    "run_folder": "labscribe.graph.runner",
}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'labscribe.graph' has no attribute {name!r}")
    return getattr(import_module(_EXPORTS[name]), name)
