"""bib: the report's references settled: every \\cite resolves to a reference found in the
material (written to references.bib) or is removed, and every \\includegraphics target is a
figure that rendered, or is removed."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from labscribe.guards.citations import resolve_citations
from labscribe.guards.graphics import resolve_graphics
from labscribe.nodes.latex_text import escape_latex
from labscribe.nodes.runtime.state import State, data_folder, milestone
from labscribe.tools.explorer.references import Reference, material_references


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
        "bibliography": "".join(bibtex(ref) for ref in references),
        "citations": asdict(citations),
        "graphics": {"shown": shown, "removed": missing},
    } | milestone(state, "bib", detail)


def bibtex(reference: Reference) -> str:
    """`reference` as a BibTeX entry. Its note is the reference as the material writes it,
    which bibtex copies into the report: it is escaped as all text from the material is,
    braces removed first, since bibtex counts even escaped ones and an unbalanced one breaks
    the whole file. The DOI and URL are identifiers (tools/explorer/references.py matches them
    without spaces, braces or controls), kept as written for styles that print them as
    they are (`\\url`)."""
    note = escape_latex(reference.text.replace("{", "").replace("}", ""))
    fields = {"note": note, "doi": reference.doi, "url": reference.url, "year": reference.year}
    lines = [f"  {name} = {{{value}}}," for name, value in fields.items() if value]
    return "@misc{" + reference.key + ",\n" + "\n".join(lines) + "\n}\n"
