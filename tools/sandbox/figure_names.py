"""The one naming of figure files in OUT/figures: labscribe's data figures and the model's
figures alike. A name whose file is there is taken: a figure never overwrites another."""

from __future__ import annotations

import re
from collections.abc import Collection
from pathlib import Path

MAX_STEM = 64


def sanitize_name(name: str) -> str:
    """`name` as a safe file stem: letters, digits, `-` and `_` only, at most MAX_STEM,
    never empty."""
    stem = name.strip()
    if stem.lower().endswith(".png"):
        stem = stem[:-4]
    stem = re.sub(r"[^A-Za-z0-9_-]+", "_", stem).strip("_")[:MAX_STEM]
    return stem or "figure"


def free_name(wanted: str, taken: Collection[str]) -> str:
    """`wanted` as a safe file stem that is not in `taken`: the first of stem, stem-2,
    stem-3, ... that is free, the stem shortened so the suffix still fits MAX_STEM."""
    stem = sanitize_name(wanted)
    unique, n = stem, 1
    while unique in taken:
        n += 1
        suffix = f"-{n}"
        unique = stem[: MAX_STEM - len(suffix)] + suffix
    return unique


def taken_names(figures: Path) -> set[str]:
    """The stems of the figures already in `figures`."""
    try:
        return {entry.stem for entry in figures.iterdir() if entry.suffix == ".png"}
    except OSError:  # no figure drawn yet
        return set()
