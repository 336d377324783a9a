"""Figures: the figures stage and make_figure, through the real sandbox and real xelatex."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from clirun import tool_results
from PIL import Image
from scripted import FILLER, ScriptedChatModel, call, reply

pytestmark = pytest.mark.skipif(
    (os.geteuid() != 0 or shutil.which("xelatex") is None) and not os.environ.get("CI"),
    reason="the sandbox needs root and the PDF needs xelatex (CI has both: .ci/run)",
)
PLOT = (
    "import pandas as pd\n"
    "import matplotlib.pyplot as plt\n"
    "d = pd.read_csv('data/data/sweep.csv')\n"
    "plt.figure(figsize=(6, 4), dpi=100)\n"
    "plt.plot(d['frequency_Hz'], d['V_R_Vpp'])\n"
    "plt.xlabel('f (Hz)')\n"
    "plt.ylabel('V_R (Vpp)')\n"
)
RAISES = "import matplotlib.pyplot as plt\nplt.plot(xs)\n"  # passes the policy, fails as it runs
FINISH = call("finish_exploration", experiment="RLC", goal="f0", key_findings=["peak"])


def report_with(*targets: str) -> str:
    figures = "".join(
        f"\\begin{{figure}}\\centering\\includegraphics[width=0.8\\linewidth]{{{t}}}"
        f"\\caption{{The resonance curve.}}\\end{{figure}}\n"
        for t in targets
    )
    return (
        f"\\documentclass{{article}}\n\\usepackage{{graphicx}}\n\\begin{{document}}\n"
        f"{FILLER}\n{figures}\\end{{document}}\n"
    )


def model_figures(record: dict) -> list[dict[str, str]]:
    """The figures a model drew: the rest are the analysis's, one per fitted column, first."""
    drawn = record["figures"]
    data = [f for f in drawn if f["path"].startswith("figures/data-")]
    assert data and drawn[: len(data)] == data
    return drawn[len(data) :]


def specs(*items: tuple[str, str]) -> str:
    return json.dumps([{"name": n, "caption": "Resonance curve.", "code": c} for n, c in items])


def test_figures_stage_draws_a_figure_the_compiled_report_includes(example: Path, run) -> None:
    writer = ScriptedChatModel(
        replies=[
            reply(content=specs(("resonance", PLOT), ("broken", "import os\n"))),
            reply(content=report_with("figures/resonance.png", "figures/broken.png")),
        ]
    )
    result = run(example, ScriptedChatModel(replies=[reply(FINISH)]), write=writer,
                 figures=True, compile=True)  # fmt: skip
    record = result.record
    assert model_figures(record) == [
        {"path": "figures/resonance.png", "caption": "Resonance curve."}
    ]
    assert (result.out / "figures" / "resonance.png").exists()
    assert not (result.out / "figures" / "broken.png").exists()
    assert record["graphics"] == {
        "shown": ["figures/resonance.png"],
        "removed": ["figures/broken.png"],
    }
    report = (result.out / "report.tex").read_text()
    assert "figures/broken.png" not in report
    assert report.count("\\caption") == 1  # the missing figure went with its caption
    assert "- figures/resonance.png: Resonance curve." in writer.requests[1][-1].text
    assert record["compile"]["status"] == "compiled", record["compile"]
    images = subprocess.run(
        ["pdfimages", "-list", str(result.out / "report.pdf")], capture_output=True, text=True
    ).stdout.splitlines()[2:]
    pictures = [line.split() for line in images if line.split()[2] == "image"]  # not masks
    assert len(pictures) == 1
    assert pictures[0][3:5] == ["600", "400"]  # the 6 x 4 in figure at 100 dpi


def test_figures_switched_off_make_no_milestone_and_no_call(data: Path, run, writer) -> None:
    result = run(data, ScriptedChatModel(replies=[reply(FINISH)]), figures=False)
    assert "figures" not in result.record["plan"]
    assert len(writer.requests) == 1  # the draft only


def test_make_figure_tool_keeps_a_rendered_figure(example: Path, run) -> None:
    explorer = ScriptedChatModel(
        replies=[
            reply(call("make_figure", code=PLOT, name="curve", caption="V_R against f.")),
            reply(call("make_figure", code="open('/etc/passwd')", name="bad")),
            reply(call("make_figure", code=RAISES, name="broken")),
            reply(FINISH),
        ]
    )
    result = run(example, explorer)
    assert model_figures(result.record) == [
        {"path": "figures/curve.png", "caption": "V_R against f."}
    ]
    history = json.loads((result.out / "history.json").read_text())
    results = [m["data"] for m in history if m["type"] == "tool"]
    assert results[0]["content"] == "figure saved: figures/curve.png (V_R against f.)"
    assert results[1]["status"] == "error"
    assert "open" in results[1]["content"]
    # A figure that fails as it runs: the sandbox's "Error: " and the tool's are one prefix.
    assert results[2]["content"].startswith("Error: the figure code raised an exception")
    assert not any(r["content"].startswith("Error: Error:") for r in results[1:3])
    assert (result.out / "figures" / "curve.png").exists()


def sized(inches: int) -> str:
    """PLOT drawn `inches` wide at 100 dpi: each figure's file tells which code drew it."""
    return PLOT.replace("figsize=(6, 4)", f"figsize=({inches}, 4)")


def test_make_figure_never_overwrites_a_figure_and_tells_the_model_the_name_it_got(
    example: Path, run
) -> None:
    data_figure = "data-sweep-V_R"  # the analysis's figure of V_R and its fit
    explorer = ScriptedChatModel(
        replies=[
            reply(call("make_figure", code=sized(6), name=data_figure, caption="Model's own.")),
            reply(call("make_figure", code=sized(5), name="curve", caption="First curve.")),
            reply(call("make_figure", code=sized(4), name="curve.png", caption="Second curve.")),
            reply(FINISH),
        ]
    )
    result = run(example, explorer)
    figures = {f["path"]: f["caption"] for f in result.record["figures"]}
    assert figures[f"figures/{data_figure}.png"].startswith("V_R against frequency")
    assert result.record["figures"][-3:] == [  # the analysis's figures first
        {"path": f"figures/{data_figure}-2.png", "caption": "Model's own."},
        {"path": "figures/curve.png", "caption": "First curve."},
        {"path": "figures/curve-2.png", "caption": "Second curve."},
    ]
    widths = {}
    for path in (data_figure, f"{data_figure}-2", "curve", "curve-2"):
        with Image.open(result.out / "figures" / f"{path}.png") as image:
            widths[path] = image.width
    assert list(widths.values())[1:] == [600, 500, 400]  # each code's figure in its own file
    assert widths[data_figure] not in (400, 500, 600)  # the analysis's, not overwritten
    results = [r["content"] for r in tool_results(result.out)]
    assert results[0] == (
        f"figure saved: figures/{data_figure}-2.png (Model's own.); the name {data_figure} "
        f"belongs to another figure, so this one is named {data_figure}-2"
    )
    assert results[1] == "figure saved: figures/curve.png (First curve.)"
    assert results[2] == (
        "figure saved: figures/curve-2.png (Second curve.); the name curve belongs to another "
        "figure, so this one is named curve-2"
    )
