"""LoopBench trajectories translated from other agents' own test suites and issue trackers.

Every scenario here was read in the peer's repository (a test case, the rule it tests, or an
issue report) and re-expressed with labscribe's tools on the shared LoopBench folder. Each
trajectory says where it comes from (`source`: peer, ref, test) and what the peer's test
expects in its own terms (`peer_verdict`). `collapse_at` follows corpus.py's definition
only: the first model call that adds nothing the explorer has not already seen; it is never
taken from what a guard, labscribe's or a peer's, happens to do.

Built by corpus.py (`corpus()` appends `peer_trajectories()`). The scenarios are in
peer_disguised_repeats.py, peer_detector_classics.py and peer_failures_taking_turns.py, what
they are built from in peer_kit.py; they import corpus.py's helpers, so corpus.py imports
this module lazily.
"""

from __future__ import annotations

from typing import Any

from peer_detector_classics import classics, empty_replies, failures
from peer_disguised_repeats import cache_and_progress, path_spellings, results_ignored
from peer_failures_taking_turns import (
    failures_taking_turns,
    guessed_names,
    progress_that_looks_alike,
    spellings_and_costly_repeats,
)


def peer_trajectories() -> list[dict[str, Any]]:
    return [
        *path_spellings(),
        *results_ignored(),
        *cache_and_progress(),
        *failures(),
        *empty_replies(),
        *classics(),
        *failures_taking_turns(),
        *guessed_names(),
        *spellings_and_costly_repeats(),
        *progress_that_looks_alike(),
    ]
