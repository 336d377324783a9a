"""Spreadsheets, LabVIEW TDMS, NumPy, MATLAB and HDF5 files, read by their libraries. The
binary files are written here by each format's own writer (xlsxwriter, odfpy, xlwt, npTDMS,
numpy, scipy.io, h5py) from the real pendulum table of tests/data/real, or are real files
that the installed libraries ship (matplotlib's stock-price sample, scipy's MATLAB v7.3
test file)."""

from __future__ import annotations

import csv
import io
import zipfile
from pathlib import Path

import h5py
import numpy as np
import pandas as pd
import pytest
import scipy.io
import xlsxwriter
import xlwt
from nptdms import ChannelObject, GroupObject, RootObject, TdmsWriter

from labscribe.tools.analysis.folder import MAX_TABLES, analyse
from labscribe.tools.base import ToolError
from labscribe.tools.formats.readers import NoTable
from labscribe.tools.formats.spreadsheets import MAX_SHEETS
from labscribe.tools.formats.tables import READERS, TABLE_SUFFIXES, read_data
from labscribe.tools.tool import Folder

REAL = Path(__file__).resolve().parents[2] / "data" / "real"


def pendulum() -> tuple[list[float], list[float]]:
    """Length (cm) and the first of five period readings (s), as the student recorded them."""
    with (REAL / "labtables" / "pendulum-lengths-periods.csv").open() as handle:
        rows = list(csv.reader(handle))[1:]
    return [float(r[0]) for r in rows], [float(r[1]) for r in rows]


def test_xlsx_sheet_is_read_with_its_units_and_the_cached_values_of_formulas(
    tmp_path: Path,
) -> None:
    lengths, periods = pendulum()
    book = xlsxwriter.Workbook(tmp_path / "pendel.xlsx")
    sheet = book.add_worksheet("Messung")
    sheet.write_row(0, 0, ["Operator", "group 3"])
    sheet.write_row(2, 0, ["l", "T", "T²"])
    sheet.write_row(3, 0, ["(cm)", "(s)", "(s^2)"])
    for i, (length, period) in enumerate(zip(lengths, periods, strict=True), start=4):
        sheet.write_row(i, 0, [length, period])
        sheet.write_formula(i, 2, f"=B{i + 1}^2", None, period**2)  # the value Excel cached
    book.add_worksheet("Notes").write(0, 0, "swing amplitude below 5°")
    book.close()
    data = read_data(Folder(tmp_path), "pendel.xlsx")
    [table] = data.tables
    assert (table.summary.reader, table.summary.title) == ("spreadsheet", "sheet Messung")
    assert [(c.name, c.unit) for c in table.summary.columns] == [
        ("l", "cm"), ("T", "s"), ("T²", "s^2")
    ]  # fmt: skip
    assert table.frame["T²"].tolist() == pytest.approx([p**2 for p in periods])
    assert [(r.key, r.value) for r in data.metadata] == [("Operator", "group 3")]


def test_sheets_past_the_bound_are_named_where_the_report_lists_what_was_left_out(
    tmp_path: Path,
) -> None:
    # a course's workbook with a sheet per run, more runs than are read
    lengths, periods = pendulum()
    for group, name in enumerate(("runs.xlsx", "more_runs.xlsx", "last_runs.xlsx")):
        book = xlsxwriter.Workbook(tmp_path / name)
        for run in range(1, MAX_SHEETS + 3):
            sheet = book.add_worksheet(f"Run{run}")
            sheet.write_row(0, 0, ["l (cm)", "T (s)"])
            for i, (length, period) in enumerate(zip(lengths, periods, strict=True), start=1):
                sheet.write_row(i, 0, [length, period * (1 + run / 100 + group / 1000)])
        book.close()
    data = read_data(Folder(tmp_path), "runs.xlsx")
    assert len(data.tables) == MAX_SHEETS
    unread = f"{MAX_SHEETS + 2} sheets; the first {MAX_SHEETS} read, not Run{MAX_SHEETS + 1}, "
    assert data.unread == [unread + f"Run{MAX_SHEETS + 2}"]
    left_out = analyse(Folder(tmp_path)).left_out
    assert f"runs.xlsx: {data.unread[0]}" in left_out
    # the tables past the analysis's own bound (three workbooks' worth) are named too
    assert any(line.startswith(f"{3 * MAX_SHEETS} tables found; the first {MAX_TABLES} ")
               and "(sheet Run" in line for line in left_out), left_out  # fmt: skip


