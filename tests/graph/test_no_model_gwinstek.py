"""`labscribe run --no-model` on a GW Instek GDS oscilloscope's exports of a series RC circuit
(tests/data/real/oscilloscope): settings, `Waveform Data,` and one sample a line. Each
trace is a sine of 320 Hz against the time its sampling period gives, and the capacitor's
phase lags the source's by the students' 24° (24.2° by these fits)."""

from __future__ import annotations

import math
import re
from pathlib import Path

from test_no_model_checklist import REAL, report_for


def test_a_scopes_traces_are_sines_whose_phases_differ_as_the_students_found(
    tmp_path: Path,
) -> None:
    scope = REAL / "oscilloscope"
    report = report_for(
        tmp_path,
        ("README.md", "# RC circuit\n\nCalculate the phase shift of the capacitor's voltage.\n"),
        (scope / "gwinstek_rc_ALL0003_1.CSV", "source.CSV"),
        (scope / "gwinstek_rc_ALL0003_2.CSV", "capacitor.CSV"),
    )
    assert "not analysed" not in report
    fits = dict(
        re.findall(
            r"\n(CH\d) \(ADC counts\) against time \[s\] \([a-z]+\.CSV\) & sine:[^&]*& "
            r"frequency = (?:[^;]+); amplitude = [^;]+; phase = ([-\d.]+) ± ",
            report,
        )
    )
    assert set(fits) == {"CH1", "CH2"}, report
    lag = math.degrees(float(fits["CH1"]) - float(fits["CH2"]))
    assert abs(lag - 24.2) < 0.5
    assert "frequency = 319.9" in report
