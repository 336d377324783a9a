"""`labscribe run --no-model` on a Norwegian counting lab (real files from Oslo's FYS2150,
tests/data/real/counting and spectra): its tasks under "Oppgaver" numbered 1.1 … 2.2 as the
handout numbers them, the counts' mean answered without their reading numbers as a variable,
and the spectrum read below its MCA record."""

from __future__ import annotations

import re
from pathlib import Path

from test_no_model_checklist import REAL, checklist, report_for

HANDOUT = """\
# FYS2150 — Gammastråling

## Formål
Vi undersøker tellestatistikk og gammaspektroskopi.

## Datafiler
- `gm_100pulser.csv`: 100 tellinger k (nummer, antall).
- `cs.txt`: spekteret av Cs-137 (kanal, tellinger).

## Oppgaver
1. Tellestatistikk
   1.1 Lag et histogram av k for de 100 målingene.
   1.2 Beregn middelverdien og standardavviket, og sammenlign med kvadratroten av middelverdien.
2. Gammaspektroskopi
   2.1 Finn kanalnummeret for fotontoppen til Cs-137.
"""
DATA = (
    (REAL / "counting" / "oslo_fys2150_gm_100pulser.csv", "gm_100pulser.csv"),
    (REAL / "spectra" / "oslo_fys2150_cs.txt", "cs.txt"),
)


def test_a_norwegian_task_list_with_its_own_numbers_and_the_counts_mean(tmp_path: Path) -> None:
    report = report_for(tmp_path, ("oppgave.md", HANDOUT), *DATA)
    rows = re.findall(r"^(\d\.\d) & (.*)$", checklist(report), re.MULTILINE)
    assert [number for number, _ in rows] == ["1.1", "1.2", "2.1"], rows
    mean = rows[1][1]
    assert "mean 4.35 ± 0.23" in mean and "n = 100" in mean, mean
    assert "only numbers the rows" in report
    assert "H against" not in report and "against H " not in report  # the record is no name


def test_a_photopeak_is_fitted_in_a_window_about_it(tmp_path: Path) -> None:
    # one Gaussian over all 1024 channels fails on the Compton continuum; the photopeak's
    # own window gives its channel (201.6 ± 0.1 by the course's analysis) and width
    report = report_for(tmp_path, ("oppgave.md", HANDOUT.replace(
        "2.1 Finn kanalnummeret for fotontoppen til Cs-137.",
        "2.1 Finn kanalnummeret for fotontoppen til Cs-137 (f.eks. gaussisk tilpasning).")),
        *DATA)  # fmt: skip
    row = re.search(r"^2\.1 & .*$", checklist(report), re.MULTILINE)
    assert row is not None
    assert "center = 201.668 ± 0.063, fwhm = 15.76 ± 0.19" in row.group(0), row.group(0)
    assert "fitted to the peak at column 1 ≈ 202" in report.replace("\\ensuremath{\\approx}", "≈")


def test_a_calibration_task_with_an_abbreviated_example_gets_no_mean_of_the_counts(
    tmp_path: Path,
) -> None:
    # "f.eks." (for example) is no F test, and the calibration E(K) is of peak positions:
    # neither the counts' mean nor the Gaussian of the whole spectrum answers the task
    report = report_for(tmp_path, ("oppgave.md", HANDOUT.replace(
        "2.1 Finn kanalnummeret for fotontoppen til Cs-137.",
        "2.1 Finn kanalnummeret for fotontoppen til Cs-137 (f.eks. gaussisk tilpasning), og lag "
        "en lineær energikalibrering E(K).")), *DATA)  # fmt: skip
    row = re.search(r"^2\.1 & .*$", checklist(report), re.MULTILINE)
    assert row is not None
    assert "mean" not in row.group(0), row.group(0)
    assert "center = 201.668 ± 0.063" in row.group(0)  # the photopeak, in its window
