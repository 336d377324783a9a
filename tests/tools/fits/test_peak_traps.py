"""Lines a Lorentzian misfits while its R² stays high: each must be fitted by a model that
describes it, or said not to be, never reported as a good fit with a wrong width. Through
the analysis scan runs (tools.analysis.folder.analyse), with a task that asks for a Lorentzian."""

from collections.abc import Callable
from pathlib import Path

import numpy as np

from labscribe.tools.analysis.folder import analyse
from labscribe.tools.fits.fit_result import Fit
from labscribe.tools.tool import Folder

F0, FWHM = 50_000.0, 2000.0  # Hz
TASK = "1. Fit a Lorentzian to the resonance line and give its FWHM.\n"


def lorentzian(f: np.ndarray) -> np.ndarray:
    return 1 / (1 + ((f - F0) / (FWHM / 2)) ** 2)


def gaussian(f: np.ndarray) -> np.ndarray:
    return np.exp(-4 * np.log(2) * ((f - F0) / FWHM) ** 2)


def line_fits(
    folder: Path,
    line: Callable[[np.ndarray], np.ndarray],
    points: int,
    widths: float,
    noise: float,
) -> tuple[Fit, Fit]:
    """(the fit the task asks for, the best standard fit) of `line` sampled at `points`
    frequencies `widths` FWHM either side of its centre."""
    rng = np.random.default_rng(points)
    f = np.linspace(F0 - widths * FWHM, F0 + widths * FWHM, points)
    y = line(f) + noise * rng.standard_normal(points)
    rows = "\n".join(f"{a:.2f},{b:.6f}" for a, b in zip(f, y, strict=True))
    (folder / "line.csv").write_text(f"f (Hz),P (mW)\n{rows}\n")
    (folder / "assignment.txt").write_text(f"Tasks\n{TASK}")
    fits = analyse(Folder(folder)).fits
    asked = next(fit for fit in fits if fit.requested)
    best = next((fit for fit in fits if not fit.requested), asked)
    return asked, best


def test_analyse_fits_a_line_on_a_sloped_baseline_with_the_slope(tmp_path: Path) -> None:
    def tilted(f: np.ndarray) -> np.ndarray:
        return lorentzian(f) + 0.3 + 0.5 * (f - F0) / (6 * FWHM)

    asked, best = line_fits(tmp_path, tilted, 200, 6, 0.01)
    for fit in (asked, best):
        assert fit.model == "lorentzian on a slope" and fit.good
        width = fit.parameter("fwhm")
        assert abs(width.value - FWHM) <= 2 * width.stderr
        assert fit.parameter("slope").unit == "mW/Hz"


def test_analyse_says_a_lorentzian_through_a_gaussian_line_leaves_structure(
    tmp_path: Path,
) -> None:
    """A narrow line on a wide scan: the wings' noise hid the misfit of its top."""
    asked, best = line_fits(tmp_path, gaussian, 200, 10, 0.02)
    assert asked.model == "lorentzian" and not asked.good
    assert asked.structure.startswith("the residuals show structure")
    verdict = next(n for n in asked.notes if n.startswith("the assignment's model does not "))
    assert verdict.startswith("the assignment's model does not describe these data: ")
    assert verdict.endswith(asked.structure)
    assert best.model == "gaussian" and best.good
    assert abs(best.parameter("fwhm").value - FWHM) <= 2 * best.parameter("fwhm").stderr


def test_analyse_says_a_line_measured_at_a_point_or_two_is_not_resolved(tmp_path: Path) -> None:
    asked, _ = line_fits(tmp_path, gaussian, 25, 10, 0.003)
    assert asked.model == "lorentzian" and not asked.good
    assert (
        "the peak is not resolved: 0 and 1 points lie on its flanks within its FWHM, so the "
        "width follows from the lorentzian shape assumed, not from the data"
    ) in asked.notes
