"""What an xelatex log says: errors, undefined references and citations, missing glyphs."""

from __future__ import annotations

import re
from collections.abc import Iterable

from pydantic import BaseModel, Field

ERROR = re.compile(r"^(?:! (.+)|\S+:\d+: (.+))$", re.MULTILINE)
UNDEFINED_REFERENCE = re.compile(r"Reference `([^']+)' on page \d+ undefined")
UNDEFINED_CITATION = re.compile(r"Citation `([^']+)' on page \d+ undefined")
MISSING_CHARACTER = re.compile(r"Missing character: There is no (.+?) in font ([^!\n]+)")
OVERFULL = re.compile(r"^Overfull \\hbox", re.MULTILINE)
NO_PAGES = re.compile(r"^No pages of output\.", re.MULTILINE)
MAX_LISTED = 20


class LogSummary(BaseModel):
    errors: list[str] = Field(default_factory=list)
    undefined_references: list[str] = Field(default_factory=list)
    undefined_citations: list[str] = Field(default_factory=list)
    missing_characters: list[str] = Field(default_factory=list)
    overfull_boxes: int = 0
    no_pages: bool = False
    """The document typeset nothing, and no error stopped it first: TeX wrote no PDF."""

    @property
    def problems(self) -> int:
        """What a fix round should remove (overfull boxes are reported, not fixed)."""
        return (
            len(self.errors)
            + len(self.undefined_references)
            + len(self.undefined_citations)
            + len(self.missing_characters)
        )

    def describe(self) -> str:
        parts = [
            *(f"error: {e}" for e in self.errors),
            *(f"undefined reference: {r}" for r in self.undefined_references),
            *(f"undefined citation: {c}" for c in self.undefined_citations),
            *(f"missing character: {m}" for m in self.missing_characters),
        ]
        return "\n".join(parts) or "no problems"


def parse_log(log: str) -> LogSummary:
    errors = [next(g for g in m.groups() if g) for m in ERROR.finditer(log)]
    # An error halts TeX before any page too; only an error-free run that printed nothing
    # says the document itself is empty.
    no_pages = not errors and NO_PAGES.search(log) is not None
    return LogSummary(
        errors=_unique(errors + (["No pages of output."] if no_pages else [])),
        undefined_references=_unique(UNDEFINED_REFERENCE.findall(log)),
        undefined_citations=_unique(UNDEFINED_CITATION.findall(log)),
        missing_characters=_unique(f"{c} ({f.strip()})" for c, f in MISSING_CHARACTER.findall(log)),
        overfull_boxes=len(OVERFULL.findall(log)),
        no_pages=no_pages,
    )


def _unique(items: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(items))[:MAX_LISTED]
