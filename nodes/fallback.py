"""The deterministic report: assembled from what exploration found when no model draft passes.

The run never ends with nothing: this document is built from state alone, always passes the
output checks, and says plainly that it is a degraded report.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from labscribe.tools.facts import data_facts

_LATEX_SPECIALS = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}
EXCERPT_LINES = 25
MAX_FACTS = 40


def escape_latex(text: str) -> str:
    """`text` with LaTeX's special characters made literal."""
    return "".join(_LATEX_SPECIALS.get(char, char) for char in text)


def fallback_report(state: dict[str, Any]) -> str:
    findings = state.get("findings") or {}
    experiment = findings.get("experiment") or "Experiment report"
    ending = (state.get("exploration") or {}).get("reason", "exploration did not finish")
    halt = (state.get("guard") or {}).get("halts") or []
    sections = [
        _section(
            "About this report",
            [
                "This report was assembled automatically from the exploration findings, "
                "because no model draft passed the output checks. Review it before use.",
                f"Exploration ended because {ending}.",
                *(f"Exploration was halted: {record['reason']}." for record in halt),
            ],
        ),
        _section("Goal", [findings.get("goal") or "The goal was not stated by the explorer."]),
        _itemized("Key findings", findings.get("key_findings") or ["No findings were recorded."]),
    ]
    for title, key in (("Method", "method"), ("Requirements of the assignment", "requirements")):
        if findings.get(key):
            sections.append(_section(title, [findings[key]]))
    if state.get("folder"):
        facts = [f"{fact.label}: {fact.value:g}" for fact in data_facts(Path(state["folder"]))]
        if facts:
            sections.append(_itemized("Facts computed from the data files", facts[:MAX_FACTS]))
    sections.append(_itemized("Material in the folder", _inventory(state.get("scan") or {})))
    body = "\n\n".join(sections)
    return (
        "\\documentclass[11pt]{article}\n"
        "\\usepackage[margin=2.5cm]{geometry}\n"
        f"\\title{{{escape_latex(experiment)}}}\n"
        "\\author{labscribe (degraded report)}\n"
        "\\date{\\today}\n"
        "\\begin{document}\n"
        "\\maketitle\n\n"
        f"{body}\n\n"
        "\\end{document}\n"
    )


def _section(title: str, paragraphs: list[str]) -> str:
    text = "\n\n".join(escape_latex(p) for p in paragraphs)
    return f"\\section*{{{escape_latex(title)}}}\n{text}"


def _itemized(title: str, items: list[str]) -> str:
    lines = "\n".join(f"  \\item {escape_latex(str(item))}" for item in items)
    return f"\\section*{{{escape_latex(title)}}}\n\\begin{{itemize}}\n{lines}\n\\end{{itemize}}"


def _inventory(scan: dict[str, Any]) -> list[str]:
    items = []
    for name, bucket in (scan.get("buckets") or {}).items():
        if bucket.get("count"):
            files = ", ".join(bucket.get("files", [])[:EXCERPT_LINES])
            items.append(f"{name} ({bucket['count']}): {files}")
    return items or ["The folder held no files."]
