"""What a guard answers. Guards decide; the node that asked turns the answer into an update."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Allow:
    """Run the call as asked."""


@dataclass(frozen=True)
class Warn:
    """Run the call, and close its result with `nudge`."""

    nudge: str


@dataclass(frozen=True)
class Block:
    """Do not run the call; answer it with `message` as an error result."""

    message: str


@dataclass(frozen=True)
class Halt:
    """Stop exploring: the loop has collapsed. `reason` says why, for people."""

    reason: str


Verdict = Allow | Warn | Block | Halt
