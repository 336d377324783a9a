"""reflect: one critique-and-revise round; the graph repeats it up to N times.

A round stops the repetition early when it converges: the critic finds nothing and the
numbers agree with the data, or the revision changed nothing of substance. A revision that
fails the output checks is dropped and the previous text kept.
"""

from __future__ import annotations

from typing import Any

from langchain_core.messages import HumanMessage, SystemMessage
from langgraph.runtime import Runtime

from labscribe.guards.bounds import estimate_tokens
from labscribe.guards.output import tidy_latex
from labscribe.guards.reflection import critique_is_empty, no_substantive_change, round_due
from labscribe.nodes.checks import report_problems
from labscribe.nodes.draft import complete
from labscribe.nodes.halts import nudged
from labscribe.nodes.material import analysis_text, number_check
from labscribe.nodes.prompts import (
    CRITIQUE_BRIEF,
    CRITIQUE_SYSTEM,
    NOTHING_LISTED,
    REVISE_BRIEF,
    REVISE_SYSTEM,
)
from labscribe.nodes.runtime.context import Context
from labscribe.nodes.runtime.models import ask, chat_model, context_window, role_of, spent
from labscribe.nodes.runtime.state import State, milestone, skipped
from labscribe.tools.analysis.analysis_digest import WRITER_DIGEST

# A fallback means every draft of the write model failed the output checks; its revisions of
# the fallback failed them too and were dropped (issue 12), each round costing two calls.
FALLBACK_NOT_REVISED = (
    "skipped: the report is the fallback written from the data, since no model draft "
    "passed; a revision by that model would not pass either"
)


def fits_twice(report: str, window: int) -> bool:
    """Whether the report can be shown and rewritten within a window: the revision request
    holds it once and the reply holds it again."""
    return 2 * estimate_tokens(report) <= window * 9 // 10


def reflect(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """One round, or nothing when no round is due (reflect=0)."""
    ctx = runtime.context
    done = state.get("reflection") or {"rounds": 0, "converged": False}
    if not round_due(done, ctx.reflect):
        return {}
    if state.get("drafted_by") == "fallback":
        left = ctx.reflect - done["rounds"]
        return {"reflection": {"rounds": ctx.reflect, "converged": True}} | skipped(
            state, ["reflect"] * left, FALLBACK_NOT_REVISED
        )
    report = state["report"]
    numbers = state.get("numbers") or number_check(state, report)
    if not fits_twice(report, context_window(ctx, role_of("reflect"))):
        rounds = done["rounds"] + 1
        detail = "skipped: the report is too long to review and revise in the model's window"
        return {"reflection": {"rounds": rounds, "converged": True}} | milestone(
            state, "reflect", f"round {rounds}: {detail}"
        )
    model = chat_model(ctx, role_of("reflect"))
    critique = ask(
        model,
        [
            SystemMessage(CRITIQUE_SYSTEM),
            HumanMessage(
                CRITIQUE_BRIEF.format(
                    report=report,
                    mismatches="\n".join(f"- {m}" for m in numbers["mismatches"]) or NOTHING_LISTED,
                    gaps="\n".join(f"- {g}" for g in state.get("gaps") or []) or NOTHING_LISTED,
                    analysis=analysis_text(state, WRITER_DIGEST),
                )
            ),
            *nudged(state),
        ],
        "reflect",
    )
    replies = [critique]
    if critique_is_empty(critique.text) and not numbers["mismatches"]:
        converged, detail = True, "converged: the critic found nothing to change"
    else:
        revision, parts = complete(
            model,
            [
                SystemMessage(REVISE_SYSTEM),
                HumanMessage(REVISE_BRIEF.format(critique=critique.text, report=report)),
            ],
            "reflect",
        )
        replies += parts
        revised = tidy_latex(revision)
        problems = report_problems(revised, state, ctx)
        if problems:
            converged, detail = False, f"revision dropped ({'; '.join(problems)}); text kept"
        else:
            converged = no_substantive_change(report, revised)
            detail = "converged: no substantive change" if converged else "revised"
            report = revised
    rounds = done["rounds"] + 1
    return (
        {
            "report": report,
            "reflection": {"rounds": rounds, "converged": converged},
            "numbers": number_check(state, report),
        }
        | spent("reflect", *replies)
        | milestone(state, "reflect", f"round {rounds}: {detail}")
    )
