"""bib: the report's references settled: every \\cite resolves to a reference found in the
material (written to references.bib) or is removed, and every \\includegraphics target is a
figure that rendered, or is removed."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from labscribe.graph.progress import milestone
from labscribe.graph.state import State, data_folder
from labscribe.guards.citations import resolve_citations
from labscribe.guards.graphics import resolve_graphics
from labscribe.tools.references import material_references


def bib(state: State) -> dict[str, Any]:
    references = material_references(data_folder(state))
    report, citations = resolve_citations(state["report"], [ref.key for ref in references])
    available = [figure["path"] for figure in state.get("figures") or []]
    report, shown, missing = resolve_graphics(report, available)
    detail = f"{len(references)} references in the material, {len(citations.resolved)} cited" + (
        f", removed unknown citations: {', '.join(citations.removed)}" if citations.removed else ""
    )
    return {
        "report": report,
        "bibliography": "".join(ref.bibtex() for ref in references),
        "citations": asdict(citations),
        "graphics": {"shown": shown, "removed": missing},
    } | milestone(state, "bib", detail)
