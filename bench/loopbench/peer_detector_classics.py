"""Peers' scenarios for the classic stuck detectors: the same failure again and again,
empty replies, exact repeats and cycles, and call limits, each from a peer's own test.

Kept apart from the disguised repeats (peer_disguised_repeats.py): here the calls are
plainly the same or plainly different, and what is tested is when a rule fires (see
peers.py for how every trajectory was translated).
"""

from __future__ import annotations

from typing import Any

from corpus import RUNS, call, calls, clean, collapse, look, read
from peer_kit import (
    CLINE_TEST,
    CREWAI_TEST,
    DEBUGGING,
    EMPTY,
    FAILING,
    FIGURE,
    GEMINI_PROMPT,
    GEMINI_TEST,
    GOOSE_TEST,
    LANGCHAIN_TEST,
    OPENHANDS_TEST,
    QWEN_TEST,
    ROO_TEST,
    SDK_TEST,
    SWEEP,
    WIDE,
    figure,
    image,
    peer,
)


def failures() -> list[dict[str, Any]]:
    return [
        peer(
            clean("figure-debugging", "debugging",
                  [read(SWEEP, limit=5), *(figure(code, "resonance") for code in DEBUGGING)]),
            "gemini-cli", GEMINI_PROMPT,
            "Retry with variation / different errors are debugging progress",
            "not a loop: modifying the code and getting different errors is debugging "
            "progress",
        ),
        peer(
            collapse("missing-folders-every-call", "same error, varying arguments", [look()],
                     [look("server/systems-{n}")], at=3),
            "qwen-code", QWEN_TEST,
            "should detect action stagnation when the same tool is repeated with varying args",
            "action_stagnation on the 8th consecutive call of one tool, whatever its arguments "
            "(opt-in heuristics)",
        ),
        peer(
            collapse("cycling-listfiles", "exact repetition", [look()], [look("server/systems")],
                     at=3),
            "qwen-code", "https://github.com/QwenLM/qwen-code/issues/2661", "Cycling ListFiles",
            "not stopped: the same failing ListFiles (ENOENT) repeated about 700 times overnight "
            "until the quota was exceeded",
        ),
        peer(
            collapse("not-an-image-again", "exact repetition", [look()],
                     [image(SWEEP)], at=3),
            "OpenHands SDK", SDK_TEST, "test_repeating_action_error_nudges_before_stuck",
            "the 3rd identical action with an error gets a nudge, the 4th is stuck",
        ),
        peer(
            collapse("not-an-image-anywhere", "same error, varying arguments", [look()],
                     [image(path) for path in ["notes.md", "params.ini", SWEEP, *RUNS]], at=3),
            "qwen-code", "https://github.com/QwenLM/qwen-code/issues/10887",
            "No early termination on repeated tool errors: sessions burn 5-14M tokens in "
            "dead-end loops",
            "nothing terminated the loop (49 to 138 rounds); the issue asks for a stop after 3 "
            "to 5 consecutive errors of the same class",
        ),
    ]  # fmt: skip


def empty_replies() -> list[dict[str, Any]]:
    return [
        peer(
            collapse("empty-replies-after-work", "empty replies",
                     [look(), read("notes.md")], [EMPTY], at=3),
            "OpenHands SDK", SDK_TEST, "test_agent_monologue_stuck",
            "stuck after 3 consecutive agent messages with no action and no user input",
        ),
        peer(
            collapse("nothing-to-review", "empty replies", [look()] * 3, [EMPTY], at=2),
            "gemini-cli", "https://github.com/google-gemini/gemini-cli/issues/14892",
            "Infinite loop when reviewing when there's nothing to review",
            "not stopped: git status ran in an infinite loop, then the model apologized in an "
            "infinite loop; the user had to interrupt",
        ),
        peer(
            clean("one-empty-reply-then-work", "empty replies",
                  [look(), EMPTY, read("notes.md"), read("params.ini"), read(SWEEP, limit=20)]),
            "OpenHands", OPENHANDS_TEST, "test_is_stuck_monologue",
            "not stuck once an observation comes between the agent's messages",
        ),
    ]  # fmt: skip


