"""`labscribe run --no-model` on an Amptek multichannel-analyser spectrum (a real `.mca` of
Am-241 from a Québec course, tests/data/real/spectra): the counts under `<<DATA>>` are a
table of counts against channel, the live and real times settings, and a calibration the
handout writes as `E(K)` is no fit of the counts."""

from __future__ import annotations

import re
from pathlib import Path

from test_no_model_checklist import REAL, checklist, report_for

HANDOUT = """\
# Spectrométrie X — étalonnage du détecteur

## Objectif
Étalonner en énergie un détecteur SiPIN (Amptek, 4096 canaux) avec une source d'Am-241.

## Fichiers
- `etalonnage_241Am.mca` : le spectre de l'Am-241.

## Tâches
1. Tracer le spectre de l'Am-241.
2. Faire un étalonnage linéaire E(K) à partir des pics de 13,95, 17,74 et 59,54 keV et donner
   la pente a et l'ordonnée b.
3. Comparer le temps mort (live time et real time).
"""
SPECTRUM = (REAL / "spectra" / "ulaval_filtrationx_etalonnage_241Am.mca", "etalonnage_241Am.mca")


def test_an_amptek_spectrum_is_a_table_and_its_calibration_no_fit_of_it(tmp_path: Path) -> None:
    report = report_for(tmp_path, ("tp.md", HANDOUT), SPECTRUM)
    assert "holds no table" not in report
    assert "counts against channel" in report
    assert "LIVE\\_\\allowbreak{}TIME & 153.291980 s" in report
    assert "calibration point 3 & channel 1756 = 59.54" in report
    # the energy calibration E(K) is of peak positions, not of the counts against channel
    assert "(the model task 2 asks for" not in report
    assert "not the model task 2 asks for, which is a straight-line fit of E against K" in report
    rows = dict(re.findall(r"^(\d) & (.*)$", checklist(report), re.MULTILINE))
    assert "the model this task asks for" not in rows["2"], rows["2"]
    assert "153.291980 s" in rows["3"] and "186.260000 s" in rows["3"], rows["3"]


def test_each_peak_of_a_spectrum_is_fitted_in_its_own_window(tmp_path: Path) -> None:
    # one Gaussian over 4096 channels of Am-241 describes none of its lines; a Gaussian
    # about each peak gives the lines the file's own calibration names (channels 419, 516
    # and 1756 for 13.95, 17.74 and 59.54 keV)
    handout = HANDOUT.replace(
        "1. Tracer le spectre de l'Am-241.",
        "1. Ajuster une gaussienne à chaque pic du spectre et donner la position des pics.",
    )
    report = report_for(tmp_path, ("tp.md", handout), SPECTRUM)
    row = dict(re.findall(r"^(\d) & (.*)$", checklist(report), re.MULTILINE))["1"]
    assert "windows, one about each peak" in row, row
    centres = [float(v) for v in re.findall(r"(\d+\.\d+) ± ", row.split("; fwhm")[0])]
    for line in (419, 1756):
        assert any(abs(centre - line) < 10 for centre in centres), (line, centres)
    assert "fitted to the peak at channel" in report  # each window named in the fits' notes
