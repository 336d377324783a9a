"""Counts over a counting time are fitted as the count rate N/t with its Poisson uncertainty
(tools.fits.count_rates), on a real radiation lab's files (tests/data/real/counting, TU Dortmund
V704): neither N nor the counting time against the absorber's thickness is a result."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pandas as pd

from labscribe.tools.analysis.folder import analyse
from labscribe.tools.columns.column import Column
from labscribe.tools.fits.count_rates import add_count_rates
from labscribe.tools.formats.tables import Table, TableSummary
from labscribe.tools.tool import Folder

COUNTING = Path(__file__).parents[2] / "data" / "real" / "counting"


def test_counts_over_a_counting_time_are_fitted_as_their_rate(tmp_path: Path) -> None:
    for name in ("tu_dortmund_v704_gamma_Pb.txt", "tu_dortmund_v704_beta.txt"):
        shutil.copy(COUNTING / name, tmp_path / name.removeprefix("tu_dortmund_v704_"))
    analysis = analyse(Folder(tmp_path))
    fitted = {(fit.table, fit.y, fit.x) for fit in analysis.fits}
    # the β file's counting time rises with d and reads as its variable: it repeats its
    # values (200 s twice, 400 s four times), as no elapsed time does, so d is the variable
    assert fitted == {("gamma_Pb.txt", "N/t", "d"), ("beta.txt", "N/t", "d")}, fitted
    lead = next(t for t in analysis.tables if t.id == "gamma_Pb.txt")
    rate, sigma = lead.column("N/t"), lead.column("σ N/t")
    assert rate.unit == "1/s" and sigma.uncertainty_of == "N/t"
    assert rate.minimum == 892 / 200 and rate.maximum == 10470 / 100
    fit = next(f for f in analysis.fits if f.table == "gamma_Pb.txt")
    assert "σ N/t" in fit.sigma  # weighted by √N/t


def test_a_decays_elapsed_time_is_its_variable_not_a_counting_time() -> None:
    t = np.arange(0.0, 300.0, 30.0)
    # counts of a decaying source read every 30 s beside the detector's temperature
    frame = pd.DataFrame({"t": t, "N": np.round(900 * np.exp(-t / 120)),
                          "T": 21.0 + 0.1 * np.arange(10)})  # fmt: skip
    columns = [Column(key="t", header="t / s", name="t", unit="s", count=10),
               Column(key="N", header="N", name="N", count=10),
               Column(key="T", header="T / °C", name="T", unit="°C", count=10)]  # fmt: skip
    summary = TableSummary(id="decay.csv", source="decay.csv", rows=10, columns=columns, x="t",
                           encoding="utf-8", delimiter=",", decimal=".", block=1)  # fmt: skip
    table = Table(summary, frame)
    add_count_rates([table])
    assert [c.key for c in table.summary.columns] == ["t", "N", "T"]
    assert table.summary.x == "t"
