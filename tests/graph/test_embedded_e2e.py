"""End to end on the embedded model (SmolLM2-135M over llama-cpp-python).

By default every model stage is measured never to pay off on this model, so a run writes
the report from the data without starting it; `--all-stages` spends it anyway, which is the
slow test. The model's wording is not under test, only the invariants: the run ends with a
report that holds the analysis (its data figures, the resonance fitted with its uncertainty,
the parameter table), model calls stay within the budget, and run.json agrees with
events.jsonl.
"""

from __future__ import annotations

import os
import re
from importlib.util import find_spec
from pathlib import Path

import pytest
from clirun import labscribe, read_events, read_record

from labscribe.guards.output import latex_problems

pytestmark = pytest.mark.skipif(
    find_spec("llama_cpp") is None and not os.environ.get("CI"),
    reason="llama-cpp-python is not installed here (CI installs it: .ci/run)",
)


def test_embedded_default_run_writes_the_report_from_the_data_without_the_model(
    example: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    done = labscribe("run", str(example), "--out", str(out), "--json", timeout=600)
    assert done.returncode == 0, done.stderr
    record = read_record(out)
    assert record["model_calls"] == {"explore": 0, "write": 0}
    for stage in ("explore", "figures", "draft"):
        assert record["skipped"][stage].startswith("skipped on the embedded model: SmolLM2-135M")
    assert record["exploration"]["termination"] == "skipped"
    assert_holds_the_analysis(record, read_events(out), (out / "report.tex").read_text(), out)


@pytest.mark.slow
def test_embedded_model_spent_on_every_stage_runs_the_example_to_a_report(
    example: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    # Half the model's window: every stage still runs on it, the writer's brief is half as
    # long to read, and each token written attends to half as much (bench_embedded_speed).
    flags = ["--all-stages", "--max-tool-iters", "3", "--reflect", "0", "--json",
             "--context-tokens", "4096"]  # fmt: skip
    done = labscribe("run", str(example), "--out", str(out), *flags, timeout=1_500)
    assert done.returncode == 0, done.stderr
    record = read_record(out)
    events = read_events(out)
    tools = [e for e in events if e["event"] == "tool"]
    assert 1 <= record["model_calls"]["explore"] <= 3
    assert record["model_calls"]["write"] >= 1  # it drafted: the stages were not skipped
    assert "draft" not in record["skipped"]
    assert record["tokens"]["input"] > 0 and record["tokens"]["output"] > 0
    assert record["tool_calls"] == len(tools)
    guard = record["guard"]
    assert guard["warned"] == sum(e["guard"] == "warn" for e in tools)
    assert guard["blocked"] == sum(e["guard"] == "block" for e in tools)
    assert guard["halted"] == any(e["event"] == "halt" for e in events)
    assert_holds_the_analysis(record, events, (out / "report.tex").read_text(), out)


def assert_holds_the_analysis(record: dict, events: list[dict], report: str, out: Path) -> None:
    assert record["status"] in ("completed", "degraded")
    assert latex_problems(report) == []  # the writer's, or the fallback's when degraded
    assert (record["status"] == "degraded") == bool(record["degraded"])
    assert re.search(r"\\includegraphics\[[^]]*\]\{figures/data-sweep-V_R\.png\}", report)
    f0, sigma = map(float, re.search(r"f0 = (\d+\.\d+) ± (\d+\.\d+) Hz", report).groups())
    assert abs(f0 - 5033) <= 0.005 * 5033 and 0 < sigma < 5  # examples/generate_rlc_resonance.py
    assert "params.ini" in report and "Apparatus" in report
    assert record["compile"]["status"] == "compiled" and (out / "report.pdf").is_file()
    milestones = [e["stage"] for e in events if e["event"] == "milestone" and not e.get("skipped")]
    assert milestones == record["stages"]
    drawn = [e["detail"] for e in events if e["event"] == "progress" and e["stage"] == "scan"]
    assert "drawing data figure 1 of 3" in drawn
    assert {"scan", "draft", "bib"} <= set(milestones) <= set(record["plan"])
    assert [e["index"] for e in events if e["event"] == "milestone"] == sorted(
        {e["index"] for e in events if e["event"] == "milestone"}
    )
    assert events[-1]["event"] == "end" and events[-1]["index"] == events[-1]["total"]
