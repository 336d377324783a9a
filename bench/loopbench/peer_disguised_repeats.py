"""Peers' scenarios where sameness is in disguise: one call spelled many ways, calls whose
new arguments change nothing the explorer sees, and the opposite, calls that look repeated
but read a file that changed or come back after other work.

Together because they all decide what counts as the same call, where the peers' detectors
differ most (see peers.py for how every trajectory was translated).
"""

from __future__ import annotations

from typing import Any

from corpus import RUNS, call, calls, clean, collapse, look, read
from peer_kit import (
    CLINE_TEST,
    FAILING,
    FIGURE,
    GEMINI_PROMPT,
    LANGCHAIN_TEST,
    OPENHANDS_TEST,
    QWEN_TEST,
    ROO_TEST,
    STATUS,
    SWEEP,
    WIDE,
    figure,
    peer,
    window_starts,
)


def path_spellings() -> list[dict[str, Any]]:
    status = look(".", description="Git status summary")
    spellings = ["./data/sweep.csv", "data//sweep.csv", "data/./sweep.csv", "data/sweep.csv  ",
                 "data/../data/sweep.csv", SWEEP]  # fmt: skip
    return [
        peer(
            collapse("one-file-many-spellings", "path spellings",
                     [look("data"), read(SWEEP)], [read(path) for path in spellings], at=3),
            "gemini-cli", "https://github.com/google-gemini/gemini-cli/issues/8259",
            "Agent stuck in loop trying to read a file",
            "the issue's identical ReadFile calls were halted ('A potential loop was detected'); "
            "the rule keys calls on the raw JSON of their arguments (5 identical in a row), so "
            "each spelling of the path is a new call and no loop is detected",
        ),
        peer(
            collapse("one-folder-many-spellings", "path spellings", [],
                     [look("."), look("./"), look(""), look("data/..")], at=2),
            "qwen-code", QWEN_TEST,
            "halts repeated git inspection command variants via the always-on guard",
            "shell_command_stagnation on the 8th consecutive overview-inspection variant "
            "(git status --short, git -C . status --short, git --no-pager diff --stat, ...); "
            "the exact-call guard sees 8 different calls",
        ),
        peer(
            collapse("git-status-summary", "exact repetition", [status], [status], at=2),
            "qwen-code", "https://github.com/QwenLM/qwen-code/issues/4695",
            "Tool-call loop: deepseek-v4-pro collapses into repeated identical tool_call inside "
            "its working context window, no client-side circuit breaker",
            "no loop detected: from the second round on every reply shipped the same "
            "`git status --short` call and qwen-code kept executing it until the user pressed "
            "ESC (no client-side circuit breaker in v0.17.0)",
        ),
        peer(
            collapse("parallel-spellings", "path spellings", [],
                     [calls(call("read_file", path=SWEEP, limit=50),
                            call("read_file", path="./data/sweep.csv", limit=50),
                            call("read_file", path="data//sweep.csv", limit=50))], at=1),
            "LangChain", LANGCHAIN_TEST, "test_thread_count_excludes_blocked_run_calls",
            "with run_limit=1, 1 of 3 parallel calls runs and the other 2 get an error "
            "ToolMessage; the count ignores the arguments, so any 3 calls count the same",
        ),
        peer(
            clean("files-sharing-a-prefix", "path spellings",
                  [look("data"), read(SWEEP, limit=20), read("data/sweep_fit.csv"),
                   read("data/sweep_raw.csv"), read("data/sweep_2.csv")]),
            "qwen-code", QWEN_TEST, "does not halt file-specific git diff review commands",
            "no loop: git diff -- src/a.ts ... src/f.ts are different targets, not one "
            "inspection repeated",
        ),
    ]  # fmt: skip


