"""The loop controls LoopBench compares, each run on a trajectory with the real tools.

Three kinds:
- labscribe itself: the real graph (`run_folder`), its checkpoints and guards;
- real agents from the LangChain ecosystem: LangGraph's prebuilt ReAct agent with a
  recursion limit, and LangChain v1's `create_agent` with its call-limit middleware;
- rules other agents publish, replayed as policies over the same loop: a minimal agent
  loop (model, tools, repeat, capped at 20 model calls) asks the policy after every call.

Each run answers the same questions: how many model calls, how many tokens the model was
sent, whether and after which model call the run was stopped (and by a loop rule or by a
plain limit), and the first model call with a refused (blocked) tool call.
"""

from __future__ import annotations

import json
import shutil
import warnings
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from corpus import FINAL
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_core.tools import StructuredTool
from scripted import ScriptedChatModel, call, latex, reply

from labscribe.graph import Context, Models, run_folder
from labscribe.guards.budgets import estimate_tokens
from labscribe.guards.fingerprint import fingerprint
from labscribe.nodes.explore import TOOLS_BY_NAME
from labscribe.tools.base import Folder

CAP = 20
"""The iteration cap every replayed policy runs under, as labscribe's max_tool_iters."""
SCRIPT_LENGTH = 200
BRIEF = "Explore the data folder with the tools, then say what the experiment is."

Stop = Literal["loop rule", "limit"]


@dataclass
class Outcome:
    model_calls: int
    tokens: int
    stopped_at: int | None = None
    """The model call after which the run was stopped; None when it ended on its own."""
    stopped_by: Stop | None = None
    first_block: int | None = None
    """The first model call with a tool call that was refused rather than run."""


@dataclass
class Trajectory:
    data: dict[str, Any]
    folder_files: dict[str, str]

    @property
    def name(self) -> str:
        return self.data["name"]

    @property
    def collapse_at(self) -> int | None:
        return self.data["collapse_at"]

    def make_folder(self, where: Path) -> Path:
        root = where / "data"
        shutil.rmtree(root, ignore_errors=True)
        for path, text in self.folder_files.items():
            (root / path).parent.mkdir(parents=True, exist_ok=True)
            (root / path).write_text(text)
        return root

    def model(self, folder: Path) -> ScriptedChatModel:
        """The trajectory as a chat model: reply n applies change n to the folder first."""
        return ScriptedChatModel(
            replies=[self._reply(n, folder) for n in range(1, SCRIPT_LENGTH + 1)]
        )

    def _reply(self, n: int, folder: Path) -> Callable[[list[BaseMessage]], AIMessage]:
        replies, loop = self.data["replies"], self.data["loop"]
        if n <= len(replies):
            item = replies[n - 1]
        elif loop:
            item = loop[(n - 1 - len(replies)) % len(loop)]
        else:
            item = replies[-1]
        changes = self.data.get("changes", {}).get(str(n), {})

        def serve(messages: list[BaseMessage]) -> AIMessage:
            for path, text in changes.items():
                (folder / path).write_text(text)
            if "calls" not in item:
                return reply(content=item["content"])
            return reply(*(call(name, **_numbered(args, n)) for name, args in item["calls"]))

        return serve


def _numbered(value: Any, n: int) -> Any:
    if isinstance(value, str):
        return value.replace("{n}", str(n))
    if isinstance(value, dict):
        return {key: _numbered(item, n) for key, item in value.items()}
    return value


def sent_tokens(model: ScriptedChatModel) -> int:
    """Tokens the model was sent, over all its requests (system prompts left out)."""
    total = 0
    for request in model.requests:
        for message in request:
            if isinstance(message, SystemMessage):
                continue
            text = message.text if isinstance(message.content, str) else str(message.content)
            calls = getattr(message, "tool_calls", None)
            total += estimate_tokens(text + (json.dumps(calls) if calls else ""))
    return total


# labscribe ---------------------------------------------------------------------------------


