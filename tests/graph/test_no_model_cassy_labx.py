"""`labscribe run --no-model` on CASSY Lab 2's own files (tests/data/real/cassy): a capacitor
charged and discharged through about 1 kΩ, 500 points before the trigger. The curves are
fitted from the step on, and their time constants follow the data as closely as the
students' do (10.1 to 10.2 ms); the task's "linear regression" of the data made
logarithms is no line of the raw voltage."""

from __future__ import annotations

import re
from pathlib import Path

from test_no_model_checklist import REAL, plain, report_for

TASK = """\
# Ladekurven eines Kondensators

## Aufgabe
Zeigen Sie für den Lade- und den Entladevorgang jeweils ein Bild des Spannungsverlaufs am
Kondensator. Transformieren Sie die Rohdaten geeignet in logarithmische Größen und bestimmen
Sie mittels linearer Regression die Zeitkonstante.
"""


def test_a_cassy_recordings_time_constants_from_the_step_on(tmp_path: Path) -> None:
    report = plain(
        report_for(
            tmp_path,
            ("aufgabe.md", TASK),
            (REAL / "cassy" / "kondensator_aufladen_01.labx", "aufladen.labx"),
            (REAL / "cassy" / "kondensator_entladen_01.labx", "entladen.labx"),
        )
    )
    assert "other (" not in report
    charging = re.search(
        r"\(aufladen\.labx\) & exponential approach[^&]*& tau = ([\d.]+) ± ", report
    )
    discharging = re.search(r"\(entladen\.labx\) & exponential:[^&]*& decay = ([\d.]+) ± ", report)
    assert charging is not None and discharging is not None, report
    assert abs(float(charging.group(1)) - 0.01017) < 0.0001
    assert abs(float(discharging.group(1)) - 0.01016) < 0.0001
    assert "fitted from the step on: the first 503 points" in report
    assert "linear: slope·x + intercept (the model task" not in report
