"""scan: a deterministic walk of the folder, then the analysis of its data and a figure of
each table. Zero model calls, zero tokens."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from langchain_core.messages import HumanMessage

from labscribe.nodes.prompts import SCAN_BRIEF
from labscribe.nodes.runtime.state import State, data_folder, emit, figures_dir, milestone
from labscribe.tools.analysis.analysis_digest import digest
from labscribe.tools.analysis.data_figures import draw_data_figures
from labscribe.tools.analysis.folder import analyse
from labscribe.tools.base import ToolError
from labscribe.tools.explorer.scanning import ScanResult, scan_folder
from labscribe.tools.formats.decoding import decoded_once


def scan(state: State) -> dict[str, Any]:
    folder = data_folder(state)
    try:
        result = scan_folder(Path(folder.base()))
    except ToolError as exc:  # the folder changed since the run started: nothing is walked
        result = ScanResult.unwalked(state["folder"], str(exc))
    summary = result.summary()
    emit({"event": "progress", "stage": "scan", "detail": "analysing the data"})
    with decoded_once():
        analysis = analyse(folder)
        figures = draw_data_figures(
            folder,
            analysis,
            figures_dir(state),
            announce=lambda number, total: emit(
                {"event": "progress", "stage": "scan",
                 "detail": f"drawing data figure {number} of {total}"}
            ),
        )  # fmt: skip
    return {
        "scan": result.model_dump(),
        "analysis": analysis.model_dump(mode="json"),
        "figures": figures,
        "messages": [HumanMessage(SCAN_BRIEF.format(summary=summary, analysis=digest(analysis)))],
        **milestone(state, "scan", summary),
    }