def labscribe(trajectory: Trajectory, where: Path) -> Outcome:
    folder = trajectory.make_folder(where)
    explorer = trajectory.model(folder)
    writer = ScriptedChatModel(replies=[reply(content=latex())])
    context = Context(
        models=Models(explore=explorer, write=writer), reflect=0, compile=False, figures=False
    )
    result = run_folder(folder, out=where / "out", db=where / "threads.sqlite", context=context)
    termination = result.record["exploration"]["termination"]
    calls = len(explorer.requests)
    stopped: dict[str, Stop] = {
        "repeated_call": "loop rule",
        "tool_failures": "loop rule",
        "iteration_budget": "limit",
        "token_budget": "limit",
    }
    history = json.loads((where / "out" / "history.json").read_text())
    return Outcome(
        model_calls=calls,
        tokens=sent_tokens(explorer),
        stopped_at=calls if termination in stopped else None,
        stopped_by=stopped.get(termination),
        first_block=_first_refusal(history),
    )


def _first_refusal(history: list[dict[str, Any]]) -> int | None:
    turn = 0
    for message in history:
        if message["type"] == "ai":
            turn += 1
        content = message["data"].get("content") or ""
        refused = message["type"] == "tool" and content.startswith("Not executed:")
        if refused and "halted" not in content and "finished" not in content:
            return turn
    return None


# Replayed rules ----------------------------------------------------------------------------


@dataclass
class Step:
    tool: str
    args: Any
    key: str
    """The call's identity as this policy sees it."""
    result: str
    ok: bool
    stamp: str | None


Verdict = tuple[Literal["allow", "warn", "block", "stop"], str]


class Rules:
    """A policy over the calls so far: after each call, allow, warn, block or stop."""

    name: str
    history: str
    """Whether a stopped run keeps its history, resumable."""

    def before(self, tool: str, key: str) -> Verdict:
        return "allow", ""

    def after(self, step: Step) -> Verdict:
        return "allow", ""


class NaiveCap(Rules):
    name = "naive loop, iteration cap 20"
    history = "no: in memory"


class GeminiCli(Rules):
    """gemini-cli's LoopDetectionService: the same tool call (name + arguments hash) 5 times in
    a row stops the turn (TOOL_CALL_LOOP_THRESHOLD = 5)."""

    name = "gemini-cli: 5 identical calls in a row"
    history = "no: the turn ends"

    def __init__(self) -> None:
        self.last, self.run = "", 0

    def after(self, step: Step) -> Verdict:
        self.run = self.run + 1 if step.key == self.last else 1
        self.last = step.key
        return ("stop", "loop") if self.run >= 5 else ("allow", "")


class OpenHands(Rules):
    """OpenHands' StuckDetector: the same action and observation 4 times, the same action
    with an error 3 times, or two actions alternating with their observations for 6 steps."""

    name = "OpenHands: 4 same action+result / 3 same error / 6-step alternation"
    history = "yes: the conversation is kept"

    def __init__(self) -> None:
        self.steps: deque[Step] = deque(maxlen=6)

    def after(self, step: Step) -> Verdict:
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

    def before(self, tool: str, key: str) -> Verdict:
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


def replay(rules_factory: Callable[[], Rules]) -> Callable[[Trajectory, Path], Outcome]:
    """A minimal agent loop under `rules`: the model, every tool call in order, repeat."""

    def run(trajectory: Trajectory, where: Path) -> Outcome:
        rules = rules_factory()
        folder_path = trajectory.make_folder(where)
        folder = Folder(folder_path, figures=where / "figures")
        model = trajectory.model(folder_path)
        messages: list[BaseMessage] = [HumanMessage(BRIEF)]
        first_block = None
        for turn in range(1, CAP + 1):
            answer = model.invoke(messages)
            messages.append(answer)
            if not answer.tool_calls:
                return Outcome(turn, sent_tokens(model))
            for tool_call in answer.tool_calls:
                name, args = tool_call["name"], tool_call["args"]
                tool = TOOLS_BY_NAME[name]
                stamp = tool.stamp(folder, args)
                key = fingerprint(name, args) + (f"@{stamp}" if stamp else "")
                verdict, text = rules.before(name, key)
                if verdict == "stop":
                    return Outcome(turn, sent_tokens(model), turn, "loop rule", first_block)
                if verdict == "block":
                    first_block = first_block or turn
                    result, ok = text, False
                else:
                    outcome = tool.invoke(folder, args, timeout=30)
                    result, ok = outcome.content, outcome.ok
                after, nudge = rules.after(Step(name, args, key, result, ok, stamp))
                note = text if verdict == "warn" else nudge if after == "warn" else ""
                content = f"{result}\n\n{note}" if note else result
                messages.append(ToolMessage(content, tool_call_id=tool_call["id"], name=name))
                if after == "stop":
                    return Outcome(turn, sent_tokens(model), turn, "loop rule", first_block)
        return Outcome(CAP, sent_tokens(model), CAP, "limit", first_block)

    return run


