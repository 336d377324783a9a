"""What the tests of `labscribe batch --server` share: a class of folders, an explorer that
collapses in a marked folder until a human's nudge, the endpoint's flags, and readers of what
the batch and the server kept."""

from __future__ import annotations

import json
import os
import shutil
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from langgraph_dev import LANGGRAPH
from scripted_server import Choose, Hang, ScriptedEndpoint, tool_reply

SERVER_TESTS = [
    # one `langgraph dev` serves them all (conftest.langgraph_server): one xdist worker runs them
    pytest.mark.xdist_group("langgraph_server"),
    pytest.mark.skipif(
        os.environ.get("CI") is None and not LANGGRAPH.exists(),
        reason="langgraph-cli is not installed here (.ci/setup --test installs it)",
    ),
]
FINISH = tool_reply(
    ("finish_exploration", {"experiment": "RLC", "goal": "f0", "key_findings": ["5 kHz"]})
)
LOOK = tool_reply(("list_dir", {"path": "."}))
NUDGE = "Stop listing the folder. Call finish_exploration with what you know."
MARKER = "collapse-me.txt"
SLOW = "slow.txt"
OPTIONS = ["--reflect", "0", "--no-compile", "--no-figures"]
OUTPUTS = {"report.tex", "history.json", "run.json", "events.jsonl", "figures"}  # no references


def course_of(data: Path, root: Path, names: list[str], marked: dict[str, str]) -> Path:
    course = root / "course"
    for name in names:
        shutil.copytree(data, course / name)
    for name, marker in marked.items():
        (course / name / marker).write_text("the scripted endpoint knows this folder\n")
    return course


def explorer(hang: Hang | None = None, collapsing: dict[str, bool] | None = None) -> Choose:
    """Look once, then finish. The marked folder's explorer looks forever until a human's
    nudge (or while `collapsing["on"]`, when given); the slow folder's second turn waits on
    `hang`."""

    def pick(body: dict[str, Any]) -> Any:
        said = json.dumps(body["messages"])
        stuck = collapsing["on"] if collapsing is not None else NUDGE not in said
        if MARKER in said and stuck:
            return LOOK
        turns = sum(1 for m in body["messages"] if m["role"] == "assistant")
        if turns == 0:
            return LOOK
        return hang if hang is not None and SLOW in said else FINISH

    return Choose(pick)


def flags(endpoint: ScriptedEndpoint, key: str = "test-key") -> list[str]:
    return [
        "--base-url", endpoint.url, "--api-key", key,
        "--explore-model", "explorer", "--write-model", "writer",
    ]  # fmt: skip


def entries_by_folder(out: Path) -> dict[str, dict]:
    manifest = json.loads((out / "batch.json").read_text())
    return {Path(entry["folder"]).name: entry for entry in manifest["entries"]}


def runs_of(client: Any, thread_id: str) -> list[dict]:
    return client.runs.list(thread_id, limit=100)


def most_at_once(runs: list[dict]) -> int:
    """The most runs that were submitted and not yet ended at any one moment."""
    moments = []
    for run in runs:
        moments += [(datetime.fromisoformat(run["created_at"]), 1)]
        moments += [(datetime.fromisoformat(run["updated_at"]), -1)]
    most = now = 0
    for _, change in sorted(moments):
        now += change
        most = max(most, now)
    return most
