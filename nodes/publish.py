"""publish: the files a run made outside its state (the figures, the PDF) put into the run's
LangGraph store, when it has one. A LangGraph server gives every run its store, and a client
on another machine (`labscribe batch --server`) reads them back from there into its OUT/.
A run without a store (the CLI, which writes OUT/ itself) publishes nothing."""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

from langgraph.config import get_config
from langgraph.runtime import Runtime

from labscribe.nodes.runtime.context import Context
from labscribe.nodes.runtime.state import State, figures_dir

NAMESPACE = "labscribe-outputs"
"""Store namespace (NAMESPACE, thread_id): one item per file, keyed by its path in OUT/."""
MAX_FILE_BYTES = 32 * 1024 * 1024


def publish(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    if runtime.store is None:
        return {}
    namespace = (NAMESPACE, str(get_config()["configurable"]["thread_id"]))
    for key, path in produced_files(state).items():
        try:
            data = path.read_bytes() if path.stat().st_size <= MAX_FILE_BYTES else None
        except OSError:
            data = None
        if data is not None:
            value = {"base64": base64.b64encode(data).decode("ascii"), "bytes": len(data)}
            runtime.store.put(namespace, key, value, index=False)
    return {}


def produced_files(state: State) -> dict[str, Path]:
    """The files of OUT/ that only exist on the machine that ran: {path in OUT/: file}."""
    where = figures_dir(state)
    files = {
        figure["path"]: where / Path(figure["path"]).name for figure in state.get("figures") or []
    }
    if pdf := (state.get("compile") or {}).get("pdf"):
        files["report.pdf"] = Path(pdf)
    return files