def test_ods_and_xls_sheets_are_read_like_a_csv(tmp_path: Path) -> None:
    lengths, periods = pendulum()
    frame = pd.DataFrame({"length [cm]": lengths, "period [s]": periods})
    frame.to_excel(tmp_path / "pendel.ods", engine="odf", index=False, sheet_name="Data")
    workbook = xlwt.Workbook()
    sheet = workbook.add_sheet("Data")
    for col, name in enumerate(frame.columns):
        sheet.write(0, col, name)
        for row, value in enumerate(frame[name], start=1):
            sheet.write(row, col, float(value))
    workbook.save(str(tmp_path / "pendel.xls"))
    for name in ("pendel.ods", "pendel.xls"):
        [table] = read_data(Folder(tmp_path), name).tables
        assert [(c.name, c.unit) for c in table.summary.columns] == [
            ("length", "cm"), ("period", "s")
        ]  # fmt: skip
        assert table.frame["period"].tolist() == pytest.approx(periods)


def test_a_zip_that_unpacks_past_the_bound_is_refused_before_it_is_read(tmp_path: Path) -> None:
    with zipfile.ZipFile(tmp_path / "bomb.xlsx", "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/worksheets/sheet1.xml", b"0" * (300 * 1024 * 1024))
    with pytest.raises(NoTable, match=r"unpacks to 300\.0 MB"):
        read_data(Folder(tmp_path), "bomb.xlsx")


def test_tdms_channels_get_their_time_axis_and_units_from_their_properties(
    tmp_path: Path,
) -> None:
    _, periods = pendulum()
    voltage = ChannelObject("Scope", "U_C", np.array(periods),
                            properties={"wf_increment": 0.002, "wf_start_offset": 0.5,
                                        "unit_string": "V"})  # fmt: skip
    current = ChannelObject("Scope", "I", np.array(periods) * 2, properties={"unit_string": "mA"})
    with TdmsWriter(tmp_path / "run.tdms") as writer:
        writer.write_segment([RootObject({"operator": "group 3"}), GroupObject("Scope"), voltage,
                              current])  # fmt: skip
    data = read_data(Folder(tmp_path), "run.tdms")
    [table] = data.tables
    assert table.summary.x == "time"
    assert [(c.name, c.unit) for c in table.summary.columns] == [
        ("time", "s"), ("U_C", "V"), ("I", "mA")
    ]  # fmt: skip
    assert table.frame["time"].iloc[[0, -1]].tolist() == pytest.approx(
        [0.5, 0.5 + 0.002 * (len(periods) - 1)]
    )
    assert ("operator", "group 3") in [(r.key, r.value) for r in data.metadata]


def test_npz_arrays_become_the_columns_of_a_table(tmp_path: Path) -> None:
    lengths, periods = pendulum()
    np.savez(tmp_path / "pendel.npz", length_cm=np.array(lengths), period_s=np.array(periods),
             g_assumed=np.array(9.81))  # fmt: skip
    data = read_data(Folder(tmp_path), "pendel.npz")
    [table] = data.tables
    assert [(c.name, c.unit) for c in table.summary.columns] == [("length", "cm"), ("period", "s")]
    assert [(r.key, r.number) for r in data.metadata] == [("g_assumed", 9.81)]


def test_a_real_npz_record_array_is_read_by_its_fields() -> None:
    sample = Path(matplotlib_data()) / "goog.npz"
    data = read_data(Folder(sample.parent), sample.name)
    [table] = data.tables
    names = [c.name for c in table.summary.columns]
    assert names[0] == "date" and {"open", "close", "volume"} <= set(names)
    assert table.summary.column("date").unit == "d"  # days since the first record


