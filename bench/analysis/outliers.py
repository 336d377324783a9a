"""How often the outlier test of repeated measurements (tools.fits.repeat_statistics, as
tools.fits.repeats runs it: Grubbs' test repeated as Rosner's generalized ESD, two-sided,
α = 5 %, at most max(1, n // 10) suspects) flags a value in normal noise that has none, and
whether it finds the outliers of classic data.

    .venv/bin/python bench/analysis/outliers.py [--trials 2000]

Prints, for several n, the share of samples of n standard normal values in which it flags
anything (the false-alarm rate, by design near 5 %), and what it flags in Newcomb's passage
times (Stigler 1977 names -44 and -2).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from labscribe.tools.fits.repeat_statistics import esd_outliers
from labscribe.tools.fits.repeats import MAX_SUSPECTS, repeated_measurements
from labscribe.tools.formats.tables import read_data
from labscribe.tools.tool import Folder

REPEATS = Path(__file__).parents[2] / "tests" / "data" / "real" / "repeats"
SIZES = (3, 5, 10, 20, 30, 100)


def false_alarms(n: int, trials: int) -> float:
    """The share of `trials` samples of n normal values in which the test flags a value."""
    suspects = min(MAX_SUSPECTS, max(1, n // 10))
    rng = np.random.default_rng(n)
    return float(np.mean([bool(esd_outliers(rng.standard_normal(n), suspects))
                          for _ in range(trials)]))  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=2000)
    trials = parser.parse_args().trials
    print(f"{'n':>5} {'suspects':>9} {'false alarms':>13}")
    for n in SIZES:
        print(f"{n:>5} {min(MAX_SUSPECTS, max(1, n // 10)):>9} {false_alarms(n, trials):>12.1%}")
    [series] = repeated_measurements(read_data(Folder(REPEATS), "newcomb.csv").tables)
    flagged = ", ".join(f"{o.value:g} (row {o.row:g})" for o in series.outliers)
    print(f"Newcomb's passage times: flags {flagged}")


if __name__ == "__main__":
    main()
