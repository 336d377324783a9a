"""Instruments' conventions: the settings their headers write (tools.formats.instruments), what
their column headers mean (tools.formats.instrument_columns), and the layouts only one vendor writes
(tools.formats.vendor_readers). Each case is written as the vendor writes it; the real files are in
tests/data/real and held to their expectations by test_real_files.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from labscribe.tools.formats.instrument_columns import qualified_unit, trailing_unit
from labscribe.tools.formats.instruments import metadata_of_line, metadata_of_lines
from labscribe.tools.formats.side_by_side_runs import run_groups
from labscribe.tools.formats.tables import read_data
from labscribe.tools.formats.vendor_readers import read_vendor
from labscribe.tools.tool import Folder


def settings(line: str) -> dict[str, tuple[str, float | None, str]]:
    return {row.key: (row.value, row.number, row.unit) for row in metadata_of_line(line)}


def test_metadata_of_line_keeps_a_colon_in_a_tabbed_value() -> None:
    assert settings("Output Time\t9:56:38 AM") == {"Output Time": ("9:56:38 AM", None, "")}
    assert settings("Data File Name\tC:\\LabSolutions\\Water_001.gcd") == {
        "Data File Name": ("C:\\LabSolutions\\Water_001.gcd", None, "")
    }


def test_metadata_of_line_reads_pairs_on_one_line() -> None:
    maccor = "Filename:\tM50_Validation_0deg_01\tTester Channel:\t1"
    assert settings(maccor) == {"Filename": ("M50_Validation_0deg_01", None, ""),
                                "Tester Channel": ("1", 1.0, "")}  # fmt: skip
    keithley = "# of variables,1,Sweep points,601,Parametric points,1,"
    assert settings(keithley)["Sweep points"] == ("601", 601.0, "")


def test_metadata_of_line_reads_the_first_channel_of_a_value_per_channel() -> None:
    assert settings("Sampling Rate:\t10.000000\t10.000000\tHz") == {
        "Sampling Rate": ("10.000000", 10.0, "Hz")
    }


def test_metadata_of_line_reads_a_padded_spreadsheet_row_and_aligned_words() -> None:
    assert settings("Product,Defender  530+  ,,,,") == {"Product": ("Defender  530+", None, "")}
    assert settings("Species                       CO2") == {"Species": ("CO2", None, "")}
    assert settings("Pressure   Gas        Total      Sample") == {}  # a header, not a setting


def test_metadata_of_lines_reads_names_over_their_values() -> None:
    lines = [(0, '"Path","File","Date Acquired","Sample"'),
             (1, '"C:\\data\\","blank_1.D","04 Sep 2019  10:54","blank 8.8%MeOH"')]  # fmt: skip
    rows = {row.key: row.value for row in metadata_of_lines(lines)}
    assert rows == {"Path": "C:\\data\\", "File": "blank_1.D",
                    "Date Acquired": "04 Sep 2019  10:54", "Sample": "blank 8.8%MeOH"}  # fmt: skip
    assert metadata_of_lines([(0, lines[0][1]), (5, lines[1][1])]) == []  # not adjacent


def spelled(*names: str) -> list[tuple[str, str, str]]:
    return [(name, name, "") for name in names]


def test_run_groups_parts_series_that_repeat_their_names_side_by_side() -> None:
    groups = run_groups(spelled("p/p0", "Quantity", "p/p0", "Quantity"), "")
    assert [g.members for g in groups] == [[0, 1], [2, 3]]
    assert [g.members for g in run_groups(spelled("T", "T", "T", "T"), "")] == [[0, 1, 2, 3]]


def test_run_groups_parts_series_whose_names_share_a_suffix_each() -> None:
    """Five resistors side by side, `X_47, Y_47, X_100, Y_100, ...` (tests/data/real/
    conventions/ohm_resistencias_quoted_commas.csv): a series per suffix."""
    groups = run_groups(spelled("X_47", "Y_47", "X_100", "Y_100", "X_2k", "Y_2k"), "")
    assert [(g.title, g.members) for g in groups] == [
        ("series 47", [0, 1]), ("series 100", [2, 3]), ("series 2k", [4, 5])
    ]  # fmt: skip
    # each quantity's statistics under suffixes that differ within a series: a single run
    assert [g.members for g in run_groups(spelled("x_mean", "x_std", "y_mean", "y_std"), "")] == [
        [0, 1, 2, 3]
    ]  # fmt: skip


def test_run_groups_parts_sensors_that_each_bring_their_own_time() -> None:
    names = spelled("t_block_1", "T_block_1", "t_water_in", "T_water_in", "t_flow", "V_flow")
    assert [g.members for g in run_groups(names, "")] == [[0, 1], [2, 3], [4, 5]]
    one_clock = spelled("t", "T_block", "T_water")
    assert [g.members for g in run_groups(one_clock, "")] == [[0, 1, 2]]


@pytest.mark.parametrize(
    ("header", "expected"),
    [("DryCal smL/min", ("DryCal", "smL/min")), ("Temp. Deg C", ("Temp.", "°C")),
     ("Pressure mBar", ("Pressure", "mbar")), ("MFC1 Measure mln/min", ("MFC1 Measure", "mln/min")),
     ("Kanal A", None), ("Outside Min", None), ("Time (s)", None), ("Conc. %", ("Conc.", "%"))],
)  # fmt: skip
def test_trailing_unit_reads_a_unit_written_as_the_last_word(header: str, expected) -> None:
    assert trailing_unit(header) == expected


def test_qualified_unit_keeps_a_sorption_unit_as_written() -> None:
    assert qualified_unit("cm³/g STP") == "cm³/g STP"
    assert qualified_unit("% d.b.") == "% d.b."
    assert qualified_unit("p/p°") == "p/p°"
    assert qualified_unit("g/cc") == "g/cc"
    assert qualified_unit("CH1") is None


def read(tmp_path: Path, name: str, text: str, encoding: str = "utf-8"):
    (tmp_path / name).write_bytes(text.encode(encoding))
    return read_data(Folder(tmp_path), name)


def test_read_data_reads_a_flow_calibrator_on_a_twelve_hour_clock(tmp_path: Path) -> None:
    rows = "".join(
        f"{i},18.0{i},26.2,979,{h}:{m:02d}:00 {ap}\n"
        for i, (h, m, ap) in enumerate(
            [(11, 50, "AM"), (11, 58, "AM"), (12, 6, "PM"), (1, 2, "PM")], 1
        )
    )
    data = read(
        tmp_path,
        "defender.csv",
        "Product,Defender 530+,,,,\nSerial Number,180849,,,,\n"
        ",,,,,\nSample,DryCal smL/min ,Temp. Deg C,Pressure mBar ,Time\n" + rows,
    )
    summary = data.tables[0].summary
    assert summary.column(summary.x).name == "Time"
    assert data.tables[0].frame[summary.x].tolist() == [0, 480, 960, 4320]
    assert [(c.name, c.unit) for c in summary.columns[:3]] == [  # `Sample` numbers the rows
        ("DryCal", "smL/min"), ("Temp.", "°C"), ("Pressure", "mbar")]  # fmt: skip
    assert {row.key: row.number for row in data.metadata}["Serial Number"] == 180849


def test_read_data_reads_a_thermocouple_logger_with_an_unnamed_clock(tmp_path: Path) -> None:
    rows = "".join(f'"{1660315243 + 10 * i}","27.5{i}","26.1{i}"\n' for i in range(5))
    data = read(tmp_path, "picolog.csv", '"","Outside Last (C)","Q (C)"\n' + rows)
    summary = data.tables[0].summary
    assert (summary.column(summary.x).unit, data.tables[0].frame[summary.x].iloc[-1]) == ("s", 40)
    assert [c.unit for c in summary.columns[1:]] == ["°C", "C"]  # Q names a charge


def test_read_data_reads_a_battery_cycler_by_its_test_time(tmp_path: Path) -> None:
    header = "Rec#\tCyc#\tTestTime\tAmp-hr\tAmps\tVolts\n"
    rows = "".join(f"{i}\t0\t  0d 00:0{i}:0.5\t0.0{i}\t0.5\t3.4{i}\n" for i in range(1, 6))
    summary = read(tmp_path, "maccor.txt", header + rows).tables[0].summary
    x = summary.column(summary.x)
    assert (x.name, x.unit, x.minimum, x.maximum) == ("TestTime", "s", 60.5, 300.5)
    assert [c.unit for c in summary.columns if c.name in ("Amp-hr", "Amps", "Volts")] == [
        "A·h", "A", "V"]  # fmt: skip


def test_read_data_reads_a_peak_table_by_its_retention_time(tmp_path: Path) -> None:
    rows = "".join(f"{i}\t{1.5 * i:.3f}\t{1000 * i}\t{100 * i}\t{10 - i}\n" for i in range(1, 6))
    summary = read(tmp_path, "peaks.txt", "Peak#\tR.Time\tArea\tHeight\tA/H\n" + rows
                   ).tables[0].summary  # fmt: skip
    assert summary.column(summary.x).name == "R.Time"
    assert (summary.columns[-1].name, summary.columns[-1].unit) == ("A/H", "")


def test_read_data_keeps_a_status_column_from_hiding_the_data(tmp_path: Path) -> None:
    rows = "".join(f",{1711665466 + i}.5,{i},5.0,{-1000 + 18 * i}.0,Purged and Sealed,(50.0, "
                   "'Call was successful')\n" for i in range(5))  # fmt: skip
    data = read(tmp_path, "Resistance.dat", "[Header]\nTITLE, Hallbar data\n[Data]\n"
                '"Comment","Time Stamp (sec)","Time","Temperature","Field","Chamber Status"\n'
                + rows)  # fmt: skip
    assert [c.name for c in data.tables[0].summary.columns] == [
        "Time Stamp", "Time", "Temperature", "Field"]  # fmt: skip


def test_read_data_reads_a_labelled_line_among_settings_as_one(tmp_path: Path) -> None:
    text = ("[Measurement conditions]\nScan axis,Gonio\nScan range,4.999999996,80.016886434\n"
            "Scan step size,0.0167113\n[Scan points]\nAngle,Intensity\n"
            + "".join(f"{5 + 0.0167 * i:.4f},{1700 - i}.0\n" for i in range(6)))  # fmt: skip
    rows = {row.key: row.value for row in read(tmp_path, "xrd.csv", text).metadata}
    assert rows["Scan axis"] == "Gonio"
    assert "Gonio" not in rows


def test_read_data_joins_names_written_over_two_rows(tmp_path: Path) -> None:
    rows = "".join(f"\t{i / 60:.6f}\t12.40{i}\t{50 + i}.0\n" for i in range(5))
    text = "1) TGA Isothermal \n\tTime\tUnsubtracted\tSample\n\t\tWeight\tTemperature\n" + rows
    summary = read(tmp_path, "tga.txt", text).tables[0].summary
    assert [c.name for c in summary.columns] == ["Time", "Unsubtracted Weight",
                                                 "Sample Temperature"]  # fmt: skip


def test_read_data_leaves_out_a_summary_row_after_the_last_time_stamp(tmp_path: Path) -> None:
    rows = "".join(f"2022-06-08 16:{20 - i:02d}:00,{0.08 + i / 100:.2f},{41 + i}\n"
                   for i in range(5))  # fmt: skip
    data = read(tmp_path, "gc.csv", "Time,H2,N2\n" + rows + ",56.9,45.3\n")
    assert data.tables[0].summary.rows == 5


EASYEXPERT = (
    "\nSetupTitle, I/V Sweep\nTestParameter, Measurement.Primary.Start, -5\n"
    "TestParameter, Measurement.Primary.Stop, 5\nTestParameter, Channel.Unit, SMU1:HP, GNDU:GND\n"
    "AnalysisSetup, Analysis.Setup.Vector.Graph.YAxis.Bottom, 1.1E-09, 1E-09, 10\n"
    "AnalysisSetup, Analysis.Setup.Vector.List.Datum.Name, Vd, Id, Ron\n"
    "AnalysisSetup, Analysis.Setup.Vector.List.Datum.Unit, V, A, ohm mm\n"
    "DataName, Vd, Id, Ron\n"
    + "".join(f"DataValue, {-5 + 0.05 * i:.2f}, {-2e-4 + 1e-6 * i:.6g}, {-3e4 * (i + 1)}\n"
              for i in range(5))
)  # fmt: skip


def test_read_vendor_reads_an_easyexpert_sweep_with_its_units_and_settings() -> None:
    read = read_vendor(EASYEXPERT)
    assert read is not None
    [table] = read.found
    assert [(c.name, c.unit) for c in table.columns] == [("Vd", "V"), ("Id", "A"), ("Ron", "Ω·mm")]
    rows = {row.key: row.number for row in read.metadata}
    assert rows["Measurement.Primary.Start"] == -5 and rows["Measurement.Primary.Stop"] == 5
    assert not any(key.startswith(("Linear", "Log")) for key in rows)  # display, not settings


def test_read_vendor_reads_an_ezchrom_trace_against_its_sampling_rate() -> None:
    text = (
        "Version:\t3\nMaxchannels:\t2\nSampling Rate:\t10.000000\t10.000000\tHz\n"
        "Total Data Points:\t6\t4\tPts.\nY Axis Title:\tpA\tmV\n"
        "Y Axis Multiplier:\t0.5\t2\n" + "".join(f"{v}\n" for v in range(100, 110))
    )
    read = read_vendor(text)
    assert read is not None
    first, second = read.found
    assert first.frame.iloc[:, 0].tolist() == pytest.approx([0, 0.1, 0.2, 0.3, 0.4, 0.5])
    assert first.frame.iloc[:, 1].tolist() == [50, 50.5, 51, 51.5, 52, 52.5]
    assert [c.unit for c in first.columns] == ["s", "pA"] and second.columns[1].unit == "mV"
    assert second.frame.iloc[:, 1].tolist() == [212, 214, 216, 218]
    assert read_vendor("Time,U\n0,1\n1,2\n2,3\n") is None


def test_a_settings_comment_in_words_gives_its_unit() -> None:
    """`L1 ; 1.15 ; Comprimentos do pêndulo 1 em metros` (a Brazilian pendulum's CSV): the
    comment says the length is in metres; a comment that names no unit gives none."""
    from labscribe.tools.formats.instruments import metadata_of_line

    [length] = metadata_of_line("L1 ; 1.15 ; Comprimentos do pêndulo 1 em metros")
    assert (length.number, length.unit) == (1.15, "m")
    [timing] = metadata_of_line("DrT ; 0.01 ; Incerteza do tempo em segundos")
    assert timing.unit == "s"
    [plain] = metadata_of_line("L2 ; 1.45 ; Comprimento do pêndulo 2")
    assert plain.unit == ""