def test_npy_larger_than_the_analysis_reads_is_refused_by_its_header(tmp_path: Path) -> None:
    header = {"descr": "<f8", "fortran_order": False, "shape": (10**9, 4)}
    with (tmp_path / "huge.npy").open("wb") as handle:
        np.lib.format.write_array_header_1_0(handle, header)
        handle.write(b"\0" * 64)  # the rest never needs to exist: the header is enough
    with pytest.raises(NoTable, match=r"larger than the analysis reads"):
        read_data(Folder(tmp_path), "huge.npy")


def test_pickled_npy_is_refused_without_unpickling(tmp_path: Path) -> None:
    np.save(tmp_path / "objects.npy", np.array([{"a": 1}], dtype=object), allow_pickle=True)
    with pytest.raises(NoTable, match="holds no numbers"):
        read_data(Folder(tmp_path), "objects.npy")


def test_matlab_v5_variables_and_scalars(tmp_path: Path) -> None:
    lengths, periods = pendulum()
    variables = {"L_cm": np.array(lengths)[:, None], "T_s": np.array(periods), "n_swings": 10.0}
    scipy.io.savemat(tmp_path / "pendel.mat", variables)
    data = read_data(Folder(tmp_path), "pendel.mat")
    [table] = data.tables
    assert table.summary.reader == "MATLAB"
    assert [(c.name, c.unit) for c in table.summary.columns] == [("L", "cm"), ("T", "s")]
    assert [(r.key, r.number) for r in data.metadata] == [("n_swings", 10.0)]


def test_matlab_v73_is_read_as_hdf5(tmp_path: Path) -> None:
    lengths, periods = pendulum()
    path = tmp_path / "pendel.mat"
    with h5py.File(path, "w", userblock_size=512) as store:  # how MATLAB writes -v7.3
        store["L"] = np.array(lengths)
        store["T"] = np.array(periods)
        store["L"].attrs["units"] = "cm"
    with path.open("r+b") as handle:
        handle.write(b"MATLAB 7.3 MAT-file, Platform: GLNXA64, Created on: ...  HDF5 schema")
    [table] = read_data(Folder(tmp_path), "pendel.mat").tables
    assert table.summary.reader == "MATLAB v7.3"
    assert [(c.name, c.unit) for c in table.summary.columns] == [("L", "cm"), ("T", "")]


def test_scipys_own_v73_file_holds_one_column_and_no_table() -> None:
    path = Path(scipy.io.__file__).parent / "matlab" / "tests" / "data"
    with pytest.raises(NoTable):
        read_data(Folder(path), "testhdf5_7.4_GLNX86.mat")


def test_hdf5_datasets_with_units_attributes(tmp_path: Path) -> None:
    lengths, periods = pendulum()
    with h5py.File(tmp_path / "run.h5", "w") as store:
        group = store.create_group("pendulum")
        group["length"] = np.array(lengths)
        group["length"].attrs["units"] = b"cm"
        group["period"] = np.array(periods)
        group["period"].attrs["units"] = "s"
    [table] = read_data(Folder(tmp_path), "run.h5").tables
    assert [(c.name, c.unit) for c in table.summary.columns] == [("length", "cm"), ("period", "s")]


@pytest.mark.parametrize("name", ["run.bin", "run", "run.003"])
def test_only_its_suffix_makes_a_file_hdf5(tmp_path: Path, name: str) -> None:
    """The one table of readers: a suffix it does not name is read as text, never handed to
    h5py, whatever the file's bytes are."""
    with h5py.File(tmp_path / "run.h5", "w") as store:
        store["length"], store["period"] = pendulum()
    (tmp_path / name).write_bytes((tmp_path / "run.h5").read_bytes())
    assert read_data(Folder(tmp_path), "run.h5").tables[0].summary.reader == "HDF5"
    with pytest.raises(ToolError, match=rf"^{name} looks like a binary file .*, not text$"):
        read_data(Folder(tmp_path), name)


