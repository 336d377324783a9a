"""`labscribe run --no-model`: a column that numbers the rows or the repeats (a bench's running
number `n`, a caliper's `medição`, a sample's `Lectura`) is never fitted, on either axis. The
calibration is NIST StRD Chwirut2 (tests/data/real/conventions/nist_chwirut2.dat)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from test_no_model import no_model_report

REAL = Path(__file__).parents[1] / "data" / "real" / "conventions"


def test_no_model_fits_nothing_against_a_running_number_n(tmp_path: Path) -> None:
    folder = tmp_path / "lab"
    folder.mkdir()
    rows = [line.split() for line in (REAL / "nist_chwirut2.dat").read_text().splitlines()[2:]]
    body = "\n".join(f"{i}\t{x}\t{y}" for i, (y, x) in enumerate(rows, start=1))
    (folder / "export.txt").write_text(f"n\tdistance (mm)\tresponse (a.u.)\n{body}\n")
    (folder / "handout.md").write_text(
        "# Ultrasonic sensor calibration\n\n## Tasks\n\n1. Fit the calibration model "
        "y = exp(-b1*x)/(b2 + b3*x) to the response y against the metal distance x.\n"
    )
    report = " ".join(no_model_report(folder, tmp_path).split())
    assert "n against" not in report
    assert "against n " not in report
    assert "n (export.txt) only numbers the rows" in report


def test_no_model_summarises_repeat_readings_instead_of_fitting_them(tmp_path: Path) -> None:
    folder = tmp_path / "lab"
    folder.mkdir()
    diameters = [25.06, 25.08, 25.04, 25.08, 25.08, 25.08, 25.04, 25.06, 25.06, 25.02]
    heights = [39.96, 39.98, 39.94, 40.02, 39.96, 39.92, 39.98, 39.94, 39.92, 40.00]
    rows = "\n".join(
        f"{i};{d:.2f};{h:.2f}".replace(".", ",")
        for i, (d, h) in enumerate(zip(diameters, heights, strict=True), start=1)
    )
    (folder / "paquimetro.csv").write_text(f"medição;D (mm);H (mm)\n{rows}\n")
    (folder / "leituras.csv").write_text("Lectura;A\n1;0.807\n2;0.819\n3;0.832\n")
    (folder / "guiao.md").write_text(
        "# Densidade de um cilindro\n\n1. Calcule a média e o desvio-padrão de D e de H.\n"
    )
    report = " ".join(no_model_report(folder, tmp_path).split())
    for name in ("medição", "Lectura", "D", "H"):
        assert f"against {name} " not in report
    assert "D and H are each read again and again" in report
    assert f"{np.mean(diameters):.4f} ± " in report  # the mean, not a trend's intercept
