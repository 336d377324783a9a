"""Loop rules other agents publish, replayed as policies over LoopBench's minimal agent loop.

policies.replay() asks a `Rules` object before every tool call (`before`), after it
(`after`), and about every reply that carries no tool call (`message`); the answer is
allow, warn (the call runs, with a note), block (the call is refused) or stop. Each class
names the source it follows and the thresholds read there.
"""

from __future__ import annotations

import json
from collections import deque
from dataclasses import dataclass
from typing import Any, Literal

from labscribe.guards.detectors import repeated_cycle


@dataclass
class Step:
    tool: str
    args: Any
    key: str
    """The call's identity for the rules that compare calls with their results: the tool and
    its arguments in sorted-key JSON (`sorted_json`), plus the size and mtime of the file or
    folder a read names."""
    result: str
    ok: bool
    stamp: str | None


Verdict = tuple[Literal["allow", "warn", "block", "stop"], str]


class Rules:
    """A policy over the calls so far: before and after each call, allow, warn, block or stop."""

    name: str
    history: str
    """Whether a stopped run keeps its history, resumable."""

    def before(self, tool: str, args: Any, key: str) -> Verdict:
        return "allow", ""

    def after(self, step: Step) -> Verdict:
        return "allow", ""

    def message(self, text: str) -> Verdict:
        """A reply with no tool call that the loop answers instead of ending (an empty one)."""
        return "allow", ""


def sorted_json(tool: str, args: Any) -> str:
    """The tool name and its arguments as JSON with keys sorted at every depth, results and
    file state left out: how the peers below key a call."""
    return tool + "|" + json.dumps(args, sort_keys=True, default=repr)


class NaiveCap(Rules):
    name = "naive loop, iteration cap 20"
    history = "no: in memory"


class GeminiCli(Rules):
    """gemini-cli's LoopDetectionService (packages/core/src/services/loopDetectionService.ts):
    the same tool call (name + arguments hash) 5 times in a row stops the turn
    (TOOL_CALL_LOOP_THRESHOLD = 5). Its content-chanting and LLM checks do not apply: replies
    here carry no text, and the LLM check starts at turn 30."""

    name = "gemini-cli: 5 identical calls in a row"
    history = "no: the turn ends"

    def __init__(self) -> None:
        self.last, self.run = "", 0

    def after(self, step: Step) -> Verdict:
        self.run = self.run + 1 if step.key == self.last else 1
        self.last = step.key
        return ("stop", "loop") if self.run >= 5 else ("allow", "")


class OpenHands(Rules):
    """OpenHands' StuckDetector (openhands/controller/stuck.py; the SDK's
    openhands/sdk/conversation/stuck_detector.py has the same scenarios): the same action and
    observation 4 times, the same action with an error 3 times, two actions alternating with
    their observations for 6 steps, or a monologue: 3 agent messages in a row with no action
    between them (headless, user messages do not count, so the loop's nudges do not either)."""

    name = "OpenHands: 4 same action+result / 3 same error / 6-step alternation / monologue"
    history = "yes: the conversation is kept"

    def __init__(self) -> None:
        self.steps: deque[Step] = deque(maxlen=6)
        self.silent = 0

    def after(self, step: Step) -> Verdict:
        self.silent = 0
        self.steps.append(step)
        pairs = [(s.key, s.result) for s in self.steps]
        if len(pairs) >= 4 and len(set(pairs[-4:])) == 1:
            return "stop", "same action and observation 4 times"
        last3 = list(self.steps)[-3:]
        if len(last3) == 3 and len({s.key for s in last3}) == 1 and not any(s.ok for s in last3):
            return "stop", "same action, error 3 times"
        alternating = pairs[0::2].count(pairs[0]) == 3 and pairs[1::2].count(pairs[1]) == 3
        if len(pairs) == 6 and alternating and pairs[0] != pairs[1]:
            return "stop", "alternating for 6 steps"
        return "allow", ""

    def message(self, text: str) -> Verdict:
        self.silent += 1
        return ("stop", "monologue") if self.silent >= 3 else ("allow", "")


class DesignNotes(Rules):
    """The design notes labscribe started from (a production writing agent): the same
    fingerprint (tool + sorted-key JSON) over the whole run warns on the 3rd call, once, and
    stops on the 5th."""

    name = "design notes: 3 warn / 5 stop"
    history = "no: drafts from what it has"

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}
        self.nudged = False

    def after(self, step: Step) -> Verdict:
        count = self.counts[step.key] = self.counts.get(step.key, 0) + 1
        if count >= 5:
            return "stop", "5 identical calls"
        if count >= 3 and not self.nudged:
            self.nudged = True
            return "warn", "[nudge] You are repeating the same call; finish with what you have."
        return "allow", ""


