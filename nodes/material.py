"""What the writing stages know of the material: the analysis of the data and the references."""

from __future__ import annotations

import json
from typing import Any

from labscribe.guards.bounds import within_tokens
from labscribe.guards.numbers import check_numbers
from labscribe.nodes.prompts import NO_ANALYSIS, NO_CITATION_KEYS
from labscribe.tools.analysis.analysis_digest import EXPLORER_DIGEST, DigestSize, digest
from labscribe.tools.analysis.folder import Analysis
from labscribe.tools.explorer.references import material_references
from labscribe.tools.fits.fit_result import Fit
from labscribe.tools.formulas.quantities import Derived
from labscribe.tools.tool import Folder


def analysis_of(state: dict[str, Any]) -> Analysis:
    """The analysis scan recorded, with what the explorer's fit and derive calls computed
    (a fit asked twice counts once); an empty one for a thread checkpointed before it had
    one."""
    analysis = Analysis.model_validate(state.get("analysis") or {})
    seen = {(f.table, f.x, f.y, f.model) for f in analysis.fits}
    for item in state.get("explored") or []:
        if "fit" in item:
            fit = Fit.model_validate(item["fit"])
            if (fit.table, fit.x, fit.y, fit.model) not in seen:
                seen.add((fit.table, fit.x, fit.y, fit.model))
                analysis.fits.append(fit)
        elif "derived" in item:
            derived = Derived.model_validate(item["derived"])
            analysis.derived = [d for d in analysis.derived if d.name != derived.name]
            analysis.derived.append(derived)
    return analysis


def analysis_text(state: dict[str, Any], size: DigestSize = EXPLORER_DIGEST) -> str:
    analysis = analysis_of(state)
    if not (analysis.tables or analysis.parameters or analysis.tasks or analysis.unreadable):
        return NO_ANALYSIS
    return digest(analysis, size)


def findings_text(state: dict[str, Any], tokens: int, indent: int | None = None) -> str:
    """The explorer's findings as JSON, within `tokens`: a final answer of a megabyte, or
    findings that fill a call, are cut with a note rather than overflow a model's window."""
    text = json.dumps(state.get("findings") or {}, ensure_ascii=False, indent=indent)
    return within_tokens(text, tokens, "the explorer's findings")


def figure_list(state: dict[str, Any]) -> str:
    """The figures drawn so far, a line each ("- figures/x.png: caption"); "" for none."""
    return "\n".join(f"- {f['path']}: {f['caption']}" for f in state.get("figures") or [])


def citation_keys(folder: Folder) -> str:
    references = material_references(folder)
    return ", ".join(f"{ref.key} ({ref.text[:60]})" for ref in references) or NO_CITATION_KEYS


def number_check(state: dict[str, Any], report: str) -> dict[str, Any]:
    """The state record of checking `report`'s numbers against what the data determine."""
    checked, mismatches = check_numbers(report, analysis_of(state).facts())
    return {"checked": checked, "mismatches": [m.describe() for m in mismatches]}
