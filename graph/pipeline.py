"""The pipeline's stages in order: the one list the graph and the progress plan come from.

A new stage joins with one line in STAGES; `milestones` says how many progress milestones
it counts for under a configuration (0 switches it off, reflect counts N).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from langgraph.runtime import Runtime

from labscribe.graph.context import Context
from labscribe.graph.state import State
from labscribe.guards.guard_state import GuardState
from labscribe.guards.inputs import folder_problem
from labscribe.nodes.draft import draft
from labscribe.nodes.explore import explore
from labscribe.nodes.scan import scan


def _once(ctx: Context) -> int:
    return 1


@dataclass(frozen=True)
class Stage:
    name: str
    node: Callable[..., dict[str, Any]]
    milestones: Callable[[Context], int] = _once


STAGES: tuple[Stage, ...] = (
    Stage("scan", scan),
    Stage("explore", explore),
    Stage("draft", draft),
)


def plan_for(ctx: Context) -> list[str]:
    """The run's milestones, from configuration alone, before anything runs."""
    return [stage.name for stage in STAGES for _ in range(stage.milestones(ctx))]


def prepare(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """Check the input and record what the run needs to resume on the same terms."""
    problem = folder_problem(state["folder"])
    if problem:
        raise ValueError(problem)
    ctx = runtime.context
    return {
        "folder": str(Path(state["folder"]).expanduser().resolve()),
        "options": ctx.options(),
        "plan": plan_for(ctx),
        "guard": GuardState().dump(),
    }
