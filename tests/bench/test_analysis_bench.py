"""The analysis bench's promise, kept by CI on a small corpus: the fits recover the known
physics within their stated uncertainties, and choose the true model."""

from __future__ import annotations

from pathlib import Path

from benchmodule import load

# loaded under its own name: LoopBench's run.py is imported as "run" by its own test
bench = load("analysis/run.py", "analysis_bench_run")

RECOVERY = 0.9  # true parameters within 2σ of the fit: ≈95 % when the errors are honest


def test_analysis_bench_recovers_the_truth_and_the_model(tmp_path: Path) -> None:
    outcomes = bench.run(2, tmp_path, memory=False)
    recovered = sum(o.recovered for o in outcomes)
    total = sum(o.parameters for o in outcomes)
    assert recovered >= RECOVERY * total, [m for o in outcomes for m in o.misses]
    assert [(o.physics, c) for o in outcomes for c in o.chosen if c != o.model] == []
    assert len({o.format for o in outcomes}) == 6
