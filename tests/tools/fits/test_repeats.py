"""Repeated measurements (tools.fits.repeats, tools.fits.repeat_statistics,
tools.fits.repeat_text, tools.fits.repeat_evidence) on classic data whose published
summaries are the truth: Newcomb's passage times of light (Stigler 1977: mean 26.21, 27.75
without the two outliers -44 and -2), Michelson's 1879 speed of light (R's `morley`; the
mean of all 100 values 852.4, of experiment 1 909), Cavendish's density of the Earth
(his 5.48), and a pendulum's 700 stopwatch timings. Sources: tests/data/real/SOURCES.md."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from labscribe.guards.numbers import check_numbers
from labscribe.tools.columns.roles import decide_roles, read_handout
from labscribe.tools.fits.repeat_evidence import repeat_evidence
from labscribe.tools.fits.repeat_statistics import (
    OUTLIER_TEST,
    esd_outliers,
    summarise,
    weighted_mean,
)
from labscribe.tools.fits.repeat_text import repeat_facts, repeat_notes, repeats_digest
from labscribe.tools.fits.repeats import Series, repeated_measurements
from labscribe.tools.formats.tables import NoTable, read_data
from labscribe.tools.tool import Folder

REPEATS = Path(__file__).parents[2] / "data" / "real" / "repeats"


def series_of(name: str) -> list[Series]:
    return repeated_measurements(read_data(Folder(REPEATS), name).tables)


def test_repeats_name_newcombs_two_outliers_and_give_the_mean_without_them() -> None:
    [series] = series_of("newcomb.csv")
    assert round(series.summary.mean, 2) == 26.21
    assert [(o.value, o.row) for o in series.outliers] == [(-44.0, 2.0), (-2.0, 54.0)]
    assert series.without is not None and series.without.mean == pytest.approx(27.75)
    text = "\n".join(repeat_notes([series]))
    assert f"{OUTLIER_TEST} flags -44 (row 2) and -2 (row 54)" in text
    assert "without them the mean is 27.75 ± 0.64 (standard error; n = 64)" in text


def test_repeats_give_each_of_michelsons_experiments_and_all_of_them() -> None:
    pooled, *experiments = series_of("morley.csv")
    assert pooled.label == "all series" and round(pooled.summary.mean, 1) == 852.4
    assert [s.label for s in experiments] == [f"Expt {i}" for i in range(1, 6)]
    assert [s.summary.mean for s in experiments] == [909.0, 856.0, 845.0, 820.5, 831.5]
    assert all(s.summary.n == 20 for s in experiments)
    assert pooled.series_p is not None and pooled.series_p < 0.05
    assert "the series differ from each other more than their scatter allows" in "\n".join(
        repeat_notes([pooled])
    )


def test_repeats_pool_michelsons_sets_side_by_side() -> None:
    pooled, *sets = series_of("MichelsonSets.csv")
    assert pooled.label == "all 5 columns" and round(pooled.summary.mean, 1) == 852.4
    assert [s.name for s in sets] == ["ds12", "ds13", "ds14", "ds15", "ds16"]


def test_repeats_keep_cavendishs_corrected_column_apart() -> None:
    density, density2, density3 = series_of("Cavendish.csv")
    assert round(density2.summary.mean, 2) == 5.48  # Cavendish's own result
    assert density3.summary.n == 23
    assert any("versions of the same measurements" in note for note in density.notes)


def test_repeats_label_the_series_of_a_series_column() -> None:
    pooled, *parts = series_of("gravity.csv")
    assert pooled.summary.n == 81
    frame = pd.read_csv(REPEATS / "gravity.csv")
    means = frame.groupby("series")["g"].mean()
    assert [s.label for s in parts] == [f"series {i}" for i in range(1, 9)]
    assert [s.summary.mean for s in parts] == pytest.approx(means.to_list())


def test_repeats_read_a_file_of_one_column() -> None:
    [series] = series_of("Pendel-Messung.dat")
    values = np.loadtxt(REPEATS / "Pendel-Messung.dat")
    assert series.summary.n == 700
    assert series.summary.mean == pytest.approx(values.mean())
    assert series.summary.std == pytest.approx(values.std(ddof=1))


def test_summarise_gives_students_t_interval() -> None:
    values = np.array([2.05, 1.99, 2.06, 1.97, 2.01, 2.00, 2.03, 1.97, 2.02, 1.96])
    summary = summarise(values)
    low, high = stats.t.interval(0.95, 9, loc=values.mean(), scale=stats.sem(values))
    assert summary.mean - summary.half_width == pytest.approx(low)
    assert summary.mean + summary.half_width == pytest.approx(high)


def test_esd_outliers_flags_nothing_in_normal_noise() -> None:
    flagged = [
        len(esd_outliers(np.random.default_rng(seed).standard_normal(30), 3)) for seed in range(400)
    ]
    assert np.mean(np.array(flagged) > 0) < 0.1  # about α = 5 % false alarms


def test_weighted_mean_of_light_speeds_scales_its_sigma_by_the_birge_ratio() -> None:
    [series] = series_of("light_speeds_1947_1956.csv")
    frame = pd.read_csv(REPEATS / "light_speeds_1947_1956.csv").dropna()
    values, sigma = frame["Speed (km/s)"].to_numpy(), frame["Error (km/s)"].to_numpy()
    weights = 1 / sigma**2
    assert series.weighted is not None
    assert series.weighted.mean == pytest.approx(np.sum(weights * values) / np.sum(weights))
    assert series.weighted.sigma == pytest.approx(1 / np.sqrt(np.sum(weights)))
    assert series.weighted.birge is not None and series.weighted.birge > 1
    assert not series.weighted.consistent
    assert "scaled by the Birge ratio" in "\n".join(repeat_notes([series]))


def test_weighted_mean_agrees_when_the_values_fit_their_sigma() -> None:
    weighted = weighted_mean(np.array([10.1, 9.9, 10.0, 10.05]), np.array([0.1, 0.1, 0.2, 0.1]))
    assert weighted.consistent and weighted.birge is not None and weighted.birge < 1


def test_repeat_evidence_answers_a_task_that_asks_for_a_mean() -> None:
    repeats = series_of("newcomb.csv")
    [line] = repeat_evidence("Calculate the mean and its standard error.", set(), repeats, False)
    assert line.startswith("dat (newcomb.csv): mean 26.2 ± 1.3 (standard error; n = 66)")
    assert repeat_evidence("Plot the data.", set(), repeats, False) == []
    assert repeat_evidence("Berechnen Sie den Mittelwert.", set(), repeats, False)
    assert repeat_evidence("计算平均值和标准差。", set(), repeats, False)


def test_repeat_facts_hold_a_report_to_the_mean_within_two_standard_errors() -> None:
    [mean, deviation] = repeat_facts(series_of("newcomb.csv"), several_files=False)
    assert mean.value == pytest.approx(26.2121, abs=1e-4)
    assert mean.tolerance == pytest.approx(2 * 1.3227 / 26.2121, rel=1e-3)
    assert 27.75 in mean.also  # the mean without the outliers may be quoted too
    assert deviation.value == pytest.approx(10.745, abs=1e-3)


def test_repeat_facts_flag_a_misquoted_mean_and_pass_the_report_as_written() -> None:
    repeats = series_of("morley.csv")
    facts = repeat_facts(repeats, several_files=False)
    _, wrong = check_numbers("In Expt one the mean Speed is 800 km/s.", facts)
    assert "mean of Speed, Expt 1 in morley.csv (909 ± 23 (standard error; n = 20))" in [
        m.fact for m in wrong
    ]
    # what a report says of them: the digest the writer reads, and the notes under the table
    stated = "\n\n".join(repeats_digest(repeats, len(repeats)) + repeat_notes(repeats))
    assert check_numbers(stated, facts)[1] == []


def test_one_column_refuses_lines_of_columns_with_empty_cells(tmp_path: Path) -> None:
    (tmp_path / "gaps.csv").write_text("No.,x\n1,5\n2,\n3,\n")
    with pytest.raises(NoTable):
        read_data(Folder(tmp_path), "gaps.csv")
    (tmp_path / "timings.txt").write_text(
        "# stopwatch\nT (s)\n2.05\n1.99\n2.06\n\n1.97\n2.01\n2.00\n"
    )
    first, second = read_data(Folder(tmp_path), "timings.txt").tables
    assert (first.summary.columns[0].name, first.summary.columns[0].unit) == ("T", "s")
    assert (first.summary.rows, second.summary.rows) == (3, 3)


def test_repeats_pool_no_columns_of_different_quantities(tmp_path: Path) -> None:
    # a caliper's five readings of a cylinder's diameter and of its height, side by side
    (tmp_path / "paquimetro.csv").write_text(
        "medição;D (mm);H (mm)\n1;25,06;39,96\n2;25,08;39,98\n3;25,04;39,95\n4;25,06;39,97\n"
        "5;25,06;39,95\n",
        encoding="utf-8",
    )
    folder = Folder(tmp_path)
    tables = read_data(folder, "paquimetro.csv").tables
    decide_roles(tables, read_handout(folder, None, [], []))
    found = repeated_measurements(tables)
    assert [round(s.summary.mean, 3) for s in found] == [25.060, 39.962]


@pytest.mark.parametrize(
    "task",
    [
        "Calcolare i tempi medi ⟨t1⟩ e ⟨t2⟩.",  # Catania's rotation lab
        "Calcule o valor médio do período.",
        "Oblicz średni czas spadku.",
        "Bereken de gemiddelde valtijd.",
        "Give ⟨T⟩ with its uncertainty.",
    ],
)
def test_a_mean_asked_in_other_words_is_asked_for(task: str) -> None:
    from labscribe.tools.fits.repeat_evidence import asks_for_mean

    assert asks_for_mean(task)


def test_a_middle_or_a_plain_symbol_asks_for_no_mean() -> None:
    from labscribe.tools.fits.repeat_evidence import asks_for_mean

    assert not asks_for_mean("Plot T against L and determine g.")
    assert not asks_for_mean("Mark the medium wavelength line.")


def test_a_value_copied_down_a_sheet_is_no_series_of_repeats(tmp_path: Path) -> None:
    """An e/m lab's error sheet copies N = 130 turns and μ0 down its rows (UNLP,
    tests/data/real/workbooks/unlp_em_voltajes_corrientes.xlsx): constants, where readings
    repeated scatter, or agree on a few rows."""
    rows = 24
    t = np.round(np.random.default_rng(5).normal(2.0, 0.05, rows), 2)
    lines = "\n".join(f"130,{4e-7 * np.pi * (1 + 1e-16 * i):.17g},{v}" for i, v in enumerate(t))
    (tmp_path / "errors.csv").write_text(f"N,mu0,t\n{lines}\n")
    (tmp_path / "few.csv").write_text("m\n15.19\n15.19\n15.19\n15.19\n15.19\n")
    tables = read_data(Folder(tmp_path), "errors.csv").tables
    for table in tables:
        table.summary.x = None
    assert [s.column for s in repeated_measurements(tables)] == ["t"]
    few = read_data(Folder(tmp_path), "few.csv").tables
    assert [s.summary.n for s in repeated_measurements(few)] == [5]
