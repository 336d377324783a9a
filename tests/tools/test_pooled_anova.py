"""Several series of repeats side by side, numbered by a repeat column (`rep`, `run`), read
as repeats with the one-way ANOVA's F and p, the pooled within-series standard deviation
and the grand mean (tools.repeats, tools.repeat_text), checked against NIST StRD AtmWtAg's
certified values (tests/data/real/repeats/AtmWtAg.dat)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from labscribe.tools.base import Folder
from labscribe.tools.repeat_text import repeat_evidence
from labscribe.tools.repeats import counts_repeats, repeated_measurements
from labscribe.tools.tables import Table, read_data

REAL = Path(__file__).resolve().parents[1] / "data" / "real" / "repeats"
CERTIFIED_F = 1.59467335677930e01
CERTIFIED_POOLED_SD = 1.51048314446410e-05


def agwt_groups() -> list[np.ndarray]:
    data = np.loadtxt(REAL / "AtmWtAg.dat", skiprows=60)
    return [data[data[:, 0] == k, 1] for k in (1, 2)]


def side_by_side(tmp_path: Path, x: str = "run", rows: int = 24) -> Table:
    """AtmWtAg as a lab writes two instruments' repeats: a run number, a column each."""
    one, two = (group[:rows] for group in agwt_groups())
    rows = "".join(
        f"{k},{a:.7f},{b:.7f}\n" for k, (a, b) in enumerate(zip(one, two, strict=True), 1)
    )
    tmp_path.mkdir(exist_ok=True)
    (tmp_path / "agwt.csv").write_text(f"{x},AgWt_1,AgWt_2\n" + rows)
    return read_data(Folder(str(tmp_path)), "agwt.csv").tables[0]


def test_a_repeat_number_beside_series_of_one_quantity_makes_repeats(tmp_path: Path) -> None:
    """Five repeats numbered `rep` 1 to 5 and 24 `run`s are row numbers, never a variable:
    repeats either way."""
    five = side_by_side(tmp_path / "five", x="rep", rows=5)
    assert five.summary.x is None and not counts_repeats(five)
    assert repeated_measurements([five])[0].label == "all 2 columns"
    pooled = repeated_measurements([side_by_side(tmp_path)])[0]
    assert pooled.label == "all 2 columns"
    assert abs(pooled.series_f - CERTIFIED_F) < 1e-6 * CERTIFIED_F
    assert abs(pooled.pooled_std - CERTIFIED_POOLED_SD) < 1e-9 * CERTIFIED_POOLED_SD
    assert pooled.pooled_dof == 46


def test_a_variable_that_is_no_repeat_number_is_no_repeat(tmp_path: Path) -> None:
    assert not counts_repeats(side_by_side(tmp_path, x="wavelength", rows=5))


def test_the_row_of_a_pooled_sd_task_names_it_first(tmp_path: Path) -> None:
    repeats = repeated_measurements([side_by_side(tmp_path)])
    task = "Give the pooled within-instrument (repeatability) standard deviation."
    [line] = repeat_evidence(task, {"pooled"}, repeats, named_elsewhere=False)
    assert line.split(": ", 1)[1].startswith("pooled within-series standard deviation 1.51e-05")
    task = "Carry out a one-way analysis of variance: report F and its p-value."
    [line] = repeat_evidence(task, set(), repeats, named_elsewhere=False)
    assert "F = 15.9" in line.split(";")[0]
