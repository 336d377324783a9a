"""References found in the material: numbered reference lists, DOIs and URLs in documents.

Only what the documents say is kept: a DOI is recorded when it is written in the material,
never looked up or made up.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from labscribe.tools.base import ToolError
from labscribe.tools.explorer.reading import read_in
from labscribe.tools.explorer.scanning import files_with_suffix
from labscribe.tools.tool import Folder, version_in

DOCUMENT_SUFFIXES = frozenset({".pdf", ".md", ".txt", ".tex", ".bib", ".html", ".htm"})
READ_LINES = 2_000  # of each document: reference lists live in the first pages or the last
READ_CHARS = 200_000

# An identifier ends at a space, a quote, a bracket, a brace or a control character.
DOI = re.compile(r"\b10\.\d{4,9}/[^\s\"<>{}\x00-\x1f\x7f-\x9f]+")
URL = re.compile(r"https?://[^\s\"<>{}\x00-\x1f\x7f-\x9f]+")
NUMBERED = re.compile(
    r"^\s*\[(\d{1,3})\]\s+(.+?)(?=^\s*\[\d{1,3}\]\s|^\s*$|^\s*Page \d|\Z)", re.MULTILINE | re.DOTALL
)
YEAR = re.compile(r"\b(19\d\d|20\d\d)\b")
NAME = re.compile(r"\b([A-Z][A-Za-z]{2,}|[A-Z]{3,})\b")


@dataclass(frozen=True)
class Reference:
    key: str
    text: str
    """The reference as the material writes it."""
    source: str
    doi: str | None = None
    url: str | None = None
    year: str | None = None


def material_references(folder: Folder) -> list[Reference]:
    """Every reference the folder's documents contain, each under a stable citation key;
    none when the folder is no longer the run's."""
    try:
        base = folder.base()
    except ToolError:
        return []
    found: list[tuple[str, str]] = []
    for rel in files_with_suffix(Path(base), DOCUMENT_SUFFIXES):
        found += _document_references(folder.root, folder.identity, rel, version_in(folder, rel))
    keys: dict[str, int] = {}
    references = []
    for text, source in found:
        key = _key(text, keys)
        doi = _clean(DOI.search(text))
        url = _clean(URL.search(text))
        year = YEAR.search(text)
        references.append(Reference(key, text, source, doi, url, year.group(1) if year else None))
    return references


@lru_cache(maxsize=64)
def _document_references(
    root: Path, identity: tuple[int, int] | None, rel: str, version: str | None
) -> list[tuple[str, str]]:
    """The references in one document; cached per version of it (None: unreadable)."""
    if version is None:
        return []
    try:
        text = read_in(Folder(root, identity=identity), rel, READ_LINES, max_chars=READ_CHARS)
    except ToolError:
        return []
    entries = [" ".join(m.group(2).split()) for m in NUMBERED.finditer(text)]
    listed = " ".join(entries)
    # A DOI or URL outside any numbered list is a reference of its own.
    loose = [
        match.group(0).rstrip(".,;)")
        for pattern in (DOI, URL)
        for match in pattern.finditer(text)
        if match.group(0).rstrip(".,;)") not in listed
    ]
    return [(entry, rel) for entry in [*entries, *dict.fromkeys(loose)]]


def _key(text: str, taken: dict[str, int]) -> str:
    name = next((n for n in NAME.findall(text) if n.lower() not in {"the", "and", "doi"}), "ref")
    year = YEAR.search(text)
    base = re.sub(r"[^a-z0-9]", "", name.lower()) + (year.group(1) if year else "")
    taken[base] = taken.get(base, 0) + 1
    return base if taken[base] == 1 else f"{base}{chr(ord('a') + taken[base] - 1)}"


def _clean(match: re.Match[str] | None) -> str | None:
    return match.group(0).rstrip(".,;)") if match else None
