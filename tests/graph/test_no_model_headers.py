"""`labscribe run --no-model`: every column of the report carries the unit its file states,
however the lab wrote it (issue 26, item 1 and item 10): a header behind a comment mark,
units after a slash, names of several words over fixed-width columns, R's write.table
header one name short, a scope's settings, a MATLAB struct, HDF5 groups. Each test runs the
CLI on a folder and reads the fit table and the data excerpt of report.tex."""

from __future__ import annotations

import shutil
from pathlib import Path

import h5py
import numpy as np
import scipy.io
from test_no_model import no_model_report

REAL = Path(__file__).resolve().parents[1] / "data" / "real" / "conventions"
# R's datasets::pressure (vapour pressure of mercury, mmHg, against temperature, °C), as
# write.table(pressure, "pressure.txt") writes it: the header one name short of the rows.
R_PRESSURE = '"temperature" "pressure"\n' + "".join(
    f'"{i + 1}" {20 * i} {p}\n'
    for i, p in enumerate(
        [
            "2e-04",
            "0.0012",
            "0.006",
            "0.03",
            "0.09",
            "0.27",
            "0.75",
            "1.85",
            "4.2",
            "8.8",
            "17.3",
            "32.1",
            "57",
            "96",
            "157",
            "247",
            "376",
            "558",
            "806",
        ]
    )
)


def report(folder: Path, tmp_path: Path) -> str:
    """The report.tex of `labscribe run FOLDER --no-model --no-compile`, blanks collapsed."""
    return " ".join(no_model_report(folder, tmp_path).split())


def cavendish() -> np.ndarray:
    return np.loadtxt(REAL / "gnuplot_cavendish.data", comments="#")


def test_no_model_report_gives_the_units_of_comment_headers(tmp_path: Path) -> None:
    """Two real files: a gnuplot file (`#t (s)<TAB> Angle (mrad)<TAB>Error (mrad)`) and a
    NETZSCH STA export (`##Temp./›C,Time/min,DSC/(uV/mg),Mass/%,...`)."""
    folder = tmp_path / "lab"
    folder.mkdir()
    shutil.copy(REAL / "gnuplot_cavendish.data", folder)
    shutil.copy(REAL / "netzsch_sta_expdat_first40.csv", folder)
    text = report(folder, tmp_path)
    assert "Angle [mrad] against t [s] (gnuplot" in text
    assert r"\textbf{t [s]} & \textbf{Angle [mrad]} & \textbf{Error [mrad]}" in text
    assert r"\textbf{Time [min]} & \textbf{DSC [µV/mg]} & \textbf{Mass [\%]}" in text


def test_no_model_report_places_fixed_width_names_and_r_row_names(tmp_path: Path) -> None:
    folder = tmp_path / "lab"
    folder.mkdir()
    rows = "".join(f"{t:8.1f}   {a:21.1f}   {e:17.1f}\n" for t, a, e in cavendish())
    (folder / "torsion.txt").write_text(
        "Time (s)   Deflection Angle (mrad)   Angle Error (mrad)\n" + rows
    )
    (folder / "pressure.txt").write_text(R_PRESSURE)
    text = report(folder, tmp_path)
    assert "Deflection Angle [mrad] against Time [s] (torsion.txt)" in text
    assert (
        r"\textbf{Time [s]} & \textbf{Deflection Angle [mrad]} & \textbf{Angle Error [mrad]}"
        in text
    )
    # R's row names are not shifted under the temperature's name: they only number the rows
    header = r"\textbf{temperature} & \textbf{pressure} \\ \midrule \endhead"
    assert header + r" 0 & 0.0002 \\" in text
    assert "The unnamed first column (pressure.txt) only numbers the rows" in text


def test_no_model_report_takes_a_scopes_units_from_its_settings(tmp_path: Path) -> None:
    folder = tmp_path / "scope"
    folder.mkdir()
    settings = ("Model,MSO24\nHorizontal Units,s,\nSample Interval,4e-07,\nRecord Length,40,\n"
                "Vertical Units,V,\nVertical Scale,1,\n,\nLabel,,\nTIME,CH1,\n")  # fmt: skip
    t = np.arange(40) * 4e-7
    trace = "".join(f"{a:.7e},{2 * np.exp(-a / 4e-6):.5f},\n" for a in t)
    (folder / "tek0000.csv").write_text(settings + trace)
    text = report(folder, tmp_path)
    assert "CH1 [V] against TIME [s] (tek0000.csv)" in text
    assert r"\textbf{TIME [s]} & \textbf{CH1 [V]}" in text


