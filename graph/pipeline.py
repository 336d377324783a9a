"""The pipeline's stages in order: the one list the graph and the progress plan come from.

A new stage joins with one line in STAGES; `milestones` says how many progress milestones
it counts for under a configuration and toolchain (0 switches it off, reflect counts N).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from langgraph.runtime import Runtime

from labscribe.guards.guard_state import GuardState
from labscribe.guards.paths import folder_problem
from labscribe.nodes.bib import bib
from labscribe.nodes.compile import compile_report, no_pdf
from labscribe.nodes.draft import draft
from labscribe.nodes.explore import explore
from labscribe.nodes.figures import figures
from labscribe.nodes.gap import gap
from labscribe.nodes.reflect import reflect
from labscribe.nodes.runtime.context import Context
from labscribe.nodes.runtime.state import State
from labscribe.nodes.scan import scan
from labscribe.tools.sandbox.latex import toolchain_problem
from labscribe.tools.tool import folder_identity


def _once(ctx: Context, xelatex: bool) -> int:
    return 1


@dataclass(frozen=True)
class Stage:
    name: str
    node: Callable[..., dict[str, Any]]
    milestones: Callable[[Context, bool], int] = _once
    """Milestones under a configuration, given whether xelatex is here."""


STAGES: tuple[Stage, ...] = (
    Stage("scan", scan),
    Stage("explore", explore),
    Stage("figures", figures, lambda ctx, xelatex: int(ctx.figures)),
    Stage("gap", gap),
    Stage("draft", draft),
    Stage("reflect", reflect, lambda ctx, xelatex: ctx.reflect),
    Stage("bib", bib),
    Stage("compile", compile_report, lambda ctx, xelatex: int(ctx.compile and xelatex)),
)


def plan_for(ctx: Context, xelatex: bool) -> list[str]:
    """The run's milestones, from configuration and the toolchain, before anything runs."""
    return [stage.name for stage in STAGES for _ in range(stage.milestones(ctx, xelatex))]


def prepare(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """Check the input and record what the run needs to resume on the same terms."""
    problem = folder_problem(state["folder"])
    if problem:
        raise ValueError(problem)
    ctx = runtime.context
    folder = Path(state["folder"]).expanduser().resolve()
    return {
        "folder": str(folder),
        "folder_identity": list(folder_identity(folder)),
        "options": ctx.options(),
        "plan": plan_for(ctx, toolchain_problem() is None),
        "guard": GuardState().dump(),
        "compile": no_pdf(ctx),
    }
