"""Progress events, streamed on LangGraph's custom stream.

Milestone events carry `index`, `total`, `stage` and `detail`; the stage is always passed
by the node that reached it, and the index is that stage's own place in the plan, so a
skipped milestone never shifts the labels of the ones after it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langgraph.config import get_stream_writer


def milestone_index(plan: Sequence[str], stage: str, occurrence: int) -> int:
    """1-based place in `plan` of the `occurrence`-th (0-based) milestone named `stage`."""
    seen = 0
    for index, name in enumerate(plan, start=1):
        if name == stage:
            if seen == occurrence:
                return index
            seen += 1
    raise ValueError(f"stage {stage!r} has no milestone #{occurrence + 1} in the plan {plan}")


def milestone(state: dict[str, Any], stage: str, detail: str) -> dict[str, Any]:
    """Announce that `stage` is done; returns the state update that records it."""
    plan = state.get("plan") or [stage]
    index = milestone_index(plan, stage, (state.get("stages") or []).count(stage))
    emit(
        {"event": "milestone", "index": index, "total": len(plan), "stage": stage, "detail": detail}
    )
    return {"stages": [stage]}


def emit(event: dict[str, Any]) -> None:
    """Send `event` to whoever streams the custom mode; a no-op for plain invoke."""
    get_stream_writer()(event)
