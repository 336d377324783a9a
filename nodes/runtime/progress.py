"""Progress events, streamed on LangGraph's custom stream and appended to OUT/events.jsonl
(`EventLog`).

Milestone events carry `index`, `total`, `stage` and `detail`; the stage is always passed
by the node that reached it, and the index is that stage's own place in the plan, so a
skipped milestone never shifts the labels of the ones after it. Every event carries `time`
(ISO 8601, UTC) and `elapsed` (seconds since its run started: since the first event of that
run id in this process).
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections import OrderedDict
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from langgraph.config import get_stream_writer
from langgraph.runtime import get_runtime

from labscribe.guards.paths import printable
from labscribe.tools.sandbox.out_files import open_log


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
    get_stream_writer()(stamped(event, _run_start()))


def stamped(event: dict[str, Any], started: float) -> dict[str, Any]:
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
    """events.jsonl, appended line by line. Losing the log (a full disk) never stops a run:
    the run's outputs say what could not be written."""

    def __init__(self, path: Path, thread_id: str) -> None:
        self.thread_id = thread_id
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self.handle: Any = os.fdopen(
                open_log(path), "a", encoding="utf-8", errors="backslashreplace"
            )
        except OSError:
            self.handle = None

    def append(self, event: dict[str, Any]) -> None:
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
