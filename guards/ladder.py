"""The loop ladder: identical calls are warned, then blocked, then halted.

Counting is per call identity within an attempt (`identity.py`), so paging and any other
call that asks for something new starts at one. Read-only calls tolerate more repeats than
mutating or costly ones, and the terminal call is never counted. Each tool declares its
class where it is defined; configuration may move a tool between read-only and mutating,
never into or out of terminal.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from labscribe.guards.guard_state import ProgressPolicy
from labscribe.guards.messages import BLOCK_ERROR, HALT_REASON, WARN_NUDGE
from labscribe.guards.patterns import CyclePolicy
from labscribe.guards.statuses import Allow, Block, Halt, Termination, Verdict, Warn


class ToolClass(StrEnum):
    READ_ONLY = "read-only"
    MUTATING = "mutating"  # mutating or costly: repeats waste money or change things
    TERMINAL = "terminal"  # ends the loop; repeating it is never a collapse


Rung = Literal["warn", "block", "halt"]


class Rungs(BaseModel):
    """On which identical call (1-based) each rung of the ladder applies. None: never."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    warn: int | None = Field(ge=2, description="This identical call runs, with a closing nudge.")
    block: int | None = Field(ge=2, description="This identical call is answered, not executed.")
    halt: int | None = Field(ge=2, description="This identical call halts exploration.")

    @model_validator(mode="after")
    def _ordered(self) -> Rungs:
        steps = [n for n in (self.warn, self.block, self.halt) if n is not None]
        if steps != sorted(set(steps)):
            raise ValueError(f"ladder rungs must rise warn < block < halt, got {self!r}")
        return self

    def rung(self, count: int) -> Rung | None:
        """The highest rung the `count`-th call has reached, or None below the first."""
        if self.halt is not None and count >= self.halt:
            return "halt"
        if self.block is not None and count >= self.block:
            return "block"
        if self.warn is not None and count >= self.warn:
            return "warn"
        return None


# 3rd identical read warns: the answer is already in context, so a re-read is a smell.
# 5th identical read halts: paging uses different offsets, so a 5th identical call is
# never paging, and by then the nudge and a refused call have both been ignored.
READ_ONLY_RUNGS = Rungs(warn=3, block=4, halt=5)
# A repeated figure costs a sandbox run and writes a file: one repeat is already a smell.
MUTATING_RUNGS = Rungs(warn=2, block=3, halt=4)


class LadderPolicy(BaseModel):
    """Where each class's rungs are, which tools are re-classed, and the other detectors."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    tool_classes: dict[str, ToolClass] = Field(
        default_factory=dict,
        description="Re-class tools by name, read-only <-> mutating; every tool declares its "
        "own class, and the terminal tool cannot be re-classed.",
    )
    read_only: Rungs = Field(default=READ_ONLY_RUNGS, description="Rungs for read-only tools.")
    mutating: Rungs = Field(
        default=MUTATING_RUNGS, description="Rungs for mutating or costly tools."
    )
    cycles: CyclePolicy | None = Field(
        default_factory=CyclePolicy,
        description="Cycles of different calls (A-B-A-B) that warn and halt; None: off.",
    )
    progress: ProgressPolicy | None = Field(
        default_factory=ProgressPolicy,
        description="Runs of calls that add nothing new warn, block and halt on the read-only "
        "rungs, one call earlier than identical calls; None: off.",
    )

    @model_validator(mode="after")
    def _never_terminal(self) -> LadderPolicy:
        made_terminal = sorted(n for n, c in self.tool_classes.items() if c is ToolClass.TERMINAL)
        if made_terminal:
            raise ValueError(
                f"tool_classes cannot make a tool terminal ({', '.join(made_terminal)}): only "
                "finish_exploration ends exploration"
            )
        return self

    def rungs_for(self, tool_class: ToolClass) -> Rungs | None:
        """The rungs of a class, or None when its calls are never counted."""
        return {
            ToolClass.READ_ONLY: self.read_only,
            ToolClass.MUTATING: self.mutating,
            ToolClass.TERMINAL: None,
        }[tool_class]

    def classes(self, declared: Mapping[str, ToolClass]) -> dict[str, ToolClass]:
        """Every tool's class: as the tool declares it, re-classed by configuration.

        Raises ValueError naming the tool when configuration re-classes an unknown tool or
        a terminal one: counting finish_exploration would halt a run that is finishing.
        """
        unknown = sorted(set(self.tool_classes) - set(declared))
        if unknown:
            raise ValueError(
                f"tool_classes names no tool: {', '.join(unknown)}; the tools are "
                f"{', '.join(declared)}"
            )
        for name in self.tool_classes:
            if declared[name] is ToolClass.TERMINAL:
                raise ValueError(
                    f"tool_classes cannot re-class {name}: it is the terminal tool, which ends "
                    "exploration and is never counted"
                )
        return {**declared, **self.tool_classes}


def climb(rungs: Rungs, tool: str, count: int) -> Verdict:
    """The verdict for the `count`-th identical call of `tool` (1-based)."""
    rung = rungs.rung(count)
    if rung == "halt":
        return Halt(HALT_REASON.format(tool=tool, count=count), Termination.REPEATED_CALL)
    if rung == "block":
        return Block(BLOCK_ERROR.format(tool=tool, count_before=count - 1))
    if rung == "warn":
        return Warn(WARN_NUDGE.format(tool=tool, count=count))
    return Allow()