def test_no_model_report_reads_matlab_structs_and_hdf5_groups(tmp_path: Path) -> None:
    folder = tmp_path / "lab"
    folder.mkdir()
    t, angle, _ = cavendish().T
    runs = np.zeros((1, 2), dtype=[("t_s", "O"), ("angle_mrad", "O")])
    for k in range(2):
        runs[0, k] = (t[:, None], (k + 1) * angle[:, None])
    scipy.io.savemat(folder / "torsion.mat", {"runs": runs})
    with h5py.File(folder / "logger.h5", "w") as store:
        store["run1/time"] = t
        store["run1/time"].attrs["units"] = "s"
        store["run1/deflection"] = angle
        store["run1/deflection"].attrs["units"] = "mrad"
    text = report(folder, tmp_path)
    assert r"angle [mrad] against t [s] (torsion.mat\#2)" in text
    assert "deflection [mrad] against time [s] (logger.h5)" in text
    assert r"\textbf{time [s]} & \textbf{deflection [mrad]}" in text


def test_no_model_report_reads_fixed_width_labelled_and_bar_parted_headers(
    tmp_path: Path,
) -> None:
    """Six real files whose headers the merged branches read wrong: fixed-width names and
    units aligned only by position (Mettler Toledo STARe, Hiden IGA over two rows with a
    dashed rule), a student's comment headers (parted by `|`, a name closed by its unit,
    `#NAME`/`#UNIT` rows) and a MultiVu file whose empty first column is no R row names."""
    real = REAL.parent
    folder = tmp_path / "lab"
    folder.mkdir()
    for name in (
        "thermal/mettler_stare_tga_first30.txt",
        "isotherm/hiden_iga_Isotherm_67-CO2_20C-2bar.txt",
        "labsigma/stop_voltages.txt",
        "labsigma/week_2_slopes.txt",
        "labsigma/angle_vs_period.txt",
        "ppms/quantum_design_Resistance_first30.dat",
    ):
        shutil.copy(real / name, folder)  # fmt: skip
    text = report(folder, tmp_path)
    assert (
        r"\textbf{Pressure [mbar]} & \textbf{Gas Density [g/cc]} & \textbf{Total Weight [mg]} "
        r"& \textbf{Sample [°C]} & \textbf{\%Wt [\% d.b.]}"
    ) in text
    assert r"Tr [°C] against t [s] (mettler" in text
    assert r"against Time Stamp [s] (quantum" in text
    assert r"against Wavelength [nm] (stop" in text
    # six slopes scattered far beyond their stated dSlope: no line is offered as the answer
    assert "Slope against Inverse Wavelength: none of the standard models tried" in text
    assert (
        r"reduced \ensuremath{\chi}² = 58.6 with \ensuremath{\sigma} from the uncertainty column"
        in text
    )
    assert r"\textbf{Starting Angle [rad]} & \textbf{5 Periods of Swing [s]}" in text
    assert "[Vs]" not in text  # the symbol V_s is no unit (volt-seconds)


# Kα1 energies in keV of Ti, Fe, Ni, Cu, Zn, Zr, Mo, Ag: the X-ray Data Booklet (LBNL,
# Table 1-2), rounded as a student's detector gives them, with the detector's uncertainty.
MOSELEY = [(22, 4.51, 0.02), (26, 6.40, 0.02), (28, 7.47, 0.02), (29, 8.05, 0.03),
           (30, 8.64, 0.03), (40, 15.78, 0.05), (42, 17.48, 0.05), (47, 22.16, 0.08)]  # fmt: skip


def test_no_model_report_reads_a_labelled_comment_header_and_weights_a_formed_axis(
    tmp_path: Path,
) -> None:
    """Moseley's law as an XRF lab writes it: `% columns:` names the columns under a
    title, sigma_E is E_Ka's uncertainty, and "the square root of E against Z, weighting
    each point by its uncertainty" is a line of √E weighted by σ propagated from sigma_E."""
    folder = tmp_path / "lab"
    folder.mkdir()
    rows = "".join(f"{z} {e} {s}\n" for z, e, s in MOSELEY)
    (folder / "kalpha.txt").write_text(
        "% X-ray fluorescence: K-alpha line energies\n"
        "% columns: Z  E_Ka[keV]  sigma_E[keV]\n" + rows
    )
    (folder / "assignment.md").write_text(
        "# Moseley's law\n\nTasks:\n"
        "1. Plot the square root of E against Z and fit a straight line, weighting each "
        "point by its uncertainty.\n"
        "2. From the intercept, determine the screening constant sigma.\n"
    )
    text = report(folder, tmp_path)
    assert r"\textbf{Z} & \textbf{E\_Ka [keV]} & \textbf{sigma\_E [keV]}" in text
    z, energy, sigma = (np.array(c, dtype=float) for c in zip(*MOSELEY, strict=True))
    root = np.sqrt(energy)
    slope, _ = np.polyfit(z, root, 1, w=2 * root / sigma)  # σ(√E) = σ_E / (2√E)
    row = next(line for line in text.split(r"\\") if "against Z (kalpha.txt) & linear" in line)
    assert f"slope = {slope:.5f}" in row
    assert r"(\ensuremath{\sigma}: u(\ensuremath{\surd}E))" in row
    assert "data: sigma" not in text  # an uncertainty column is no answer for the σ asked
