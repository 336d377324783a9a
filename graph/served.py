"""A thread on a LangGraph server, written down on this side: the same OUT/ files a local run
leaves (report.tex, references.bib, figures/, report.pdf, history.json, run.json), from the
thread's state as the server's API returns it and the files its run published to the store
(nodes/publish.py)."""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import httpx
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage

from labscribe.graph.runner import ThreadView, settle
from labscribe.guards.statuses import RunStatus
from labscribe.nodes.publish import MAX_FILE_BYTES, NAMESPACE
from labscribe.nodes.runtime.outputs import OutputsUnwritten, RunOutcome, write_outputs
from labscribe.tools.sandbox.figure_names import sanitize_name
from labscribe.tools.sandbox.out_files import out_folder, write_whole

SERVER_HINT = "continue it with: labscribe batch --out {out} --resume [--nudge TEXT]"
MAX_ANSWER_BYTES = MAX_FILE_BYTES * 4 // 3 + 64 * 1024
"""The largest store answer read: one published file at its bound, in base64, and its JSON.
Pages hold one item each, so an item over the bound costs only itself."""
MAX_PAGES = 256
"""Store pages read at most: a run publishes its figures and its PDF, far fewer; a server
whose answers never end is left here."""
SKIPPED = "the store item {key} was not written: {why}"
OVERSIZED = "the store item at position {offset} was not read: it is over {mb} MB"
ENDLESS = "stopped reading the store after {pages} pages: {why}"
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
    files: Iterable[tuple[str, bytes]],
    notes: list[str],
) -> dict[str, Any]:
    """Write a server thread's outputs to `out`, the published `files` ({path in OUT/:
    bytes}, as `published_files` reads them) among them; return its run.json. A file whose
    path is not one a run publishes is left out, with a line in `notes`."""
    values = dict(state.get("values") or {})
    values["messages"] = messages_of(values.get("messages"))
    written = set()
    try:
        for key, data in files:
            target = _target(out, key)
            if target is None:
                notes.append(SKIPPED.format(key=_shown(key), why="not the name of a run's file"))
                continue
            write_whole(out_folder(target.parent) / target.name, data)
            written.add(key)
            if key == "report.pdf":
                values["compile"] = {**(values.get("compile") or {}), "pdf": str(target)}
    except OSError as exc:
        raise OutputsUnwritten(f"cannot write the outputs to {str(out)!r}: {exc}") from exc
    if "report.pdf" not in written and (values.get("compile") or {}).get("pdf"):
        values["compile"] = {**values["compile"], "pdf": None}  # it stayed on the server
    return write_outputs(out, thread_id, values, outcome)


def published_files(client: Any, thread_id: str, notes: list[str]) -> Iterator[tuple[str, bytes]]:
    """The files the thread's run published (nodes/publish.py), by their path in OUT/, one at
    a time. Whatever the server answers, this ends and holds one file at a time: an item over
    MAX_ANSWER_BYTES is skipped, a page that brings nothing new (a server that ignores the
    offset) ends the reading, and so do MAX_PAGES pages; each with a line in `notes`."""
    seen: set[str] = set()
    offset = 0
    for page in range(MAX_PAGES):
        items = _page(client, thread_id, offset)
        if items is None:
            notes.append(OVERSIZED.format(offset=offset, mb=MAX_ANSWER_BYTES // 2**20))
            offset += 1
            continue
        fresh = [
            item
            for item in items
            if isinstance(item, dict)
            and isinstance(item.get("key"), str)
            and item["key"] not in seen
        ]
        if not fresh:
            if items:
                notes.append(ENDLESS.format(pages=page + 1, why="the server repeats a page"))
            return
        for item in fresh:
            key = item["key"]
            seen.add(key)
            try:
                yield key, base64.b64decode(item["value"]["base64"], validate=True)
            except (KeyError, TypeError, binascii.Error):
                notes.append(SKIPPED.format(key=_shown(key), why="it holds no file"))
        offset += len(items)
    notes.append(ENDLESS.format(pages=MAX_PAGES, why="the server has more"))


def _page(client: Any, thread_id: str, offset: int) -> list[Any] | None:
    """The store items at `offset` (one asked for), or None when the answer is over
    MAX_ANSWER_BYTES; read as it streams in, so a huge answer is never held whole."""
    query = {"namespace_prefix": [NAMESPACE, thread_id], "limit": 1, "offset": offset}
    # The SDK's own HTTP client (the server's address and headers): its search_items reads
    # an answer whole, whatever its size.
    with client.http.client.stream("POST", "/store/items/search", json=query) as answer:
        body = bytearray()
        for chunk in answer.iter_bytes():
            body += chunk
            if len(body) > MAX_ANSWER_BYTES:
                return None
    # Raised from a response that holds its body, which the batch's error message quotes.
    httpx.Response(
        answer.status_code, content=bytes(body), request=answer.request
    ).raise_for_status()
    try:
        items = json.loads(body).get("items")
    except (ValueError, AttributeError):
        return []
    return items if isinstance(items, list) else []


def _shown(key: str) -> str:
    return repr(key if len(key) <= 60 else f"{key[:60]}...")


def _target(out: Path, key: str) -> Path | None:
    """Where a published file goes in OUT/: the PDF, or a figure named as labscribe names
    figures (tools/sandbox/figure_names.py, a bounded stem); never anywhere else."""
    if key == "report.pdf":
        return out / "report.pdf"
    folder, _, name = key.partition("/")
    stem = name.removesuffix(".png")
    if folder == "figures" and name == f"{stem}.png" and sanitize_name(stem) == stem:
        return out / "figures" / name
    return None