def test_every_format_has_one_reader() -> None:
    formats = {".csv", ".xlsx", ".ods", ".lvm", ".tdms", ".labx", ".npz", ".mat", ".h5"}
    assert set(READERS) == TABLE_SUFFIXES >= formats
    assert all(suffix == suffix.lower() and suffix.startswith(".") for suffix in READERS)


def test_a_damaged_container_is_a_plain_note_in_the_analysis(tmp_path: Path) -> None:
    (tmp_path / "broken.xlsx").write_bytes(b"PK\x03\x04" + b"\x00" * 200)
    (tmp_path / "broken.tdms").write_bytes(b"TDSm" + b"\xff" * 100)
    (tmp_path / "broken.h5").write_bytes(b"\x89HDF\r\n\x1a\n" + b"\x00" * 100)
    analysis = analyse(Folder(tmp_path))
    reasons = {u.path: u.reason for u in analysis.unreadable}
    assert reasons["broken.xlsx"] == "could not be read: BadZipFile: File is not a zip file"
    assert reasons["broken.h5"].startswith("could not be read: OSError: Unable to")
    assert reasons["broken.tdms"] == "has no 3 or more values in two columns or more"


def test_an_excel_ohms_law_lab_is_fitted_as_its_assignment_asks(tmp_path: Path) -> None:
    currents = [0.0, 10.0, 20.0, 30.0, 40.0, 50.0]
    voltages = [0.02, 0.99, 2.01, 2.98, 4.02, 5.01]
    book = xlsxwriter.Workbook(tmp_path / "ohm.xlsx")
    sheet = book.add_worksheet("Ohm")
    sheet.write_row(0, 0, ["I [mA]", "U [V]"])
    for row, pair in enumerate(zip(currents, voltages, strict=True), start=1):
        sheet.write_row(row, 0, pair)
    book.close()
    (tmp_path / "assignment.txt").write_text(
        "Tasks\n1. Determine the resistance R from a straight-line fit of U against I.\n"
    )
    analysis = analyse(Folder(tmp_path))
    asked = next(fit for fit in analysis.fits if fit.requested)
    assert asked.model == "linear"
    assert asked.parameter("slope").unit == "V/mA"
    assert asked.parameter("slope").value == pytest.approx(0.1, rel=0.02)


def matplotlib_data() -> str:
    import matplotlib

    return str(Path(matplotlib.get_data_path()) / "sample_data")


def test_text_saved_under_a_workbook_name_is_read_as_text_and_a_broken_workbook_is_not(
    tmp_path: Path,
) -> None:
    data = read_data(Folder(REAL / "procoda"), "anc_t5.xls")
    [table] = data.tables
    assert table.summary.notes[0] == (
        "read as text: the file is text, not the .xls workbook its name says"
    )
    assert [(c.name, c.unit) for c in table.summary.columns] == [
        ("Titrant Volume", "mL"), ("pH", ""), ("F1", "")
    ]  # fmt: skip
    (tmp_path / "broken.xlsx").write_bytes(b"PK\x03\x04" + bytes(64))  # a zip, damaged
    with pytest.raises(NoTable, match="could not be read"):
        read_data(Folder(tmp_path), "broken.xlsx")


@pytest.mark.parametrize(
    ("shape", "reason"),
    [((-1,), "declares a negative length"), ((2**32, 2**32), "larger than the analysis reads"),
     ((1000,), "declares more values than the file holds")],
)  # fmt: skip
def test_an_npy_header_is_checked_before_its_values_are_read(
    tmp_path: Path, shape: tuple[int, ...], reason: str
) -> None:
    # issue 27: `(-1,)` passed the element count and read the member whole; a product that
    # overflows int64 would wrap round to a small count
    header = io.BytesIO()
    np.lib.format.write_array_header_1_0(
        header, {"descr": "<f8", "fortran_order": False, "shape": shape}
    )
    with zipfile.ZipFile(tmp_path / "scan.npz", "w") as archive:
        archive.writestr("x.npy", header.getvalue() + b"\0" * 4096)
    with pytest.raises(NoTable, match=reason):
        read_data(Folder(tmp_path), "scan.npz")


