"""A thread on a LangGraph server, written down on this side: the same OUT/ files a local run
leaves (report.tex, references.bib, figures/, report.pdf, history.json, run.json), from the
thread's state as the server's API returns it and the files its run published to the store
(nodes/publish.py)."""

from __future__ import annotations

import base64
import binascii
from pathlib import Path
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage

from labscribe.graph.outputs import OutputsUnwritten, RunOutcome, write_outputs
from labscribe.graph.settle import ThreadView, settle
from labscribe.guards.statuses import RunStatus
from labscribe.nodes.publish import NAMESPACE

SERVER_HINT = "continue it with: labscribe batch --out {out} --resume [--nudge TEXT]"
MESSAGE_TYPES: dict[str, type[BaseMessage]] = {
    "human": HumanMessage,
    "ai": AIMessage,
    "tool": ToolMessage,
    "system": SystemMessage,
}


def served_outcome(
    thread_id: str, state: dict[str, Any], run_status: str | None, error: str | None, out: Path
) -> RunOutcome:
    """How a server run ended: its run's status first (an error, a cancel), then what its
    thread's last checkpoint says, as `settle` reads a local one."""
    hint = SERVER_HINT.format(out=out.parent)
    if run_status == "error":
        said = error or "the run raised an error on the server"
        return RunOutcome(RunStatus.FAILED, f"the server's run failed: {said}; {hint}")
    if run_status in ("interrupted", "timeout"):
        what = "cancelled" if run_status == "interrupted" else "timed out"
        return RunOutcome(RunStatus.CANCELLED, f"the server's run was {what}; {hint}")
    return settle(thread_id, ThreadView.served(state), hint=hint)


def messages_of(dumped: list[dict[str, Any]] | None) -> list[BaseMessage]:
    """The explorer's history from the server's JSON, as the messages a local run holds."""
    return [
        MESSAGE_TYPES[m["type"]].model_validate(m)
        for m in dumped or []
        if isinstance(m, dict) and m.get("type") in MESSAGE_TYPES
    ]


def write_served(
    out: Path,
    thread_id: str,
    state: dict[str, Any],
    outcome: RunOutcome,
    files: dict[str, bytes],
) -> dict[str, Any]:
    """Write a server thread's outputs to `out`; return its run.json."""
    values = dict(state.get("values") or {})
    values["messages"] = messages_of(values.get("messages"))
    try:
        for key, data in files.items():
            target = _target(out, key)
            if target is None:
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
            if key == "report.pdf":
                values["compile"] = {**(values.get("compile") or {}), "pdf": str(target)}
    except OSError as exc:
        raise OutputsUnwritten(f"cannot write the outputs to {str(out)!r}: {exc}") from exc
    if "report.pdf" not in files and (values.get("compile") or {}).get("pdf"):
        values["compile"] = {**values["compile"], "pdf": None}  # it stayed on the server
    return write_outputs(out, thread_id, values, outcome)


def published_files(client: Any, thread_id: str) -> dict[str, bytes]:
    """The files the thread's run published (nodes/publish.py), by their path in OUT/."""
    files, offset = {}, 0
    while True:
        items = client.store.search_items((NAMESPACE, thread_id), limit=100, offset=offset)
        for item in items["items"]:
            try:
                files[item["key"]] = base64.b64decode(item["value"]["base64"], validate=True)
            except (KeyError, TypeError, binascii.Error):
                continue
        if len(items["items"]) < 100:
            return files
        offset += 100


def _target(out: Path, key: str) -> Path | None:
    """Where a published file goes in OUT/: the PDF, or a figure; never anywhere else."""
    if key == "report.pdf":
        return out / "report.pdf"
    folder, _, name = key.partition("/")
    if folder == "figures" and name and "/" not in name and not name.startswith("."):
        return out / "figures" / name
    return None