class LabscribeBefore(Rules):
    """labscribe's guards before LoopBench (issue 6): the ladder 3 warn / 4 block / 5 halt on
    the raw fingerprint plus the read target's size and mtime, and the failure streak
    (nudge at 3, halt at 5). Replayed here; the real graph runs as `labscribe`."""

    name = "labscribe before LoopBench (replayed)"
    history = "yes: checkpointed, resumable"

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}
        self.nudged = False
        self.streak = 0

    def before(self, tool: str, args: Any, key: str) -> Verdict:
        count = self.counts[key] = self.counts.get(key, 0) + 1
        if count >= 5:
            return "stop", "5 identical calls"
        if count == 4:
            return "block", "Not executed: already called 3 times."
        if count == 3 and not self.nudged:
            self.nudged = True
            return "warn", "[labscribe] You have now called this 3 times."
        return "allow", ""

    def after(self, step: Step) -> Verdict:
        self.streak = 0 if step.ok else self.streak + 1
        return ("stop", "5 failures in a row") if self.streak >= 5 else ("allow", "")


class LabscribeBeforeMeaning(Rules):
    """labscribe's guards before call identity by meaning (commit dfff476, issue 7): calls
    keyed on their validated arguments (defaults filled in, unknown fields and a figure's
    caption dropped) plus a read target's size and mtime, the ladder (read-only 3 warn /
    4 block / 5 halt, make_figure 2 / 3 / 4, finish never), the A-B and A-B-C cycle check, and
    a streak of any failures, refused calls and empty replies included (nudge at 3, halt at
    5). The nudge is given once per run. Replayed here; checked once against that commit's
    real graph on this corpus (the same stop on every trajectory)."""

    name = "labscribe before call identity by meaning (replayed)"
    history = "yes: checkpointed, resumable"

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}
        self.recent: list[str] = []
        self.nudged = False
        self.streak = 0

    def before(self, tool: str, args: Any, key: str) -> Verdict:
        if tool == "finish_exploration":
            return "allow", ""
        identity = _validated(tool, args)
        stamp = key.rpartition("@")[2] if "@" in key and tool != "make_figure" else ""
        mine = f"{tool}|{json.dumps(identity, sort_keys=True, default=repr)}@{stamp}"
        count = self.counts[mine] = self.counts.get(mine, 0) + 1
        warn, block, halt = (2, 3, 4) if tool == "make_figure" else (3, 4, 5)
        if count >= halt:
            return "stop", "identical calls"
        if count >= block:
            return "block", "Not executed: already called."
        verdict: Verdict = ("warn", "[labscribe] repeated.") if count >= warn else ("allow", "")
        self.recent = [*self.recent, mine][-9:]
        period, rounds = repeated_cycle(self.recent, 3)
        if period and rounds >= 3:
            return "stop", "cycle"
        if period and rounds == 2:
            verdict = "warn", "[labscribe] going round."
        if verdict[0] == "warn":
            if self.nudged:
                return "allow", ""
            self.nudged = True
        return verdict

    def after(self, step: Step) -> Verdict:
        return self._streak(step.ok)

    def message(self, text: str) -> Verdict:
        return self._streak(False)

    def _streak(self, ok: bool) -> Verdict:
        self.streak = 0 if ok else self.streak + 1
        return ("stop", "5 failures in a row") if self.streak >= 5 else ("allow", "")


def _validated(tool: str, args: Any) -> Any:
    """A call's arguments as labscribe validated them then: defaults in, unknowns and the
    caption out; invalid arguments as they came."""
    from labscribe.tools import TOOLS_BY_NAME

    try:
        parsed = TOOLS_BY_NAME[tool].args_schema.model_validate(args)
    except Exception:
        return args
    return parsed.model_dump(mode="json", exclude={"caption"})


class RooCode(Rules):
    """Roo-Code's ToolRepetitionDetector (src/core/tools/ToolRepetitionDetector.ts, tested in
    src/core/tools/__tests__/ToolRepetitionDetector.spec.ts): a call is compared with the one
    before it as its name plus its parameters in sorted-key JSON; the counter restarts at 0 on
    any other call, and when the identical repeats reach the limit (3 by default: the 4th
    identical call in a row) the call is not executed and the task asks the user
    (mistake_limit_reached). Unattended, that question ends the run: a stop, resumable."""

    name = "Roo-Code: 4th identical call in a row refused, asks the user"
    history = "yes: the task waits for the user"
    LIMIT = 3

    def __init__(self) -> None:
        self.previous: str | None = None
        self.count = 0

    def before(self, tool: str, args: Any, key: str) -> Verdict:
        current = sorted_json(tool, args)
        self.count = self.count + 1 if current == self.previous else 0
        self.previous = current
        if self.count >= self.LIMIT:
            return "stop", "mistake_limit_reached: the same tool call repeatedly"
        return "allow", ""


