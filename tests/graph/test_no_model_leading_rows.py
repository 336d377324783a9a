"""`labscribe run --no-model` on a rod's cooling record whose probe warms up first (UC
Berkeley Physics 5CL, tests/data/real/vernier/berkeley_rod_cooling_*): the readings the
handout says to drop go before the fit, and the task that reports the model's decay
constant is answered by that model's fit."""

from __future__ import annotations

from pathlib import Path

from test_no_model_checklist import REAL, checklist, plain, report_for

VERNIER = REAL / "vernier"


def test_the_readings_the_handout_drops_go_before_the_asked_model(tmp_path: Path) -> None:
    """The student fitted rows 100 on: γ = 0.3137 1/min, c = 13.26 °C. Before, all 601
    readings, the probe's warm-up with them, gave γ = 0.046 ± 0.018 1/min and a model that
    'does not describe the data', and task 3 was answered by an exponential's decay time
    of its own (6.4 min)."""
    report = plain(report_for(
        tmp_path,
        ("assignment.md", (VERNIER / "berkeley_rod_cooling_assignment.md").read_text()),
        (VERNIER / "berkeley_rod_cooling_aluminum.csv", "Lab 6 Exp 4 Aluminum Rod.csv"),
    ))  # fmt: skip
    assert (
        "left out: Lab 6 Exp 4 Aluminum Rod.csv: its first 100 rows, as the assignment says "
        "(“dropped the first 100 readings”)" in report
    )
    rows = checklist(report).split("\\midrule", 1)[1]
    second, third = rows.split("\n2 & ", 1)[1].split("\n3 & ", 1)
    assert "gamma = 0.3137 ± 0.0019 1/min" in second and "c = 13.260 ± 0.030 °C" in second
    assert "501 rows" in second
    assert "gamma = 0.3137 ± 0.0019 1/min" in third and "(the fit task 2 asks for" in third
    assert "decay = " not in third
