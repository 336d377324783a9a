"""The shipped example folder through a whole run: PDF, GBK and CSV reach the explorer."""

import json
import subprocess
import sys
from pathlib import Path

from scripted import ScriptedChatModel, call, reply

from labscribe.guards.output import latex_problems

REPO = Path(__file__).resolve().parents[2]


def test_example_material_reaches_the_explorer_decoded(example: Path, run) -> None:
    explorer = ScriptedChatModel(
        replies=[
            reply(call("list_dir", path=".")),
            reply(
                call("read_file", path="assignment.pdf"), call("read_file", path="logbook_gbk.txt")
            ),
            reply(
                call("read_file", path="data/sweep.csv", limit=5),
                call("read_file", path="notes_zh.md"),
            ),
            reply(
                call(
                    "finish_exploration",
                    experiment="Lab 4: series RLC resonance",
                    goal="resonance curve, f0, bandwidth and Q",
                    key_findings=["301-point sweep 1-12 kHz in data/sweep.csv"],
                    requirements="introduction, theory, method, results with a figure, discussion",
                )
            ),
        ]
    )
    result = run(example, explorer)
    history = json.loads((result.out / "history.json").read_text())
    results = {m["data"]["tool_call_id"]: m["data"] for m in history if m["type"] == "tool"}
    text = "\n".join(m["content"] for m in results.values())
    assert all(m["status"] == "success" for m in results.values())
    assert "Lab 4: Resonance in a series RLC circuit" in text
    assert "实验四  RLC 串联谐振  仪器与操作记录" in text
    assert "frequency_Hz,V_in_Vpp,V_R_Vpp,phase_deg" in text
    assert "RLC 串联谐振" in text
    assert result.record["status"] == "completed"
    assert result.record["exploration"]["termination"] == "finished"


def test_example_fallback_report_is_valid_latex(example: Path, run) -> None:
    explorer = ScriptedChatModel(replies=[reply(call("list_dir", path="."))])
    writer = ScriptedChatModel(replies=[reply(content="<think>no</think>")])
    result = run(example, explorer, write=writer)
    assert result.record["status"] == "degraded"
    assert latex_problems((result.out / "report.tex").read_text()) == []


def test_example_generator_reproduces_the_shipped_folder(tmp_path: Path) -> None:
    generator = REPO / "examples" / "generate_rlc_resonance.py"
    subprocess.run([sys.executable, str(generator), "--out", str(tmp_path)], check=True)
    shipped = REPO / "examples" / "rlc-resonance"
    for path in shipped.rglob("*"):
        if path.is_file():
            assert (tmp_path / path.relative_to(shipped)).read_bytes() == path.read_bytes(), path
