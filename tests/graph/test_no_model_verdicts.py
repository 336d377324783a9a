"""`labscribe run --no-model` on real measurements: a model is called wrong only where its
residuals show it, and a parameter outside its physical range is never the answer
(tests/data/real/verdicts, origins in tests/data/real/SOURCES.md)."""

from __future__ import annotations

import shutil
from pathlib import Path

from test_no_model import no_model_report

REAL = Path(__file__).resolve().parents[1] / "data" / "real" / "verdicts"


def report_of(tmp_path: Path, data: str, tasks: str) -> str:
    """The report, its whitespace folded, of a folder holding the real file `data` and a
    handout with `tasks`."""
    folder = tmp_path / "lab"
    folder.mkdir()
    shutil.copy(REAL / data, folder / data)
    (folder / "assignment.md").write_text(f"# Lab\n\nTasks:\n\n{tasks}\n")
    return " ".join(no_model_report(folder, tmp_path).split())


def test_no_model_calls_hubbles_scattered_law_described(tmp_path: Path) -> None:
    """Hubble's 1929 nebulae scatter widely about v = H r (R² = 0.62): the law describes
    them, and the report says how well they determine H, not that the law is wrong."""
    report = report_of(tmp_path, "hubble1929.csv",
                       "1. Fit a straight line v = H r to the velocities against the distances "
                       "and determine the Hubble constant H.")  # fmt: skip
    assert "v = H r (the model task 1 asks for) & H = 424 ± 42 km/s/Mpc & 0.6194 & " in report
    assert (
        "R² = 0.62 is low because the data scatter widely about their trend, not because the "
        "model misses it: its residuals are like noise (reduced \\ensuremath{\\chi}² = 1.3), so "
        "it describes them; the data determine H to 10 \\%"
    ) in report
    assert "poorly" not in report and "does not describe" not in report


def test_no_model_flags_a_decay_formula_on_a_real_charging_curve(tmp_path: Path) -> None:
    """An Arduino's RC log: the resistor's voltage decays (τ = 10.0 s), the capacitor's rises
    towards 5 V, where U_0 e^{-t/τ} fits only with τ < 0."""
    report = report_of(tmp_path, "rc_arduino.csv",
                       "1. Fit U(t) = U_0 e^{-t/\\tau} to the voltages measured and determine "
                       "the time constant tau.")  # fmt: skip
    assert "U\\_\\allowbreak{}0 = 4.9989 ± 0.0015 V; tau = 10001.4 ± 4.8 ms" in report
    assert "no value: tau would lie outside its physical range (see the notes)" in report
    assert (
        "U\\_C against t (the assignment's model): these data rise towards a limit, while U(t) "
        "= U\\_0 e\\textasciicircum{}\\{-t/\\textbackslash{}tau\\} can only decay (tau would "
        "have to be negative, \\ensuremath{-}16000 ms, which has no physical meaning for a time "
        "constant), so the fit gives no value to report; the exponential approach c + a·(1 "
        "\\ensuremath{-} exp(\\ensuremath{-}x/tau)) describes them, with tau = 10007 ± 12 ms"
    ) in report
    assert "tau = -" not in report and "tau = \\ensuremath{-}" not in report
    assert (
        "checking and stating the values given; for U\\_\\allowbreak{}C, the model this task "
        "asks for gives no value (see the fits)"
    ) in report


def test_no_model_describes_a_real_discharge_with_its_time_constant(tmp_path: Path) -> None:
    """A 2200 µF capacitor through 47 kΩ (RC = 103 s), read every 10 s."""
    report = report_of(tmp_path, "discharge_47k_2200uF.csv",
                       "1. Fit V(t) = V_0 e^{-t/\\tau} to the voltage measured while the "
                       "capacitor discharges and determine the time constant tau.")  # fmt: skip
    assert (
        "V(t) = V\\_\\allowbreak{}0 e\\textasciicircum{}\\{-t/\\textbackslash{}tau\\} (the "
        "model task 1 asks for) & V\\_\\allowbreak{}0 = 5.5566 ± 0.0065 V; tau = 104.48 ± 0.22 s"
    ) in report
    assert "does not describe" not in report
