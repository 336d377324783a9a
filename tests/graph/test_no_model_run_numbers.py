"""`labscribe run --no-model` on a PHYWE Hall-effect course's exports (tests/data/real/hall):
files named by their run's number after a dot (`nGE exp 1.1`), which says nothing of their
format, are read as data like files without a suffix, and names over `symbol/unit` rows
(`Flux density B` over `B/mT`) keep their symbol once."""

from __future__ import annotations

import re
from pathlib import Path

from test_no_model_checklist import REAL, report_for

HALL = REAL / "hall"


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
    slope = re.search(
        r"Hall voltage UH \[mV\] against Sample current Ip \[mA\] \(nGE exp 1\.1\) & linear: "
        r"[^&]*& slope = (-2\.78\d*) ± ",
        report,
    )
    assert slope is not None, report
    assert "Sample voltage Up [V] against Flux density B [mT]" in report
    assert "UH UH" not in report and "B B" not in report
