"""MATLAB structs and HDF5 groups as tables (tools.formats.array_tables, tools.formats.matlab_files,
tools.formats.hdf5_files). The files are written here with scipy.io.savemat and h5py, shaped as labs
save them: Simulink's "Structure With Time" (`ScopeData.time`, `ScopeData.signals.values`),
a struct array of runs, nested runs, a struct whose `units` field names its siblings' units
(`DSC.units.T = 'K'`), MATLAB v7.3's layout (a struct a group, text as UTF-16 codes, a
struct array's fields as references into `#refs#`, the fields' order in `MATLAB_fields`),
HDF5 groups of runs and a NeXus NXdata group; the values are the real Cavendish data of
tests/data/real/conventions."""

from __future__ import annotations

import time
import tracemalloc
from pathlib import Path

import h5py
import numpy as np
import pytest
import scipy.io

from labscribe.tools.formats.readers import NoTable
from labscribe.tools.formats.tables import DataFile, read_data
from labscribe.tools.tool import Folder

REAL = Path(__file__).resolve().parents[2] / "data" / "real" / "conventions"
MATLAB_73 = b"MATLAB 7.3 MAT-file, Platform: GLNXA64, Created on: Mon Mar  4 10:00:00 2024 HDF5"


def cavendish() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Time (s), angle (mrad) and its error (mrad) of Janert's Cavendish data."""
    data = np.loadtxt(REAL / "gnuplot_cavendish.data", comments="#")
    return data[:, 0], data[:, 1], data[:, 2]


def columns(data: DataFile) -> list[list[tuple[str, str, str]]]:
    return [[(c.header, c.name, c.unit) for c in t.summary.columns] for t in data.tables]


def test_simulink_structure_with_time_is_one_table(tmp_path: Path) -> None:
    t, angle, error = cavendish()
    signals = {"values": np.c_[angle, error], "dimensions": 2.0, "label": "theta"}
    scope = {"time": t[:, None], "blockName": "cavendish/Scope", "signals": signals}
    scipy.io.savemat(tmp_path / "scope.mat", {"ScopeData": scope})
    data = read_data(Folder(tmp_path), "scope.mat")
    [table] = data.tables
    assert table.summary.title == "ScopeData/signals"
    assert [c.header for c in table.summary.columns] == [
        "ScopeData/time", "ScopeData/signals/values[0]", "ScopeData/signals/values[1]"
    ]  # fmt: skip
    assert table.summary.x == "time"
    assert table.frame["values[0]"].tolist() == angle.tolist()
    settings = {(r.section, r.key): r.value for r in data.metadata}
    assert settings[("ScopeData/signals", "label")] == "theta"


def test_struct_array_of_runs_gives_a_table_per_run(tmp_path: Path) -> None:
    t, angle, _ = cavendish()
    runs = np.zeros((1, 2), dtype=[("t_s", "O"), ("theta_mrad", "O"), ("L_m", "O")])
    for k in range(2):
        runs[0, k] = (t[:, None], (k + 1) * angle[:, None], np.array([[0.05 * (k + 1)]]))
    scipy.io.savemat(tmp_path / "runs.mat", {"runs": runs})
    data = read_data(Folder(tmp_path), "runs.mat")
    assert [table.summary.title for table in data.tables] == ["runs(1)", "runs(2)"]
    assert columns(data)[1] == [("runs(2)/t_s", "t", "s"), ("runs(2)/theta_mrad", "theta", "mrad")]
    assert [(r.section, r.key, r.number, r.unit) for r in data.metadata] == [
        ("runs(1)", "L_m", 0.05, "m"), ("runs(2)", "L_m", 0.1, "m")
    ]  # fmt: skip


def test_nested_structs_of_two_lengths_are_two_tables_named_by_path(tmp_path: Path) -> None:
    t, angle, _ = cavendish()
    experiment = {
        "run1": {"time": t, "angle": angle},
        "run2": {"time": t[:20], "angle": angle[:20]},
    }
    scipy.io.savemat(tmp_path / "exp.mat", {"exp": experiment})
    data = read_data(Folder(tmp_path), "exp.mat")
    assert [(s.summary.title, s.summary.rows) for s in data.tables] == [
        ("exp/run1", 39), ("exp/run2", 20)
    ]  # fmt: skip


def test_a_structs_units_field_gives_its_siblings_units(tmp_path: Path) -> None:
    t, angle, _ = cavendish()
    dsc = {"time": t, "theta": angle, "units": {"time": "sec", "theta": "mrad"}, "who": "group 3"}
    scipy.io.savemat(tmp_path / "dsc.mat", {"DSC": dsc})
    assert columns(read_data(Folder(tmp_path), "dsc.mat")) == [
        [("DSC/time", "time", "s"), ("DSC/theta", "theta", "mrad")]
    ]


def test_complex_arrays_give_their_real_and_imaginary_parts(tmp_path: Path) -> None:
    f = np.logspace(1, 5, 20)
    z = 100 + 1 / (2j * np.pi * f * 1e-6)
    scipy.io.savemat(tmp_path / "eis.mat", {"f_Hz": f, "Z_ohm": z})
    assert [name for _, name, _ in columns(read_data(Folder(tmp_path), "eis.mat"))[0]] == [
        "f", "Z (real part)", "Z (imaginary part)"
    ]  # fmt: skip


def write_matlab_73(path: Path, build: object) -> None:
    with h5py.File(path, "w", userblock_size=512) as store:
        build(store)  # type: ignore[operator]
    with path.open("r+b") as handle:
        handle.write(MATLAB_73)


