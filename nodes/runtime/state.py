"""The graph's state. The input is narrower than the state: a folder and where to write."""

from __future__ import annotations

import hashlib
import operator
import os
import stat
import tempfile
from pathlib import Path
from typing import Annotated, Any, Literal, NotRequired

from langchain_core.messages import AIMessage, AnyMessage, ToolMessage
from langgraph.config import get_config
from langgraph.graph.message import add_messages
from typing_extensions import TypedDict

from labscribe.guards.bounds import Usage, usage_by_stage
from labscribe.guards.statuses import Termination
from labscribe.tools.base import Folder

Counters = dict[str, dict[str, int]]
"""Per stage, a usage's plain counters (`Usage.dump`)."""


def add_usage(left: Counters | None, right: Counters | None) -> Counters:
    """Reducer: per-stage counters (`calls`, `input` and `output` tokens), summed as usages
    (guards.bounds.Usage) and kept as plain counters."""
    total = usage_by_stage(left)
    for stage, spent in usage_by_stage(right).items():
        total[stage] = total.get(stage, Usage()) + spent
    return {stage: usage.dump() for stage, usage in total.items()}


class InputState(TypedDict):
    folder: str
    """Absolute path of the data folder."""
    out: NotRequired[str | None]
    """Where the CLI writes report.tex and the rest; recorded for resume."""


class State(InputState, total=False):
    folder_identity: list[int]
    """The folder's (st_dev, st_ino) when the run started: every read checks it
    (`data_folder`), so the folder swapped for another mid-run is never read."""
    options: dict[str, Any]
    """The run's configuration, without secrets, as the prepare step recorded it."""
    plan: list[str]
    """Milestones, computed from the configuration before the run."""
    stages: Annotated[list[str], operator.add]
    """Milestones reached, in order."""
    scan: dict[str, Any]
    analysis: dict[str, Any]
    """The deterministic analysis of the data (tools.analysis.folder.Analysis, as JSON)."""
    messages: Annotated[list[AnyMessage], add_messages]
    """The explorer's whole history: the scan summary, replies, tool results, nudges."""
    guard: dict[str, Any]
    """The explorer's GuardState: ladder counts, warn/block tallies, halt history, cache."""
    pending_nudge: str | None
    """A human's nudge: it joins the explorer's history before its next turn, or the
    request of the stage an endpoint halted when that stage runs again."""
    halted: dict[str, Any] | None
    """The halt in force, whatever stopped the run: {"stage", "halt" (the record),
    "answered" (by a human)} (nodes/halts.py). None once a nudge cleared a collapse, or once
    the stage an endpoint halted ran again."""
    exploration: dict[str, Any] | None
    """How exploration ended: {"termination", "reason"}; None while it runs."""
    findings: dict[str, Any] | None
    explored: Annotated[list[dict[str, Any]], operator.add]
    """What the explorer's fit and derive calls computed: {"fit": Fit} or {"derived": Derived}
    (nodes.material.analysis_of joins them to the analysis)."""
    figures: Annotated[list[dict[str, Any]], operator.add]
    """Figures that rendered: {"path": "figures/x.png", "caption"}, relative to OUT/; a data
    figure also names what it shows: {"table", "x", "y"} (tools.analysis.figure_plan)."""
    gaps: list[str]
    """What the assignment asks that the material cannot give."""
    report: str | None
    """The LaTeX source of the report."""
    drafted_by: Literal["model", "fallback"]
    """Who wrote the report: the write model, or the fallback from the data."""
    skipped: Annotated[dict[str, str], operator.or_]
    """Stages that did not run, and why (run.json `skipped`)."""
    numbers: dict[str, Any]
    """The report's numbers checked against the data: {"checked", "mismatches"}."""
    reflection: dict[str, Any]
    """Critique-and-revise rounds done, and whether the last one converged."""
    bibliography: str | None
    """references.bib, from the references found in the material."""
    citations: dict[str, Any]
    """Citations resolved, renamed to a reference's key, or removed."""
    graphics: dict[str, Any]
    """\\includegraphics targets shown, and those removed because no such figure rendered."""
    compile: dict[str, Any]
    """The PDF: {"status": compiled|failed|skipped, "pdf", "log" | "reason"}."""
    degraded: Annotated[list[str], operator.add]
    usage: Annotated[Counters, add_usage]
    """Model calls and tokens per stage; run.json sums them per role."""
    tool_calls: Annotated[int, operator.add]


def pending_calls(messages: list[AnyMessage]) -> list[dict[str, Any]]:
    """Tool calls of the newest model reply that no tool message answers yet, in order.

    Invalid calls (arguments that were not JSON) are included, marked `invalid`, because
    every call the model made must get its tool message.
    """
    for position in range(len(messages) - 1, -1, -1):
        reply = messages[position]
        if isinstance(reply, AIMessage):
            break
    else:
        return []
    answered = {m.tool_call_id for m in messages[position + 1 :] if isinstance(m, ToolMessage)}
    calls = [*reply.tool_calls, *({**call, "invalid": True} for call in reply.invalid_tool_calls)]
    return [call for call in calls if call["id"] not in answered]


def halt_in_force(values: dict[str, Any]) -> dict[str, Any] | None:
    """The record of the halt in force in a thread's values (`halted`), None when there is
    none."""
    return (values.get("halted") or {}).get("halt")


def exploration_ended(termination: Termination, reason: str) -> dict[str, Any]:
    """The state update that records how exploration ended."""
    return {"exploration": {"termination": termination.value, "reason": reason}}


def data_folder(state: State, **extra: Any) -> Folder:
    """The run's data folder as the tools read it: checked, on every access, to be the folder
    the run started with (a thread from before identities were kept: the folder as it is)."""
    identity = state.get("folder_identity")
    return Folder(Path(state["folder"]), identity=tuple(identity) if identity else None, **extra)


def figures_dir(state: State) -> Path:
    """Where this run keeps its figures: OUT/figures, or without OUT (a server run) a folder
    of the thread's own in this user's scratch, so two threads on one folder never share
    their figures."""
    if state.get("out"):
        return Path(state["out"]) / "figures"
    try:
        owner = get_config()["configurable"].get("thread_id") or state["folder"]
    except RuntimeError:  # outside a run
        owner = state["folder"]
    digest = hashlib.sha256(str(owner).encode()).hexdigest()[:12]
    return private_scratch() / "figures" / digest


def private_scratch() -> Path:
    """A folder of this user's own, the same for every call: `labscribe-UID` in the temp
    folder, else the user's cache. Never one another user made or may write: in a shared
    /tmp, such a folder could hand a run planted figures, or refuse it its own."""
    try:
        cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "labscribe"
    except RuntimeError:  # no home directory
        cache = Path(tempfile.gettempdir()) / f"labscribe-{os.getuid()}-cache"
    for base in (Path(tempfile.gettempdir()) / f"labscribe-{os.getuid()}", cache / "scratch"):
        try:
            base.mkdir(mode=0o700, parents=True, exist_ok=True)
            made = base.lstat()
        except OSError:
            continue
        mine = made.st_uid == os.getuid() and stat.S_ISDIR(made.st_mode)
        if mine and not made.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
            return base
    raise PermissionError(
        f"no private scratch folder for figures: {tempfile.gettempdir()} and {cache} hold "
        "folders this user does not own, or cannot be written; give the run an `out`"
    )
