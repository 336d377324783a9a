"""`labscribe run --no-model` on instrument exports of four vendors, real files from public
repositories (tests/data/real/SOURCES.md): the report names each table's columns with the
units the vendor wrote its own way, and lists the settings its header holds."""

from __future__ import annotations

import shutil
from pathlib import Path

from test_no_model import no_model_report

REAL = Path(__file__).resolve().parents[1] / "data" / "real"
VENDOR_FILES = [
    "smu/keysight_b1500_sweep_diode_first20.csv",  # Keysight EasyEXPERT: units in a record
    "drycal/20220912_Defender.csv",  # Mesa Labs DryCal: units as last words, AM/PM clock
    "chromatography/ezchrom_2023-06-29-007_first40.dat.asc",  # EZChrom: one value a line
    "battery/maccor_001_first10.txt",  # Maccor: columns named by units, `0d 00:03:0.88` times
]


def test_no_model_reports_vendor_exports_with_their_units_and_settings(tmp_path: Path) -> None:
    folder = tmp_path / "exports"
    folder.mkdir()
    for name in VENDOR_FILES:
        shutil.copy(REAL / name, folder / Path(name).name)
    report = no_model_report(folder, tmp_path)
    # the settings each header holds, as parameters
    for setting in ("Measurement.Primary.Start & -5", "Serial Number & 180849",
                    "Sampling Rate & 10.000000 Hz"):  # fmt: skip
        assert setting in report
    # names and units as the vendors write them
    assert (
        r"\textbf{DryCal [smL/min]} & \textbf{DryCal Avg. [smL/min]} & "
        r"\textbf{Temp. [°C]} & \textbf{Pressure [mbar]} & \textbf{Time [s]}"
    ) in report
    assert r"\textbf{time [s]} & \textbf{channel 1 [pA]}" in report
    assert r"\ensuremath{\Omega}·mm" in report  # Keysight's `ohm mm`
    assert "StepTime [s] against TestTime [s]" in report  # Maccor's `0d 00:03:0.88` durations
    assert "Rec\\# against" not in report  # the record counter numbers the rows
    # the 12-hour clock read through noon, and a test time that is no date
    assert "Time as seconds since 08:48:31" in report
    assert "TestTime as seconds since" not in report