def double(group: h5py.Group, name: str, values: np.ndarray) -> h5py.Dataset:
    dataset = group.create_dataset(name, data=np.asarray(values, dtype=float)[None, :])
    dataset.attrs["MATLAB_class"] = np.bytes_(b"double")
    return dataset


def struct(group: h5py.Group, name: str, fields: list[str]) -> h5py.Group:
    made = group.create_group(name)
    made.attrs["MATLAB_class"] = np.bytes_(b"struct")
    names = np.empty(len(fields), dtype=object)
    names[:] = [np.frombuffer(f.encode(), dtype="S1") for f in fields]
    made.attrs.create("MATLAB_fields", data=names, dtype=h5py.vlen_dtype(np.dtype("S1")))
    return made


def test_matlab_73_struct_keeps_its_field_order_and_text(tmp_path: Path) -> None:
    t, angle, _ = cavendish()

    def build(store: h5py.File) -> None:
        data = struct(store, "data", ["time", "U_mrad", "operator"])
        double(data, "U_mrad", angle)  # HDF5 lists it before `time`
        double(data, "time", t)
        text = data.create_dataset("operator", data=np.array([[ord(c)] for c in "group 3"], "u2"))
        text.attrs["MATLAB_class"] = np.bytes_(b"char")

    write_matlab_73(tmp_path / "v73.mat", build)
    data = read_data(Folder(tmp_path), "v73.mat")
    assert columns(data) == [[("data/time", "time", ""), ("data/U_mrad", "U", "mrad")]]
    assert data.tables[0].summary.x == "time"
    assert [(r.section, r.key, r.value) for r in data.metadata] == [("data", "operator", "group 3")]


def test_matlab_73_struct_array_is_followed_through_its_references(tmp_path: Path) -> None:
    t, angle, _ = cavendish()

    def build(store: h5py.File) -> None:
        runs = struct(store, "runs", ["t", "x"])
        refs = store.create_group("#refs#")
        for field, values in (("t", [t, t]), ("x", [angle, 2 * angle])):
            targets = [double(refs, f"{field}{k}", v).ref for k, v in enumerate(values)]
            runs.create_dataset(field, data=np.array(targets, dtype=h5py.ref_dtype)[:, None])

    write_matlab_73(tmp_path / "runs.mat", build)
    data = read_data(Folder(tmp_path), "runs.mat")
    assert [t.summary.title for t in data.tables] == ["runs(1)", "runs(2)"]
    assert data.tables[1].frame["x"].tolist() == (2 * angle).tolist()


def test_hdf5_groups_of_runs_are_tables_named_by_their_path(tmp_path: Path) -> None:
    t, angle, _ = cavendish()
    with h5py.File(tmp_path / "runs.h5", "w") as store:
        for k in (1, 2):
            store[f"run{k}/time"] = t
            store[f"run{k}/time"].attrs["units"] = "s"
            store[f"run{k}/deflection"] = k * angle
            store[f"run{k}/deflection"].attrs["unit"] = b"mrad"
    data = read_data(Folder(tmp_path), "runs.h5")
    assert columns(data) == [
        [("run1/time", "time", "s"), ("run1/deflection", "deflection", "mrad")],
        [("run2/time", "time", "s"), ("run2/deflection", "deflection", "mrad")],
    ]
    assert data.tables[1].frame["deflection"].tolist() == (2 * angle).tolist()


def test_nexus_group_names_its_axis(tmp_path: Path) -> None:
    t, _, _ = cavendish()
    with h5py.File(tmp_path / "scan.nxs.h5", "w") as store:
        group = store.create_group("entry/data")
        group.attrs["axes"] = "polar_angle"
        group["counts"] = np.exp(-t / 20)  # falls all along: a first column would be taken
        group["polar_angle"] = t
        group["polar_angle"].attrs["units"] = "degrees"
    [table] = read_data(Folder(tmp_path), "scan.nxs.h5").tables
    assert table.summary.x == "polar_angle"
    assert table.summary.column("polar_angle").unit == "deg"


def test_a_struct_that_inflates_past_the_bound_is_never_decoded(tmp_path: Path) -> None:
    zeros = np.zeros(3_000_000)  # 24 MB decoded, a few kB compressed
    scipy.io.savemat(tmp_path / "bomb.mat", {"s": {"a": zeros, "b": zeros}}, do_compression=True)
    assert (tmp_path / "bomb.mat").stat().st_size < 200_000
    tracemalloc.start()
    started = time.perf_counter()
    with pytest.raises(NoTable, match=r"1 variable larger than 16\.0 MB decoded left out"):
        read_data(Folder(tmp_path), "bomb.mat")
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 8_000_000 and time.perf_counter() - started < 2.0


def test_matlabs_own_struct_files_are_read_without_fault() -> None:
    """Files MATLAB itself wrote (scipy's test data): a struct with text, doubles and complex
    numbers of three values, a struct array of scalars and text, nested structs."""
    path = Path(scipy.io.__file__).parent / "matlab" / "tests" / "data"
    [table] = read_data(Folder(path), "teststruct_7.4_GLNX86.mat").tables
    assert [c.name for c in table.summary.columns] == [
        "doublefield", "complexfield (real part)", "complexfield (imaginary part)"
    ]  # fmt: skip
    for name in ("teststructarr_7.4_GLNX86.mat", "teststructnest_7.4_GLNX86.mat"):
        with pytest.raises(NoTable) as refused:
            read_data(Folder(path), name)
        assert refused.value.metadata  # its scalars and text, as settings
