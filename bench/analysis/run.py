"""The analysis bench: does `tools.analysis.folder.analyse` recover known physics?

    .venv/bin/python bench/analysis/run.py            # 6 seeds of 6 laws
    .venv/bin/python bench/analysis/run.py --seeds 2
    .venv/bin/python bench/analysis/run.py --no-assignment   # the standard models alone

Generates the corpus (bench/analysis/analysis_corpus.py) in a temporary folder, analyses each
experiment folder, and reports per law: how many true parameters lie within 2 standard
errors of the fitted value (the stated uncertainty) in the first fit of each table (the
model the folder's handout asks for, or without one the best standard model), how often the
best standard model by BIC is the true one, and the time and peak memory (tracemalloc,
Python and NumPy allocations) each folder cost. Time is measured on a run without
tracemalloc, which slows allocation.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tempfile
import time
import tracemalloc
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from analysis_corpus import generate  # noqa: E402 - the path above makes it importable

from labscribe.tools.analysis.folder import Analysis, analyse  # noqa: E402
from labscribe.tools.tool import Folder  # noqa: E402

COMMAND = ".venv/bin/python bench/analysis/run.py"
SIGMAS = 2.0  # a true value within 2 standard errors counts as recovered (≈95 % if honest)


@dataclass
class Outcome:
    """One experiment folder, analysed."""

    physics: str
    format: str
    model: str
    chosen: list[str | None] = field(default_factory=list)
    """The model of each table's first fit (the one a report states first)."""
    best: list[str | None] = field(default_factory=list)
    """The best standard model by BIC of each table."""
    recovered: int = 0
    parameters: int = 0
    misses: list[str] = field(default_factory=list)
    seconds: float = 0.0
    peak_mb: float = 0.0


def judge(truth: dict, analysis: Analysis) -> Outcome:
    """Compare the fits of `analysis` with the truth of its folder."""
    outcome = Outcome(truth["physics"], truth["format"], truth["model"])
    several = len(truth["blocks"]) > 1
    for block in truth["blocks"]:
        table = f"{truth['source']}#{block['block']}" if several else truth["source"]
        fit = next((f for f in analysis.fits if f.table == table), None)
        # the best standard model is listed apart only where it differs from the requested one
        best = next((f for f in analysis.fits if f.table == table and not f.requested), fit)
        outcome.chosen.append(fit.model if fit else None)
        outcome.best.append(best.model if best else None)
        for name, true in block["params"].items():
            outcome.parameters += 1
            # an offset found 0 within its error is left out of the model, as fitted before
            found = (
                {p.name: p for p in [*fit.parameters, *fit.left_out]}
                if fit and fit.model == truth["model"]
                else {}
            )
            parameter = found.get(name)
            if parameter is None or parameter.stderr is None:
                outcome.misses.append(f"{table}: {name} not fitted")
                continue
            error = parameter.value - true
            if name == "phase":
                error = (error + math.pi) % (2 * math.pi) - math.pi
            if abs(error) <= SIGMAS * parameter.stderr:
                outcome.recovered += 1
            else:
                outcome.misses.append(
                    f"{table}: {name} = {parameter.value:.6g} ± {parameter.stderr:.2g}, "
                    f"true {true:.6g} ({abs(error) / parameter.stderr:.1f}σ)"
                )
    return outcome


def run(seeds: int, root: Path, *, memory: bool = True, assignment: bool = True) -> list[Outcome]:
    """Generate the corpus under `root` and judge the analysis of each folder; `memory`
    analyses each a second time, under tracemalloc, for its peak."""
    outcomes = []
    for truth_path in generate(root, seeds, assignment=assignment):
        truth = json.loads(truth_path.read_text())
        folder = Folder(root / truth["folder"])
        started = time.perf_counter()
        analysis = analyse(folder)
        outcome = judge(truth, analysis)
        outcome.seconds = time.perf_counter() - started
        if memory:
            tracemalloc.start()
            analyse(folder)
            outcome.peak_mb = tracemalloc.get_traced_memory()[1] / 1e6
            tracemalloc.stop()
        outcomes.append(outcome)
    return outcomes


def report(outcomes: list[Outcome], seeds: int, *, assignment: bool = True) -> str:
    by_physics: dict[str, list[Outcome]] = defaultdict(list)
    for outcome in outcomes:
        by_physics[outcome.physics].append(outcome)
    flag = "" if assignment else " --no-assignment"
    lines = [
        f"`{COMMAND} --seeds {seeds}{flag}`: {len(outcomes)} folders, "
        f"{sum(len(o.chosen) for o in outcomes)} tables"
        + (", each with a handout naming its model." if assignment else ", no handout."),
        "",
        "| physics | formats | true parameters within 2σ | first fit's model right | best "
        "standard model right | time per folder, mean (max) | peak memory, mean (max) |",
        "|---|---|---|---|---|---|---|",
    ]
    for physics, group in by_physics.items():
        recovered = sum(o.recovered for o in group)
        total = sum(o.parameters for o in group)
        right = sum(chosen == o.model for o in group for chosen in o.chosen)
        best = sum(chosen == o.model for o in group for chosen in o.best)
        tables = sum(len(o.chosen) for o in group)
        formats = ", ".join(sorted({o.format for o in group}))
        seconds = [o.seconds for o in group]
        memory = [o.peak_mb for o in group]
        lines.append(
            f"| {physics} | {formats} | {recovered}/{total} ({100 * recovered / total:.0f} %) | "
            f"{right}/{tables} | {best}/{tables} | "
            f"{sum(seconds) / len(seconds):.2f} s ({max(seconds):.2f} s) | "
            f"{sum(memory) / len(memory):.1f} MB ({max(memory):.1f} MB) |"
        )
    recovered = sum(o.recovered for o in outcomes)
    total = sum(o.parameters for o in outcomes)
    right = sum(c == o.model for o in outcomes for c in o.chosen)
    best = sum(c == o.model for o in outcomes for c in o.best)
    tables = sum(len(o.chosen) for o in outcomes)
    lines += [
        "",
        f"All: {recovered}/{total} true parameters within 2σ ({100 * recovered / total:.1f} %); "
        f"first fit's model right for {right}/{tables} tables, best standard model right for "
        f"{best}/{tables}.",
    ]
    misses = [miss for o in outcomes for miss in o.misses]
    if misses:
        lines += ["", "Misses:", *(f"- {o.format}: {m}" for o in outcomes for m in o.misses)]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=6, help="folders per law (default 6)")
    parser.add_argument(
        "--no-assignment", action="store_true", help="no handout: the standard models alone"
    )
    args = parser.parse_args()
    assignment = not args.no_assignment
    with tempfile.TemporaryDirectory(prefix="labscribe-analysis-bench-") as where:
        outcomes = run(args.seeds, Path(where), assignment=assignment)
    print(report(outcomes, args.seeds, assignment=assignment))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
