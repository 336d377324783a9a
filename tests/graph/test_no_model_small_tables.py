"""`labscribe run --no-model` on small tables as students keep them (tests/data/real): four
voltages with three charges each and their mean, as a Peruvian capacitor lab's workbook
gives them (a line through four points has two degrees of freedom, and is fitted; the mean
stands for its repeats), and a Brazilian pendulum's settings above its timings, one a line
with a comment (`L1 ; 1.15 ; Comprimentos do pêndulo 1 em metros`)."""

from __future__ import annotations

import re
from pathlib import Path

from test_no_model_checklist import REAL, plain, report_for

CAPACITOR = """\
# Capacitor charging

For a capacitor the charge is Q = C V, at plate separations of 4 mm (A) and 6 mm (B).

## Tasks
1. Average the repeated charge measurements.
2. Perform a linear regression of charge against voltage by least squares: its slope is C.
"""


def test_a_stated_mean_of_three_charges_at_four_voltages_is_fitted(tmp_path: Path) -> None:
    report = plain(
        report_for(
            tmp_path,
            ("README.md", CAPACITOR),
            (REAL / "capacitor" / "uni_datalab2.xlsx", "datalab2.xlsx"),
        )
    )
    slopes = dict(
        re.findall(r"\n(Q[AB]) against Voltage[^&]*& linear[^&]*& slope = ([^;]+);", report)
    )
    assert slopes == {"QA": "0.01162 ± 0.00034", "QB": "0.00844 ± 0.00034"}, report
    assert "QA is the mean of Q1_A, Q2_A, Q3_A in every row, as the file gives it" in report
    assert "Q1_A against" not in report and "too few points" not in report


def test_settings_with_a_comment_above_the_timings_are_all_read(tmp_path: Path) -> None:
    data = REAL / "pendulum" / "exp04_aceleracao_da_gravidade_local.csv"
    report = report_for(
        tmp_path,
        ("README.md", "# Pêndulo simples\n\nMedir g = 4π² l / T² com três comprimentos.\n"),
        (data, "Exp04.csv"),
    )
    # each in the unit its comment names in words ("… em metros", "… em segundos")
    for key, value in (("L1", "1.15 m"), ("L2", "1.45 m"), ("L3", "1.75 m"), ("DrT", "0.01 s")):
        assert re.search(rf"\n{key} & {value} & ", report), report
    assert "DrL & 0.05 m & Resolucao da medida dos comprimentos" in report