# Real agents -------------------------------------------------------------------------------


def _langchain_tools(folder: Folder) -> list[StructuredTool]:
    def bind(name: str) -> StructuredTool:
        tool = TOOLS_BY_NAME[name]
        return StructuredTool.from_function(
            func=lambda **args: tool.invoke(folder, args, timeout=30).content,
            name=name,
            description=tool.description,
            args_schema=tool.args_schema,
        )

    return [bind(name) for name in ("list_dir", "read_file")]


def _ended_on_its_own(messages: list[BaseMessage]) -> bool:
    last = messages[-1]
    return isinstance(last, AIMessage) and not last.tool_calls and last.text == FINAL["content"]


def react_agent(recursion_limit: int) -> Callable[[Trajectory, Path], Outcome]:
    def run(trajectory: Trajectory, where: Path) -> Outcome:
        from langgraph.errors import GraphRecursionError

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # create_react_agent is deprecated for create_agent
            from langgraph.prebuilt import create_react_agent

            folder_path = trajectory.make_folder(where)
            model = trajectory.model(folder_path)
            agent = create_react_agent(model, _langchain_tools(Folder(folder_path)))
        try:
            agent.invoke({"messages": [HumanMessage(BRIEF)]}, {"recursion_limit": recursion_limit})
        except GraphRecursionError:
            calls = len(model.requests)
            return Outcome(calls, sent_tokens(model), calls, "limit")
        return Outcome(len(model.requests), sent_tokens(model))

    return run


def langchain_agent(model_limit: int, tool_limit: int) -> Callable[[Trajectory, Path], Outcome]:
    def run(trajectory: Trajectory, where: Path) -> Outcome:
        from langchain.agents import create_agent
        from langchain.agents.middleware import ModelCallLimitMiddleware, ToolCallLimitMiddleware

        folder_path = trajectory.make_folder(where)
        model = trajectory.model(folder_path)
        agent = create_agent(
            model,
            _langchain_tools(Folder(folder_path)),
            middleware=[
                ModelCallLimitMiddleware(run_limit=model_limit, exit_behavior="end"),
                ToolCallLimitMiddleware(run_limit=tool_limit, exit_behavior="end"),
            ],
        )
        state = agent.invoke({"messages": [HumanMessage(BRIEF)]}, {"recursion_limit": 1_000})
        calls = len(model.requests)
        if _ended_on_its_own(state["messages"]):
            return Outcome(calls, sent_tokens(model))
        return Outcome(calls, sent_tokens(model), calls, "limit")

    return run


@dataclass(frozen=True)
class Policy:
    name: str
    run: Callable[[Trajectory, Path], Outcome]
    history: str
    kind: str = field(default="replayed rules")


def policies() -> list[Policy]:
    replayed = [NaiveCap, GeminiCli, OpenHands, DesignNotes, LabscribeBefore]
    return [
        Policy("labscribe (this repository)", labscribe, "yes: checkpointed, resumable with a "
               "nudge", "real graph"),
        *(Policy(r.name, replay(r), r.history) for r in replayed),
        Policy("LangGraph prebuilt ReAct agent, recursion_limit=25", react_agent(25),
               "with a checkpointer; GraphRecursionError ends the run", "real agent"),
        Policy("LangChain v1 create_agent + ModelCallLimit(20) + ToolCallLimit(20)",
               langchain_agent(20, 20), "with a checkpointer; the agent jumps to its end",
               "real agent"),
    ]  # fmt: skip
