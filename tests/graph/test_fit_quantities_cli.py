"""`labscribe run --no-model`: a quantity a task asks of a fit (a FWHM, a half-life) is in
its checklist row, computed from the fitted parameters, on NIST's certified data sets; a law
the handout linearises (ln A = ln A0 − k t) gives its parameters from the line's."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
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


def test_a_rate_constant_is_read_off_the_line_the_handout_linearises(tmp_path: Path) -> None:
    """Two runs of a first-order decay at two temperatures, as a kinetics practical writes
    them: "ln A = ln A0 − k t", "plot ln A against t", "from the slope, determine k". Each
    run's k is minus its line's slope (numpy's least squares on ln A), named with its run."""
    folder = tmp_path / "lab"
    folder.mkdir()
    rng = np.random.default_rng(1)
    t = np.arange(0, 1260, 120.0)
    slopes = {}
    for celsius, rate in ((25, 1.1e-3), (35, 2.4e-3)):
        absorbance = np.round(0.85 * np.exp(-rate * t) + rng.normal(0, 0.004, t.size), 4)
        rows = "".join(f"{a:.0f},{b:.4f}\n" for a, b in zip(t, absorbance, strict=True))
        (folder / f"run_{celsius}C.csv").write_text("t (s),A\n" + rows)
        slopes[celsius] = np.polyfit(t, np.log(absorbance), 1)[0]
    (folder / "assignment.md").write_text(
        "# Kinetics of the fading of crystal violet\n\n"
        "The reaction is pseudo-first order, so ln A = ln A0 - k t.\n\nTasks:\n"
        "1. For each temperature, plot ln A against t and fit a straight line.\n"
        "2. From the slope, determine the rate constant k at each temperature.\n"
    )
    row = _row(no_model_report(folder, tmp_path), "determine the rate constant k")
    # the law is told with the first run's value, and "likewise" for the others
    for number, (celsius, slope) in enumerate(slopes.items()):
        how = ("from ln A = ln A0 - k t, whose line gives k = -slope" if number == 0
               else "likewise")  # fmt: skip
        assert re.search(
            rf"k = {-slope:.7f} ± [0-9.]+ 1/s \({how}, with the fit of ln A against t "
            rf"\(run\\_\\allowbreak\{{\}}{celsius}C",
            row,
        ), row
    assert "k is not in this report" not in row


STRD = Path(__file__).parents[2] / "bench" / "analysis" / "strd"


def test_the_residual_standard_deviation_of_nists_norris_line(tmp_path: Path) -> None:
    """NIST StRD Norris (ozone monitors): the task asks for slope, intercept and the residual
    standard deviation; the row gives the certified s, and no other model of the same
    columns (the line through the origin) beside the line the task asks for. The handout's
    "reading" describes both y and x, so it names neither: y is fitted against x."""
    text = (STRD / "Norris.dat").read_text()
    certified = float(re.search(r"Residual\s+Standard Deviation\s+([\d.]+)", text)[1])
    data = text.rsplit("Data:", 1)[1].splitlines()[1:]
    folder = tmp_path / "lab"
    folder.mkdir()
    (folder / "Norris.dat").write_text("#       y          x\n" + "\n".join(data) + "\n")
    (folder / "assignment.md").write_text(
        "# Calibration of an ozone monitor\n\nTasks:\n"
        "1. Plot the customer's reading y against the reference reading x and fit a straight "
        "line by least squares.\n"
        "2. Report the slope and the intercept with their standard errors, and the residual "
        "standard deviation.\n"
    )
    report = no_model_report(folder, tmp_path)
    row = _row(report, "Report the slope")
    assert f"s = {certified:.6f}" in row, row
    assert row.count("slope = ") == 1, row  # the asked line's, not the origin line's too
    said = "y is taken as the response to x, as the assignment says (“Plot the customer's reading y"
    assert said in report
