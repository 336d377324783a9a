"""gap: what the assignment asks that the material cannot give, stated for the writer."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import HumanMessage, SystemMessage
from langgraph.runtime import Runtime

from labscribe.guards.bounds import within_tokens
from labscribe.guards.reflection import issues_of
from labscribe.nodes.halts import nudged
from labscribe.nodes.material import findings_text
from labscribe.nodes.prompts import GAP_BRIEF, GAP_SYSTEM
from labscribe.nodes.runtime.context import Context
from labscribe.nodes.runtime.models import (
    ask,
    chat_model,
    context_window,
    idle_reason,
    role_of,
    spent,
)
from labscribe.nodes.runtime.state import State, milestone, skipped


def gap(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """Skipped, with no milestone, when exploration found no requirements to compare."""
    findings = state.get("findings") or {}
    requirements = findings.get("requirements")
    if not requirements:
        return {"gaps": []}
    if reason := idle_reason(runtime.context, "gap"):
        return {"gaps": []} | skipped(state, ["gap"], reason)
    room = context_window(runtime.context, role_of("gap")) * 3 // 4
    requirements = within_tokens(requirements, room // 4, "the requirements")
    inventory = "\n\n".join([state["messages"][0].text, findings_text(state, room // 4, 1)])
    reply = ask(
        chat_model(runtime.context, role_of("gap")),
        [
            SystemMessage(GAP_SYSTEM),
            HumanMessage(GAP_BRIEF.format(requirements=requirements, inventory=inventory)),
            *nudged(state),
        ],
        "gap",
    )
    gaps = issues_of(reply.text)
    detail = (
        f"{len(gaps)} gaps: " + "; ".join(gaps) if gaps else "the material covers the assignment"
    )
    return {"gaps": gaps} | spent("gap", reply) | milestone(state, "gap", detail)
