"""figures: the report's figures, drawn from the data in the sandbox; only rendered ones stay."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from langchain_core.messages import HumanMessage, SystemMessage
from langgraph.runtime import Runtime

from labscribe.nodes.halts import nudged
from labscribe.nodes.material import analysis_text, figure_list, findings_text
from labscribe.nodes.prompts import FIGURES_BRIEF, FIGURES_SYSTEM, NO_DATA_TABLES, NOTHING_LISTED
from labscribe.nodes.runtime.context import Context
from labscribe.nodes.runtime.models import (
    ask,
    chat_model,
    context_window,
    idle_reason,
    role_of,
    spent,
)
from labscribe.nodes.runtime.state import State, data_folder, emit, figures_dir, milestone, skipped
from labscribe.tools.base import ToolError
from labscribe.tools.explorer.figures import figure_record, render
from labscribe.tools.explorer.reading import read_in
from labscribe.tools.explorer.scanning import files_with_suffix
from labscribe.tools.formats.tables import TEXT_SUFFIXES
from labscribe.tools.tool import Folder

FIGURES_WANTED = 3
TABLE_HEAD_LINES = 6
_ARRAY = re.compile(r"\[.*\]", re.DOTALL)


def figures(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """Nothing, and no milestone, when figures are switched off."""
    ctx = runtime.context
    if not ctx.figures:
        return {}
    if reason := idle_reason(ctx, "figures"):
        return skipped(state, ["figures"], reason)
    folder = data_folder(state, figures=figures_dir(state))
    brief = FIGURES_BRIEF.format(
        tables=_table_heads(folder),
        analysis=analysis_text(state),
        drawn=figure_list(state) or NOTHING_LISTED,
        findings=findings_text(state, context_window(ctx, role_of("figures")) // 4),
    )
    reply = ask(
        chat_model(ctx, role_of("figures")),
        [
            SystemMessage(FIGURES_SYSTEM.format(count=FIGURES_WANTED)),
            HumanMessage(brief),
            *nudged(state),
        ],
        "figures",
    )
    specs = figure_specs(reply.text)[:FIGURES_WANTED]
    kept, failed = [], []
    for number, spec in enumerate(specs, start=1):
        emit({"event": "progress", "stage": "figures",
              "detail": f"drawing figure {number} of {len(specs)}"})  # fmt: skip
        result = render(folder, spec["code"], spec["name"])
        if result.ok and result.png is not None:
            kept.append(figure_record(result.png, spec.get("caption", "")))
        else:
            failed.append(
                f"{spec['name']}: {result.error.splitlines()[0] if result.error else 'failed'}"
            )
    detail = f"{len(kept)} of {len(specs)} figures rendered" + (
        f" (dropped: {'; '.join(failed)})" if failed else ""
    )
    return {"figures": kept} | spent("figures", reply) | milestone(state, "figures", detail)


def figure_specs(reply: str) -> list[dict[str, str]]:
    """The {"name", "caption", "code"} items of a model's JSON list; malformed items dropped."""
    match = _ARRAY.search(reply)
    try:
        items = json.loads(match.group(0)) if match else []
    except ValueError:
        return []
    return [
        item
        for item in items if isinstance(item, dict)
        and isinstance(item.get("code"), str) and isinstance(item.get("name"), str)
    ]  # fmt: skip


def _table_heads(folder: Folder) -> str:
    heads = []
    try:
        tables = files_with_suffix(Path(folder.base()), TEXT_SUFFIXES, limit=10)
    except ToolError:  # the folder is no longer the run's: there is nothing to show
        tables = []
    for rel in tables:
        try:
            heads.append(read_in(folder, rel, TABLE_HEAD_LINES))
        except ToolError:
            continue
    return "\n\n".join(heads) or NO_DATA_TABLES
