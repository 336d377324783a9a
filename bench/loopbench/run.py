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
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

HERE = Path(__file__).resolve().parent
BENCH = HERE.parent
sys.path[:0] = [str(HERE), str(BENCH), str(BENCH.parent / "tests")]

from computed_once import computed_once  # noqa: E402 - the paths above make these importable
from corpus import load  # noqa: E402
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
            with tempfile.TemporaryDirectory() as where, computed_once():
                outcome = policy.run(trajectory, Path(where))
            outcomes[policy.name][trajectory.name] = _settled(trajectory, outcome)
        print(f"{policy.name}: {time.perf_counter() - started:.1f} s", file=sys.stderr)
    return trajectories, outcomes, chosen


def _settled(trajectory: Trajectory, outcome: Outcome) -> Outcome:
    """A collapse that a policy let end on its own (an empty reply taken for the final
    answer) ended there: stopped at its last model call, by its own end, not by a rule."""
    if trajectory.collapse_at is not None and outcome.stopped_at is None:
        return replace(outcome, stopped_at=outcome.model_calls, stopped_by="ended")
    return outcome


def _peer(trajectory: Trajectory) -> str:
    return trajectory.data.get("source", {}).get("peer", "labscribe")


def _mean(values: list[float]) -> str:
    return f"{statistics.mean(values):.1f}" if values else "-"


