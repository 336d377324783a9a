"""The compile stage on real xelatex, and the plan without it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from clirun import COMMAND, endpoint_flags, read_record
from scripted import ScriptedChatModel, call, latex, reply
from scripted_server import ScriptedEndpoint, text_reply, tool_reply

from labscribe.nodes.compile import FIX_ROUNDS

pytestmark = pytest.mark.skipif(
    shutil.which("xelatex") is None and not os.environ.get("CI"),
    reason="xelatex is not installed here (CI installs texlive-xetex: .ci/run)",
)
TITLE = "RLC 串联谐振实验报告"
NOTE = "共振频率约为 5.07 kHz，电感线圈略有发热。"
FINISH = call("finish_exploration", experiment="RLC", goal="f0", key_findings=["f0"])


def chinese_report(extra: str = "") -> str:
    return (
        "\\documentclass{article}\n"
        f"\\title{{{TITLE}}}\n\\author{{L.W.}}\n"
        "\\begin{document}\n\\maketitle\n"
        "\\section{Notes}\n"
        f"{NOTE}\n\n"
        "The resonance of the series circuit was measured with an oscilloscope while the "
        "generator swept from 1 kHz to 12 kHz; the notes above record what the student saw, "
        "and the data file holds the amplitude and the phase of the resistor voltage.\n"
        f"{extra}\n"
        "\\end{document}\n"
    )


def pdf_text(pdf: Path) -> str:
    return subprocess.run(
        ["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout


def test_compile_renders_the_title_and_the_chinese_notes(example: Path, run) -> None:
    writer = ScriptedChatModel(replies=[reply(content=chinese_report())])
    explorer = ScriptedChatModel(
        replies=[reply(call("read_file", path="notes_zh.md")), reply(FINISH)]
    )
    result = run(example, explorer, write=writer, compile=True)
    compiled = result.record["compile"]
    assert compiled["status"] == "compiled", compiled
    assert "missing character" not in compiled["log"]
    text = pdf_text(result.out / "report.pdf")
    assert TITLE.replace(" ", "") in text.replace(" ", "")
    assert NOTE.replace(" ", "") in text.replace(" ", "").replace("\n", "")
    assert result.record["outputs"]["pdf"] == str(result.out / "report.pdf")
    assert result.record["status"] == "completed"


def test_compile_fix_that_breaks_the_build_is_reverted(data: Path, run) -> None:
    original = chinese_report("See Figure~\\ref{fig:missing}.")
    broken = chinese_report("\\thiscommanddoesnotexist")
    writer = ScriptedChatModel(replies=[reply(content=original), reply(content=broken)])
    result = run(data, ScriptedChatModel(replies=[reply(FINISH)]), write=writer, compile=True)
    assert len(writer.requests) == 1 + FIX_ROUNDS  # the undefined reference earned fix rounds
    assert (result.out / "report.tex").read_text() == original
    compiled = result.record["compile"]
    assert compiled["status"] == "compiled"
    assert "undefined reference: fig:missing" in compiled["log"]
    assert (result.out / "report.pdf").exists()


def test_compile_fix_that_works_is_kept(data: Path, run) -> None:
    broken = chinese_report("\\thiscommanddoesnotexist")
    fixed = chinese_report()
    writer = ScriptedChatModel(replies=[reply(content=broken), reply(content=fixed)])
    result = run(data, ScriptedChatModel(replies=[reply(FINISH)]), write=writer, compile=True)
    assert (result.out / "report.tex").read_text() == fixed
    assert result.record["compile"]["status"] == "compiled"
    assert "Undefined control sequence" in writer.requests[1][-1].text
    assert result.record["status"] == "completed"


def test_compile_that_never_succeeds_keeps_the_report_and_degrades(data: Path, run) -> None:
    broken = chinese_report("\\thiscommanddoesnotexist")
    writer = ScriptedChatModel(replies=[reply(content=broken)])
    result = run(data, ScriptedChatModel(replies=[reply(FINISH)]), write=writer, compile=True)
    assert result.record["compile"]["status"] == "failed"
    assert result.record["status"] == "degraded"
    assert result.record["degraded"][0].startswith("the PDF could not be compiled: error:")
    assert (result.out / "report.tex").read_text() == broken
    assert not (result.out / "report.pdf").exists()


def test_without_xelatex_the_plan_and_the_run_agree(data: Path, tmp_path: Path) -> None:
    no_tex = tmp_path / "bin"
    no_tex.mkdir()
    out = tmp_path / "out"
    script = {"explorer": [tool_reply(("finish_exploration", {"experiment": "x", "goal": "y",
              "key_findings": ["z"]}))], "writer": [text_reply(latex())]}  # fmt: skip
    with ScriptedEndpoint(script) as server:
        flags = [f for f in endpoint_flags(server) if f != "--no-compile"]
        done = subprocess.run(
            [*COMMAND, "run", str(data), "--out", str(out), *flags],
            capture_output=True,
            text=True,
            env={**os.environ, "PATH": str(no_tex)},
            timeout=120,
        )
    assert done.returncode == 0, done.stderr
    record = read_record(out)
    assert "compile" not in record["plan"]
    assert record["compile"]["status"] == "skipped"
    assert "xelatex or latexmk is not on PATH" in record["compile"]["reason"]
    assert "no PDF: xelatex or latexmk is not on PATH" in record["reason"]
    assert (out / "report.tex").exists() and not (out / "report.pdf").exists()
    assert record["status"] == "completed"
    assert sys.executable  # the CLI ran from its absolute path, with no PATH to find TeX on


def test_compile_runs_bibtex_for_the_material_references(data: Path, run) -> None:
    (data / "handout.md").write_text(
        "References\n\n[1] E. M. Purcell and D. J. Morin, Electricity and Magnetism, 2013. "
        "doi:10.1017/CBO9781139012973\n"
    )
    writer = ScriptedChatModel(replies=[reply(content=chinese_report("As in \\cite{purcell}."))])
    result = run(data, ScriptedChatModel(replies=[reply(FINISH)]), write=writer, compile=True)
    compiled = result.record["compile"]
    assert compiled["status"] == "compiled"
    assert "undefined citation" not in compiled["log"]
    text = pdf_text(result.out / "report.pdf")
    assert "Purcell" in text and "10.1017/CBO9781139012973" in text
