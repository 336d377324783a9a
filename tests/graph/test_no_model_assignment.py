"""`labscribe run --no-model` on handouts as labs write them: every task in the report's
checklist, verbatim and in order, the title and aim as the handout gives them, and a PDF
that speaks to the student (what it is, what a model would add, how to add one) and never
names labscribe's stages, modules or benches."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from clirun import labscribe
from test_no_model import no_model_report

REAL = Path(__file__).parents[1] / "data" / "real"
NO_MODEL_HERE = {"LABSCRIBE_LOCAL_GGUF": "/nonexistent/model.gguf"}
# What the PDF may not say: labscribe's jargon and the technical reasons run.json keeps.
# (A lab's own "bench B305-07" is its data, not labscribe's bench.)
FORBIDDEN = re.compile(
    r"degraded|\bbench(?:_\w+|/)|loopbench|fallback|--no-model|data report alone"
    r"|was skipped|\bexplor(?:er|ation)\b|\b(?:tools|nodes|graph|guards|bench)/\w+"
    r"|\bbench_\w+\.py|drafting failed|output checks|\bguards?\b|labscribe\.\w+",
    re.IGNORECASE,
)
PENDULUM = (
    "# Lab 2: The simple pendulum\n"
    "In this experiment you measure the period of a simple pendulum for several lengths and "
    "use it to find the gravitational acceleration.\n"
    "Tasks:\n"
    "1. Plot the period T against the length L.\n"
    "2. Fit a power law T = a L^b to the data.\n"
    "3. From a, determine the gravitational acceleration g.\n"
)
PENDULUM_TASKS = [
    "Plot the period T against the length L.",
    "Fit a power law T = a L^b to the data.",
    "From a, determine the gravitational acceleration g.",
]


def run(folder: Path, tmp_path: Path, *flags: str) -> Path:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("LABSCRIBE_", "DEEPSEEK_"))} | NO_MODEL_HERE  # fmt: skip
    out = tmp_path / "out"
    done = labscribe("run", str(folder), "--no-model", "--out", str(out),
                     "--db", str(tmp_path / "c.db"), *flags, env=env, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return out


def checklist(report: str) -> str:
    """The checklist section's text, its cells' break points and escapes undone."""
    rows = report.split("\\section{The assignment's tasks}", 1)[1].split("\\section{", 1)[0]
    rows = re.sub(r"\\allowbreak\{\}|\\hfil\\penalty0\\hfilneg\{\}", "", rows)
    return rows.replace("\\_", "_").replace("\\textasciicircum{}", "^")


def test_no_model_lists_every_task_of_the_pendulum_handout_in_order(tmp_path: Path) -> None:
    folder = tmp_path / "lab2"
    folder.mkdir()
    (folder / "handout.md").write_text(PENDULUM)
    shutil.copy(REAL / "labtables" / "pendulum-lengths-periods.csv", folder / "pendulum.csv")
    report = no_model_report(folder, tmp_path)
    assert "\\title{Lab 2: The simple pendulum}" in report
    assert "In this experiment you measure the period of a simple pendulum" in report
    rows = checklist(report)
    positions = [rows.find(f"{number} & {task} &")
                 for number, task in enumerate(PENDULUM_TASKS, start=1)]  # fmt: skip
    assert -1 not in positions, rows
    assert positions == sorted(positions)
    assert "4 & " not in rows  # nothing else taken for a task


def test_no_model_finds_a_handout_no_name_calls_one_by_the_tasks_it_sets(
    tmp_path: Path,
) -> None:
    """`lab2.md` and `README.md` say nothing of an assignment: the document that sets tasks
    is the handout, not the notes beside it whose to-do list reads like one."""
    folder = tmp_path / "lab2"
    folder.mkdir()
    (folder / "lab2.md").write_text(PENDULUM)
    (folder / "notes.md").write_text(
        "To do:\n- Measure the room temperature.\n- Check the clamp.\n"
    )
    shutil.copy(REAL / "labtables" / "pendulum-lengths-periods.csv", folder / "pendulum.csv")
    report = no_model_report(folder, tmp_path)
    assert "\\title{Lab 2: The simple pendulum}" in report
    rows = checklist(report)
    assert all(f"{n} & {task} &" in rows for n, task in enumerate(PENDULUM_TASKS, start=1))
    assert "room temperature" not in rows


def test_no_model_lists_the_task_of_a_chinese_worksheet_with_its_data(tmp_path: Path) -> None:
    """A published exam question on the pendulum (tests/data/real/handouts/SOURCES.md), its
    table of L and T as a CSV beside it."""
    folder = tmp_path / "单摆"
    folder.mkdir()
    shutil.copy(REAL / "handouts" / "danbai_wenti_zh.txt", folder / "作业.txt")
    rows = zip([0.5, 0.8, 0.9, 1.0, 1.2], [1.42, 1.79, 1.90, 2.00, 2.20], strict=True)
    (folder / "单摆.csv").write_text("L (m),T (s)\n" + "".join(f"{a},{b}\n" for a, b in rows))
    report = no_model_report(folder, tmp_path)
    task = "以L为横坐标,T2为纵坐标,作出T2-L图线,并利用此图线可求出重力加速度g=______."
    assert f"1 & {task} &" in checklist(report)
    assert "某同学" not in checklist(report)  # the question's narrative is no task
    assert FORBIDDEN.search(report.split("\\maketitle", 1)[1]) is None


def test_no_model_report_tells_the_student_what_it_is_and_how_to_add_a_model(
    example: Path, tmp_path: Path
) -> None:
    flags = () if shutil.which("xelatex") else ("--no-compile",)
    out = run(example, tmp_path, "--thread", "lab-4", *flags)
    body = (out / "report.tex").read_text().split("\\maketitle", 1)[1]
    texts = [" ".join(body.split())]
    if shutil.which("xelatex") and shutil.which("pdftotext"):  # CI installs both
        pdf = subprocess.run(["pdftotext", str(out / "report.pdf"), "-"], capture_output=True,
                             text=True, check=True).stdout  # fmt: skip
        texts.append(" ".join(pdf.split()))
    elif os.environ.get("CI"):
        pytest.fail("CI installs xelatex and pdftotext: the PDF's text must be checked there")
    for text in texts:
        assert FORBIDDEN.search(text) is None, FORBIDDEN.search(text)
        plain = re.sub(r"\\texttt\{([^}]*)\}", r"\1", text.replace("-{}-", "--"))
        plain = plain.replace("\\_", "_")
        assert "This report was written from the data alone" in plain
        assert "computed without a language model" in plain
        assert "would add the introduction, theory, discussion and conclusion in prose" in plain
        assert "LABSCRIBE_BASE_URL or --base-url" in plain
        assert "LABSCRIBE_WRITE_MODEL or --write-model" in plain
        assert "DEEPSEEK_API_KEY" in plain
        assert "run labscribe on this folder again" in plain
    record = json.loads((out / "run.json").read_text())  # the technical reasons stay here
    assert record["status"] == "completed"  # what --no-model asks is no degradation
    assert record["skipped"]["draft"] == "no model: the data report alone (--no-model)"
    assert record["degraded"] == []
