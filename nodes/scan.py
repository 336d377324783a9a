"""scan: a deterministic walk of the folder. Zero model calls, zero tokens."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from langchain_core.messages import HumanMessage

from labscribe.graph.progress import milestone
from labscribe.graph.state import State
from labscribe.nodes.prompts import SCAN_BRIEF
from labscribe.tools.scanning import scan_folder


def scan(state: State) -> dict[str, Any]:
    result = scan_folder(Path(state["folder"]))
    summary = result.summary()
    return {
        "scan": result.model_dump(),
        "messages": [HumanMessage(SCAN_BRIEF.format(summary=summary))],
        **milestone(state, "scan", summary),
    }
