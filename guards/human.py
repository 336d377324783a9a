"""A halt put to a human, and the human's answer, in LangGraph's human-in-the-loop convention.

The interrupt's payload is a list of one `HumanInterrupt` (`action_request`, `config`,
`description`), the shape LangChain's Agent Inbox reads, so a TA can triage a class's halted
threads there. The answer may be Agent Inbox's `HumanResponse` (alone or in a list), the
`{"nudge": text}` the CLI sends, or bare text.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from labscribe.guards.bounds import estimate_tokens, valid_text
from labscribe.guards.statuses import of_endpoint

DRAFT_CHOSEN = "a human chose to draft with what was found after the halt"
NUDGE_SHARE = 4
"""A nudge takes at most a quarter of the explore model's context window: the brief, the
newest round of the history (never folded away) and the reply need the rest."""
NUDGE_TOO_LONG = (
    "the nudge is about {tokens} tokens, over the {limit} a nudge may take (a quarter of the "
    "explore model's {window}-token context window): shorten it"
)
NUDGE_CUT = "[the rest of this nudge was cut: a nudge may take {limit} tokens]"
RETRY_ACTION = "retry_model_request"
"""The action an infrastructure halt asks for: the request that failed, once fixed."""

COLLAPSE_OPTIONS = {
    "allow_ignore": True,  # draft with what was found
    "allow_respond": True,  # a nudge for the explorer
    "allow_edit": False,
    "allow_accept": False,
}
RETRY_OPTIONS = {
    "allow_ignore": False,
    "allow_respond": True,  # send it again with a hint for the model
    "allow_edit": False,
    "allow_accept": True,  # send the failed request again
}

COLLAPSE_DESCRIPTION = """\
## Exploration halted: {reason}

The explorer of `{folder}` repeated itself until the loop guards stopped it (warned {warned}, \
blocked {blocked}; {tool_calls} tool calls so far). The halted call is above.

- **Respond** with a hint for the explorer: it joins the explorer's history, the loop ladder \
starts again at its first rung, and exploring continues.
- **Ignore** to draft the report now with what was found so far.
"""
RETRY_DESCRIPTION = """\
## The model endpoint failed: {reason}

Nothing sound can be drafted from a dead endpoint, so the thread waits. Fix the cause \
(the key, the endpoint, its quota), then **accept** to run the stage again, or \
**respond** with a hint: it joins the stage's request to the model.
"""


def halt_request(
    halt: dict[str, Any],
    *,
    folder: str = "",
    warned: int = 0,
    blocked: int = 0,
    tool_calls: int = 0,
) -> list[dict[str, Any]]:
    """The interrupt payload for `halt`: one HumanInterrupt."""
    if of_endpoint(halt):
        # The halt record rides in the arguments: it is all the thread knows of the failure.
        record = {key: halt.get(key) for key in ("termination", "kind", "reason")}
        action = {"action": RETRY_ACTION, "args": record}
        description = RETRY_DESCRIPTION.format(reason=halt.get("reason"))
        return [_request(action, RETRY_OPTIONS, description)]
    action = {"action": halt.get("tool") or "explore", "args": dict(halt.get("args") or {})}
    description = COLLAPSE_DESCRIPTION.format(
        reason=halt.get("reason"), folder=folder, warned=warned, blocked=blocked,
        tool_calls=tool_calls,
    )  # fmt: skip
    return [_request(action, COLLAPSE_OPTIONS, description)]


def _request(action: dict[str, Any], options: dict[str, bool], description: str) -> dict:
    return {"action_request": action, "config": dict(options), "description": description}


def nudge_problem(nudge: str, window: int) -> str | None:
    """Why `nudge` cannot join a request to a model whose context window is `window` tokens,
    or None when it can."""
    limit, tokens = window // NUDGE_SHARE, estimate_tokens(nudge)
    if tokens > limit:
        return NUDGE_TOO_LONG.format(tokens=tokens, limit=limit, window=window)
    return None


def fitted_nudge(nudge: str, window: int) -> str:
    """`nudge` as valid text within the bound `nudge_problem` holds it to, its end cut with a
    note when over: for an answer that comes from no command line that could refuse it (Agent
    Inbox, a client of the server)."""
    text = valid_text(nudge)
    if nudge_problem(text, window) is None:
        return text
    note = NUDGE_CUT.format(limit=window // NUDGE_SHARE)
    room, end = window // NUDGE_SHARE - estimate_tokens(note), len(text)
    while end and estimate_tokens(text[:end]) > room:  # the estimate is about linear in length
        end = end * room // estimate_tokens(text[:end])
    return f"{text[:end].rstrip()} {note}"


def resume_answer(nudge: str | None, halt: dict[str, Any] | None) -> list[dict[str, Any]]:
    """How labscribe answers the halt it resumes, locally or on a server: Agent Inbox's
    HumanResponse. A nudge is a `response`; without one, the answer the halt's interrupt
    allows (SPEC section 4): `accept` sends an endpoint's failed request again, `ignore`
    drafts with what a collapsed exploration found."""
    if nudge:
        return [{"type": "response", "args": nudge}]
    return [{"type": "accept" if of_endpoint(halt) else "ignore", "args": None}]


@dataclass(frozen=True)
class HumanAnswer:
    nudge: str | None = None
    """A hint for the explorer, or None to continue without one."""
    draft: bool = False
    """Draft with what was found instead of exploring on (Agent Inbox's `ignore`)."""


def read_answer(answer: Any) -> HumanAnswer:
    """What a human's resume value asks for. Anything unrecognised continues without a nudge:
    a resume must never fail on the shape of its answer."""
    if isinstance(answer, list):
        answer = answer[0] if answer else None
    if isinstance(answer, str):
        return HumanAnswer(nudge=answer.strip() or None)
    if not isinstance(answer, dict):
        return HumanAnswer()
    if "type" in answer:  # a HumanResponse
        if answer["type"] == "ignore":
            return HumanAnswer(draft=True)
        text = answer.get("args") if answer["type"] == "response" else None
        return HumanAnswer(nudge=text.strip() or None if isinstance(text, str) else None)
    nudge = answer.get("nudge")
    return HumanAnswer(nudge=nudge.strip() or None if isinstance(nudge, str) else None)
