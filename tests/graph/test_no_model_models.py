"""`labscribe run --no-model`: the standard model a report gives as the best is one a
student could report (tools.model_choice), on real files (origins in
tests/data/real/SOURCES.md)."""

from __future__ import annotations

import shutil
from pathlib import Path

from test_no_model import run

REAL = Path(__file__).resolve().parents[1] / "data" / "real"


def report_of(tmp_path: Path, data: str, tasks: str) -> str:
    """The report, its whitespace folded, of a folder holding the real file `data` (a path
    under tests/data/real) and a handout with `tasks`."""
    folder = tmp_path / "lab"
    folder.mkdir()
    shutil.copy(REAL / data, folder / Path(data).name)
    (folder / "assignment.md").write_text(f"# Lab\n\nTasks:\n\n{tasks}\n")
    out = tmp_path / "out"
    done = run(str(folder), "--no-model", "--no-compile", "--out", str(out),
               "--db", str(tmp_path / "c.db"))  # fmt: skip
    assert done.returncode == 0, done.stderr
    return " ".join((out / "report.tex").read_text().split())


def test_no_model_gives_galileos_plane_no_resonance(tmp_path: Path) -> None:
    """Galileo's 1608 folio 116v: no resonance phase (f0 = 554 ± 545) as the best fit."""
    report = report_of(tmp_path, "verdicts/galileo1608.csv",
                       "1. Plot the distance d against the release height h.")  # fmt: skip
    assert "resonance" not in report
    assert "(the best of the standard models by BIC)" in report


def test_no_model_gives_a_real_diode_sweep_no_peak_outside_it(tmp_path: Path) -> None:
    """A Keysight B1500 diode sweep (Id against Vd): a Lorentzian whose parameters the data
    do not determine, centred at the sweep's edge, had the lowest BIC; it is no answer."""
    report = report_of(tmp_path, "smu/keysight_b1500_sweep_diode_first20.csv",
                       "1. Plot the drain current Id against the voltage Vd.")  # fmt: skip
    assert "lorentzian" not in report.lower()
    assert "(the best of the standard models by BIC)" in report


def test_no_model_words_agree_with_a_reduced_chi_square_of_five(tmp_path: Path) -> None:
    """NIST's Longley data (public domain), the armed forces against the year: a reduced χ²
    of 5.5 is not "like noise"; the report says the data cannot tell."""
    import pandas as pd

    longley = pd.read_csv(Path(__file__).resolve().parents[2] / "bench/analysis/strd/Longley.csv")
    folder = tmp_path / "lab"
    folder.mkdir()
    longley[["x6", "x4"]].set_axis(["Year", "Armed Forces"], axis=1).to_csv(
        folder / "armed_forces.csv", index=False
    )
    (folder / "assignment.md").write_text(
        "# Lab\n\nTasks:\n\n1. Plot the size of the armed forces against the year.\n"
    )
    out = tmp_path / "out"
    done = run(str(folder), "--no-model", "--no-compile", "--out", str(out),
               "--db", str(tmp_path / "c.db"))  # fmt: skip
    assert done.returncode == 0, done.stderr
    report = " ".join((out / "report.tex").read_text().split())
    assert "the data cannot tell whether the model misses something" in report
    assert "its residuals are like noise (reduced \\ensuremath{\\chi}² = 5" not in report