def results_ignored() -> list[dict[str, Any]]:
    limits = [80, 160, 320, 640, 1280, 2000]
    return [
        peer(
            collapse("limit-grows-window-stays", "result ignored",
                     [look("data"), read(WIDE, limit=40)],
                     [read(WIDE, limit=limit) for limit in limits], at=3),
            "gemini-cli", GEMINI_PROMPT,
            "Semantic repetition with identical outcomes (same file, same line range, same "
            "content)",
            "the heuristic sees a new argument hash on every call (no loop); the LLM check, from "
            "the 30th turn, is told to flag semantically equivalent arguments with the same "
            "outcome",
        ),
        peer(
            collapse("window-shifted-by-one", "result ignored", [read("data/big.log")],
                     [read("data/big.log", offset=k) for k in range(1, 60)], at=2),
            "gemini-cli", GEMINI_PROMPT,
            "Argument analysis: different line ranges indicate distinct work",
            "no loop: every call has other arguments, and the LLM check's rules count a "
            "different line range as distinct work",
        ),
        peer(
            collapse("poll-rewritten-identically", "result ignored",
                     [look(), read("status.log")], [read("status.log")], at=3)
            | {"changes": {str(k): {"status.log": STATUS} for k in range(3, 61)}},
            "qwen-code", QWEN_TEST, "still halts at the threshold when every result is unchanged",
            "consecutive_identical_tool_calls on the 5th identical poll: the unchanged results "
            "corroborate the loop",
        ),
        peer(
            collapse("figure-redrawn-new-name", "result ignored",
                     [read(SWEEP, limit=5), figure(FIGURE, "resonance")],
                     [figure(FIGURE, "resonance_{n}")], at=3),
            "gemini-cli", GEMINI_PROMPT,
            "Semantic repetition with identical outcomes",
            "the heuristic sees a new name, so a new call, every time (no loop); the LLM check "
            "is asked to flag the same tool with semantically equivalent arguments",
        ),
        peer(
            collapse("figure-comment-changed", "result ignored",
                     [read(SWEEP, limit=5), figure(FIGURE, "resonance")],
                     [figure(FIGURE + "# attempt {n}\n", "resonance")], at=3),
            "cline", CLINE_TEST, "should strip task_progress from comparison",
            "a field that changes without changing the call (task_progress) is left out: soft "
            "warning on the 3rd identical call, hard escalation on the 5th; a comment in the "
            "code is no such field, so each call is new to the rule",
        ),
        peer(
            collapse("failing-figure-shifted-lines", "result ignored", [],
                     [figure("\n" * k + FAILING, "fit") for k in range(1, 40)], at=2),
            "OpenHands", OPENHANDS_TEST, "test_is_not_stuck_invalid_syntax_error_random_lines",
            "not stuck: the same code fails at a different line each time, so the errors differ",
        ),
        peer(
            collapse("poll-oscillating", "result ignored", [read("status.log")],
                     [read("status.log")], at=3)
            | {"changes": {str(k): {"status.log": ("state: waiting\n" if k % 2 == 0 else STATUS)}
                           for k in range(2, 61)}},
            "qwen-code", QWEN_TEST,
            "does not halt a board oscillating between two states (order-aware pair counts)",
            "no loop: every result differs from the one before it, so the count restarts",
        ),
        peer(
            clean("paging-by-the-window", "paging",
                  [read(WIDE, offset=offset, limit=40) for offset in window_starts(WIDE, 40)[:6]]),
            "gemini-cli", GEMINI_PROMPT,
            "Sequential processing: a series of read operations on different paths or ranges",
            "not an unproductive state: each read covers new lines",
        ),
        peer(
            clean("overlapping-windows", "paging",
                  [read("data/big.log", offset=150 * k) for k in range(11)]),
            "gemini-cli", GEMINI_PROMPT,
            "Incremental work: calls that target different line ranges",
            "not a loop: windows overlap by 50 lines of 200, so each shows 150 new ones",
        ),
        peer(
            clean("poll-board-keeps-changing", "poll whose result changes",
                  [read("status.log")] * 8,
                  changes={str(k): {"status.log": f"state: running {12 * k}% (task {k})\n"}
                           for k in range(2, 9)}),
            "qwen-code", QWEN_TEST,
            "does not halt while the task board keeps changing between identical calls",
            "no loop, well past the 5-call threshold: every identical poll returned a changed "
            "board (issue #9450)",
        ),
    ]  # fmt: skip


def cache_and_progress() -> list[dict[str, Any]]:
    grown = "frequency_Hz,V_R\n" + "".join(f"{1000 + 20 * i},{0.01 * i:.2f}\n" for i in range(400))
    log = "".join(f"{n:05d} sample {n * 7 % 1000} mV\n" for n in range(3000))
    notes = read("notes.md")
    every_step = [r for path in RUNS for r in (read(path), notes)]
    frozen = [r for path in RUNS for r in (read(path), read("status.log"))]
    spread = [notes, look("data"), *map(read, RUNS[:3]), notes, *map(read, RUNS[3:6]), notes,
              *map(read, RUNS[6:9]), notes, *map(read, RUNS[9:]), notes]  # fmt: skip
    return [
        peer(
            clean("listing-after-a-file-grew", "re-read after the file changed",
                  [look("data"), read(SWEEP, offset=280, limit=40), look("data"),
                   read(SWEEP, offset=300, limit=100)],
                  changes={"3": {SWEEP: grown}}),
            "qwen-code", QWEN_TEST,
            "does not change behavior for deterministic (non-stateful) tools",
            "for read tools qwen-code ignores results: identical arguments still count as the "
            "same call (the 5th halts) even when the content changed in between; here the two "
            "listings are not even consecutive, so no rule fires",
        ),
        peer(
            clean("listing-polled-while-log-grows", "re-read after the file changed",
                  [look("data")] * 4 + [read("data/big.log", offset=3000)],
                  changes={str(k): {"data/big.log": log + "".join(
                      f"{n:05d} sample {n * 7 % 1000} mV\n" for n in range(3000, 3000 + 50 * k))}
                      for k in range(2, 5)}),
            "gemini-cli", GEMINI_PROMPT,
            "build/test commands re-run after changes between invocations",
            "not an unproductive state: re-running a check after the state changed is normal "
            "workflow",
        ),
        peer(
            clean("notes-looked-up-now-and-then", "re-read between steps", spread),
            "qwen-code", QWEN_TEST,
            "should not detect a loop when an earlier thought reappears after progress",
            "no loop: only a sustained consecutive run trips the detector, not a step revisited "
            "after progress (and 5 reads of one file stay under the 6 of the global duplicate)",
        ),
        peer(
            collapse("notes-after-every-step", "re-read between steps", [notes], every_step, at=3),
            "qwen-code", QWEN_TEST,
            "should fire when same (tool, args) appears threshold times non-consecutively",
            "global_tool_call_duplicate on the 6th identical call, interleaved with other calls "
            "(opt-in heuristics)",
        ),
        peer(
            collapse("frozen-status-between-steps", "re-read between steps",
                     [read("status.log")], frozen, at=3),
            "qwen-code", QWEN_TEST,
            "halts an interleaved frozen poller just past the adaptive soft cap",
            "turn_tool_call_cap just past the soft cap (20 in the test): the frozen results "
            "arm the stuck signal while the interleaved calls vary",
        ),
        peer(
            clean("look-back-after-another-call", "re-read between steps",
                  [notes, look(), notes, read("params.ini"), read(SWEEP, limit=20)]),
            "Roo-Code", ROO_TEST, "should reset the counter when different tool calls are made",
            "allowed: a different call resets the consecutive count, so the same call again is "
            "not a repetition",
        ),
    ]  # fmt: skip
