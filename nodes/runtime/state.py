"""The graph's state, and the progress its stages announce.

The input is narrower than the state: a folder and where to write. Progress events are
streamed on LangGraph's custom stream and appended to OUT/events.jsonl (`EventLog`).
Milestone events carry `index`, `total`, `stage` and `detail`; the stage is always passed
by the node that reached it, and the index is that stage's own place in the plan, so a
skipped milestone never shifts the labels of the ones after it. Every event carries `time`
(ISO 8601, UTC) and `elapsed` (seconds since its run started: since the first event of that
run id in this process). A milestone is also a state update: `stages`, the milestones
reached, and `skipped`, those passed over and why, are what run.json reports.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import operator
import os
import stat
import tempfile
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any, Literal, NotRequired

from langchain_core.messages import AIMessage, AnyMessage, ToolMessage
from langgraph.config import get_config, get_stream_writer
from langgraph.graph.message import add_messages
from langgraph.runtime import get_runtime
from typing_extensions import TypedDict

from labscribe.guards.bounds import Usage, usage_by_stage
from labscribe.guards.paths import printable
from labscribe.guards.statuses import Termination
from labscribe.tools.sandbox.out_files import open_log
from labscribe.tools.tool import Folder

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


def milestone_index(plan: Sequence[str], stage: str, occurrence: int) -> int:
    """1-based place in `plan` of the `occurrence`-th (0-based) milestone named `stage`."""
    seen = 0
    for index, name in enumerate(plan, start=1):
        if name == stage:
            if seen == occurrence:
                return index
            seen += 1
    raise ValueError(f"stage {stage!r} has no milestone #{occurrence + 1} in the plan {plan}")


def milestone(state: dict[str, Any], stage: str, detail: str) -> dict[str, Any]:
    """Announce that `stage` is done; returns the state update that records it."""
    plan = state.get("plan") or [stage]
    index = milestone_index(plan, stage, (state.get("stages") or []).count(stage))
    emit(
        {"event": "milestone", "index": index, "total": len(plan), "stage": stage, "detail": detail}
    )
    return {"stages": [stage]}


def skipped(state: dict[str, Any], stages: Sequence[str], detail: str) -> dict[str, Any]:
    """Announce that the milestones `stages` (a name twice: its next two) will not run in
    this run: each passes, marked skipped, so the bar moves on and the milestones after them
    keep their labels. Returns the state update that records why, for run.json."""
    plan = state.get("plan") or list(stages)
    done = state.get("stages") or []
    for position, stage in enumerate(stages):
        occurrence = done.count(stage) + stages[:position].count(stage)
        emit(
            {"event": "milestone", "index": milestone_index(plan, stage, occurrence),
             "total": len(plan), "stage": stage, "detail": detail, "skipped": True}
        )  # fmt: skip
    return {"skipped": dict.fromkeys(stages, detail)}


def emit(event: dict[str, Any]) -> None:
    """Send `event`, stamped, to whoever streams the custom mode; a no-op for plain invoke."""
    get_stream_writer()(_stamped(event, _run_start()))


def _stamped(event: dict[str, Any], started: float) -> dict[str, Any]:
    """`event` with `time` and `elapsed` since `started` (a `time.time()`), its text printable:
    a file name that is not UTF-8 must not break a stream, a log or a terminal."""
    now = time.time()
    clean = {key: _printable(value) for key, value in event.items()}
    return clean | {
        "time": datetime.fromtimestamp(now, UTC).isoformat(timespec="milliseconds"),
        "elapsed": round(now - started, 3),
    }


def _run_start() -> float:
    """When the current run (its run id, else its thread) emitted its first event here."""
    try:
        info = get_runtime().execution_info
        key = (info.run_id or info.thread_id or "") if info else ""
    except (RuntimeError, KeyError, AttributeError):
        key = ""
    if key not in _STARTS:
        _STARTS[key] = time.time()
        while len(_STARTS) > _KEPT_STARTS:
            _STARTS.popitem(last=False)
    return _STARTS[key]


def _printable(value: Any) -> Any:
    if isinstance(value, str):
        return printable(value)
    if isinstance(value, dict):
        return {key: _printable(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_printable(item) for item in value]
    return value


_STARTS: OrderedDict[str, float] = OrderedDict()
_KEPT_STARTS = 256  # runs a long-lived server remembers the start of


def text_bar(index: int, total: int, width: int) -> str:
    """`[####----] 2/4`: a milestone's place in the plan, for a terminal."""
    filled = width * index // max(total, 1)
    return f"[{'#' * filled}{'-' * (width - filled)}] {index}/{total}"


class EventLog:
    """events.jsonl, appended line by line, each event then handed to `forward` (a terminal's
    printer, a batch's). An event not yet stamped is stamped from the log's opening. Losing
    the log (a full disk) never stops a run: the run's outputs say what could not be written."""

    def __init__(
        self,
        path: Path,
        thread_id: str,
        forward: Callable[[dict[str, Any]], None] | None = None,
    ) -> None:
        self.thread_id, self.forward, self.started = thread_id, forward, time.time()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self.handle: Any = os.fdopen(
                open_log(path), "a", encoding="utf-8", errors="backslashreplace"
            )
        except OSError:
            self.handle = None

    def append(self, event: dict[str, Any]) -> None:
        event = event if "time" in event else _stamped(event, self.started)
        self._write(event)
        if self.forward:
            self.forward(event)

    def _write(self, event: dict[str, Any]) -> None:
        if self.handle is None:
            return
        line = json.dumps({"thread_id": self.thread_id, **event}, ensure_ascii=False, default=str)
        try:
            self.handle.write(line + "\n")
            self.handle.flush()
        except OSError:
            self.close()

    def close(self) -> None:
        if self.handle is not None:
            with contextlib.suppress(OSError):
                self.handle.close()
            self.handle = None
