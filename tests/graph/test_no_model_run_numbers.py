"""`labscribe run --no-model` on a PHYWE Hall-effect course's exports (tests/data/real/hall):
files named by their run's number after a dot (`nGE exp 1.1`), which says nothing of their
format, are read as data like files without a suffix, and names over `symbol/unit` rows
(`Flux density B` over `B/mT`) keep their symbol once."""

from __future__ import annotations

import re
from pathlib import Path

from test_no_model_checklist import REAL, report_for

HALL = REAL / "hall"


def _slope(report: str, against: str, leading: str) -> re.Match[str] | None:
    """The linear fit's slope of the Hall voltage against `against` in the fit table, where
    it starts with `leading`."""
    return re.search(
        rf"Hall voltage UH \[mV\] against {against} & linear: [^&]*& slope = ({leading}\d*) ± ",
        report,
    )


def test_runs_numbered_after_a_dot_are_read_with_their_names_and_units(tmp_path: Path) -> None:
    handout = (
        "# Hall effect in germanium\n\n"
        "Experiment 1: Hall voltage vs control current at 250 mT.\n"
        "Experiment 2: Hall voltage and sample voltage vs magnetic field at 30 mA.\n"
    )
    report = report_for(
        tmp_path,
        ("assignment.md", handout),
        (HALL / "phywe_nGE_exp_1.1", "nGE exp 1.1"),
        (HALL / "phywe_nGE_exp_2.1", "nGE exp 2.1"),
    ).replace("\\allowbreak{}", "")
    assert "data (2): nGE exp 1.1, nGE exp 2.1" in report
    assert "other (" not in report
    slope = _slope(report, r"Sample current Ip \[mA\] \(nGE exp 1\.1\)", r"-2\.78")
    assert slope is not None, report
    assert "Sample voltage Up [V] against Flux density B [mT]" in report
    assert "UH UH" not in report and "B B" not in report


def test_a_line_with_the_magnets_steps_is_its_slope_not_a_small_peak(tmp_path: Path) -> None:
    """UH against B is a line through ±300 mT whose residuals keep a 2.5 mV step near
    −200 mT: the report gives its slope with a caveat, not a Gaussian of height 2.6 mV on
    a 180 mV slope (the student's slope: −299.6 ± 0.8 mV/T over three runs)."""
    report = report_for(
        tmp_path,
        ("assignment.md", "# Hall effect\n\nHall voltage vs magnetic field at 30 mA.\n"),
        (HALL / "phywe_nGE_exp_2.1", "nGE exp 2.1"),
    ).replace("\\allowbreak{}", "")
    assert "on a slope" not in report
    slope = _slope(report, r"Flux density B \[mT\] \(nGE exp 2\.1\)", r"-0\.29")
    assert slope is not None, report
    assert abs(float(slope.group(1)) + 0.2987) < 0.001
    assert "follows these data but does not describe them to within their noise" in report


def test_a_line_through_the_data_stands_in_for_a_cubic_that_only_traces_them(
    tmp_path: Path,
) -> None:
    """p-type Ge's UH against B: a cubic comes closest and does not describe the data
    either; the line, at R² = 0.9993, follows them and gives the slope the student gives
    (0.2176 mV/mT here; 217.7 ± 1.0 mV/T over three runs)."""
    report = report_for(
        tmp_path,
        ("assignment.md", "# Hall effect\n\nHall voltage vs magnetic field at 30 mA.\n"),
        (HALL / "phywe_pGe_exp_2.1", "pGe exp 2.1"),
    ).replace("\\allowbreak{}", "")
    slope = _slope(report, r"Flux density B \[mT\] \(pGe exp 2\.1\)", r"0\.21")
    assert slope is not None, report
    assert abs(float(slope.group(1)) - 0.2176) < 0.001
    assert "linear: slope·x + intercept (a straight line through the data; it follows" in report
