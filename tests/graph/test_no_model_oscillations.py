"""`labscribe run --no-model` on real oscillations: a scope's clean sine (a Tektronix capture
of an op-amp's input, tests/data/real/oscilloscope) is fitted with a sine, not hidden behind
"none of the standard models" because a damped oscillation's decay is undetermined; a
pendulum's damped swing (a CASSY export, tests/data/real/cassy) that its model follows to
R² = 0.999 but not to within the noise is shown with that caveat, its decay given."""

from __future__ import annotations

import re
from pathlib import Path

from test_no_model_checklist import REAL, checklist, report_for

from labscribe.tools.analysis.folder import MAX_TABLE_FILES, MAX_TABLES

SINE = (REAL / "oscilloscope" / "tektronix_opamp_F0002CH1.CSV", "F0002CH1.CSV")
SWING = (REAL / "cassy" / "pohl_torsion_7_v.txt", "7_v.txt")
HELD = (REAL / "cassy" / "pohl_torsion_egenfrekvens.txt", "egenfrekvens.txt")
NONE_DESCRIBES = "none of the standard models tried"
NOTES = ("notes.md", "# Capture\n\nWhat the instrument recorded, as it saved it.\n")


def _rows(report: str) -> dict[str, str]:
    return dict(re.findall(r"^(\d) & (.*)$", checklist(report), re.MULTILINE))


def test_a_clean_sine_is_fitted_with_a_sine(tmp_path: Path) -> None:
    report = report_for(tmp_path, NOTES, SINE)
    assert NONE_DESCRIBES not in report
    fitted = re.search(r"sine: amplitude·sin\(2.*?frequency = ([\d.]+) ± [\d.]+ Hz", report)
    assert fitted is not None, report
    assert abs(float(fitted[1]) - 19123) < 5  # 4.8 periods in 0.25 ms


def test_a_task_that_fits_a_sinusoid_gets_its_amplitude_and_frequency(tmp_path: Path) -> None:
    handout = (
        "# Op-amp input\n\n## Tasks\n"
        "1. Fit a sinusoid to the input voltage and determine its amplitude and frequency.\n"
    )
    report = report_for(tmp_path, ("assignment.md", handout), SINE)
    row = _rows(report)["1"]
    assert "(the model this task asks for" in row, row
    assert re.search(r"amplitude = 2\.19\d* ± [\d.]+ V", row), row
    assert "frequency = 1912" in row, row


def test_a_swing_its_model_follows_is_shown_with_its_caveat(tmp_path: Path) -> None:
    report = report_for(tmp_path, NOTES, SWING)
    assert f"{NONE_DESCRIBES} (the closest, damped oscillation, is not shown)" not in report
    assert "damped oscillation: amplitude·exp" in report  # a row of the fits
    assert "it follows the data, not to within their noise (see below)" in report
    assert re.search(r"decay = 0\.89\d* ± 0\.00\d+", report), report
    assert "follows these data but does not describe them to within their noise: the " in report


def test_a_quantity_defined_beside_a_damped_fit_is_not_its_model(tmp_path: Path) -> None:
    # "Bestäm l = λ/I … genom regression med lämplig modell (svagt eller starkt dämpad)": the
    # model is the damped oscillation the words name; l = λ/I defines what to work out of it
    handout = (
        "# Torsionspendel\n\n## Uppgifter\n"
        "1. Bestäm l = λ/I för varje spänning U genom regression med lämplig modell (svagt "
        "eller starkt dämpad) och redovisa i en tabell med förklaringsgrad R².\n"
    )
    report = report_for(tmp_path, ("assignment.md", handout), SWING)
    row = _rows(report)["1"]
    assert "a fit of “l = " not in row, row
    assert "(the model this task asks for, fitted to" in row, row
    assert "decay = 0.89" in row, row
    assert "not done: l is not in this report" in row, row


