"""`labscribe run --no-model`: the units labs write beyond SI symbols reach the report: a
one-column file's comment header as numpy.savetxt writes it (`# t` over `# [s]`), the
tonne beside a load (`load (t)`: a slope in mm/t, not mm), and superscript exponents
(`a/(m·s⁻²)`, as Chinese physics texts label an axis)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from test_no_model import no_model_report


def report_of(folder: Path, tmp_path: Path) -> str:
    return no_model_report(folder, tmp_path).replace("\\textasciicircum{}", "^")


def test_no_model_report_keeps_the_units_of_savetxt_headers_tonnes_and_superscripts(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "units"
    folder.mkdir()
    times = np.array([0.45, 0.54, 0.50, 0.47, 0.49, 0.52, 0.48, 0.51])
    np.savetxt(folder / "times.txt", times, fmt="%.2f",
               header="Fall times of a steel ball, timed by hand\nt\n[s]")  # fmt: skip
    pier = [(2, 1.1), (4, 2.3), (6, 2.9), (8, 4.2), (10, 5.1), (12, 5.8)]
    (folder / "pier.csv").write_text(
        '"load (t)","settlement (mm)"\n' + "".join(f"{w},{s}\n" for w, s in pier)
    )
    ramp = [(0.5, 0.26), (1.0, 0.49), (1.5, 0.77), (2.0, 0.98), (2.5, 1.27), (3.0, 1.49)]
    (folder / "ramp.csv").write_text("F/N,a/(m·s⁻²)\n" + "".join(f"{f},{a}\n" for f, a in ramp))
    report = report_of(folder, tmp_path)
    assert "t (times.txt) & 8 & 0.495 ± 0.010 s &" in report  # the mean time, in seconds
    assert "column 1" not in report
    assert "settlement [mm] against load [t]" in report
    assert "slope = 0.503 ± 0.010 mm/t" in report
    assert "a [m·s^-2] against F [N]" in report
    assert "data (3): pier.csv, ramp.csv, times.txt" in report.replace("\\_", "_")


def test_no_model_report_names_a_scope_channel_as_its_export_does(tmp_path: Path) -> None:
    folder = tmp_path / "scope"
    folder.mkdir()
    preamble = (
        "DS1000Z,CSV export\nSource,CH2\nVertical scale,0.50 V/div\n"
        "Sample interval,2.000000e-05\nTrigger,CH2 falling 1.20 V\n\nTime(s),CH2(V)\n"
    )
    rows = "".join(f"{i * 2e-5:.6e},{3.0 * np.exp(-i / 20):.3f}\n" for i in range(60))
    (folder / "scope_CH2.csv").write_text(preamble + rows)
    report = report_of(folder, tmp_path)
    assert "\\textbf{Time [s]} & \\textbf{CH2 [V]}" in report  # the excerpt's header
    assert "Trigger & CH2 falling 1.20 V" in report  # the trigger among the settings
    assert "Trigger Time" not in report and "falling 1.20 V CH2" not in report
