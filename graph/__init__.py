"""labscribe's graph: it assembles the stages (builder, routing), drives runs (runner,
resume, batch) and serves them (the CLI, the server batch, Studio).

The Python API:

    from labscribe.graph import Context, Models, build_graph, resume_thread, run_folder
"""

from labscribe.graph.builder import build_graph
from labscribe.graph.resume import resume_thread
from labscribe.graph.runner import RunResult, run_folder
from labscribe.nodes.runtime.context import Context
from labscribe.nodes.runtime.models import Models

__all__ = ["Context", "Models", "RunResult", "build_graph", "resume_thread", "run_folder"]
