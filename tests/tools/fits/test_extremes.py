"""Extremes and thresholds a task asks for (tools.fits.extremes): a SiPM's reverse I-V curve in
the dark (FisMedLab) and an Instron Bluehill tensile export (Kelsey151/Instron), both real
(tests/data/real/SOURCES.md); an instrument's own result in a Bluehill-style header."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from labscribe.tools.fits.extreme_words import worked_out
from labscribe.tools.fits.extremes import asked_extremes, extreme_facts
from labscribe.tools.formats.tables import read_data
from labscribe.tools.tool import Folder

REAL = Path(__file__).parents[2] / "data" / "real"
SIPM = REAL / "extremes" / "curvaIVinvdark.txt"
BLUEHILL = REAL / "tensile" / "bluehill_Specimen_RawData_1.csv"


def sipm_tables():
    return read_data(Folder(SIPM.parent), SIPM.name).tables


def test_extremes_interpolate_the_first_crossing_of_a_level_the_task_names() -> None:
    [crossing] = asked_extremes(
        ["Determine the reverse voltage at which the dark current reaches 100 nA."],
        sipm_tables(), [],
    )  # fmt: skip
    data = np.loadtxt(SIPM, skiprows=1)
    expected = np.interp(100.0, data[:, 1][56:59], data[:, 0][56:59])  # rows at 56..58 V
    assert crossing.kind == "crossing"
    assert crossing.value == pytest.approx(expected) and crossing.unit == "V"
    assert crossing.given.startswith("Voltage = 57.13 V where Current first reaches 100 nA")
    assert "interpolated linearly between the rows at 57 V" in crossing.given


def test_extremes_scale_a_level_written_in_another_prefix() -> None:
    [nano] = asked_extremes(["Find the voltage at which the current reaches 100 nA."],
                            sipm_tables(), [])  # fmt: skip
    [micro] = asked_extremes(["Find the voltage at which the current reaches 0.1 µA."],
                             sipm_tables(), [])  # fmt: skip
    assert micro.value == pytest.approx(nano.value)


def test_extremes_leave_an_undefined_threshold_with_the_reason() -> None:
    [threshold] = asked_extremes(["Determine the breakdown voltage of the SiPM."],
                                 sipm_tables(), [])  # fmt: skip
    assert threshold.kind == "threshold" and not threshold.given
    assert "the task does not say what defines it" in threshold.left


def test_extremes_give_the_maximum_the_task_names_with_where_it_occurs() -> None:
    [largest] = asked_extremes(["Find the maximum dark current and the voltage where it occurs."],
                               sipm_tables(), [])  # fmt: skip
    assert largest.given.startswith(
        "The largest Current in the data is 299.238 nA at Voltage = 60 V"
    )


def test_extremes_read_the_maximum_load_of_a_real_bluehill_export() -> None:
    tables = read_data(Folder(BLUEHILL.parent), BLUEHILL.name).tables
    [found] = asked_extremes(
        ["Determine the maximum force the joint withstood and the extension at which it occurred."],
        tables, [],
    )  # fmt: skip
    frame = pd.read_csv(BLUEHILL, skiprows=[1])
    peak = frame["Load"].idxmax()
    assert found.value == pytest.approx(frame["Load"][peak]) and found.unit == "N"
    assert f"Extension = {frame['Extension'][peak]:.6g} mm (row {peak + 1})" in found.given


def test_extremes_prefer_the_instruments_own_result(tmp_path: Path) -> None:
    # the layout of a Bluehill export with its results table above the raw data
    text = (
        '"Results Table 1"\n"Specimen label","Maximum Load","Tensile strain at Break"\n'
        '"","(kN)","(%)"\n"S1","12.37","18.2"\n\n'
        '"Time","Extension","Load"\n"(s)","(mm)","(kN)"\n'
        + "".join(f'"{t * 0.1:.1f}","{t * 0.02:.3f}","{t * 1.2:.2f}"\n' for t in range(10))
    )
    (tmp_path / "Specimen_RawData_1.csv").write_text(text)
    data = read_data(Folder(tmp_path), "Specimen_RawData_1.csv")
    for task in ("Report the maximum load of the specimen.", "Bestimmen Sie die Maximalkraft."):
        [found] = asked_extremes([task], data.tables, data.metadata)
        assert found.kind == "instrument" and found.value == 12.37 and found.unit == "kN"
        assert found.given.startswith("Maximum Load = 12.37 kN: the instrument's own result")
        assert "the largest Load in the data is 10.8 kN" in found.given


def test_extremes_ignore_a_maximum_of_no_column() -> None:
    tasks = [
        "Determine the resonance frequency f0 from the maximum of the curve and from the zero "
        "crossing of the phase.",
        "Estimate the maximum error of the current.",
        "Fit a straight line by least squares.",
    ]
    assert asked_extremes(tasks, sipm_tables(), []) == []


def test_extremes_read_chinese_and_german_tasks() -> None:
    [chinese] = asked_extremes(["求暗电流的最大值。"], sipm_tables(), [])
    [german] = asked_extremes(["Bestimmen Sie den maximalen Strom."], sipm_tables(), [])
    assert chinese.value == german.value == pytest.approx(299.2384)


def test_extreme_facts_hold_a_crossing_to_the_data() -> None:
    found = asked_extremes(["Find the voltage at which the current reaches 100 nA."],
                           sipm_tables(), [])  # fmt: skip
    [fact] = extreme_facts(found)
    assert fact.value == pytest.approx(57.1328, abs=1e-4) and "voltage" in fact.subjects[0]


def test_extremes_read_a_peak_of_the_variable_as_where_the_response_peaks(tmp_path: Path) -> None:
    wavelengths = np.arange(500.0, 600.0, 5.0)
    counts = 100 * np.exp(-(((wavelengths - 545) / 12) ** 2))
    rows = "".join(f"{w:g},{c:.3f}\n" for w, c in zip(wavelengths, counts, strict=True))
    (tmp_path / "spectrum.csv").write_text("wavelength (nm),intensity\n" + rows)
    tables = read_data(Folder(tmp_path), "spectrum.csv").tables
    [found] = asked_extremes(["Determine the peak wavelength of the LED."], tables, [])
    assert found.given.startswith("The largest intensity in the data is 100 at wavelength = 545 nm")


def test_extremes_leave_a_threshold_defined_by_a_fit_to_its_fit() -> None:
    [threshold] = asked_extremes(
        ["Determine the threshold voltage from a linear fit to the steep part."], sipm_tables(), []
    )
    assert "through a fit or an extrapolation" in threshold.left


def test_extremes_take_no_word_inside_another_for_a_maximum() -> None:
    tasks = ["Explain how to maximise the signal.", "Describe the elastic and plastic parts."]
    assert asked_extremes(tasks, sipm_tables(), []) == []


def _force_run(folder: Path, name: str, peak: float) -> None:
    times = np.linspace(0.0, 10.0, 21)
    force = peak * np.exp(-(((times - 6.0) / 2.0) ** 2))
    lines = "\n".join(f"{t:.3f} {f:.4f}" for t, f in zip(times, force, strict=True))
    (folder / name).write_text(f"# t [s] F [mN]\n{lines}\n")


@pytest.mark.parametrize(
    "task",
    [
        "Pro každý soubor vykreslete závislost F(t) a určete maximální sílu F_max.",
        "For each file, give the largest force F_max and when it occurred.",
        "Bestimmen Sie für jede Datei die maximale Kraft F_{max}.",
        # each run, each cell: a table each
        "Podaj maksymalną siłę F_max dla każdego pomiaru.",
        "Give F_max for each run.",
    ],
)
def test_an_extreme_asked_of_each_file_is_each_files(tmp_path: Path, task: str) -> None:
    """A tensiometer's runs, one file each: "F_max for each file" is each file's largest F,
    not the one of the first file found."""
    for name, peak in (("water_0.txt", 34.5), ("water_1.txt", 34.4), ("ethanol.txt", 12.0)):
        _force_run(tmp_path, name, peak)
    tables = [t for n in ("water_0.txt", "water_1.txt", "ethanol.txt")
              for t in read_data(Folder(tmp_path), n).tables]  # fmt: skip
    found = asked_extremes([task], tables, [])
    assert [(e.table, round(e.value or 0, 1)) for e in found] == [
        ("water_0.txt", 34.5), ("water_1.txt", 34.4), ("ethanol.txt", 12.0)
    ]  # fmt: skip
    assert all(e.unit == "mN" for e in found)


def test_the_extreme_of_a_quantity_no_column_holds_is_not_another_columns(
    tmp_path: Path,
) -> None:
    """ "la valeur minimale de T et la longueur d'onde correspondante", T = I_filtre/I_blanc
    worked out of two files: the smallest wavelength scanned is no answer to it."""
    rows = "\n".join(f"{w:.2e} {-((w - 6e-7) ** 2):.4e}" for w in np.arange(4e-7, 8e-7, 1e-8))
    (tmp_path / "scan.txt").write_text(f"# lambda [m] I [A]\n{rows}\n")
    tables = read_data(Folder(tmp_path), "scan.txt").tables
    task = "Donner la valeur minimale de T et la longueur d'onde correspondante."
    assert asked_extremes([task], tables, []) == []


def test_an_extreme_the_handout_works_out_is_no_columns_largest(tmp_path: Path) -> None:
    """ "daraus E_max abschätzen" where the handout writes E_max = 1,92 MeV · √(x² + 0,22·x)
    (a β range's energy by Flammersfeld) asks for no column's largest value (E is no
    counter voltage); a task's U_max of a voltage column still is."""
    (tmp_path / "zaehlrohr.csv").write_text(
        "Spannung (V),N\n400,3010\n450,3120\n500,3190\n535,3240\n"
    )
    tables = read_data(Folder(tmp_path), "zaehlrohr.csv").tables
    handout = "Flammersfeld: E_max = 1,92 MeV · √(x² + 0,22·x)."
    task = "Maximale Reichweite bestimmen und daraus E_max abschätzen."
    assert asked_extremes([task], tables, [], worked_out(handout)) == []
    [voltage] = asked_extremes(["Geben Sie U_max an."], tables, [], worked_out(handout))
    assert voltage.value == pytest.approx(535.0) and voltage.task == "Geben Sie U_max an."
