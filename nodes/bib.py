"""bib: references.bib from the material's references; every \\cite resolved or removed."""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import Any

from labscribe.graph.progress import milestone
from labscribe.graph.state import State
from labscribe.guards.citations import resolve_citations
from labscribe.tools.references import material_references


def bib(state: State) -> dict[str, Any]:
    references = material_references(Path(state["folder"]))
    report, citations = resolve_citations(state["report"], [ref.key for ref in references])
    detail = f"{len(references)} references in the material, {len(citations.resolved)} cited" + (
        f", removed unknown citations: {', '.join(citations.removed)}" if citations.removed else ""
    )
    return {
        "report": report,
        "bibliography": "".join(ref.bibtex() for ref in references),
        "citations": asdict(citations),
    } | milestone(state, "bib", detail)