def test_a_damped_swing_is_fitted_from_where_its_record_starts(tmp_path: Path) -> None:
    # a CASSY record starts seconds into the run: its amplitude is taken where the data
    # start (t0), not at t = 0, where it would be e^(t0/decay) times larger and ill-fitted
    report = report_for(tmp_path, NOTES, SWING)
    amplitude = re.search(r"amplitude = ([\d.]+)(?:e([-+]\d+))? ± ", report)
    assert amplitude is not None and not amplitude[2], report
    assert float(amplitude[1]) < 1.0  # the swing's own size, in the file's unit
    assert "t0 = " in report


def test_a_row_says_how_many_values_it_does_not_list(tmp_path: Path) -> None:
    handout = (
        "# Op-amp input\n\n## Tasks\n"
        "1. Fit a sinusoid to each of the six recorded waveforms.\n"
        "2. Compare their amplitudes.\n"
    )
    # six waveforms of different amplitudes: the real capture, its voltages scaled
    lines = SINE[0].read_text().splitlines()
    waves = tmp_path / "waves"
    waves.mkdir()
    copies = []
    for n in range(1, 7):
        scaled = [re.sub(r",\s*(-?[\d.]+),$", lambda m, n=n: f",{float(m[1]) * n:.5f},", line)
                  for line in lines]  # fmt: skip
        (waves / f"F000{n}CH1.CSV").write_text("\n".join(scaled) + "\n")
        copies.append((waves / f"F000{n}CH1.CSV", f"F000{n}CH1.CSV"))
    report = report_for(tmp_path, ("assignment.md", handout), *copies)
    row = _rows(report)["1"]
    hidden = re.search(
        r"and (\d+) more results, not listed here \(see the fits and tables above\)", row
    )
    assert hidden is not None and hidden[1] == "2", row  # six fits, four listed
    # six fits of the same axes: each note names its file
    assert "\\item CH1 against time (F0006CH1.CSV)" in report.replace("\\_", "_"), report


def test_a_task_for_every_capture_says_which_captures_were_not_fitted(tmp_path: Path) -> None:
    # 50 captures of a class, more than one report reads (MAX_TABLE_FILES) and fits
    # (MAX_TABLES): the row of a task asked "for each" must not leave only checking
    handout = (
        "# Op-amp input\n\n## Tasks\n"
        "1. Fit a sinusoid to each capture and determine its amplitude and phase.\n"
    )
    lines = SINE[0].read_text().splitlines()
    kept = lines[:18] + lines[18::10]  # the settings rows, then every tenth reading
    waves = tmp_path / "waves"
    waves.mkdir()
    copies = []
    for n in range(MAX_TABLE_FILES + 2):
        scaled = [re.sub(r",\s*(-?[\d.]+),$", lambda m, n=n: f",{float(m[1]) * (1 + n / 50):.5f},",
                         line) for line in kept]  # fmt: skip
        (waves / f"F{n:04d}CH1.CSV").write_text("\n".join(scaled) + "\n")
        copies.append((waves / f"F{n:04d}CH1.CSV", f"F{n:04d}CH1.CSV"))
    row = _rows(report_for(tmp_path, ("assignment.md", handout), *copies))["1"]
    unfitted = MAX_TABLE_FILES + 2 - MAX_TABLES
    assert f"not done: {unfitted} of the folder's data files are not fitted in this report (" in row
    assert f"(F{MAX_TABLES:04d}CH1.CSV, F{MAX_TABLES + 1:04d}CH1.CSV, " in row, row
    assert "checking" not in row, row


