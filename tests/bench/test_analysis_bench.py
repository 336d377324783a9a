"""The analysis bench's promise, kept by CI on a small corpus: the fits recover the known
physics within their stated uncertainties, and choose the true model."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

RUN = Path(__file__).resolve().parents[2] / "bench" / "analysis" / "run.py"
# loaded under its own name: LoopBench's run.py is imported as "run" by its own test
_spec = importlib.util.spec_from_file_location("analysis_bench_run", RUN)
assert _spec is not None and _spec.loader is not None
bench = importlib.util.module_from_spec(_spec)
sys.modules["analysis_bench_run"] = bench  # dataclasses look their module up there
_spec.loader.exec_module(bench)

RECOVERY = 0.9  # true parameters within 2σ of the fit: ≈95 % when the errors are honest


def test_analysis_bench_recovers_the_truth_and_the_model(tmp_path: Path) -> None:
    outcomes = bench.run(2, tmp_path, memory=False)
    recovered = sum(o.recovered for o in outcomes)
    total = sum(o.parameters for o in outcomes)
    assert recovered >= RECOVERY * total, [m for o in outcomes for m in o.misses]
    assert [(o.physics, c) for o in outcomes for c in o.chosen if c != o.model] == []
    assert len({o.format for o in outcomes}) == 6
