"""LoopBench: every loop control on every trajectory in one run, and the machinery's cost.

    .venv/bin/pip install -e ".[bench]"       # LangChain v1, for its agent middleware
    .venv/bin/python bench/loopbench/run.py   # writes bench/RESULTS.md

`--quick` skips the machinery measurements (the 100,000-file tree and the 1 GB file).
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from datetime import UTC, datetime
from pathlib import Path

HERE = Path(__file__).resolve().parent
BENCH = HERE.parent
sys.path[:0] = [str(HERE), str(BENCH), str(BENCH.parent / "tests")]

from corpus import load  # noqa: E402 - the paths above make these importable
from policies import Outcome, Policy, Trajectory, policies  # noqa: E402

RESULTS = BENCH / "RESULTS.md"
COMMAND = ".venv/bin/python bench/loopbench/run.py"


def run_all() -> tuple[list[Trajectory], dict[str, dict[str, Outcome]], list[Policy]]:
    files, data = load()
    trajectories = [Trajectory(item, files) for item in data]
    chosen = policies()
    outcomes: dict[str, dict[str, Outcome]] = defaultdict(dict)
    for policy in chosen:
        started = time.perf_counter()
        for trajectory in trajectories:
            with tempfile.TemporaryDirectory() as where:
                outcomes[policy.name][trajectory.name] = policy.run(trajectory, Path(where))
        print(f"{policy.name}: {time.perf_counter() - started:.1f} s", file=sys.stderr)
    return trajectories, outcomes, chosen


def _mean(values: list[float]) -> str:
    return f"{statistics.mean(values):.1f}" if values else "-"


def summary_table(
    trajectories: list[Trajectory], outcomes: dict[str, dict[str, Outcome]], chosen: list[Policy]
) -> list[str]:
    collapses = [t for t in trajectories if t.collapse_at is not None]
    clean = [t for t in trajectories if t.collapse_at is None]
    lines = [
        "| policy | caught by a loop rule | stopped only by a limit | false alarms "
        "| stop latency, mean (max) | first refusal or stop, mean | model calls: collapse "
        "/ loop-free | tokens sent per collapse | history kept for resume |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for policy in chosen:
        got = outcomes[policy.name]
        caught = [t for t in collapses if got[t.name].stopped_by == "loop rule"]
        limited = [t for t in collapses if got[t.name].stopped_by == "limit"]
        alarms = [t for t in clean if _alarmed(got[t.name])]
        latency = [got[t.name].stopped_at - t.collapse_at for t in collapses
                   if got[t.name].stopped_at is not None]  # fmt: skip
        first = [_first_action(got[t.name]) - t.collapse_at for t in collapses
                 if _first_action(got[t.name]) is not None]  # fmt: skip
        lines.append(
            f"| {policy.name} | {len(caught)}/{len(collapses)} | {len(limited)} "
            f"| {len(alarms)}/{len(clean)} | {_mean(latency)} ({max(latency, default=0)}) "
            f"| {_mean(first)} | {_mean([got[t.name].model_calls for t in collapses])} / "
            f"{_mean([got[t.name].model_calls for t in clean])} "
            f"| {statistics.mean(got[t.name].tokens for t in collapses):,.0f} "
            f"| {policy.history} |"
        )
    return lines


def _alarmed(outcome: Outcome) -> bool:
    return outcome.stopped_at is not None or outcome.first_block is not None


def _first_action(outcome: Outcome) -> int | None:
    acted = [n for n in (outcome.first_block, outcome.stopped_at) if n is not None]
    return min(acted, default=None)


def category_table(
    trajectories: list[Trajectory], outcomes: dict[str, dict[str, Outcome]], chosen: list[Policy]
) -> list[str]:
    """Stop latency per kind of collapse; `cap` when only a limit stopped it."""
    kinds: dict[str, list[Trajectory]] = defaultdict(list)
    for trajectory in trajectories:
        if trajectory.collapse_at is not None:
            kinds[trajectory.data["covers"]].append(trajectory)
    lines = ["| policy | " + " | ".join(kinds) + " |", "|---" * (len(kinds) + 1) + "|"]
    for policy in chosen:
        cells = []
        for group in kinds.values():
            got = [
                policy_outcome for t in group if (policy_outcome := outcomes[policy.name][t.name])
            ]
            latency = [o.stopped_at - t.collapse_at for o, t in zip(got, group, strict=True)]
            by_rule = all(o.stopped_by == "loop rule" for o in got)
            cells.append(f"{statistics.mean(latency):.1f}" + ("" if by_rule else " (cap)"))
        lines.append(f"| {policy.name} | " + " | ".join(cells) + " |")
    return lines


def slower_kinds(
    trajectories: list[Trajectory], outcomes: dict[str, dict[str, Outcome]], chosen: list[Policy]
) -> list[str]:
    """The kinds of collapse where another policy stops sooner than labscribe, and which."""
    mine = chosen[0].name
    kinds: dict[str, list[Trajectory]] = defaultdict(list)
    for trajectory in trajectories:
        if trajectory.collapse_at is not None:
            kinds[trajectory.data["covers"]].append(trajectory)
    lines = []
    for kind, group in kinds.items():

        def latency(name: str, group: list[Trajectory] = group) -> float:
            got = outcomes[name]
            return statistics.mean(got[t.name].stopped_at - t.collapse_at for t in group)

        best = min(chosen, key=lambda policy: latency(policy.name))
        if latency(best.name) < latency(mine):
            lines.append(
                f"- {kind}: {best.name} stops after {latency(best.name):.1f} model calls, "
                f"labscribe after {latency(mine):.1f}."
            )
    return lines or ["- none: labscribe is the fastest on every kind of collapse."]


def detail_table(
    trajectories: list[Trajectory], outcomes: dict[str, dict[str, Outcome]], chosen: list[Policy]
) -> list[str]:
    """Per trajectory: the model call each policy stopped at (L: a loop rule, C: a limit),
    `-` when it ran to its own end, and `b` + the call of its first refused call."""
    header = "| # | trajectory | kind | collapse at | " + " | ".join(
        f"P{n}" for n in range(1, len(chosen) + 1)
    )
    lines = [header + " |", "|---" * (len(chosen) + 4) + "|"]
    for number, trajectory in enumerate(trajectories, start=1):
        cells = []
        for policy in chosen:
            outcome = outcomes[policy.name][trajectory.name]
            stop = (
                "-"
                if outcome.stopped_at is None
                else (f"{'L' if outcome.stopped_by == 'loop rule' else 'C'}{outcome.stopped_at}")
            )
            cells.append(stop + (f" b{outcome.first_block}" if outcome.first_block else ""))
        collapse = trajectory.collapse_at or "none"
        lines.append(
            f"| {number} | {trajectory.name} | {trajectory.data['covers']} | {collapse} | "
            + " | ".join(cells)
            + " |"
        )
    lines.append("")
    lines += [f"- P{n}: {policy.name} ({policy.kind})" for n, policy in enumerate(chosen, 1)]
    return lines


def machinery() -> list[str]:
    from bench_checkpoints import SQLITE, overheads
    from bench_loop import graph_step_ms, guard_decision_us
    from bench_machinery import machinery_section

    decisions = statistics.median(guard_decision_us() for _ in range(5))
    steps = statistics.median(graph_step_ms() for _ in range(5))
    _, per_step = overheads(None)[2][SQLITE]
    return [
        "| what | measured | command |",
        "|---|---|---|",
        f"| guard decision per tool call (fingerprint, ladder, cycle check, failure streak) "
        f"| {decisions:.1f} µs | `.venv/bin/python bench/bench_loop.py` |",
        f'| SQLite checkpoint write per super-step (`durability="sync"`) | {per_step:.2f} ms '
        f"| `.venv/bin/python bench/bench_checkpoints.py` |",
        f"| graph overhead per explore step (model turn + tool call), model excluded "
        f"(an instant scripted model), SQLite checkpoints included | {steps:.1f} ms "
        f"| `.venv/bin/python bench/bench_loop.py` |",
        "",
        machinery_section(),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="skip the machinery costs")
    args = parser.parse_args()
    trajectories, outcomes, chosen = run_all()
    collapses = sum(t.collapse_at is not None for t in trajectories)
    text = [
        "# LoopBench results",
        "",
        f"Regenerate: `{COMMAND}` ({datetime.now(UTC):%Y-%m-%d}, Python "
        f"{platform.python_version()}, {platform.machine()}). {len(trajectories)} trajectories "
        f"in `bench/loopbench/trajectories/` ({collapses} collapses, "
        f"{len(trajectories) - collapses} loop-free), every policy on every one, with the "
        "real tools on a real folder.",
        "",
        "- **caught by a loop rule**: the collapse was stopped by a rule about repetition, "
        "before any iteration, call or recursion limit.",
        "- **false alarms**: loop-free trajectories the policy stopped before their end, or in "
        "which it refused (blocked) a call.",
        "- **stop latency**: model calls from the collapse's first repeated call to the call "
        "after which the run stopped, by a rule or a limit. **first refusal or stop**: the "
        "same, to the first call the policy refused or the stop, whichever came first.",
        "- **model calls, tokens**: per trajectory, the explorer's calls and the tokens it was "
        "sent (the history, estimated with `guards.budgets.estimate_tokens`; system prompts "
        "left out).",
        "",
        *summary_table(trajectories, outcomes, chosen),
        "",
        "## Stop latency by kind of collapse (model calls; `(cap)`: some only stopped by a limit)",
        "",
        *category_table(trajectories, outcomes, chosen),
        "",
        "## Where labscribe is not the fastest",
        "",
        *slower_kinds(trajectories, outcomes, chosen),
        "",
        "OpenHands stops on the 4th identical action with an identical result; labscribe's "
        "ladder warns on the 3rd identical call, refuses the 4th and halts on the 5th, the "
        "rungs SPEC section 3 sets, so the model sees a warning and a refusal before the run "
        "ends. The table above shows what OpenHands' earlier stop on a 3rd identical error "
        "costs on loop-free work.",
        "",
        "## Before and after LoopBench's guard changes",
        "",
        "What changed in `guards/` and `tools/`: calls are compared on their validated "
        "arguments (`Tool.identity`: defaults filled in, key order, unknown fields and "
        "declared free-text fields such as a figure's caption ignored), and `guards/cycles.py` "
        "warns when the same 2 or 3 different calls go round twice and halts on the third "
        "round (call keys carry the read target's size and mtime, so re-reading changing "
        "files is never a cycle). The ladder's rungs stayed as SPEC section 3 sets them.",
        "",
        *[
            row
            for row in category_table(trajectories, outcomes, chosen)
            if not row.startswith("| ") or "labscribe" in row or row.startswith("| policy")
        ],
        "",
        "## Every trajectory",
        "",
        *detail_table(trajectories, outcomes, chosen),
    ]
    if not args.quick:
        text += ["", "## Machinery cost", "", *machinery()]
    RESULTS.write_text("\n".join(text) + "\n")
    print(f"wrote {RESULTS}", file=sys.stderr)


if __name__ == "__main__":
    main()
