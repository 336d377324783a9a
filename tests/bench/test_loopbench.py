"""LoopBench's promise, kept by CI: labscribe catches every collapse in the corpus, with no
false alarm, and stops them sooner than any other policy without false alarms."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest

LOOPBENCH = Path(__file__).resolve().parents[2] / "bench" / "loopbench"
sys.path[:0] = [str(LOOPBENCH), str(LOOPBENCH.parent)]

from corpus import FINAL, corpus, load  # noqa: E402
from peers import peer_trajectories  # noqa: E402
from policies import Trajectory  # noqa: E402
from run import run_all, summary_table  # noqa: E402

# The module fixture runs the whole bench once: its tests stay on one worker.
pytestmark = pytest.mark.xdist_group("loopbench")

KINDS = {
    "exact repetition", "keys reordered", "non-semantic field varies", "A-B cycle",
    "A-B-C cycle", "same error, varying arguments", "poll whose result changes", "paging",
    "re-read after the file changed", "wandering", "recovers after the warn",
    "parallel identical calls", "path spellings", "result ignored", "re-read between steps",
    "debugging", "empty replies", "many distinct calls", "failures taking turns",
}  # fmt: skip
CAP = 20
"""The iteration cap: a loop-free trajectory ends, final answer included, in fewer calls."""


def test_the_corpus_is_labelled_and_covers_every_kind() -> None:
    _, data = load()
    assert data == corpus(), "regenerate: .venv/bin/python bench/loopbench/corpus.py"
    assert len(data) >= 40
    assert set(Counter(item["covers"] for item in data)) == KINDS
    for item in data:
        if item["collapse_at"] is None:
            assert item["replies"][-1] == FINAL and not item["loop"], item["name"]
            assert len(item["replies"]) < CAP, item["name"]
        else:  # it begins at the latest where the loop's first round is repeated
            last = len(item["replies"]) + len(item["loop"]) + 1
            assert item["loop"] and 1 <= item["collapse_at"] <= last, item["name"]
    # Those translated from other agents' tests and issues say where they come from.
    peers = {item["name"] for item in peer_trajectories()}
    assert len(peers) >= 30
    found = [item for item in data if item["name"] in peers]
    assert len(found) == len(peers)
    for item in found:
        source = item["source"]
        assert set(source) == {"peer", "ref", "test"}, item["name"]
        assert all(isinstance(v, str) and v.strip() for v in source.values()), item["name"]
        assert isinstance(item["peer_verdict"], str) and item["peer_verdict"].strip()
    assert all("source" not in item for item in data if item["name"] not in peers)


@pytest.fixture(scope="module")
def bench() -> tuple:
    return run_all()


def test_the_bench_runs_on_one_worker(request: pytest.FixtureRequest) -> None:
    """Under `-n 2 --dist loadgroup` (the README's command) the group is part of the node
    id; a pytest that drops it runs the whole bench on each worker."""
    if not request.config.getoption("loadgroup", False):
        pytest.skip("only `--dist loadgroup` groups tests; this run does not distribute them")
    assert request.node.nodeid.endswith("@loopbench")


def test_labscribe_catches_every_collapse_without_a_false_alarm(bench) -> None:
    trajectories, outcomes, _ = bench
    mine = outcomes["labscribe (this repository)"]
    for trajectory in trajectories:
        outcome = mine[trajectory.name]
        if trajectory.collapse_at is None:
            assert outcome.stopped_at is None and outcome.first_block is None, trajectory.name
        else:
            assert outcome.stopped_by == "loop rule", trajectory.name
            assert outcome.stopped_at >= trajectory.collapse_at, trajectory.name


def test_labscribe_stops_collapses_soonest_of_the_policies_without_false_alarms(bench) -> None:
    trajectories, outcomes, chosen = bench
    collapses = [t for t in trajectories if t.collapse_at is not None]
    clean = [t for t in trajectories if t.collapse_at is None]

    def mean_latency(name: str) -> float:
        return sum(outcomes[name][t.name].stopped_at - t.collapse_at for t in collapses) / len(
            collapses
        )

    def false_alarms(name: str) -> int:
        got = outcomes[name]
        return sum(got[t.name].stopped_at is not None or got[t.name].first_block is not None
                   for t in clean)  # fmt: skip

    mine = mean_latency("labscribe (this repository)")
    rivals = [p.name for p in chosen if p.name != "labscribe (this repository)"]
    assert all(mine < mean_latency(name) for name in rivals if false_alarms(name) == 0)
    rows = summary_table(trajectories, outcomes, chosen)
    assert len(rows) == 2 + len(chosen)


def test_a_trajectory_replays_its_file_changes(tmp_path: Path) -> None:
    files, data = load()
    poll = Trajectory(next(item for item in data if item["name"] == "poll-until-done"), files)
    folder = poll.make_folder(tmp_path)
    model = poll.model(folder)
    for _ in range(3):
        model.invoke("next")
    assert (folder / "status.log").read_text() == "state: running 30% (3)\n"
