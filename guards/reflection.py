"""When a reflect round has converged: the critic has nothing, or the revision changed nothing."""

from __future__ import annotations

import difflib
import re
from typing import Any

# A revision that keeps 99 % of the words in order is cosmetic: a comma, a rephrased
# clause. Another round would spend two model calls to polish the polish.
CONVERGED_SIMILARITY = 0.99
NOTHING = re.compile(r"^\W*none\W*$", re.IGNORECASE)


def round_due(done: dict[str, Any] | None, rounds: int) -> bool:
    """Whether another critique-and-revise round runs: fewer than `rounds` so far, and the
    last did not converge. The one rule the reflect router and the reflect node both ask."""
    done = done or {"rounds": 0, "converged": False}
    return not done["converged"] and done["rounds"] < rounds


def critique_is_empty(critique: str) -> bool:
    """The critic's "NONE": no substantive problem to fix."""
    return not critique.strip() or bool(NOTHING.match(critique.strip()))


def issues_of(reply: str) -> list[str]:
    """The "- " items of a model's list reply; an empty list for NONE."""
    if critique_is_empty(reply):
        return []
    items = [
        line.strip()[2:].strip() for line in reply.splitlines() if line.strip().startswith("- ")
    ]
    return items or [reply.strip()]


def no_substantive_change(before: str, after: str) -> bool:
    a, b = before.split(), after.split()
    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio() >= CONVERGED_SIMILARITY
