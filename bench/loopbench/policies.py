"""The loop controls LoopBench compares, each run on a trajectory with the real tools.

Three kinds:
- labscribe itself: the real graph (`run_folder`), its checkpoints and guards;
- real agents from the LangChain ecosystem: LangGraph's prebuilt ReAct agent with a
  recursion limit, and LangChain v1's `create_agent` with its call-limit middleware, both
  bound to list_dir, read_file, read_image and make_figure;
- rules other agents publish (peer_rules.py: gemini-cli, OpenHands, Roo-Code, cline,
  qwen-code, and the design notes labscribe started from), replayed over the same loop: a
  minimal agent loop (model, tools, repeat, capped at 20 model calls) asks the policy before
  and after every call, and about every empty reply, which it answers with a nudge.

Each run answers the same questions: how many model calls, how many tokens the model was
sent, whether and after which model call the run was stopped (by a loop rule, by a plain
limit, or by its own end before its final answer: "ended"), and the first model call with a
refused (blocked) tool call.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from computed_once import folder_key, scanned_once
from corpus import FINAL
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_core.tools import StructuredTool
from peer_rules import REPLAYED, Rules, Step, sorted_json
from scripted import ScriptedChatModel, call, latex, reply

from labscribe.graph import Context, Models, run_folder
from labscribe.guards.bounds import estimate_tokens
from labscribe.tools import TOOLS_BY_NAME
from labscribe.tools.tool import Folder

CAP = 20
"""The iteration cap every replayed policy runs under, as labscribe's max_tool_iters."""
SCRIPT_LENGTH = 200
BRIEF = "Explore the data folder with the tools, then say what the experiment is."

Stop = Literal["loop rule", "limit", "ended"]
"""What stopped a run: a rule about repetition, a plain limit, or the run's own end before
its work was done (an agent that takes an empty reply for its final answer)."""
EMPTY_REPLY_NUDGE = "Your reply was empty; call a tool or answer."
"""What the minimal loop answers an empty reply with (it is not a final answer)."""


