"""A report is judged by what it typesets: a draft whose body never reaches the PDF is
refused like any failed draft, however it hides the body, and a report that prints its
text passes, whatever it is written in."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from clirun import read_events
from scripted import FILLER, ScriptedChatModel, call, reply

from labscribe.nodes.compile import FIX_ROUNDS

pytestmark = pytest.mark.skipif(
    shutil.which("xelatex") is None and not os.environ.get("CI"),
    reason="xelatex is not installed here (CI installs texlive-xetex: .ci/run)",
)
FINISH = call("finish_exploration", experiment="RLC", goal="f0", key_findings=["f0"])
BODY = (
    f"{FILLER}\n\n\\section{{Results}} The amplitude of the resistor voltage peaked near "
    "five kilohertz, where the phase between current and drive changed sign. The measured "
    "bandwidth gives the quality factor, which agrees with the value from the components "
    "within the tolerance printed on the inductor."
)
# Six ways to keep a body from the page, each of which passed the output checks (issue 20).
HIDDEN = {
    "iffalse": f"\\iffalse\n{BODY}\n\\fi",
    "all comments": "\n".join(f"% {line}" for line in BODY.splitlines()),
    "an early spaced end": f"\\end {{document}}\n{BODY}",
    "enddocument": f"\\enddocument\n{BODY}",
    "csname end": f"\\csname @@end\\endcsname\n{BODY}",
    "a box never shipped": f"\\setbox0\\vbox{{{BODY}}}",
}
MATH = "\n".join(
    f"\\begin{{equation}}\\frac{{V_R}}{{V_0}} = \\frac{{R}}{{\\sqrt{{R^2 + (\\omega L - "
    f"\\frac{{1}}{{\\omega C}})^2}}}}, \\quad \\omega_{n} = \\frac{{{n}}}{{\\sqrt{{LC}}}} "
    f"\\label{{eq:{n}}}\\end{{equation}}\nwhere equation~\\eqref{{eq:{n}}} holds for "
    f"$\\omega \\in [\\omega_0 - \\Delta\\omega, \\omega_0 + \\Delta\\omega]$ and "
    f"$Q = \\omega_0 / \\Delta\\omega \\approx {n}.{n}$."
    for n in range(1, 40)
)
CHINESE = (
    "\\section{数据处理}\n共振频率约为 5.07 kHz，电感线圈略有发热。"
    "根据测得的通频带宽度计算品质因数，与由元件参数计算的理论值在误差范围内一致。电阻两端电压的幅值在共振频率附近达到最大，"
    "此时电流与驱动电压之间的相位差改变符号。"
)


def document(body: str) -> str:
    return (
        "\\documentclass{article}\n\\usepackage{amsmath}\n\\begin{document}\n"
        f"{body}\n\\end{{document}}\n"
    )


def pdf_text(pdf: Path) -> str:
    return subprocess.run(
        ["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout


@pytest.mark.parametrize("how", HIDDEN)
def test_typeset_a_draft_that_hides_its_body_ends_with_the_fallback(
    data: Path, run, how: str
) -> None:
    hidden = document(HIDDEN[how])
    writer = ScriptedChatModel(replies=[reply(content=hidden)])
    result = run(data, ScriptedChatModel(replies=[reply(FINISH)]), write=writer, compile=True)
    assert result.record["status"] == "degraded"
    assert result.record["degraded"][0].startswith("drafting failed 4 times")
    report = (result.out / "report.tex").read_text()
    assert report != hidden and "none of its drafts passed the checks" in report
    text = pdf_text(result.out / "report.pdf")
    assert "sweep.csv" in text and "params.ini" in text


@pytest.mark.parametrize("how", ["iffalse", "csname end", "a box never shipped"])
def test_typeset_a_source_that_passes_its_checks_is_refused_by_its_pdf(
    data: Path, run, how: str
) -> None:
    good = document(BODY)
    writer = ScriptedChatModel(replies=[reply(content=document(HIDDEN[how])), reply(content=good)])
    result = run(data, ScriptedChatModel(replies=[reply(FINISH)]), write=writer, compile=True)
    assert "its PDF shows only" in writer.requests[1][-1].text
    assert result.record["status"] == "completed"
    assert (result.out / "report.tex").read_text() == good
    assert "quality factor" in pdf_text(result.out / "report.pdf")


@pytest.mark.parametrize("body", [BODY + MATH, BODY + CHINESE], ids=["math", "chinese"])
def test_typeset_a_report_that_prints_its_text_passes(data: Path, run, body: str) -> None:
    writer = ScriptedChatModel(replies=[reply(content=document(body))])
    result = run(data, ScriptedChatModel(replies=[reply(FINISH)]), write=writer, compile=True)
    assert len(writer.requests) == 1
    assert result.record["status"] == "completed"
    assert (result.out / "report.tex").read_text() == document(body)


def test_typeset_a_revision_that_hides_the_body_is_dropped(data: Path, run) -> None:
    good, hidden = document(BODY), document(HIDDEN["a box never shipped"])
    critique = reply(content="- Say more about the bandwidth.")
    writer = ScriptedChatModel(replies=[reply(content=good), critique, reply(content=hidden)])
    result = run(data, ScriptedChatModel(replies=[reply(FINISH)]), write=writer, compile=True,
                 reflect=1)  # fmt: skip
    assert (result.out / "report.tex").read_text() == good
    reflected = next(e for e in read_events(result.out) if e.get("stage") == "reflect")
    assert "revision dropped (its PDF shows only" in reflected["detail"]
    assert result.record["status"] == "completed"


def test_typeset_a_compile_fix_that_hides_the_body_is_not_kept(data: Path, run) -> None:
    unresolved = document(f"{BODY} See Figure~\\ref{{fig:missing}}.")
    hidden = document(f"Results in brief.\n{HIDDEN['iffalse']}")  # a page, with next to nothing
    writer = ScriptedChatModel(replies=[reply(content=unresolved), reply(content=hidden)])
    result = run(data, ScriptedChatModel(replies=[reply(FINISH)]), write=writer, compile=True)
    assert len(writer.requests) == 3  # the undefined reference earned both fix rounds
    assert (result.out / "report.tex").read_text() == unresolved
    assert "quality factor" in pdf_text(result.out / "report.pdf")


def test_typeset_a_report_whose_final_pdf_hides_the_body_gives_way_to_the_fallback(
    data: Path, run
) -> None:
    # Shown in the proof, hidden once the bibliography is there: the compile stage judges
    # the PDF it keeps, too.
    (data / "handout.md").write_text("[1] E. M. Purcell, Electricity and Magnetism, 2013.\n")
    sly = document(
        "\\newif\\ifshown\\IfFileExists{references.bib}{}{\\showntrue}\n"
        f"\\ifshown\n{BODY}\n\\fi"
    )
    writer = ScriptedChatModel(replies=[reply(content=sly)])
    result = run(data, ScriptedChatModel(replies=[reply(FINISH)]), write=writer, compile=True)
    assert len(writer.requests) == 1 + FIX_ROUNDS
    assert "its PDF shows only 0 of" in writer.requests[1][-1].text
    assert result.record["status"] == "degraded"
    assert result.record["degraded"][0].startswith("the model's report does not print its text")
    assert "none of its drafts passed the checks" in (result.out / "report.tex").read_text()
    assert "sweep.csv" in pdf_text(result.out / "report.pdf")


def test_typeset_a_draft_that_copies_control_characters_from_the_data_compiles(
    data: Path, run
) -> None:
    copied = document(f"{BODY} The scope's title read \x1b[2J\x7fCH1\x0c.")
    writer = ScriptedChatModel(replies=[reply(content=copied)])
    result = run(data, ScriptedChatModel(replies=[reply(FINISH)]), write=writer, compile=True)
    assert result.record["compile"]["status"] == "compiled"
    assert result.record["status"] == "completed"
    assert "title read [2JCH1." in pdf_text(result.out / "report.pdf")
