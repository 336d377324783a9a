"""What the writing stages know of the material: the data's facts and the references."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from labscribe.guards.numbers import check_numbers
from labscribe.tools.facts import data_facts
from labscribe.tools.references import material_references

MAX_FACTS_SHOWN = 60


def facts_text(folder: str) -> str:
    facts = data_facts(Path(folder))[:MAX_FACTS_SHOWN]
    return "\n".join(f"- {fact.label}: {fact.value:g}" for fact in facts) or "(no tables found)"


def citation_keys(folder: str) -> str:
    references = material_references(Path(folder))
    return ", ".join(f"{ref.key} ({ref.text[:60]})" for ref in references) or "(none: cite nothing)"


def number_check(folder: str, report: str) -> dict[str, Any]:
    """The state record of checking `report`'s numbers against the folder's data."""
    checked, mismatches = check_numbers(report, data_facts(Path(folder)))
    return {"checked": checked, "mismatches": [m.describe() for m in mismatches]}
