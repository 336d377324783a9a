"""End to end on the real embedded model (SmolLM2-135M over llama-cpp-python): slow.

The model's wording is not under test, only the invariants: the run ends with a report
that holds the analysis (its data figures, the resonance fitted with its uncertainty, the
parameter table), the stages measured never to pay off on this model are skipped with their
reason, model calls stay within the budget, and run.json agrees with events.jsonl.
"""

from __future__ import annotations

import os
import re
from importlib.util import find_spec
from pathlib import Path

import pytest
from clirun import labscribe, read_events, read_record

from labscribe.guards.output import latex_problems

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        find_spec("llama_cpp") is None and not os.environ.get("CI"),
        reason="llama-cpp-python is not installed here (CI installs it: .ci/run)",
    ),
]


def test_embedded_model_runs_the_example_to_a_report(example: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    done = labscribe("run", str(example), "--out", str(out), "--json", timeout=1_500)
    assert done.returncode == 0, done.stderr
    record = read_record(out)
    events = read_events(out)
    tools = [e for e in events if e["event"] == "tool"]

    assert record["status"] in ("completed", "degraded")
    report = (out / "report.tex").read_text()
    assert latex_problems(report) == []  # the writer's, or the fallback's when degraded
    assert (record["status"] == "degraded") == bool(record["degraded"])

    assert 1 <= record["model_calls"]["explore"] <= 20
    assert record["model_calls"].get("write", 0) == 0  # every write stage skipped, and why:
    assert {"draft", "reflect"} <= set(record["skipped"])
    assert record["skipped"]["draft"].startswith("skipped on the embedded model: SmolLM2-135M")
    assert record["status"] == "degraded" and record["degraded"] == [record["skipped"]["draft"]]
    assert re.search(r"\\includegraphics\[[^]]*\]\{figures/data-sweep-V_R\.png\}", report)
    f0, sigma = map(float, re.search(r"f0 = (\d+\.\d+) ± (\d+\.\d+) Hz", report).groups())
    assert abs(f0 - 5033) <= 0.005 * 5033 and 0 < sigma < 5  # examples/generate_rlc_resonance.py
    assert "params.ini" in report and "Apparatus" in report
    assert record["compile"]["status"] == "compiled" and (out / "report.pdf").is_file()
    assert record["tokens"]["input"] > 0 and record["tokens"]["output"] > 0
    assert record["tool_calls"] == len(tools)
    guard = record["guard"]
    assert guard["warned"] == sum(e["guard"] == "warn" for e in tools)
    assert guard["blocked"] == sum(e["guard"] == "block" for e in tools)
    assert guard["halted"] == any(e["event"] == "halt" for e in events)
    milestones = [e["stage"] for e in events if e["event"] == "milestone" and not e.get("skipped")]
    assert milestones == record["stages"]
    drawn = [e["detail"] for e in events if e["event"] == "progress" and e["stage"] == "scan"]
    assert "drawing data figure 1 of 3" in drawn
    assert {"scan", "explore", "draft", "bib"} <= set(milestones) <= set(record["plan"])
    assert [e["index"] for e in events if e["event"] == "milestone"] == sorted(
        {e["index"] for e in events if e["event"] == "milestone"}
    )
    assert events[-1]["event"] == "end" and events[-1]["index"] == events[-1]["total"]
