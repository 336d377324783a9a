"""Several series of repeats side by side, numbered by a repeat column (`rep`, `run`), read
as repeats with the one-way ANOVA's F and p, the pooled within-series standard deviation
and the grand mean (tools.fits.repeats, tools.fits.repeat_evidence), checked against NIST StRD
AtmWtAg's certified values (tests/data/real/repeats/AtmWtAg.dat)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from labscribe.tools.fits.repeat_evidence import repeat_evidence
from labscribe.tools.fits.repeats import counts_repeats, repeated_measurements
from labscribe.tools.formats.tables import Table, read_data
from labscribe.tools.tool import Folder

REAL = Path(__file__).resolve().parents[2] / "data" / "real" / "repeats"
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


def test_three_pendulums_timed_thirty_times_each_are_series_not_axes(tmp_path: Path) -> None:
    """`P1-T ; P2-T ; P3-T` (a Brazilian lab's thirty timings of ten swings of each of three
    pendulums, one mistimed in two of them): each column gathers about its own value, so
    none is fitted against another; each series gets its mean, and the strays are named."""
    rng = np.random.default_rng(7)
    series = [np.round(mean + rng.normal(0, 0.2, 30), 2) for mean in (21.26, 23.99, 26.39)]
    series[1][29], series[2][6] = 24.92, 25.45  # mistimed, as the file has them
    rows = "".join(f"{a} ; {b} ; {c}\n" for a, b, c in zip(*series, strict=True))
    (tmp_path / "periodos.csv").write_text("P1-T ; P2-T ; P3-T\n" + rows)
    table = read_data(Folder(str(tmp_path)), "periodos.csv").tables[0]
    assert table.summary.x is None
    found = {r.name: r for r in repeated_measurements([table]) if not r.label}
    assert abs(found["P2-T"].summary.mean - float(np.mean(series[1]))) < 1e-9
    assert [o.row for o in found["P2-T"].outliers] == [30]
    assert [o.row for o in found["P3-T"].outliers] == [7]