def test_a_workbook_is_measured_by_the_cells_it_places_not_the_range_it_declares(
    tmp_path: Path,
) -> None:
    # a false <dimension> costs calamine nothing; a stray cell far away costs it the range
    book = xlsxwriter.Workbook(tmp_path / "runs.xlsx")
    sheet = book.add_worksheet("Run1")
    sheet.write_row(0, 0, ["t (s)", "U (V)"])
    for row in range(1, 8):
        sheet.write_row(row, 0, [row, 2 * row])
    book.close()
    with zipfile.ZipFile(tmp_path / "runs.xlsx") as source:
        parts = {name: source.read(name) for name in source.namelist()}
    declared = parts["xl/worksheets/sheet1.xml"].replace(
        b'<dimension ref="A1:B8"/>', b'<dimension ref="A1:XFD1048576"/>'
    )
    assert declared != parts["xl/worksheets/sheet1.xml"]
    with zipfile.ZipFile(tmp_path / "declared.xlsx", "w") as target:
        for name, data in {**parts, "xl/worksheets/sheet1.xml": declared}.items():
            target.writestr(name, data)
    assert len(read_data(Folder(tmp_path), "declared.xlsx").tables[0].frame) == 7
    stray = parts["xl/worksheets/sheet1.xml"].replace(
        b"</sheetData>", b'<row r="900000"><c r="ZZ900000"><v>1</v></c></row></sheetData>'
    )
    with zipfile.ZipFile(tmp_path / "stray.xlsx", "w") as target:
        for name, data in {**parts, "xl/worksheets/sheet1.xml": stray}.items():
            target.writestr(name, data)
    with pytest.raises(NoTable, match=r"a sheet's cells span A1:ZZ900000, 631,800,000 cells"):
        read_data(Folder(tmp_path), "stray.xlsx")


@pytest.mark.parametrize(
    ("repeated", "reason"),
    [
        # a row of valued cells repeated down the whole sheet: calamine asks for 17 billion
        ('<table:table-row table:number-rows-repeated="1048560"><table:table-cell '
         'office:value-type="float" office:value="1" table:number-columns-repeated="16384"/>'
         "</table:table-row>", r"span A1:XFD1048568, 17,179,738,112 cells"),
        # 3000 rows of 16,000 valued cells: 48 million cells, about 5 GB in calamine
        ('<table:table-row table:number-rows-repeated="3000"><table:table-cell '
         'office:value-type="float" office:value="1" table:number-columns-repeated="16000"/>'
         "</table:table-row>", r"span A1:WQJ3008, 48,128,000 cells"),
    ],
)  # fmt: skip
def test_an_ods_sheet_is_measured_by_the_cells_its_repeats_stand_for(
    tmp_path: Path, repeated: str, reason: str
) -> None:
    frame = pd.DataFrame({"t (s)": range(1, 8), "U (V)": [2 * k for k in range(1, 8)]})
    frame.to_excel(tmp_path / "runs.ods", engine="odf", index=False)
    with zipfile.ZipFile(tmp_path / "runs.ods") as source:
        parts = {info: source.read(info) for info in source.infolist()}
    # the empty rows and cells LibreOffice repeats to the sheet's end are no data
    trailing = ('<table:table-row table:number-rows-repeated="1048568"><table:table-cell '
                'table:number-columns-repeated="1024"/></table:table-row>')  # fmt: skip
    for name, extra in (("empty.ods", trailing), ("repeated.ods", repeated)):
        with zipfile.ZipFile(tmp_path / name, "w") as target:
            for info, data in parts.items():
                if info.filename == "content.xml":
                    data = data.replace(b"</table:table>", extra.encode() + b"</table:table>")
                    assert extra.encode() in data
                target.writestr(info, data)
    assert len(read_data(Folder(tmp_path), "empty.ods").tables[0].frame) == 7
    with pytest.raises(NoTable, match=f"a sheet's cells {reason}"):
        read_data(Folder(tmp_path), "repeated.ods")
