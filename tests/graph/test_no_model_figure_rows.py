"""`labscribe run --no-model`: a plot task's row offers the report's figure only where that
figure shows what the task's axes name. "(VH − V1)/VH ∝ δ against IS" asks for δ, a quantity
no column holds: the figure of V1 against IS (real Hall data, tests/data/real/hall) is not
its plot, though the task writes V1."""

from __future__ import annotations

import re
from pathlib import Path

from test_no_model_checklist import REAL, checklist, report_for

HANDOUT = "# Hall\n\n## Tasks\n1. Plot (VH − V1)/VH ∝ δ against IS.\n2. Plot VH against IS.\n"


def test_a_figure_of_another_quantity_is_not_offered_as_the_plot(tmp_path: Path) -> None:
    report = report_for(tmp_path, ("tasks.md", HANDOUT), (REAL / "hall" / "hitsz_2-VH-IS.csv",
                                                          "hall.csv"))  # fmt: skip
    rows = dict(re.findall(r"^(\d) & (.*)$", checklist(report), re.MULTILINE))
    assert "labscribe's figure" not in rows["1"], rows["1"]
    assert "the plot: this report lists only the data it needs" in rows["1"]
