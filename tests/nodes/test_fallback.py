"""The fallback report: what a TA reads when no model draft passed."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from labscribe.guards.output import latex_problems
from labscribe.nodes.fallback import MAX_INVENTORY_FILES, _inventory, fallback_report
from labscribe.nodes.latex_text import (
    BREAK_EVERY,
    LONG_TOKEN,
    MAX_CELL_CHARS,
    NARROW_SHARE,
    escape_latex,
    table,
)
from labscribe.tools.analysis.data_figures import draw_data_figures
from labscribe.tools.analysis.folder import analyse
from labscribe.tools.explorer.scanning import scan_folder
from labscribe.tools.sandbox.latex import compile_latex
from labscribe.tools.tool import Folder

needs_xelatex = pytest.mark.skipif(
    shutil.which("xelatex") is None and not os.environ.get("CI"),
    reason="xelatex is not installed here (CI installs texlive-xetex: .ci/run)",
)
REASON = "drafting failed 4 times (the reply had no \\documentclass)"


def state_of(folder: Path, out: Path, **extra: Any) -> dict[str, Any]:
    """The state scan leaves for `folder`: its walk, its analysis and its data figures."""
    analysis = analyse(Folder(folder))
    figures = draw_data_figures(Folder(folder), analysis, out / "figures")
    return {
        "folder": str(folder),
        "scan": scan_folder(folder).model_dump(),
        "analysis": analysis.model_dump(mode="json"),
        "figures": figures,
        "exploration": {"reason": "the explorer called finish_exploration"},
    } | extra


@pytest.fixture
def example_report(example: Path, tmp_path: Path) -> tuple[str, dict[str, Any]]:
    state = state_of(example, tmp_path / "out", findings={"experiment": "sweep.csv"})
    return fallback_report(state, REASON), state


def test_fallback_report_is_titled_and_aimed_by_the_assignment(example_report) -> None:
    report, _ = example_report
    assert "\\title{Lab 4: Resonance in a series RLC circuit}" in report  # not "sweep.csv"
    assert "As the assignment (assignment.pdf) states it:" in report
    assert "In this lab you measure the resonance curve of such a circuit" in report


def test_fallback_report_says_once_in_a_students_words_that_no_draft_passed(
    example_report,
) -> None:
    report, _ = example_report
    assert report.count("none of its drafts passed the checks") == 1
    assert "without the introduction, theory, discussion and conclusion in prose" in report
    assert "documentclass" not in report.split("\\maketitle", 1)[1]  # the reason is run.json's
    assert "drafting failed" not in report


def test_fallback_report_holds_the_parameter_table(example_report) -> None:
    report, _ = example_report
    assert "\\caption{The settings of params.ini, as written}" in report
    assert "\\textit{params.ini, [components]}" in report
    assert "R\\_\\allowbreak{}measured & 47.1 \\ensuremath{\\Omega} & DMM readings" in report
    assert "bandwidth\\_\\allowbreak{}limit & 20MHz &" in report  # the unit not written twice


def test_fallback_report_holds_the_fits_with_uncertainties_and_units(example_report) -> None:
    report, _ = example_report
    # every parameter, with its unit: the key ones first, the derived bandwidth last
    assert (
        "f0 = 5032.46 ± 0.57 Hz; Q = 2.9066 ± 0.0022; amplitude = 2.15878 ± 0.00090 Vpp; "
        "bandwidth = 1731.4 ± 1.3 Hz" in report
    )
    assert (  # an offset zero within its error is left out, and the report says so
        "c = (582 ± 565)e-6 Vpp is 0 within 2 standard errors, so the model is fitted "
        "without it" in report
    )
    assert "f0 = 5032.68 ± 0.54 Hz; Q = 5.3909 ± 0.0067" in report  # V_R/V_in
    assert "relative to the input V\\_in, which varies from 2.689 to 5.035 Vpp" in report


def test_fallback_report_shows_every_data_figure_with_its_caption(example_report) -> None:
    report, state = example_report
    assert [f["path"] for f in state["figures"]] == [
        "figures/data-sweep-V_R.png",
        "figures/data-sweep-phase.png",
        "figures/data-sweep-V_R_V_in.png",
    ]
    for record in state["figures"]:
        assert f"\\includegraphics[width=0.75\\linewidth]{{{record['path']}}}" in report
        assert f"\\caption{{{escape_latex(record['caption'])}}}" in report


def test_fallback_report_holds_an_excerpt_of_the_data(example_report) -> None:
    report, _ = example_report
    assert "Excerpt of data/sweep.csv: 10 of its 301 rows" in report
    assert "\\textbf{frequency [Hz]} & \\textbf{V\\_in [Vpp]}" in report
    assert "1000 & 4.999 & 0.1525 & 87.92 \\\\" in report
    assert "12000 & 4.948 & 0.3729 & -83.25 \\\\" in report


def test_fallback_report_checks_the_assignment_off_task_by_task(example_report) -> None:
    report, _ = example_report
    assert "Determine the resonance frequency f0 from the maximum of the curve" in report
    assert "f0 = 5032.46 ± 0.57 Hz (fit of V\\_\\allowbreak{}R against frequency)" in report
    assert "the comparison, from the values given" in report
    # a caution of the procedure is no task beside the handout's Goals and report lists
    assert "short-circuits part of the circuit. & " not in report


def test_fallback_report_quotes_the_notes(example_report) -> None:
    report, _ = example_report
    assert "\\paragraph{logbook\\_gbk.txt}" in report
    assert "14:05  发现 4.3～5.8 kHz 段 CH2 削顶，改为 500 mV/div 后重测该段。" in report
    assert "\\paragraph{notes\\_zh.md}" in report
    # the arrow and √ of the notes are set in math mode: Latin Modern has no glyph for them
    assert "信号源 \\ensuremath{\\rightarrow} C" in report


@needs_xelatex
def test_fallback_report_of_the_example_compiles_without_a_problem(
    example_report, tmp_path: Path
) -> None:
    report, _ = example_report
    compiled = compile_latex(report, None, tmp_path / "build", tmp_path / "out" / "figures")
    assert compiled.ok, compiled.log.describe()
    assert compiled.log.problems == 0, compiled.log.describe()  # no glyph missing: no fix round


@needs_xelatex
def test_fallback_report_of_european_chinese_data_compiles(tmp_path: Path) -> None:
    """A folder with no assignment: a GBK table with a decimal comma and Chinese notes."""
    folder = tmp_path / "放电实验"
    folder.mkdir()
    t = np.linspace(0, 10, 60)
    rows = "\r\n".join(f"{a:.3f};{5 * np.exp(-a / 2.5):.4f}".replace(".", ",") for a in t)
    (folder / "放电.csv").write_bytes(f"时间 (s);电压 (V)\r\n{rows}\r\n".encode("gbk"))
    (folder / "笔记.md").write_text("电容放电，τ ≈ 2.5 s，R = 10 kΩ。\n")
    state = state_of(folder, tmp_path / "out", findings={"experiment": "放电.csv"})
    report = fallback_report(state, REASON)
    assert "\\title{Lab report: exponential of 电压 against 时间}" in report
    assert "τ" not in report and "\\ensuremath{\\tau}" in report
    compiled = compile_latex(report, None, tmp_path / "build", tmp_path / "out" / "figures")
    assert compiled.ok and compiled.log.problems == 0, compiled.log.describe()


def test_fallback_report_without_data_says_so_and_stays_valid(tmp_path: Path) -> None:
    folder = tmp_path / "empty"
    folder.mkdir()
    (folder / "readme.txt").write_text("Nothing measured yet.\n")
    report = fallback_report(state_of(folder, tmp_path / "out"), REASON)
    assert latex_problems(report) == []
    assert "The material holds no table of numbers to analyse." in report
    assert "No parameter file was found in the material, and no single value" in report
    assert "\\title{Lab report}" in report


def test_fallback_report_lists_the_values_the_assignment_states(tmp_path: Path) -> None:
    """Words from an acoustic-resonance handout (MIPT lab 1.4.8): the rod's length is one
    value; the density is given once per material, so it is none of them; `n = 1, 2, 3, …`
    lists the harmonics, no value of n; `f = 0` of the column f is a condition on the data."""
    folder = tmp_path / "rods"
    folder.mkdir()
    (folder / "task.md").write_text(
        "# Young's modulus by acoustic resonance\n\n"
        "Resonance: f_n = n·u/(2L), n = 1, 2, 3, …\n\n"
        "- All rods have L = 600 mm (±0.5 mm).\n"
        "- Densities: steel ρ = 7.8e3 kg/m³, duralumin ρ = 2.8e3 kg/m³.\n"
        "- The first row, f = 0, is the rod at rest.\n\n"
        "## Tasks\n1. Plot f against n.\n"
    )
    (folder / "f.csv").write_text("n,f\n1,3.16\n2,6.31\n3,9.49\n4,12.66\n")
    report = fallback_report(state_of(folder, tmp_path / "out"), REASON)
    apparatus = report.split("\\section{Apparatus and parameters}", 1)[1].split("\\section", 1)[0]
    assert "The values task.md states in its text" in apparatus
    rows = [line for line in apparatus.splitlines() if line.endswith("\\\\")][2:]  # rows
    assert rows == ["L & 600 ± 0.5 mm \\\\"]  # neither ρ nor n
    assert "No parameter file was found" not in apparatus


def test_fallback_report_escapes_and_states_the_halt() -> None:
    state = {
        "findings": {"experiment": "50% of $x_1$", "goal": "g", "key_findings": ["a#b"]},
        "exploration": {"reason": "the explorer kept repeating the same tool call"},
        "guard": {"halts": [{"reason": "read_file was called 5 times with identical arguments"}]},
        "scan": {"buckets": {"data": {"count": 1, "files": ["sweep_1.csv"]}}},
    }
    report = fallback_report(state)
    assert latex_problems(report) == []
    assert "\\title{50\\% of \\$x\\_1\\$}" in report
    assert "a\\#b" in report
    assert "A language model began to read the material but stopped before it finished" in report
    assert "read\\_file" not in report  # the guard's reason is run.json's, not the student's
    assert "sweep\\_1.csv" in report


def test_escape_latex_covers_every_special_and_sets_greek_in_math() -> None:
    assert escape_latex("\\&%$#_{}~^") == (
        "\\textbackslash{}\\&\\%\\$\\#\\_\\{\\}\\textasciitilde{}\\textasciicircum{}"
    )
    assert escape_latex("10 kΩ, λ ≈ 5 µm, 22 °C") == (
        "10 k\\ensuremath{\\Omega}, \\ensuremath{\\lambda} \\ensuremath{\\approx} 5 µm, 22 °C"
    )
    assert escape_latex("ά Α ς ϐ") == (
        "\\ensuremath{\\alpha} \\ensuremath{\\mathrm{A}} \\ensuremath{\\sigma} ϐ"
    )
    # a laser diode's divergence angles θ_⊥ and θ_∥ printed as `\u22a5` before
    assert escape_latex("θ⊥ θ∥ ⟨t⟩") == (
        "\\ensuremath{\\theta}\\ensuremath{\\perp} \\ensuremath{\\theta}\\ensuremath{\\parallel} "
        "\\ensuremath{\\langle}t\\ensuremath{\\rangle}"
    )


def test_escape_latex_sets_a_negative_power_as_one_superscript() -> None:
    # eval13's French handout: "k_B = 1,38·10⁻²³ J/K" printed as "10− ²³" before
    assert escape_latex("1,38·10⁻²³ J/K, m⁻¹, 10²") == (
        "1,38·10\\ensuremath{^{-23}} J/K, m\\ensuremath{^{-1}}, 10²"
    )


def test_escape_latex_shows_controls_bidi_and_emoji_as_visible_codes() -> None:
    assert escape_latex("a\x1b[2J\x7f\x9b\u202eb\U0001f600\ufe0f") == (
        "a\\textbackslash{}u001b[2J\\textbackslash{}u007f\\textbackslash{}u009b"
        "\\textbackslash{}u202eb\\textbackslash{}u1f600\\textbackslash{}ufe0f"
    )
    assert escape_latex("22 °C, 5 €, № 3, 共振 ￥5, café") == "22 °C, 5 €, № 3, 共振 ￥5, café"


def test_escape_latex_turns_line_breaks_into_spaces_and_keeps_spacing() -> None:
    assert escape_latex("a\n\nb\r\nc\u2028d\x0ce\tf") == "a  b  c d e f"
    assert escape_latex("14:05  noted") == "14:05  noted"


def test_escape_latex_lets_a_long_token_break_and_leaves_words_whole() -> None:
    word = "x" * LONG_TOKEN
    assert escape_latex(word) == word
    token = "y" * (2 * BREAK_EVERY + 1)
    pieces = ["y" * BREAK_EVERY, "y" * BREAK_EVERY, "y"]
    breakable = "\\hfil\\penalty0\\hfilneg{}".join(pieces)
    assert escape_latex(f"a {token}_ b") == f"a {breakable}\\_ b"


def test_table_cuts_a_cell_too_long_for_a_page_and_says_so() -> None:
    cell = "z" * (MAX_CELL_CHARS + 7)
    assert " … (7 more characters)" in table(["value"], [[cell]], (NARROW_SHARE,))
    assert "(7 more" not in table(["value"], [[cell[:-7]]], (NARROW_SHARE,))
    assert " … (7 more characters)" in table(["value"], [[cell]])


def test_a_wider_column_holds_a_longer_cell_in_as_many_lines() -> None:
    """Six values a task asks of three runs fit the checklist's wide column, where a
    narrow column would cut them."""
    wide = "z" * (2 * MAX_CELL_CHARS + 7)
    shown = table(["task", "given"], [["1", wide]], (NARROW_SHARE, 2 * NARROW_SHARE))
    assert " … (7 more characters)" in shown
    assert "(7 more" not in table(["task", "given"], [["1", wide[:-7]]],
                                  (NARROW_SHARE, 2 * NARROW_SHARE))  # fmt: skip
    assert f"({MAX_CELL_CHARS + 7} more" in table(["given"], [[wide]], (NARROW_SHARE,))


def test_fallback_report_passes_the_output_checks_whatever_the_material_quotes(
    tmp_path: Path,
) -> None:
    """Notes that quote a model's tool-call markup, or repeat one line for pages, cannot
    make the report itself fail the checks every draft is held to."""
    folder = tmp_path / "data"
    folder.mkdir()
    (folder / "notes.md").write_text(
        'The bot replied <think>hmm</think> and {"tool_calls": []} and <｜DSML｜invoke>.\n'
    )
    (folder / "log.txt").write_text("OK\n" * 2000)
    state = state_of(folder, tmp_path / "out", findings={"key_findings": ["<tool_call>x"]})
    report = fallback_report(
        state, "drafting failed 4 times (it contains tool-call markup ('DSML'))"
    )
    assert latex_problems(report) == []
    assert "D{}SML" in report


def test_fallback_report_without_a_model_names_no_bench_and_says_how_to_add_one(
    example: Path, tmp_path: Path
) -> None:
    """The embedded model skipped where it never pays off: the reason names a bench, and
    run.json keeps it; the student reads what the report is and how to add a model."""
    skipped = (
        "exploration was skipped: skipped on the embedded model: ... (bench/bench_embedded.py)"
    )
    state = state_of(example, tmp_path / "out", exploration={"termination": "skipped",
                                                              "reason": skipped})  # fmt: skip
    reason = "skipped on the embedded model: its drafts failed (bench/bench_embedded.py)"
    report = fallback_report(state, reason, model_tried=False)
    assert "bench_embedded" not in report  # (the lab's own "bench B305-07" is its data)
    assert "embedded" not in report and "skipped" not in report and "Exploration" not in report
    assert "This report was written from the data alone" in report
    assert "\\texttt{-{}-base-url}" in report  # two hyphens in the PDF, not a dash


def test_fallback_report_says_what_a_model_that_read_the_material_noted(
    example: Path, tmp_path: Path
) -> None:
    ended = {"termination": "finished", "reason": "finish_exploration"}
    found = {"key_findings": ["f0 near 5 kHz"]}
    state = state_of(example, tmp_path / "out", findings=found, exploration=ended)
    report = fallback_report(state, "drafting failed 4 times (...)")
    assert "\\section{What the model noted}" in report
    assert "A language model read the material before this report was written" in report
    assert "f0 near 5 kHz" in report and "finish\\_exploration" not in report


def test_the_inventory_says_how_many_files_it_does_not_name() -> None:
    # a class of 40 scope exports: the list names the first MAX_INVENTORY_FILES, and counts
    names = [f"F{n:04d}CH1.CSV" for n in range(40)]
    (line,) = _inventory({"buckets": {"data": {"count": 40, "files": names}}})
    assert line.startswith("data (40): F0000CH1.CSV, ")
    assert line.endswith(
        f", F{MAX_INVENTORY_FILES - 1:04d}CH1.CSV and {40 - MAX_INVENTORY_FILES} more"
    )