def classics() -> list[dict[str, Any]]:
    orders = [{"path": SWEEP, "offset": 100, "limit": 50},
              {"limit": 50, "path": SWEEP, "offset": 100},
              {"offset": 100, "limit": 50, "path": SWEEP}]  # fmt: skip
    pages = [read("data/big.log", offset=200 * k, limit=200) for k in range(8)]
    bundles = [RUNS[i:i + 2] for i in range(0, 12, 2)] + [
        ["notes.md", "params.ini"], ["data/sweep_fit.csv", "data/sweep_raw.csv"],
        ["data/sweep_2.csv", WIDE], ["status.log", SWEEP]]  # fmt: skip
    triples = [RUNS[i:i + 3] for i in range(0, 12, 3)] + [
        ["notes.md", "params.ini", WIDE], ["data/sweep_fit.csv", "data/sweep_raw.csv",
                                           "data/sweep_2.csv"]]  # fmt: skip
    page_calls = [call("read_file", path="data/big.log", offset=400 * k) for k in range(6)]
    return [
        peer(
            collapse("five-identical-reads", "exact repetition", [], [read("data/run_03.csv")],
                     at=2),
            "gemini-cli", GEMINI_TEST,
            "should detect a loop on the TOOL_CALL_LOOP_THRESHOLD-th identical call",
            "loop detected on the 5th identical call in a row (TOOL_CALL_LOOP_THRESHOLD = 5); "
            "4 are not a loop",
        ),
        peer(
            collapse("three-calls-round-robin", "A-B-C cycle", [],
                     [read("notes.md"), read("params.ini"), look("data")], at=4),
            "gemini-cli", GEMINI_TEST, "should not detect a loop for different tool calls",
            "no loop after 3 rounds of 3 different calls: no call repeats back to back",
        ),
        peer(
            collapse("keys-reordered-page", "keys reordered", [look()],
                     [calls(["read_file", args]) for args in orders], at=3),
            "Roo-Code", ROO_TEST,
            "should treat tools with same parameters in different order as identical",
            "blocked on the 3rd call with limit 2 (parameters are sorted before comparing); "
            "with the default limit of 3 the 4th consecutive identical call is refused",
        ),
        peer(
            collapse("list-and-read-alternating", "A-B cycle", [],
                     [look("data"), read("data/run_01.csv")], at=3),
            "OpenHands", OPENHANDS_TEST, "test_is_stuck_repeating_action_observation_pattern",
            "stuck: 'Action, Observation pattern detected' after 3 rounds of the same two "
            "actions with the same observations (6 steps)",
        ),
        peer(
            clean("alternating-with-new-arguments", "paging",
                  [r for k, path in enumerate(RUNS[:6])
                   for r in (read(path), read("data/big.log", offset=200 * k))]),
            "qwen-code", QWEN_TEST, "should not fire when calls alternate but with varying keys",
            "no alternating_tool_call_pattern: the two tools alternate but their keys change "
            "every call",
        ),
        peer(
            collapse("reset-by-another-call", "exact repetition", [],
                     [read("params.ini")] * 3 + [look("data")], at=2),
            "Roo-Code", ROO_TEST, "should require reaching the limit again after reset",
            "never refused: a different call resets the consecutive count before it reaches the "
            "limit (3 by default)",
        ),
        peer(
            collapse("repeats-with-others-between", "exact repetition",
                     [read("notes.md"), look()], [read("notes.md")], at=3),
            "crewAI", CREWAI_TEST, "test_loop_with_mixed_calls",
            "loop detected once the same call is seen 3 times in the last 5 calls, other calls "
            "between them (window_size=5, repetition_threshold=3; on_loop='inject_reflection' "
            "by default)",
        ),
        peer(
            collapse("pairs-of-repeats", "exact repetition", [],
                     [read("data/run_05.csv")] * 3 + [read("data/run_06.csv")] * 3, at=2),
            "goose", GOOSE_TEST,
            "test_repetition_inspector_denies_after_exceeding_and_resets_on_param_change",
            "the 3rd consecutive identical call is denied with max_repetitions=2, and new "
            "parameters reset the count",
        ),
        peer(
            collapse("progress-note-varies", "non-semantic field varies", [pages[0]],
                     [read("data/big.log", offset=200, task_progress="step {n} of 5")], at=3),
            "cline", CLINE_TEST, "should warn at 3 identical calls and escalate at 5",
            "soft warning on the 3rd identical call, hard escalation on the 5th; task_progress "
            "is left out of the comparison",
        ),
        peer(
            collapse("photo-read-again", "exact repetition", [look()], [image("plot.png")], at=3),
            "crewAI", CREWAI_TEST, "test_loop_at_threshold",
            "loop detected on the 3rd identical call (repetition_threshold=3)",
        ),
        peer(
            collapse("same-failing-figure", "exact repetition", [read(SWEEP, limit=5)],
                     [figure(FAILING, "fit")], at=3),
            "OpenHands", OPENHANDS_TEST, "test_is_stuck_invalid_syntax_error",
            "stuck: the same code fails with the same error 4 times",
        ),
        peer(
            clean("twenty-calls-at-the-limit", "many distinct calls",
                  [calls(*(call("read_file", path=path) for path in pair)) for pair in bundles]),
            "LangChain", LANGCHAIN_TEST, "test_limit_reached_but_not_exceeded",
            "not triggered: a limit is only exceeded when the count goes past it (20 of 20 is "
            "reached, not exceeded)",
        ),
        peer(
            clean("twenty-four-calls-over-the-limit", "many distinct calls",
                  [calls(*(call("read_file", path=path) for path in trio)) for trio in triples]
                  + [calls(*page_calls[:3]), calls(*page_calls[3:])]),
            "LangChain", LANGCHAIN_TEST, "test_end_behavior_creates_artificial_messages",
            "with exit_behavior='end' the call that exceeds the limit gets an error ToolMessage "
            "and the agent jumps to its end with an AI message naming the limit (here the 21st "
            "of 24 tool calls, with run_limit=20)",
        ),
        peer(
            clean("reads-after-a-figure", "wandering",
                  [look("data"), read(SWEEP, limit=20), figure(FIGURE, "resonance"),
                   *map(read, RUNS[:8]), image("plot.png"), read("notes.md")]),
            "qwen-code", QWEN_TEST, "should detect excessive file read operations",
            "read_file_loop on the 8th read-like call of a 15-call window once a non-read tool "
            "has run (opt-in heuristics)",
        ),
    ]  # fmt: skip
