"""tools.fits.model_choice: a peak model counts as a peak only where the data reach its level on
both sides (a FWHM from its centre); otherwise it is a bend. Real data: a Glan-Thompson
Malus scan from a student repository (tests/data/real/SOURCES.md) and NIST's Eckerle4 line
(bench/analysis/strd/strd.json)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from labscribe.tools.fits.fit_result import Candidate
from labscribe.tools.fits.fit_runs import best_start
from labscribe.tools.fits.model_choice import meaningful
from labscribe.tools.fits.shapes import BY_NAME, build

ROOT = Path(__file__).resolve().parents[3]


def _kept(path: Path, model: str, trend: str) -> bool:
    """Whether `model`, fitted to the file's two columns, stays a candidate beside `trend`."""
    data = pd.read_csv(path)
    x, y = data.iloc[:, 0].to_numpy(float), data.iloc[:, 1].to_numpy(float)
    results = {name: best_start(build(BY_NAME[name]), BY_NAME[name].fit_starts, x, y, None)
               for name in (model, trend)}  # fmt: skip
    bic = {name: result.bic for name, result in results.items()}
    bic[model] = min(
        bic[model], bic[trend] - 100
    )  # the peak far better by BIC: only _within decides
    candidates = sorted(
        (Candidate(model=name, bic=value, r_squared=0.99) for name, value in bic.items()),
        key=lambda c: c.bic,
    )
    return model in {c.model for c in meaningful(candidates, results, x)}


def test_an_inverted_gaussian_through_a_malus_scan_is_a_bend_not_a_dip() -> None:
    """cos² from 0 to 180°: the Gaussian dip of FWHM 86° centred at 107° never levels off."""
    assert not _kept(
        ROOT / "tests/data/real/verdicts/malus_glan_thompson.csv", "gaussian", "quadratic"
    )


def test_nists_transmission_line_is_a_peak() -> None:
    assert _kept(ROOT / "bench/analysis/strd/Eckerle4.csv", "gaussian", "quadratic")
