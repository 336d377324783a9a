"""`labscribe run --no-model` on a rod-bending lab whose files head their columns `# x y z`
and whose handout says what each is (TU Dortmund V103, tests/data/real/conventions/
dortmund_v103_*): the columns take the handout's symbols and units, the bending D = b₂ − b₁
is formed, and a line against a term no column holds is said not done, never fitted
against the position."""

from __future__ import annotations

import re
from pathlib import Path

from test_no_model_checklist import REAL, checklist, plain, report_for

CONVENTIONS = REAL / "conventions"


def test_a_quoted_header_line_names_the_columns_and_no_line_stands_in_for_the_asked_one(
    tmp_path: Path,
) -> None:
    """Before, the columns were x, y and z without units, lines of y and z against x were
    fitted, and with D formed a line of D against x would have been labelled 'the model
    task 1 asks for', which plots D against each setup's linearisation term."""
    report = plain(report_for(
        tmp_path,
        ("assignment.md", (CONVENTIONS / "dortmund_v103_assignment.md").read_text()),
        (CONVENTIONS / "dortmund_v103_mess1.txt", "mess1.txt"),
    ))  # fmt: skip
    assert re.search(r"D \[mm\] against x \[cm\] \(mess1\.txt\)", report)
    assert "y against x" not in report and "z against x" not in report
    assert "task 1 asks for" not in report and "task 2 asks for" not in report
    first = checklist(report).split("\n1 & ", 1)[1].split("\n2 & ", 1)[0]
    assert "not done: the task asks for a fit of D against Linearisierungsterm" in first
