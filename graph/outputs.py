"""The files a run leaves in OUT/: report.tex, history.json, run.json (events.jsonl streams)."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from langchain_core.messages import messages_to_dict

from labscribe.graph.models import ROLES, role_of
from labscribe.guards.statuses import RunStatus


@dataclass(frozen=True)
class RunOutcome:
    """How one invocation ended, before it is written down."""

    status: RunStatus
    reason: str
    halt: dict[str, Any] | None = None
    """An infrastructure halt the runner saw; collapse halts live in the guard state."""
    traceback: str | None = None
    """For a failure: where it happened, so a bug report can carry it."""


def run_record(thread_id: str, values: dict[str, Any], outcome: RunOutcome) -> dict[str, Any]:
    """`run.json`: the contract other tools read (SPEC section 7), plus context for people."""
    guard = values.get("guard") or {}
    halt = outcome.halt or guard.get("halt") or (guard.get("halts") or [None])[-1]
    usage = values.get("usage") or {}
    by_role: dict[str, dict[str, int]] = {
        role: {"calls": 0, "input": 0, "output": 0} for role in ROLES
    }
    for stage, counters in usage.items():
        for key, value in counters.items():
            by_role[role_of(stage)][key] += value
    return {
        "thread_id": thread_id,
        "status": outcome.status.value,
        "reason": outcome.reason,
        "stages": values.get("stages", []),
        "model_calls": {role: counters["calls"] for role, counters in by_role.items()},
        "tool_calls": values.get("tool_calls", 0),
        "guard": {
            "warned": guard.get("warned", 0),
            "blocked": guard.get("blocked", 0),
            "halted": halt is not None,
            "halt": halt,
        },
        "tokens": {key: sum(c[key] for c in by_role.values()) for key in ("input", "output")},
        "tokens_by_role": {
            role: {"input": c["input"], "output": c["output"]} for role, c in by_role.items()
        },
        "model_calls_by_stage": {
            stage: counters.get("calls", 0) for stage, counters in usage.items()
        },
        "degraded": values.get("degraded", []),
        "outputs": {},
        "exploration": values.get("exploration"),
        "plan": values.get("plan", []),
        "folder": values.get("folder"),
        "gaps": values.get("gaps", []),
        "numbers": values.get("numbers"),
        "reflection": values.get("reflection"),
        "citations": values.get("citations"),
        "figures": values.get("figures", []),
        "graphics": values.get("graphics"),
        "compile": values.get("compile"),
    } | ({"traceback": outcome.traceback} if outcome.traceback else {})


def write_outputs(
    out: Path, thread_id: str, values: dict[str, Any], outcome: RunOutcome
) -> dict[str, Any]:
    """Write report.tex (when there is one), history.json and run.json; return run.json."""
    out.mkdir(parents=True, exist_ok=True)
    record = run_record(thread_id, values, outcome)
    if values.get("report"):
        record["outputs"]["report"] = str(write_whole(out / "report.tex", values["report"]))
    if values.get("bibliography"):
        record["outputs"]["bibliography"] = str(
            write_whole(out / "references.bib", values["bibliography"])
        )
    if (values.get("compile") or {}).get("pdf"):
        record["outputs"]["pdf"] = values["compile"]["pdf"]
    history = json.dumps(messages_to_dict(values.get("messages", [])), ensure_ascii=False, indent=1)
    record["outputs"]["history"] = str(write_whole(out / "history.json", history))
    record["outputs"]["events"] = str(out / "events.jsonl")
    record["outputs"]["run"] = str(out / "run.json")
    write_whole(out / "run.json", json.dumps(record, ensure_ascii=False, indent=2, default=str))
    return record


def write_whole(path: Path, text: str) -> Path:
    """Replace `path` whole or not at all: a full disk never leaves half a file."""
    partial = path.with_name(f".{path.name}.partial")
    try:
        partial.write_text(text, encoding="utf-8")
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)
    return path
