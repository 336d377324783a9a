"""What a guard answers. Guards decide; the node that asked turns the answer into an update."""

from __future__ import annotations

from dataclasses import dataclass

from labscribe.guards.statuses import Termination


@dataclass(frozen=True)
class Allow:
    """Run the call as asked."""


@dataclass(frozen=True)
class Warn:
    """Run the call, and close its result with `nudge`."""

    nudge: str


@dataclass(frozen=True)
class Block:
    """Do not show the call's answer; answer it with `message` as an error result."""

    message: str


@dataclass(frozen=True)
class Halt:
    """Stop exploring: the loop has collapsed. `reason` says why, for people."""

    reason: str
    cause: Termination


Verdict = Allow | Warn | Block | Halt

_SEVERITY = {Allow: 0, Warn: 1, Block: 2, Halt: 3}


def most_severe(*verdicts: Verdict) -> Verdict:
    """The strictest of `verdicts`; among equals the first, so callers list the most telling
    detector first (an identical call says more than a run of calls that added nothing)."""
    return max(verdicts, key=lambda verdict: _SEVERITY[type(verdict)], default=Allow())
