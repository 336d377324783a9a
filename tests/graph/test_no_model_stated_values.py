"""`labscribe run --no-model` on a series RLC circuit's pulse response (Università di Bologna,
tests/data/real/oscilloscope/unibo_rlc_pulse_3_14.csv): the values a handout states in its
prose, in the concise form and with one unit after the error, predict ω0 and γ through
formulas that take one another's results."""

from __future__ import annotations

from pathlib import Path

from test_no_model_checklist import REAL, checklist, plain, report_for

RLC = (REAL / "oscilloscope" / "unibo_rlc_handout.md").read_text()


def test_the_handouts_component_values_predict_what_the_task_expects(tmp_path: Path) -> None:
    """The students expected ω0 = 55.4(4)·10³ 1/s and γ = 12.46(12)·10³ 1/s; before, no
    prediction was made at all: the folder has no parameter file, the values stand in the
    handout's list, and γ takes R_tot, which another formula gives."""
    report = plain(report_for(
        tmp_path, ("assignment.md", RLC),
        (REAL / "oscilloscope" / "unibo_rlc_pulse_3_14.csv", "Pulse_3.14-oscilloscope.csv"),
    ))  # fmt: skip
    first = checklist(report).split("\\midrule", 1)[1].split("\n2 & ", 1)[0]
    assert "\\ensuremath{\\omega}0 predicted 55433 ± 377 1/s from" in first
    assert "\\ensuremath{\\gamma} predicted 12460 ± 123 1/s from" in first
    assert (
        "C = (32.00 ± 0.30)e-9 F (C = 32.0 ± 0.3 nF, assignment.md; a standard uncertainty"
        in report
    )
