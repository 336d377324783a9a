"""The report from the data, on folders of every corpus: the generated laws with their
handouts, certified NIST datasets whose handout writes the model out, real lab files, and a
task whose model cannot describe its data. Each report states the model the assignment asks
for with all its parameters ± σ and units, says so where nothing fits, and keeps every task."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
from benchmodule import load

from labscribe.nodes.fallback import fallback_report
from labscribe.nodes.latex_text import escape_latex
from labscribe.tools.analysis.folder import Analysis, analyse
from labscribe.tools.fits.fit_result import format_value
from labscribe.tools.tool import Folder

REAL = Path(__file__).resolve().parents[1] / "data" / "real"
corpus = load("analysis/analysis_corpus.py", "fallback_corpus_laws")
certified = load("analysis/certified.py", "fallback_corpus_certified")


def report_of(folder: Path) -> tuple[Analysis, str]:
    analysis = analyse(Folder(folder), budget_seconds=60)
    report = fallback_report({"analysis": analysis.model_dump(mode="json"), "figures": []})
    return analysis, report.replace("\\allowbreak{}", "")


def assert_states_the_asked_model_and_keeps_every_task(analysis: Analysis, report: str) -> None:
    assert analysis.tasks, "the folder's handout sets tasks"
    for task in analysis.tasks:
        assert escape_latex(task) in report
    asked = [fit for fit in analysis.fits if fit.requested and fit.model]
    assert asked, "the model the handout names was fitted"
    for fit in asked:
        for parameter in fit.parameters:
            assert parameter.stderr is not None, f"{parameter.name} has no standard error"
            assert escape_latex(f"{parameter.name} = {format_value(parameter)}") in report


def generated_folders(root: Path) -> list[Path]:
    return [root / path.name.removesuffix(".truth.json") for path in corpus.generate(root, 1)]


@pytest.mark.parametrize("law", range(len(corpus.LAWS)), ids=[law.model for law in corpus.LAWS])
def test_fallback_of_a_generated_folder(law: int, tmp_path: Path) -> None:
    folder = generated_folders(tmp_path)[law]
    analysis, report = report_of(folder)
    assert_states_the_asked_model_and_keeps_every_task(analysis, report)
    asked = next(f for f in analysis.fits if f.requested)
    x_unit = corpus.LAWS[law].x[2]
    assert any(x_unit in p.unit for p in asked.parameters)  # units follow the columns'


@pytest.mark.parametrize("name", ["Misra1a", "Lanczos3", "Eckerle4", "BoxBOD", "Gauss1"])
def test_fallback_of_a_certified_dataset(name: str, tmp_path: Path) -> None:
    [dataset] = certified.datasets([name])
    analysis, report = report_of(certified.lab_folder(tmp_path, dataset))
    assert_states_the_asked_model_and_keeps_every_task(analysis, report)


def test_fallback_of_a_real_pendulum_table_and_its_handout(tmp_path: Path) -> None:
    folder = tmp_path / "pendulum"
    folder.mkdir()
    shutil.copy(REAL / "labtables" / "pendulum-lengths-periods.csv", folder / "periods.csv")
    (folder / "handout.txt").write_text(
        "Tasks\n1. Measure the period T for several lengths l.\n"
        "2. Fit a power law T = a l^b to the period against the length.\n"
        "3. From a, determine the gravitational acceleration g.\n"
        "Hand in the report on Friday.\n"
    )
    analysis, report = report_of(folder)
    assert len(analysis.tasks) == 3
    assert_states_the_asked_model_and_keeps_every_task(analysis, report)
    asked = next(f for f in analysis.fits if f.requested)
    assert asked.parameter("a").unit == "s/cm^0.5"


def test_fallback_says_so_where_the_asked_model_cannot_describe_the_data(
    tmp_path: Path,
) -> None:
    rng = np.random.default_rng(9)
    t = np.linspace(0, 10, 150)
    signal = 3 * np.exp(-t / 0.4) + 2 * np.exp(-t / 2) + np.exp(-t / 8)
    rows = [
        f"{a:.4f},{b + 0.005 * rng.standard_normal():.5f}" for a, b in zip(t, signal, strict=True)
    ]
    (tmp_path / "decay.csv").write_text("t (s),U (V)\n" + "\n".join(rows) + "\n")
    (tmp_path / "assignment.md").write_text(
        "# Decay\n\nTasks\n\n1. Fit an exponential decay to U against t and give its time "
        "constant.\n"
    )
    analysis, report = report_of(tmp_path)
    assert_states_the_asked_model_and_keeps_every_task(analysis, report)
    asked = next(f for f in analysis.fits if f.requested)
    assert not asked.good and asked.structure
    assert "the assignment's model does not describe these data" in report
    # the model the task prescribes answers it, its misfit a caveat beside its values
    assert "it does not describe these data to within their noise (see the fits): these " in report
    assert "the model this task asks for describes the data only roughly" in report
