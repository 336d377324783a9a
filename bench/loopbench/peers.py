"""LoopBench trajectories translated from other agents' own test suites and issue trackers.

Every scenario here was read in the peer's repository (a test case, the rule it tests, or an
issue report) and re-expressed with labscribe's tools on the shared LoopBench folder. Each
trajectory says where it comes from (`source`: peer, ref, test) and what the peer's test
expects in its own terms (`peer_verdict`). `collapse_at` follows corpus.py's definition
only: the first model call that adds nothing the explorer has not already seen; it is never
taken from what a guard, labscribe's or a peer's, happens to do.

Built by corpus.py (`corpus()` appends `peer_trajectories()`); this module imports corpus.py's
helpers, so corpus.py imports it lazily.
"""

from __future__ import annotations

from typing import Any

from corpus import FILES, RUNS, call, calls, clean, collapse, look, read

GEMINI_TEST = "google-gemini/gemini-cli: packages/core/src/services/loopDetectionService.test.ts"
GEMINI_PROMPT = (
    "google-gemini/gemini-cli: packages/core/src/services/loopDetectionService.ts "
    "(LOOP_DETECTION_SYSTEM_PROMPT, the LLM check's rules)"
)
QWEN_TEST = "QwenLM/qwen-code: packages/core/src/services/loopDetectionService.test.ts"
OPENHANDS_TEST = "All-Hands-AI/OpenHands: tests/unit/test_is_stuck.py"
SDK_TEST = "OpenHands/software-agent-sdk: tests/cross/test_stuck_detector.py"
ROO_TEST = "RooCodeInc/Roo-Code: src/core/tools/__tests__/ToolRepetitionDetector.spec.ts"
CLINE_TEST = "cline/cline: src/core/task/__tests__/loop-detection.test.ts"
LANGCHAIN_TEST = (
    "langchain-ai/langchain: libs/langchain_v1/tests/unit_tests/agents/middleware/"
    "implementations/test_tool_call_limit.py"
)
GOOSE_TEST = "block/goose: crates/goose/tests/repetition_inspector_tests.rs"
CREWAI_TEST = "crewAIInc/crewAI: lib/crewai/tests/agents/test_loop_detector.py"

SWEEP = "data/sweep.csv"
WIDE = "data/wide.csv"
# One figure of the sweep, as a model would write it (the data folder is data/ in the
# sandbox, so data/sweep.csv is data/data/sweep.csv there).
FIGURE = (
    "import pandas as pd\n"
    "import matplotlib.pyplot as plt\n"
    "d = pd.read_csv('data/data/sweep.csv')\n"
    "plt.plot(d['frequency_Hz'], d['V_R'])\n"
    "plt.xlabel('frequency (Hz)')\n"
    "plt.ylabel('V_R (V)')\n"
)
LOAD = FIGURE[: FIGURE.index("plt.plot")]
# Six different mistakes, each failing with a different error, then the figure that works.
DEBUGGING = [
    "import matplotlib.pyplot as plt\nplt.plot(frequency, volts)\n",  # NameError
    LOAD + "plt.plot(d['freq'], d['V_R'])\n",  # KeyError: a column that does not exist
    LOAD + "plt.plot(d['frequency_Hz'], d['V_R'])\nplt.title(len(d['V_R'].max()))\n",  # TypeError
    LOAD.replace("data/data/", "data/") + "plt.plot(d['frequency_Hz'], d['V_R'])\n",  # not found
    LOAD + "plt.plot(d['frequency_Hz'], d['V_R'][:10])\n",  # ValueError: shapes differ
    "import scipy.signal\nimport matplotlib.pyplot as plt\nplt.plot([1, 2])\n",  # refused import
    FIGURE,
]
FAILING = "import matplotlib.pyplot as plt\nplt.plot(x, y)\n"  # NameError: x is not defined
STATUS = "state: running 0%\n"


def window_starts(path: str, limit: int, cap: int = 7000) -> list[int]:
    """The offsets a model paging through `path` by the windows read_file shows would use:
    each window holds at most `limit` lines and `cap` characters (newlines counted)."""
    lines = FILES[path].splitlines(keepends=True)
    starts, start = [], 0
    while start < len(lines):
        starts.append(start)
        end, size = start, 0
        while end < len(lines) and end - start < limit:
            if end > start and size + len(lines[end]) > cap:
                break
            size += len(lines[end])
            end += 1
        start = end
    return starts


def figure(code: str, name: str, **more: Any) -> dict[str, Any]:
    return calls(call("make_figure", code=code, name=name, **more))


def image(path: str) -> dict[str, Any]:
    return calls(call("read_image", path=path))


EMPTY: dict[str, Any] = {"content": ""}
"""A reply with neither text nor a tool call."""


def peer(item: dict[str, Any], name: str, ref: str, test: str, verdict: str) -> dict[str, Any]:
    return item | {"source": {"peer": name, "ref": ref, "test": test}, "peer_verdict": verdict}


def peer_trajectories() -> list[dict[str, Any]]:
    return [
        *path_spellings(),
        *results_ignored(),
        *cache_and_progress(),
        *failures(),
        *empty_replies(),
        *classics(),
    ]


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
