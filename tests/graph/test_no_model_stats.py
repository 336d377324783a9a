"""`labscribe run --no-model` on real repeated measurements and extremes: the report answers
the task that asks for a mean, or for a maximum or a threshold, from the data, and never
fits against a column that only numbers the rows. The files are real (Michelson's and
Newcomb's speed of light as R holds them, a pendulum's 700 timings, a SiPM's dark current,
an Instron export; tests/data/real/SOURCES.md)."""

from __future__ import annotations

import shutil
from pathlib import Path

from test_no_model import no_model_report

REAL = Path(__file__).parents[1] / "data" / "real"
BLUEHILL = "bluehill_Specimen_RawData_1.csv"


def report_of(folder: Path, tmp_path: Path) -> str:
    return no_model_report(folder, tmp_path)


def folder_with(tmp_path: Path, files: list[Path], handout: str) -> Path:
    folder = tmp_path / "lab"
    folder.mkdir()
    for file in files:
        shutil.copy(file, folder / file.name)
    (folder / "handout.md").write_text(handout)
    return folder


def test_no_model_answers_the_mean_of_each_of_michelsons_experiments(tmp_path: Path) -> None:
    folder = folder_with(
        tmp_path, [REAL / "repeats" / "morley.csv", REAL / "repeats" / "newcomb.csv"],
        "# The speed of light\n\n"
        "1. Calculate the mean speed of each experiment and its standard error.\n"
        "2. State a 95% confidence interval for Newcomb's mean passage time dat.\n",
    )  # fmt: skip
    report = report_of(folder, tmp_path)
    # the task asks for each experiment: its row gives them, the mean of all stands in the
    # table of repeated measurements
    assert (
        "Speed (morley.csv), by series (mean ± standard error): Expt 1 909 ± 23, "
        "Expt 2 856 ± 14" in report
    )
    assert "Speed, all series (morley.csv) & 100 & 852.4 ± 7.9 & 79.0 & 837 to 868" in report
    assert "95 \\% interval 26.2 ± 2.6, from 23.6 to 28.9" in report
    assert "flags -44 (row 2) and -2 (row 54)" in report
    assert "without them the mean is 27.75 ± 0.64" in report
    assert "against rownames" not in report and "against Run" not in report
    assert "rownames (newcomb.csv) only numbers the rows" in report


def test_no_model_gives_the_statistics_of_a_file_of_one_column(tmp_path: Path) -> None:
    folder = folder_with(
        tmp_path, [REAL / "repeats" / "Pendel-Messung.dat"],
        "# Übung 06: Pendel\n\n1. Berechnen Sie die Standardabweichung, die Varianz und die "
        "Standardabweichung des Mittelwerts der Pendel-Messung.\n",
    )  # fmt: skip
    report = report_of(folder, tmp_path)
    row = next(line for line in report.splitlines() if line.startswith("1 & Berechnen"))
    assert "mean 3.3767 ± 0.0043 (standard error; n = 700)" in row
    assert "standard deviation 0.1134" in row and "variance 0.0129" in row
    assert "(Pendel-Messung.dat) & 700 & 3.3767 ± 0.0043 & 0.1134 & 3.3683 to 3.3851 &" in report


def test_no_model_answers_a_threshold_and_a_maximum_from_the_data(tmp_path: Path) -> None:
    folder = folder_with(
        tmp_path,
        [REAL / "extremes" / "curvaIVinvdark.txt", REAL / "tensile" / BLUEHILL],
        "# SiPM and rivet\n\n"
        "1. Determine the reverse voltage at which the dark current reaches 100 nA.\n"
        "2. Determine the breakdown voltage of the SiPM.\n"
        "3. Determine the maximum load the rivet joint withstood.\n",
    )  # fmt: skip
    report = report_of(folder, tmp_path)
    assert "Voltage = 57.13 V where Current first reaches 100 nA, interpolated linearly" in report
    assert "the threshold itself: the task does not say what defines it" in report
    assert "The largest Load in the data is 837.216 N at Time = 22.4 s" in report
