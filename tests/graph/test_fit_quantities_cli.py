"""`labscribe run --no-model`: a quantity a task asks of a fit (a FWHM, a half-life) is in
its checklist row, computed from the fitted parameters, on NIST's certified data sets."""

from __future__ import annotations

import re
from pathlib import Path

from test_no_model import no_model_report

DERIVED = Path(__file__).parents[1] / "data" / "real" / "derived"


def _row(report: str, words: str) -> str:
    """The checklist row (up to its `\\\\`) of the task that holds `words`."""
    start = report.index(words)
    return report[start : report.index("\\\\", start)]


def test_a_named_fwhm_comes_from_the_fitted_gaussian(tmp_path: Path) -> None:
    # NIST StRD Eckerle4 in the σ form: certified b2 = 4.0888321754 ± 0.046803 nm, so
    # FWHM = 2√(2 ln 2)·b2 = 9.628 ± 0.110 nm
    report = no_model_report(DERIVED / "eckerle4_sigma", tmp_path)
    row = _row(report, "Determine the full width at half maximum")
    assert re.search(r"FWHM = 9\.63 ± 0\.11 nm", row), row
    assert "all of it" not in row


def test_a_half_life_comes_from_the_fitted_rate(tmp_path: Path) -> None:
    # NIST StRD BoxBOD (Box, Hunter & Hunter 1978): certified b2 = 0.547237 ± 0.104560 1/d,
    # so t½ = ln 2/b2 = 1.27 ± 0.24 d
    report = no_model_report(DERIVED / "boxbod", tmp_path)
    row = _row(report, "Give the half-life")
    assert "= 1.27 ± 0.24 d" in row, row
    assert "all of it" not in row
