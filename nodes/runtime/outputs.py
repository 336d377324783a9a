"""The files a run leaves in OUT/ when it ends: report.tex, history.json and run.json (the
events.jsonl it appends to as it streams is state.EventLog's)."""

from __future__ import annotations

import json
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from langchain_core.messages import messages_to_dict

from labscribe.guards.bounds import Usage, usage_by_stage
from labscribe.guards.statuses import RunStatus
from labscribe.nodes.runtime.models import ROLES, role_of
from labscribe.nodes.runtime.state import halt_in_force
from labscribe.tools.sandbox.out_files import (
    copy_files,
    copy_whole,
    out_folder,
    write_whole,
)


@dataclass(frozen=True)
class RunOutcome:
    """How one invocation ended, before it is written down."""

    status: RunStatus
    reason: str
    halt: dict[str, Any] | None = None
    """An endpoint's halt the runner saw in an exception out of the graph; the graph's own
    halts are in its state (`halted`)."""
    traceback: str | None = None
    """For a failure: where it happened, so a bug report can carry it."""


def run_record(thread_id: str, values: dict[str, Any], outcome: RunOutcome) -> dict[str, Any]:
    """`run.json`: the contract other tools read (SPEC section 7), plus context for people."""
    guard = values.get("guard") or {}
    halt = outcome.halt or halt_in_force(values) or (guard.get("halts") or [None])[-1]
    usage = usage_by_stage(values.get("usage"))
    by_role = dict.fromkeys(ROLES, Usage())
    for stage, spent in usage.items():
        by_role[role_of(stage)] += spent
    return {
        "thread_id": thread_id,
        "status": outcome.status.value,
        "reason": outcome.reason,
        "stages": values.get("stages", []),
        "model_calls": {role: spent.calls for role, spent in by_role.items()},
        "tool_calls": values.get("tool_calls", 0),
        "guard": {
            "warned": guard.get("warned", 0),
            "blocked": guard.get("blocked", 0),
            "halted": halt is not None,
            "halt": halt,
        },
        "tokens": sum(by_role.values(), Usage()).model_dump(include={"input", "output"}),
        "tokens_by_role": {
            role: spent.model_dump(include={"input", "output"}) for role, spent in by_role.items()
        },
        "model_calls_by_stage": {stage: spent.calls for stage, spent in usage.items()},
        "degraded": values.get("degraded", []),
        "skipped": values.get("skipped") or {},
        "outputs": {},
        "exploration": values.get("exploration"),
        "plan": values.get("plan", []),
        "options": values.get("options"),  # the resolved settings, without the key
        "folder": values.get("folder"),
        "gaps": values.get("gaps", []),
        "numbers": values.get("numbers"),
        "reflection": values.get("reflection"),
        "citations": values.get("citations"),
        "figures": values.get("figures", []),
        "graphics": values.get("graphics"),
        "compile": values.get("compile"),
    } | ({"traceback": outcome.traceback} if outcome.traceback else {})


def end_event(values: dict[str, Any], outcome: RunOutcome) -> dict[str, Any]:
    """The last event of an invocation: how it ended, at 100% when a report was written, else
    where the stages stopped."""
    plan = values.get("plan", [])
    done = outcome.status in (RunStatus.COMPLETED, RunStatus.DEGRADED)
    return {
        "event": "end",
        "status": outcome.status.value,
        "reason": outcome.reason,
        "index": len(plan) if done else len(values.get("stages", [])),
        "total": len(plan),
        "stage": "end",
        "detail": outcome.reason,
    }


def resume_line(thread_id: str, *options: str) -> str:
    """The `labscribe resume` command for `thread_id`, to be typed as printed: the id quoted
    for a shell, and an id that starts with "-" after the options and "--", since argparse
    would take it for an option."""
    typed = shlex.quote(thread_id)
    if thread_id.startswith("-"):
        return " ".join(["labscribe resume", *options, "--", typed])
    return " ".join(["labscribe resume", typed, *options])


class OutputsUnwritten(OSError):
    """OUT/ could not be written (a full disk, a folder gone read-only). The thread's state,
    the report included, is safe in the checkpoint, and can be written again."""

    def with_hint(self, thread_id: str) -> OutputsUnwritten:
        return OutputsUnwritten(
            f"{self}; the report is safe in the checkpoint: write it again with "
            f"`{resume_line(thread_id, '--out DIR')}`"
        )


def write_outputs(
    out: Path, thread_id: str, values: dict[str, Any], outcome: RunOutcome
) -> dict[str, Any]:
    """Write report.tex (when there is one), history.json and run.json, each whole or not at
    all; return run.json. Raises OutputsUnwritten when OUT/ cannot take them."""
    try:
        return _write(out, thread_id, values, outcome)
    except OSError as exc:
        raise OutputsUnwritten(f"cannot write the outputs to {str(out)!r}: {exc}") from exc


def export_outputs(
    out: Path, thread_id: str, values: dict[str, Any], outcome: RunOutcome
) -> dict[str, Any]:
    """A finished thread's outputs written again, to `out`: the files from its state, and the
    figures and the PDF its run left in its own output folder, when they are still there."""
    recorded = Path(values["out"]) if values.get("out") else None
    values = dict(values)
    if recorded is not None and recorded.resolve() != out.resolve():
        try:
            if (recorded / "figures").is_dir():
                out.mkdir(parents=True, exist_ok=True)
                copy_files(recorded / "figures", out_folder(out / "figures"))
            pdf = (values.get("compile") or {}).get("pdf")
            if pdf and Path(pdf).is_file():
                out.mkdir(parents=True, exist_ok=True)
                copy_whole(Path(pdf), out / "report.pdf")
                values["compile"] = {**values["compile"], "pdf": str(out / "report.pdf")}
        except OSError as exc:
            raise OutputsUnwritten(f"cannot write the outputs to {str(out)!r}: {exc}") from exc
    return write_outputs(out, thread_id, values, outcome)


def _write(out: Path, thread_id: str, values: dict[str, Any], outcome: RunOutcome) -> dict:
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