def test_a_swing_recorded_for_under_one_cycle_says_its_frequency_is_assumed(
    tmp_path: Path,
) -> None:
    # a heavily damped run stops before one period: the fit's frequency is the shape's, and a
    # run that does not oscillate would fit as well; the whole record says nothing of the kind
    handout = (
        "assignment.md",
        "# Pendulum\n\n## Tasks\n1. Fit a damped oscillation to the swing and give its decay.\n",
    )
    lines = SWING[0].read_text().splitlines()
    short = tmp_path / "short"
    short.mkdir()
    (short / "7_v.txt").write_text(
        "\n".join(line for line in lines if float(line.split("\t")[0]) <= 4.5) + "\n"
    )
    report = report_for(tmp_path, handout, (short / "7_v.txt", "7_v.txt"))
    assert re.search(r"the data span 0\.\d+ of the fitted cycle: they are not seen to", report)
    assert "critically or over-damped" in report
    (tmp_path / "whole").mkdir()
    whole = report_for(tmp_path / "whole", handout, SWING)
    assert "of the fitted cycle" not in whole


def test_a_headerless_run_takes_the_units_its_handout_lists_for_it(tmp_path: Path) -> None:
    # CASSY's text export has no header; the handout lists each run's quantities in order
    handout = (
        "assignment.md",
        "# Pohl's pendulum\n\n## Data\n- `1_v.txt`, `4_v.txt`, …, `14_v.txt`: damped swings at "
        "U = 1, 4, … 14 V; t [s], deflection [m].\n\n## Tasks\n"
        "1. Fit a damped oscillation to each run and give its decay time.\n",
    )
    report = report_for(tmp_path, handout, SWING)
    row = _rows(report)["1"]
    assert re.search(r"decay = 0\.89\d* ± 0\.00\d+ s\b", row), row
    assert re.search(r"amplitude = [\d.]+ ± [\d.]+ m\b", row), row
    assert "fitted to deflection against t" in row, row


def test_a_quantity_the_model_defines_is_worked_out_of_each_runs_decay(tmp_path: Path) -> None:
    # the handout's model θ = A e^(−λt/(2I)) sin(…) makes the fit's 1/decay λ/(2I): the
    # l = λ/I each run asks for is 2/decay, with its uncertainty and unit
    handout = (
        "assignment.md",
        "# Pohl's pendulum\n\n## Theory\nWeakly damped: θ(t) = A e^(−λt/(2I)) sin(ωt + φ).\n\n"
        "## Data\n- `1_v.txt`, …, `14_v.txt`: t [s], deflection [m].\n\n## Tasks\n"
        "1. Determine l = λ/I for each voltage by a fit of the weakly damped model.\n"
        "2. Determine also the natural damping l = λ/I without the brake.\n",
    )
    rows = _rows(report_for(tmp_path, handout, SWING))
    assert "l = " not in rows["2"].split(" & ", 1)[1], rows["2"]  # no l of the braked run
    row = rows["1"]
    found = re.search(r"l = (2\.2\d*) ± (0\.0\d+) 1/s \(from l = ", row)
    assert found is not None, row
    decay = re.search(r"decay = (0\.89\d*) ± ", row)
    assert decay is not None and abs(float(found[1]) - 2 / float(decay[1])) < 0.002, row
    assert "not done: l" not in row, row


def test_a_natural_frequency_is_read_off_the_free_swing_named_after_it(tmp_path: Path) -> None:
    # the free swing is held for a second before its release: fitted from the release on,
    # its model follows it; the braked swing beside it has another frequency, not asked for
    handout = (
        "# Torsionspendel\n\nFilerna har två kolumner: t [s], vinkel [rad].\n\n"
        "## Uppgifter\n1. Bestäm torsionspendelns egenfrekvens.\n"
    )
    report = report_for(tmp_path, ("labbinstruktion.md", handout), HELD, SWING)
    row = _rows(report)["1"]
    assert re.fullmatch(
        r"Bestäm torsionspendelns egenfrekvens\. & frequency = 0\.5016\d* ± [\d.]+ Hz \(fit "
        r"of vinkel against t; it follows the data, not to within their noise\) & checking "
        r"and stating the values given \\\\",
        row,
    ), row
    assert "fitted from the step on: the first 17 points (x from 0 to 1.02 s)" in report
