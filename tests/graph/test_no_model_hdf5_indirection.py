"""`labscribe run --no-model`, as a normal user, on HDF5 files that point outside the data
folder (issue 27, class 2): a dataset whose raw data lie in an external file, a virtual
dataset whose source is another file, an external link. The HDF5 library would open those
files itself, past the path guard; none is read, and the report names each as not read.
Cells a file never wrote, and values it declares missing, are no data."""

from __future__ import annotations

import json
from pathlib import Path

import h5py
import numpy as np
from asuser import as_normal_user

from labscribe.tools.formats.tables import read_data
from labscribe.tools.tool import Folder

SECRET = np.arange(777.25, 787.25)  # numbers only the outside files hold


def outside_files(place: Path) -> tuple[Path, Path]:
    raw = place / "secret.bin"
    raw.write_bytes(SECRET.astype("<f8").tobytes())
    other = place / "other.h5"
    with h5py.File(other, "w") as store:
        store["data"] = SECRET
    return raw, other


def test_no_number_of_a_file_outside_the_folder_reaches_the_report(user_dir: Path) -> None:
    data = user_dir / "data"
    data.mkdir()
    raw, other = outside_files(user_dir)
    with h5py.File(data / "run.h5", "w") as store:
        store["t"] = np.arange(10.0)
        store.create_dataset("U", shape=(10,), dtype="<f8",
                             external=[(str(raw), 0, h5py.h5f.UNLIMITED)])  # fmt: skip
        layout = h5py.VirtualLayout(shape=(10,), dtype="f8")
        layout[:] = h5py.VirtualSource(str(other), "data", shape=(10,))
        store.create_virtual_dataset("I", layout)
        store["R"] = h5py.ExternalLink(str(other), "/data")
        store["P"] = 2.0 * np.arange(10.0)
    # a MATLAB v7.3 file is HDF5 behind a 512-byte header: the same indirection
    with h5py.File(data / "scope.mat", "w", userblock_size=512) as store:
        store["time"] = np.arange(10.0)
        store.create_dataset("Q", shape=(10,), dtype="<f8",
                             external=[(str(raw), 0, h5py.h5f.UNLIMITED)])  # fmt: skip
    with (data / "scope.mat").open("r+b") as handle:
        handle.write(b"MATLAB 7.3 MAT-file, Platform: GLNXA64, Created on: Thu Dec  3 2026")
    out = user_dir / "out"
    argv = ["labscribe", "run", str(data), "--no-model", "--no-compile", "--out", str(out),
            "--db", str(user_dir / "c.db")]  # fmt: skip
    done = as_normal_user(
        f"import runpy, sys; sys.argv = {argv!r}; "
        "runpy.run_module('labscribe.graph.cli', run_name='__main__')",
        owns=[user_dir],
    )
    assert done.returncode == 0, done.stderr
    report = (out / "report.tex").read_text()
    assert "777" not in report and "786" not in report
    assert "P against t" in report  # the file's own data are read
    left = " ".join(json.loads((out / "run.json").read_text()).get("left_out", [])) + report
    assert "U: its values stored in external files, not read" in left
    assert "I: a virtual dataset, its values in other files, not read" in left
    assert "R: a link to /data in another file" in left
    assert "Q: its values stored in external files, not read" in left


def test_cells_never_written_and_declared_missing_are_no_data(tmp_path: Path) -> None:
    with h5py.File(tmp_path / "logger.h5", "w") as store:
        store["t"] = np.arange(20.0)
        level = store.create_dataset("level", shape=(20,), dtype="f8", chunks=(5,))
        level[:10] = np.linspace(1.0, 2.0, 10)  # the logger stopped: two chunks never written
        flow = store.create_dataset("flow", data=np.where(np.arange(20) % 7 == 3, -999.0, 4.5))
        flow.attrs["_FillValue"] = -999.0
    [table] = read_data(Folder(tmp_path), "logger.h5").tables
    columns = {c.name: c for c in table.summary.columns}
    assert columns["level"].count == 10 and columns["level"].minimum == 1.0
    assert columns["flow"].count == 17 and columns["flow"].minimum == 4.5
