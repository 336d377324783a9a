"""Peers' scenarios of failures: kinds that take turns, guessed names, one file spelled by
case, costly repeats, and, on the other side, debugging and polling that make progress.

From agents LoopBench had not read before (SWE-agent, OpenClaw, smolagents, aider, stella,
codegraff, Kilo Code, atomic-agents, amd/gaia, hermes-agent, Claude Code, opencode, GitHub's
app, cindy, prflow, OpenMonoAgent), each from its own test or issue. What makes a collapse
here (corpus.py): a failure whose error, its paths and numbers aside, was already met in
the attempt adds nothing, whatever came between; an error that changes is progress.
"""

from __future__ import annotations

from typing import Any

from corpus import call, calls, clean, collapse, look, read
from peer_kit import FIGURE, LOAD, SWEEP, figure, image, peer

SWE_AGENT_TEST = "SWE-agent/SWE-agent: tests/test_agent.py"
OPENCLAW_TEST = "openclaw/openclaw: src/agents/tool-loop-detection.test.ts"
STELLA_TEST = "macanderson/stella: stella-core/src/loop_detect.rs"
SMOLAGENTS_TEST = "huggingface/smolagents: tests/test_agents.py"


def failures_taking_turns() -> list[dict[str, Any]]:
    return [
        peer(
            collapse("bad-call-and-outside-path-take-turns", "failures taking turns", [look()],
                     [calls(call("read_file", file="notes.md")),
                      read("../../etc/passwd-{n}")], at=4),
            "SWE-agent", SWE_AGENT_TEST, "test_exit_format, test_exit_blocklist "
            "(sweagent/agent/agents.py forward_with_handling: format, blocklist and bash "
            "syntax errors share n_format_fails)",
            "exit_format once format, blocked and syntax errors together reach max_requeries",
        ),
        peer(
            collapse("read-errors-of-three-kinds-in-rotation", "failures taking turns",
                     [look()],
                     [read("data"), read("data/sweep-{n}.xlsx"), image("data/run_0{n}.csv")],
                     at=5),
            "hermes-agent", "https://github.com/Lexus2016/hermes-agent-evolution/issues/1488",
            "disambiguate read_file/read_file_raw error classes",
            "the agent blind-retried up to 20 times in a row; the fix only tells the causes "
            "apart in the message",
        ),
        peer(
            collapse("unknown-tool-with-new-arguments", "failures taking turns", [look()],
                     [calls(call("exec", command="ls data/run_{n}"))], at=3),
            "OpenClaw", OPENCLAW_TEST,
            "blocks repeated unknown-tool failures even when the args keep changing",
            "unknown_tool_repeat at level critical (blocked); none below the threshold",
        ),
        peer(
            collapse("same-parsing-error-every-step", "failures taking turns", [look()],
                     [calls(call("read_file", path=SWEEP, offset="line {n}"))], at=3),
            "smolagents", f"{SMOLAGENTS_TEST}; https://github.com/huggingface/smolagents/"
            "issues/1896", "test_fails_max_steps; CodeAgent outputs empty steps",
            "runs to max_steps, then AgentMaxStepsError",
        ),
        peer(
            collapse("grep-for-a-deleted-file-in-two-places", "failures taking turns",
                     [look()], [read("data/sweep_old.csv"), look("data/archive")], at=3),
            "Claude Code in cindy", "https://github.com/makecindy/cindy/issues/2721",
            "Claude Code session stuck in a repeated tool-call loop: about 50 minutes, 141 "
            "repeated searches",
            "not stopped: a human stepped in after 141 searches; the 45-minute watchdog never "
            "fired",
        ),
    ]  # fmt: skip


def guessed_names() -> list[dict[str, Any]]:
    return [
        peer(
            collapse("numbered-file-names-guessed", "same error, varying arguments", [look()],
                     [read("docs/adr/03{n}-sweep-decision.md")], at=3),
            "codegraff", "https://github.com/justrach/codegraff/issues/1116",
            "read_file miss storm: guessed sequential paths are not stopped",
            "dozens of misses in one turn; the fix refuses guesses after three not-found "
            "reads under one prefix",
        ),
        peer(
            collapse("bare-folder-names-listed", "same error, varying arguments", [look()],
                     [look(name) for name in
                      ["Users", "Windows", "ProgramData", "Recovery", "temp", "totalcmd"]],
                     at=3),
            "atomic-agents", "https://github.com/Eigenwise/atomic-agents/issues/81",
            "Unnecessary barriers that make Atomic-agents harder to understand",
            "every bare name failed with WinError 3; the run gave up reporting errors",
        ),
        peer(
            collapse("invented-absolute-paths", "same error, varying arguments", [look()],
                     [look("/workspace/org-{n}/sessions"),
                      read("/workspace/org-{n}/sessions/notes.md")], at=3),
            "Kilo Code", "https://github.com/Kilo-Org/cloud/pull/5114",
            "fix(code-reviews): keep sandbox paths correct and validated",
            "29 to 44 permission denials per review before a prompt rule forbade guessed paths",
        ),
        peer(
            collapse("a-folder-read-as-a-file-four-times", "exact repetition", [look()],
                     [read("data")], at=3),
            "amd/gaia", "https://github.com/amd/gaia/issues/3890",
            "read_file on a directory returns a raw Errno 21 the agent can't act on",
            "four identical calls, until the loop guard ended the task as a failure",
        ),
    ]  # fmt: skip