class Cline(Rules):
    """cline's repeated-tool-call detection (src/core/task/loop-detection.ts, tested in
    src/core/task/__tests__/loop-detection.test.ts): the signature is the parameters in
    sorted-key JSON without `task_progress`; the same tool with the same signature in a row
    gets a warning injected on the 3rd call (LOOP_DETECTION_SOFT_THRESHOLD = 3) and is
    escalated on the 5th (hard threshold 5: the mistake limit is reached, the user is asked)."""

    name = "cline: 3rd identical call in a row warned, 5th escalated"
    history = "yes: the task waits for the user"

    def __init__(self) -> None:
        self.last: str | None = None
        self.count = 0

    def before(self, tool: str, args: Any, key: str) -> Verdict:
        params = (
            {k: v for k, v in args.items() if k != "task_progress"}
            if isinstance(args, dict)
            else args
        )
        signature = sorted_json(tool, params)
        self.count = self.count + 1 if signature == self.last else 1
        self.last = signature
        if self.count == 5:
            return "stop", "loop detected: escalated to the user"
        if self.count == 3:
            return "warn", f"[WARNING] loop detected for {tool}: change your approach."
        return "allow", ""


READ_LIKE = {"read_file", "read_many_files", "list_directory", "zoom_image"}


class QwenCode(Rules):
    """qwen-code's LoopDetectionService (packages/core/src/services/loopDetectionService.ts,
    tested in its loopDetectionService.test.ts), with loop detection on
    (skipLoopDetection=false), all checked when a call is requested: the same call (name and
    arguments, keys sorted at every depth) 5 times in a row (TOOL_CALL_LOOP_THRESHOLD, always
    on); the same call 6 times in the turn (GLOBAL_DUPLICATE_THRESHOLD); two calls alternating
    for 3 cycles (ALTERNATING_PATTERN_CYCLES); one tool 8 times in a row whatever its
    arguments (STAGNATION_THRESHOLD); and, once a non-read tool has run, 8 read-like calls
    (read_file, list_*, read_*) among the last 15 (FILE_READ_THRESHOLD / FILE_READ_WINDOW).
    Its result-aware carve-outs cover only the stateful `task_list` tool, so results never
    count here; the per-turn cap (100, adaptive) is beyond the 20-call cap."""

    name = "qwen-code (loop detection on): 5 in a row / 6 per turn / A-B x3 / 8 same tool / 8 reads"
    history = "no: the turn ends"

    def __init__(self) -> None:
        self.last_key: str | None = None
        self.in_a_row = 0
        self.counts: dict[str, int] = {}
        self.keys: deque[str] = deque(maxlen=6)
        self.tools: deque[str] = deque(maxlen=15)
        self.last_tool: str | None = None
        self.same_tool = 0
        self.saw_non_read = False

    @staticmethod
    def read_like(tool: str) -> bool:
        return tool in READ_LIKE or tool.startswith(("read_", "list_"))

    def before(self, tool: str, args: Any, key: str) -> Verdict:
        current = sorted_json(tool, args)
        self.in_a_row = self.in_a_row + 1 if current == self.last_key else 1
        self.last_key = current
        if self.in_a_row >= 5:
            return "stop", "consecutive_identical_tool_calls"
        self.counts[current] = self.counts.get(current, 0) + 1
        self.keys.append(current)
        self.tools.append(tool)
        self.saw_non_read = self.saw_non_read or not self.read_like(tool)
        self.same_tool = self.same_tool + 1 if tool == self.last_tool else 1
        self.last_tool = tool
        if self.counts[current] >= 6:
            return "stop", "global_tool_call_duplicate"
        window = list(self.keys)
        if len(window) == 6 and window[0] != window[1] and window == window[:2] * 3:
            return "stop", "alternating_tool_call_pattern"
        reads = sum(self.read_like(name) for name in self.tools)
        if self.saw_non_read and len(self.tools) >= 8 and reads >= 8:
            return "stop", "read_file_loop"
        if self.same_tool >= 8:
            return "stop", "action_stagnation"
        return "allow", ""


REPLAYED: list[type[Rules]] = [NaiveCap, GeminiCli, OpenHands, DesignNotes, LabscribeBefore,
                               LabscribeBeforeMeaning, RooCode, Cline, QwenCode]  # fmt: skip
"""Every replayed policy, in the order the results list them."""