@dataclass
class Outcome:
    model_calls: int
    tokens: int
    stopped_at: int | None = None
    """The model call after which the run was stopped, or ended without its final answer;
    None when it ended on its own with its final answer."""
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
            if text.startswith("base64:"):  # a binary file: an image
                (root / path).write_bytes(base64.b64decode(text.removeprefix("base64:")))
            else:
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
    with scanned_once(folder_key(trajectory.folder_files)):
        result = run_folder(folder, out=where / "out", db=where / "threads.sqlite", context=context)
    termination = result.record["exploration"]["termination"]
    calls = len(explorer.requests)
    stopped: dict[str, Stop] = {
        "repeated_call": "loop rule",
        "tool_failures": "loop rule",
        "no_progress": "loop rule",
        "empty_replies": "loop rule",
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
        # A refusal: an identical call not executed, or an answer that added nothing withheld.
        refused = message["type"] == "tool" and content.startswith(("Not executed:", "Not shown:"))
        if refused and "halted" not in content and "finished" not in content:
            return turn
    return None


# Replayed rules (the rule classes live in peer_rules.py) ----------------------------------


def replay(rules_factory: Callable[[], Rules]) -> Callable[[Trajectory, Path], Outcome]:
    """A minimal agent loop under `rules`: the model, every tool call in order, repeat.

    A reply with text and no tool call ends the run; an empty reply (no text, no call) is
    answered with EMPTY_REPLY_NUDGE and the loop goes on, the reply counting toward the cap.
    """

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
            if not answer.tool_calls and answer.text.strip():
                return _final(turn, model, answer, first_block)
            if not answer.tool_calls:
                if rules.message(answer.text)[0] == "stop":
                    return Outcome(turn, sent_tokens(model), turn, "loop rule", first_block)
                messages.append(HumanMessage(EMPTY_REPLY_NUDGE))
                continue
            for tool_call in answer.tool_calls:
                name, args = tool_call["name"], tool_call["args"]
                tool = TOOLS_BY_NAME.get(name)
                stamp = _stamp(folder_path, name, args)
                key = sorted_json(name, args) + (f"@{stamp}" if stamp else "")
                verdict, text = rules.before(name, args, key)
                if verdict == "stop":
                    return Outcome(turn, sent_tokens(model), turn, "loop rule", first_block)
                if verdict == "block":
                    first_block = first_block or turn
                    result, ok = text, False
                elif tool is None:  # what a minimal loop answers a tool it does not have
                    result, ok = f"Error: no tool named {name}", False
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


READS = {"list_dir", "read_file", "read_image"}


def _stamp(root: Path, name: str, args: Any) -> str | None:
    """`size:mtime_ns` of the file or folder a read call names, or None: the file state the
    replayed rules' call keys carry, so a changed file makes a new call. Computed here, not
    by the tools, so the replayed rules stay what they were while labscribe's change."""
    if name not in READS or not isinstance(args, dict):
        return None
    path = args.get("path", "." if name == "list_dir" else None)
    if not isinstance(path, str):
        return None
    base = root.resolve()
    try:
        target = Path(os.path.normpath(os.path.join(base, path or "."))).resolve(strict=True)
        info = target.stat()
    except (OSError, RuntimeError, ValueError):
        return None
    inside = target == base or base in target.parents
    return f"{info.st_size}:{info.st_mtime_ns}" if inside else None


def _final(
    calls: int, model: ScriptedChatModel, last: BaseMessage, first_block: int | None = None
) -> Outcome:
    """A run that ended on its own: with its final answer, or ("ended") without it, e.g. on
    an empty reply an agent takes for its final answer."""
    if isinstance(last, AIMessage) and last.text == FINAL["content"]:
        return Outcome(calls, sent_tokens(model), first_block=first_block)
    return Outcome(calls, sent_tokens(model), calls, "ended", first_block)


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

    return [bind(name) for name in ("list_dir", "read_file", "read_image", "make_figure")]


def _from_model(message: BaseMessage) -> bool:
    """A reply the scripted model gave (ids `scripted-N`), not one a middleware wrote."""
    return isinstance(message, AIMessage) and (message.id or "").startswith("scripted-")


def react_agent(recursion_limit: int) -> Callable[[Trajectory, Path], Outcome]:
    def run(trajectory: Trajectory, where: Path) -> Outcome:
        from langgraph.errors import GraphRecursionError

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # create_react_agent is deprecated for create_agent
            from langgraph.prebuilt import create_react_agent

            folder_path = trajectory.make_folder(where)
            model = trajectory.model(folder_path)
            folder = Folder(folder_path, figures=where / "figures")
            agent = create_react_agent(model, _langchain_tools(folder))
        try:
            state = agent.invoke(
                {"messages": [HumanMessage(BRIEF)]}, {"recursion_limit": recursion_limit}
            )
        except GraphRecursionError:
            calls = len(model.requests)
            return Outcome(calls, sent_tokens(model), calls, "limit")
        return _final(len(model.requests), model, state["messages"][-1])

    return run


def langchain_agent(model_limit: int, tool_limit: int) -> Callable[[Trajectory, Path], Outcome]:
    def run(trajectory: Trajectory, where: Path) -> Outcome:
        from langchain.agents import create_agent
        from langchain.agents.middleware import ModelCallLimitMiddleware, ToolCallLimitMiddleware

        folder_path = trajectory.make_folder(where)
        model = trajectory.model(folder_path)
        agent = create_agent(
            model,
            _langchain_tools(Folder(folder_path, figures=where / "figures")),
            middleware=[
                ModelCallLimitMiddleware(run_limit=model_limit, exit_behavior="end"),
                ToolCallLimitMiddleware(run_limit=tool_limit, exit_behavior="end"),
            ],
        )
        state = agent.invoke({"messages": [HumanMessage(BRIEF)]}, {"recursion_limit": 1_000})
        calls, last = len(model.requests), state["messages"][-1]
        if _from_model(last) and not last.tool_calls:
            return _final(calls, model, last)
        return Outcome(calls, sent_tokens(model), calls, "limit")

    return run


@dataclass(frozen=True)
class Policy:
    name: str
    run: Callable[[Trajectory, Path], Outcome]
    history: str
    kind: str = field(default="replayed rules")


def policies() -> list[Policy]:
    return [
        Policy("labscribe (this repository)", labscribe, "yes: checkpointed, resumable with a "
               "nudge", "real graph"),
        *(Policy(r.name, replay(r), r.history) for r in REPLAYED),
        Policy("LangGraph prebuilt ReAct agent, recursion_limit=25", react_agent(25),
               "with a checkpointer; GraphRecursionError ends the run", "real agent"),
        Policy("LangChain v1 create_agent + ModelCallLimit(20) + ToolCallLimit(20)",
               langchain_agent(20, 20), "with a checkpointer; the agent jumps to its end",
               "real agent"),
    ]  # fmt: skip
