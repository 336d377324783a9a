"""A halt put to a human in LangGraph's HumanInterrupt shape, and every shape of answer."""

import warnings

import pytest
from pydantic import TypeAdapter

from labscribe.guards.human import (
    RETRY_ACTION,
    HumanAnswer,
    halt_request,
    read_answer,
    resume_answer,
)

with warnings.catch_warnings():  # the schema moved packages; its shape did not
    warnings.simplefilter("ignore")
    from langgraph.prebuilt.interrupt import HumanInterrupt

COLLAPSE = {
    "termination": "repeated_call",
    "kind": "collapse",
    "reason": "list_dir was called 5 times with identical arguments",
    "tool": "list_dir",
    "args": {"path": "."},
}
OUTAGE = {
    "termination": "unavailable",
    "kind": "infrastructure",
    "reason": "the endpoint is unavailable: 503",
    "tool": None,
    "args": None,
}
STRICT = TypeAdapter(list[HumanInterrupt], config={"extra": "forbid"})


def test_a_collapse_is_one_human_interrupt_with_the_halted_call_and_a_markdown_description():
    payload = halt_request(COLLAPSE, folder="/data/ada", warned=1, blocked=1, tool_calls=5)
    (request,) = STRICT.validate_python(payload)
    assert request["action_request"] == {"action": "list_dir", "args": {"path": "."}}
    assert request["config"] == {
        "allow_ignore": True, "allow_respond": True, "allow_edit": False, "allow_accept": False,
    }  # fmt: skip
    description = request["description"]
    assert description.startswith("## Exploration halted: list_dir was called 5 times")
    assert "`/data/ada`" in description and "warned 1, blocked 1; 5 tool calls" in description
    assert "**Respond**" in description and "**Ignore**" in description


def test_an_outage_asks_to_retry_with_or_without_a_hint_and_carries_its_halt_record():
    payload = halt_request(OUTAGE)
    (request,) = STRICT.validate_python(payload)
    assert request["action_request"]["action"] == RETRY_ACTION
    assert request["config"]["allow_accept"] is True
    assert request["config"]["allow_respond"] and not request["config"]["allow_ignore"]
    assert request["action_request"]["args"] == {
        key: OUTAGE[key] for key in ("termination", "kind", "reason")
    }


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ({"type": "response", "args": "read data/sweep.csv"}, HumanAnswer("read data/sweep.csv")),
        ([{"type": "response", "args": " look at the PDF "}], HumanAnswer("look at the PDF")),
        ({"type": "ignore", "args": None}, HumanAnswer(draft=True)),
        ([{"type": "ignore", "args": None}], HumanAnswer(draft=True)),
        ({"type": "accept", "args": None}, HumanAnswer()),
        ({"type": "edit", "args": {"action": "list_dir", "args": {}}}, HumanAnswer()),
        ({"type": "response", "args": {"not": "text"}}, HumanAnswer()),
        ({"type": "response", "args": "   "}, HumanAnswer()),
        ({"nudge": "finish now"}, HumanAnswer("finish now")),
        ({"nudge": None}, HumanAnswer()),
        ("finish now", HumanAnswer("finish now")),
        (None, HumanAnswer()),
        ([], HumanAnswer()),
        (42, HumanAnswer()),
    ],
)
def test_every_answer_shape_is_read_and_none_raises(answer, expected):
    assert read_answer(answer) == expected


@pytest.mark.parametrize(
    ("nudge", "halt", "expected"),
    [(None, COLLAPSE, ("ignore", HumanAnswer(draft=True))),
     (None, OUTAGE, ("accept", HumanAnswer())),
     ("read data/", COLLAPSE, ("response", HumanAnswer("read data/"))),
     ("read data/", OUTAGE, ("response", HumanAnswer("read data/")))],
)  # fmt: skip
def test_a_resume_answers_with_what_the_halt_allows(nudge, halt, expected):
    """SPEC section 4: without a nudge, a collapse drafts and an outage is sent again; each
    answer is one the halt's interrupt allows."""
    (answer,) = resume_answer(nudge, halt)
    (request,) = halt_request(halt)
    allowed = {"ignore": "allow_ignore", "accept": "allow_accept", "response": "allow_respond"}
    assert (answer["type"], read_answer([answer])) == expected
    assert request["config"][allowed[answer["type"]]] is True
