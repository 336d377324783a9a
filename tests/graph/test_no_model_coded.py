"""`labscribe run --no-model` on real coded repeated measurements: where the handout says how
the recorded numbers map to the quantity, the report gives the means and intervals in the
quantity's unit with the coded numbers beside; a task that asks for a weighted mean gets the
1/SE²-weighted mean of the series means and their χ², one that asks for an analysis of
variance its F. The data are Michelson's, Newcomb's and the NBS's as R holds them
(tests/data/real/SOURCES.md); the handouts' sentences on the coding are the R documentation's
own (datasets::morley, MASS::newcomb)."""

from __future__ import annotations

from pathlib import Path

from test_no_model_stats import REAL, folder_with, report_of


def _row(report: str, start: str) -> str:
    return next(line for line in report.splitlines() if line.startswith(start))


def test_no_model_adds_back_the_offset_michelsons_speeds_were_recorded_without(
    tmp_path: Path,
) -> None:
    folder = folder_with(
        tmp_path, [REAL / "repeats" / "morley.csv"],
        "# Michelson 1879\n\nThe response is the speed of light measurement, suitably coded "
        "(km/sec, with 299000 subtracted).\n\n## Tasks\n"
        "1. Give the grand mean of all 100 runs with a 95 % confidence interval.\n"
        "2. Do the five experiments agree? Use a one-way analysis of variance and quote F.\n",
    )  # fmt: skip
    report = report_of(folder, tmp_path)
    first = _row(report, "1 & Give the grand mean")
    assert "mean 299852.4 ± 7.9 km/s (coded 852.4 ± 7.9; standard error; n = 100)" in first
    assert "95 \\% interval 299837 to 299868 km/s" in first
    assert "mean 852.4 ± 7.9 (standard error" not in report  # never the coded number alone
    second = _row(report, "2 & Do the five experiments agree")
    assert "(one-way analysis of variance, F = 4.29, p = 0.0031)" in second.split("; mean")[0]


def test_no_model_converts_newcombs_final_mean_to_microseconds(tmp_path: Path) -> None:
    folder = folder_with(
        tmp_path, [REAL / "repeats" / "newcomb.csv"],
        "# Newcomb 1882\n\nThe given values divided by 1000 plus 24.8 give the time in "
        "millionths of a second for light to traverse a known distance.\n\n## Tasks\n"
        "1. Identify the outliers and give the mean and standard deviation without them.\n"
        "2. Convert your final mean to the passage time in microseconds.\n",
    )  # fmt: skip
    report = report_of(folder, tmp_path)
    first = _row(report, "2 & Convert your final mean")
    assert first.index("without them the mean is 24.82775 ± 0.00064 µs") < first.index("; mean")
    assert "the standard deviation 0.00508 µs (coded 5.08)" in first


def test_no_model_answers_a_weighted_mean_of_series_means_with_its_chi_square(
    tmp_path: Path,
) -> None:
    folder = folder_with(
        tmp_path, [REAL / "repeats" / "gravity.csv"],
        "# Combining series\n\nEach entry is g − 980.000 cm/s² in units of 0.001 cm/s².\n\n"
        "## Exercises\n(a) Combine the eight series means into a weighted mean with weights "
        "1/SE², and give its uncertainty.\n"
        "(b) Compute χ² of the series means about the weighted mean. Are they consistent?\n",
    )  # fmt: skip
    report = report_of(folder, tmp_path)
    row = _row(report, "a & Combine the eight series means")
    assert "weighted mean of the 8 series means (weights 1/SE²) 980.07863 ± 0.00059 cm/s²" in row
    assert row.index("weighted mean of the 8") < row.index("; mean 980.0789")
    assert "\\chi}² = 21.3 for 7 degrees of freedom" in _row(report, "b & Compute")


def test_no_model_reads_an_italian_sheets_coding_and_its_anova_task(tmp_path: Path) -> None:
    # the unit stated in prose ("in km/s") is the coding's: the offset is still added back
    folder = folder_with(
        tmp_path, [REAL / "repeats" / "morley.csv"],
        "# Michelson 1879\n\n`Speed` = velocità misurata **meno 299000**, in km/s.\n\n"
        "## Compiti\n1. Calcolare media e deviazione standard su tutte le 100 misure.\n"
        "2. Verificare con un'ANOVA a una via se le medie dei 5 esperimenti differiscono.\n",
    )  # fmt: skip
    report = report_of(folder, tmp_path)
    first = _row(report, "1 & Calcolare media")
    assert "mean 299852.4 ± 7.9 km/s (coded 852.4 ± 7.9 km/s; standard error; n = 100)" in first
    second = _row(report, "2 & Verificare con")
    assert "(one-way analysis of variance, F = 4.29, p = 0.0031)" in second
