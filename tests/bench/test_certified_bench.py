"""The certified-data bench's promise, kept by CI: the model a handout writes out is fitted,
from labscribe's own start values, to NIST's certified optimum."""

from __future__ import annotations

from pathlib import Path

from benchmodule import load

bench = load("analysis/certified.py", "certified_bench")


def test_certified_bench_converges_on_every_dataset(tmp_path: Path) -> None:
    outcomes = bench.run(tmp_path)
    # every one-predictor set with 5 points or more: Nelson, Longley and NoInt2 left out
    assert len(outcomes) == 35
    assert {o.difficulty for o in outcomes} == {"lower", "average", "higher"}
    assert [(o.name, o.misses) for o in outcomes if not o.converged] == []