def summary_table(
    trajectories: list[Trajectory], outcomes: dict[str, dict[str, Outcome]], chosen: list[Policy]
) -> list[str]:
    collapses = [t for t in trajectories if t.collapse_at is not None]
    clean = [t for t in trajectories if t.collapse_at is None]
    lines = [
        "| policy | caught by a loop rule | stopped only by a limit | ended on its own "
        "| false alarms | stop latency, mean (max) | first refusal or stop, mean "
        "| model calls: collapse / loop-free | tokens sent per collapse "
        "| history kept for resume |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for policy in chosen:
        got = outcomes[policy.name]
        caught = [t for t in collapses if got[t.name].stopped_by == "loop rule"]
        limited = [t for t in collapses if got[t.name].stopped_by == "limit"]
        ended = [t for t in collapses if got[t.name].stopped_by == "ended"]
        alarms = [t for t in clean if _alarmed(got[t.name])]
        latency = [got[t.name].stopped_at - t.collapse_at for t in collapses
                   if got[t.name].stopped_at is not None]  # fmt: skip
        first = [_first_action(got[t.name]) - t.collapse_at for t in collapses
                 if _first_action(got[t.name]) is not None]  # fmt: skip
        lines.append(
            f"| {policy.name} | {len(caught)}/{len(collapses)} | {len(limited)} | {len(ended)} "
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
    """Stop latency per kind of collapse; `(cap)` when a limit stopped some of them,
    `(ended)` when some ended on their own (an empty reply taken for the final answer)."""
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
            marks = [f" ({mark})" for stop, mark in (("limit", "cap"), ("ended", "ended"))
                     if any(o.stopped_by == stop for o in got)]  # fmt: skip
            cells.append(f"{statistics.mean(latency):.1f}" + "".join(marks))
        lines.append(f"| {policy.name} | " + " | ".join(cells) + " |")
    return lines


def slower_kinds(
    trajectories: list[Trajectory], outcomes: dict[str, dict[str, Outcome]], chosen: list[Policy]
) -> list[str]:
    """The kinds of collapse where another policy stops sooner than labscribe, and which
    (a policy that let some of them end on their own does not count as stopping them)."""
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

        def stopped(policy: Policy, group: list[Trajectory] = group) -> bool:
            return all(outcomes[policy.name][t.name].stopped_by != "ended" for t in group)

        best = min(filter(stopped, chosen), key=lambda p: latency(p.name), default=chosen[0])
        if latency(best.name) < latency(mine):
            lines.append(
                f"- {kind}: {best.name} stops after {latency(best.name):.1f} model calls, "
                f"labscribe after {latency(mine):.1f}."
            )
    return lines or ["- none: labscribe is the fastest on every kind of collapse."]


def detail_table(
    trajectories: list[Trajectory], outcomes: dict[str, dict[str, Outcome]], chosen: list[Policy]
) -> list[str]:
    """Per trajectory: the model call each policy stopped at (L: a loop rule, C: a limit,
    E: the run ended on its own before its final answer), `-` when it ran to its own end,
    and `b` + the call of its first refused call; and the peer the trajectory comes from."""
    header = "| # | trajectory | source | kind | collapse at | " + " | ".join(
        f"P{n}" for n in range(1, len(chosen) + 1)
    )
    lines = [header + " |", "|---" * (len(chosen) + 5) + "|"]
    letters = {"loop rule": "L", "limit": "C", "ended": "E"}
    for number, trajectory in enumerate(trajectories, start=1):
        cells = []
        for policy in chosen:
            outcome = outcomes[policy.name][trajectory.name]
            stop = (
                "-"
                if outcome.stopped_at is None
                else f"{letters[outcome.stopped_by or 'limit']}{outcome.stopped_at}"
            )
            cells.append(stop + (f" b{outcome.first_block}" if outcome.first_block else ""))
        collapse = trajectory.collapse_at or "none"
        lines.append(
            f"| {number} | {trajectory.name} | {_peer(trajectory)} "
            f"| {trajectory.data['covers']} | {collapse} | " + " | ".join(cells) + " |"
        )
    lines.append("")
    lines += [f"- P{n}: {policy.name} ({policy.kind})" for n, policy in enumerate(chosen, 1)]
    return lines


def peer_sources(trajectories: list[Trajectory]) -> list[str]:
    """Where each trajectory translated from a peer comes from, and what the peer expects."""
    lines = ["| # | trajectory | peer | file or issue | test | the peer's verdict |",
             "|---|---|---|---|---|---|"]  # fmt: skip
    for number, trajectory in enumerate(trajectories, start=1):
        source = trajectory.data.get("source")
        if source is None:
            continue
        cells = [source["peer"], source["ref"], source["test"], trajectory.data["peer_verdict"]]
        cells = [cell.replace("|", "\\|") for cell in cells]
        lines.append(f"| {number} | {trajectory.name} | " + " | ".join(cells) + " |")
    return lines


def machinery() -> list[str]:
    from bench_checkpoints import SQLITE, overheads
    from bench_loop import graph_step_ms, guard_decision_us
    from bench_machinery import machinery_section

    measured = [guard_decision_us() for _ in range(5)]
    decisions = statistics.median(m[0] for m in measured)
    knowing = statistics.median(m[1] for m in measured)
    steps = statistics.median(graph_step_ms() for _ in range(5))
    _, per_step = overheads(None)[2][SQLITE]
    return [
        "| what | measured | command |",
        "|---|---|---|",
        "| guard decision per tool call (guards/guard.py: ladder, cycle check, progress, "
        "failure streak, cache) "
        f"| {decisions:.1f} µs | `.venv/bin/python bench/bench_loop.py` |",
        "| the call as the guards know it (identity with its path resolved, keys, the file's "
        f"version) | {knowing:.1f} µs | `.venv/bin/python bench/bench_loop.py` |",
        f'| SQLite checkpoint write per super-step (`durability="sync"`) | {per_step:.2f} ms '
        f"| `.venv/bin/python bench/bench_checkpoints.py` |",
        f"| graph overhead per explore step (model turn + tool call), model excluded "
        f"(an instant scripted model), SQLite checkpoints included | {steps:.1f} ms "
        f"| `.venv/bin/python bench/bench_loop.py` |",
        "",
        machinery_section(),
    ]


def labscribe_rows(table: list[str]) -> list[str]:
    """A table's header and its labscribe rows: labscribe now and before."""
    return [row for row in table if row.startswith(("|---", "| policy")) or "labscribe" in row]


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
        "- **ended on its own**: collapses the policy let end by themselves, before any rule or "
        "limit: an agent that takes an empty reply for its final answer.",
        "- **false alarms**: loop-free trajectories the policy stopped (or let end) before their "
        "end, or in which it refused (blocked) a call.",
        "- **stop latency**: model calls from the collapse's first repeated call to the call "
        "after which the run stopped, by a rule or a limit. **first refusal or stop**: the "
        "same, to the first call the policy refused or the stop, whichever came first.",
        "- **model calls, tokens**: per trajectory, the explorer's calls and the tokens it was "
        "sent (the history, estimated with `guards.bounds.estimate_tokens`; system prompts "
        "left out).",
        "",
        *summary_table(trajectories, outcomes, chosen),
        "",
        "## Stop latency by kind of collapse (model calls; `(cap)`: some only stopped by a "
        "limit; `(ended)`: some ended on their own)",
        "",
        *category_table(trajectories, outcomes, chosen),
        "",
        "## Where labscribe is not the fastest",
        "",
        *slower_kinds(trajectories, outcomes, chosen),
        "",
        "Where another policy stops a kind sooner, it is a policy with false alarms (above), "
        "or one that stops on fewer repeats than labscribe's ladder, which warns on the 3rd "
        "identical call, refuses the 4th and halts on the 5th, the rungs SPEC section 3 sets, "
        "so the model sees a warning and a refusal before the run ends.",
        "",
        "## Before and after",
        "",
        "Each labscribe row: the guards as they stand; before call identity by meaning "
        "(commit dfff476: validated arguments plus a read target's size and mtime, the ladder, "
        "cycles, and a streak of any failures), replayed and checked once against that "
        "commit's real graph on this corpus (the same stop and first refusal on every "
        "trajectory); and before LoopBench (issue 6's ladder and failure streak). What "
        "changed: paths compared as the path guard resolves them, reads by the window they "
        "returned and counted with what they returned, figure code without comments or "
        "layout and without its name; a run of calls that add nothing warns, blocks and "
        "halts; a re-read after 2 productive calls starts its count again; failures are "
        "counted by kind; 3 empty replies in a row halt; a nudge on resume restarts the "
        "ladder with its warning.",
        "",
        *labscribe_rows(summary_table(trajectories, outcomes, chosen)),
        "",
        *labscribe_rows(category_table(trajectories, outcomes, chosen)),
        "",
        "## Every trajectory",
        "",
        *detail_table(trajectories, outcomes, chosen),
        "",
        "## Peer sources",
        "",
        f"The {sum('source' in t.data for t in trajectories)} trajectories translated from "
        "other agents' test suites and issue trackers (`bench/loopbench/peers.py`), with the "
        "file or issue each was read from and what the peer's test expects.",
        "",
        *peer_sources(trajectories),
    ]
    if not args.quick:
        text += ["", "## Machinery cost", "", *machinery()]
    RESULTS.write_text("\n".join(text) + "\n")
    print(f"wrote {RESULTS}", file=sys.stderr)


if __name__ == "__main__":
    main()
