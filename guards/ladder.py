"""The loop ladder: identical calls are warned, then blocked, then halted.

Counting is per call fingerprint within a run (`fingerprint.py`), so paging and any
other call with new arguments starts at one. Read-only calls tolerate more repeats
than mutating or costly ones, and the terminal call is never counted.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field, model_validator

from labscribe.guards.cycles import CyclePolicy
from labscribe.guards.verdicts import Allow, Block, Halt, Verdict, Warn


class ToolClass(StrEnum):
    READ_ONLY = "read-only"
    MUTATING = "mutating"  # mutating or costly: repeats waste money or change things
    TERMINAL = "terminal"  # ends the loop; repeating it is never a collapse


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


# 3rd identical read warns: the answer is already in context, so a re-read is a smell.
# 5th identical read halts: paging uses different offsets, so a 5th identical call is
# never paging, and by then the nudge and a refused call have both been ignored.
READ_ONLY_RUNGS = Rungs(warn=3, block=4, halt=5)
# A repeated figure costs a sandbox run and writes a file: one repeat is already a smell.
MUTATING_RUNGS = Rungs(warn=2, block=3, halt=4)

DEFAULT_TOOL_CLASSES: Mapping[str, ToolClass] = {
    "list_dir": ToolClass.READ_ONLY,
    "read_file": ToolClass.READ_ONLY,
    "read_image": ToolClass.READ_ONLY,
    "make_figure": ToolClass.MUTATING,
    "finish_exploration": ToolClass.TERMINAL,
}

WARN_NUDGE = (
    "[labscribe] You have now called {tool} {count} times with exactly these arguments. "
    "Its result is already above. Stop repeating it: read something new, or call "
    "finish_exploration with what you have found."
)
BLOCK_ERROR = (
    "Not executed: {tool} was already called {count_before} times with exactly these "
    "arguments, and the result is above. One more identical call halts exploration. "
    "Call something different, or call finish_exploration."
)
HALT_REASON = "{tool} was called {count} times with identical arguments"


class LadderPolicy(BaseModel):
    """Which tool belongs to which class, and where each class's rungs are."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    tool_classes: dict[str, ToolClass] = Field(
        default_factory=lambda: dict(DEFAULT_TOOL_CLASSES),
        description="Tool name to class; a tool not listed is treated as read-only.",
    )
    read_only: Rungs = Field(default=READ_ONLY_RUNGS, description="Rungs for read-only tools.")
    mutating: Rungs = Field(
        default=MUTATING_RUNGS, description="Rungs for mutating or costly tools."
    )
    cycles: CyclePolicy | None = Field(
        default_factory=CyclePolicy,
        description="Cycles of different calls (A-B-A-B) that warn and halt; None: off.",
    )

    def class_of(self, tool: str) -> ToolClass:
        return self.tool_classes.get(tool, ToolClass.READ_ONLY)

    def rungs_for(self, tool: str) -> Rungs | None:
        """The rungs that apply to `tool`, or None when its calls are never counted."""
        return {
            ToolClass.READ_ONLY: self.read_only,
            ToolClass.MUTATING: self.mutating,
            ToolClass.TERMINAL: None,
        }[self.class_of(tool)]


def climb(rungs: Rungs, tool: str, count: int, *, nudge_available: bool) -> Verdict:
    """The verdict for the `count`-th identical call of `tool` (1-based).

    The warn rung only nudges while `nudge_available`: the nudge costs context, so it is
    given once per run and later warn-rung calls simply run.
    """
    if rungs.halt is not None and count >= rungs.halt:
        return Halt(HALT_REASON.format(tool=tool, count=count))
    if rungs.block is not None and count >= rungs.block:
        return Block(BLOCK_ERROR.format(tool=tool, count_before=count - 1))
    if rungs.warn is not None and count >= rungs.warn and nudge_available:
        return Warn(WARN_NUDGE.format(tool=tool, count=count))
    return Allow()
