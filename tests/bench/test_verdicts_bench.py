"""The verdict bench's promise, kept by CI on a few cells: a true model is rarely called
wrong, white or mildly correlated noise alike, and a wrong one is caught where the misfit
stands out of the noise."""

from __future__ import annotations

from benchmodule import load

bench = load("analysis/verdicts.py", "verdicts_bench")


def test_verdicts_bench_keeps_false_alarms_rare_and_catches_misfits() -> None:
    counts = bench.run(4, sizes=(15, 100), levels=(0.01,))
    true = sum(c.true_fits for c in counts.values())
    wrong = sum(c.wrong_fits for c in counts.values())
    assert true >= 110 and wrong >= 110  # 5 laws, 3 kinds of noise, 2 sizes, 4 draws
    assert sum(c.alarms for c in counts.values()) <= 0.05 * true
    assert sum(c.caught for c in counts.values()) >= 0.8 * wrong  # 1 % noise: the bench's 99 %