def spellings_and_costly_repeats() -> list[dict[str, Any]]:
    return [
        peer(
            collapse("one-file-by-letter-case", "path spellings", [look(), read("notes.md")],
                     [read("Notes.md"), read("./NOTES.md"), read("notes.MD")], at=3),
            "Claude Code", "https://github.com/anthropics/claude-code/issues/59362",
            "Read/Edit tracker is case-sensitive on Windows; drive-letter casing mismatch",
            "confirmed bug: the file must be read again under the other spelling",
        ),
        peer(
            collapse("one-file-by-separator-and-case", "path spellings",
                     [look(), read(SWEEP)],
                     [read("data\\sweep.csv"), read("./DATA/sweep.csv"), read("data/Sweep.csv")],
                     at=3),
            "opencode", "https://github.com/anomalyco/opencode/issues/20354",
            "Windows: FileTime read-gate path normalization mismatch",
            "fixed by normalizing every path to one canonical key",
        ),
        peer(
            collapse("suite-rerun-on-an-unchanged-tree", "non-semantic field varies",
                     [look(), figure(FIGURE, "resonance")],
                     [figure(FIGURE, "resonance-{n}")], at=3),
            "prflow", "https://github.com/The01Geek/prflow/issues/1923",
            "Test-suite executions consume 40% of a cloud implement run's wall clock",
            "three full-suite runs on a tree unchanged since the last one; filed as defects",
        ),
        peer(
            collapse("read-failing-edit-failing-test", "A-B-C cycle", [],
                     [read(SWEEP, limit=5), figure(LOAD + "plt.plot(d['f'], d['V'])\n", "try"),
                      look("data")], at=4),
            "stella", STELLA_TEST, "period_three_cycle_with_identical_outputs_is_detected",
            "ShortCycle { repeats: 3 } on read_file, edit_file, bash",
        ),
    ]  # fmt: skip


def progress_that_looks_alike() -> list[dict[str, Any]]:
    status = {str(n): {"status.log": f"state: running {10 * n}%\n"} for n in range(2, 8)}
    return [
        peer(
            clean("each-retry-hits-a-new-error", "debugging",
                  [read(SWEEP, limit=5),
                   figure(LOAD.replace("data/data/", "data/") + "plt.plot([1])\n", "bench"),
                   figure(LOAD + "plt.plot(d['frequency'], d['V_R'])\n", "bench"),
                   figure(LOAD + "plt.plot(d['frequency_Hz'], d['V_R'][:3])\n", "bench"),
                   figure(FIGURE, "bench")]),
            "opencode", "https://github.com/anomalyco/opencode/issues/44663",
            "Debugging-loop-hint false positive: fires even when each consecutive failure has a "
            "different root cause",
            "a false positive: each failure was progress, the error line changed",
        ),
        peer(
            clean("one-format-error-then-recovery", "debugging",
                  [calls(call("read_file", file=SWEEP)), look(), read(SWEEP, limit=5),
                   read("notes.md")]),
            "SWE-agent", SWE_AGENT_TEST, "test_run_step_by_step_checking_history",
            "one requery for the format error, then the run goes on",
        ),
        peer(
            clean("identical-poll-with-changing-output", "poll whose result changes", [look()]
                  + [read("status.log")] * 6, changes=status),
            "stella", STELLA_TEST, "identical_input_with_changing_output_is_not_a_loop",
            "NoLoop: identical input with changing output is legitimate work",
        ),
        peer(
            clean("status-checked-while-a-job-runs", "poll whose result changes",
                  [look(), read("notes.md"), read("status.log"), read("status.log"),
                   read("status.log")],
                  changes={"4": {"status.log": "state: running 40%\n"},
                           "5": {"status.log": "state: done 100%\n"}}),
            "OpenMonoAgent", "https://github.com/StartupHakk/OpenMonoAgent.ai/issues/47",
            "Doom loop detector triggers false positives on intentional polling patterns",
            "not a doom loop: an intentional, expected pattern",
        ),
    ]  # fmt: skip
