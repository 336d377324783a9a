"""Citations: every \\cite key resolves to a reference from the material, or is removed."""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass, field

# A draft is a model's text: each pattern stops where the next opening of its own kind
# starts (`[^{}]`, a tempered `.`), so 10,000 unclosed `\cite{` cost one pass, not 10,000.
CITE = re.compile(r"\\(cite[tp]?\*?)(\[[^\[\]]*\])?\{([^{}]*)\}")
BIBLIOGRAPHY = re.compile(r"\\bibliography(style)?\{[^{}]*\}\s*")
THEBIBLIOGRAPHY = re.compile(
    r"\\begin\{thebibliography\}(?:(?!\\begin\{thebibliography\}).)*?\\end\{thebibliography\}\s*",
    re.DOTALL,
)
END = "\\end{document}"
BIB_COMMANDS = "\\bibliographystyle{plain}\n\\bibliography{references}\n"


@dataclass
class Citations:
    resolved: list[str] = field(default_factory=list)
    """Keys cited, as they appear in references.bib."""
    renamed: dict[str, str] = field(default_factory=dict)
    """A key the writer spelled differently, and the reference it was matched to."""
    removed: list[str] = field(default_factory=list)
    """Keys that match no reference in the material: their \\cite was dropped."""


def resolve_citations(report: str, keys: Collection[str]) -> tuple[str, Citations]:
    """`report` with every \\cite resolved or removed, and its bibliography commands set.

    A hand-written thebibliography is dropped: the references come from the material only.
    """
    outcome = Citations()
    lowered = {key.lower(): key for key in keys}

    def resolve(key: str) -> str | None:
        if key in keys:
            return key
        match = lowered.get(key.lower()) or _unique_prefix(key.lower(), lowered)
        if match:
            outcome.renamed[key] = match
        return match

    def replace(cite: re.Match[str]) -> str:
        kept = []
        for key in (k.strip() for k in cite.group(3).split(",")):
            resolved = resolve(key) if key else None
            if resolved is None:
                outcome.removed.append(key)
            elif resolved not in kept:
                kept.append(resolved)
        outcome.resolved += [k for k in kept if k not in outcome.resolved]
        return f"\\{cite.group(1)}{cite.group(2) or ''}{{{','.join(kept)}}}" if kept else ""

    text = CITE.sub(replace, THEBIBLIOGRAPHY.sub("", report))
    text = BIBLIOGRAPHY.sub("", text)
    if outcome.resolved and END in text:
        at = text.rfind(END)
        text = text[:at] + BIB_COMMANDS + text[at:]
    return text, outcome


def _unique_prefix(key: str, lowered: dict[str, str]) -> str | None:
    """The one reference whose key starts with `key` (a writer's "purcell" for "purcell2013")."""
    matches = [original for low, original in lowered.items() if key and low.startswith(key)]
    return matches[0] if len(matches) == 1 else None
