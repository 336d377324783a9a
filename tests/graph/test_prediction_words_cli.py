"""`labscribe run --no-model`: a prediction from settings named as the handout's prose names
its symbols ("the number of turns N", "where R is the radius of the coil")."""

from __future__ import annotations

from pathlib import Path

from test_no_model import no_model_report

DERIVED = Path(__file__).parents[1] / "data" / "real" / "derived"


def test_the_field_at_a_coil_s_centre_is_predicted_from_its_settings(tmp_path: Path) -> None:
    # the textbook exercise: 100 turns of radius 8.0 cm carrying 0.40 A give
    # B = µ0·N·I/(2R) = 3.14 × 10⁻⁴ T at the centre
    report = no_model_report(DERIVED / "coil_centre", tmp_path)
    start = report.index("Calculate the field B at the centre")
    row = report[start : report.index("\\\\", start)]
    assert "B predicted 0.000314159 T" in row, row
    assert "R = 0.08 m" in row and "all of it" not in row
