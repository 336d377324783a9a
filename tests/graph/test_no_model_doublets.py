"""`labscribe run --no-model` on a doublet a handout asks to fit with two lines: the sodium D
lines on a line camera in first and second order (real files, tests/data/real/spectra), each
fitted with the two Gaussians the task names, their separation a parameter with its error and
compared with the lines' width, never a single line called the task's model."""

from __future__ import annotations

import re
from pathlib import Path

from test_no_model_checklist import REAL, checklist, report_for

SPECTRA = REAL / "spectra"
FIRST = (SPECTRA / "leiden_en5_Na-D_m1_px560-759.csv", "Na-D_m1.csv")
SECOND = (SPECTRA / "leiden_en5_Na-D_m2_px560-759.csv", "Na-D_m2.csv")

HANDOUT = """\
# EN5: traliespectroscopie van het natrium-D-doublet

## Doel
Bepaal hoe goed het doublet in de verschillende ordes gescheiden wordt.

## Cameradata
`Na-D_m1.csv` en `Na-D_m2.csv`: pixelnummer en signaal (willekeurige eenheden) in orde 1 en 2.

## Opdrachten
1. Bepaal in beide camerabestanden de posities van de twee doubletpieken (bijv. met een fit van
   twee Gaussische pieken) en hun afstand in pixels; beoordeel of het doublet opgelost is
   (afstand vergeleken met de piekbreedte, FWHM).
2. Vergelijk de verhouding van de piekafstanden in orde 2 en orde 1 met de verwachting.
"""


def _separations(row: str) -> list[float]:
    return [float(v) for v in re.findall(r"separation = ([\d.]+) ±", row)]


def test_a_doublet_is_fitted_with_the_two_lines_the_task_names(tmp_path: Path) -> None:
    report = report_for(tmp_path, ("opdracht_en5.md", HANDOUT), FIRST, SECOND)
    row = re.search(r"^1 & .*$", checklist(report), re.MULTILINE)
    assert row is not None
    first, second = _separations(row.group(0))
    # the course's own two-Gaussian fits: 14.3 px in first order, 37.1 px in second
    assert abs(first - 14.26) < 0.1 and abs(second - 37.13) < 0.1, row.group(0)
    assert "center1 = 639.5" in row.group(0) and "center2 = 653.8" in row.group(0)
    # the first-order lines are described (the second order's leave a shape 3 % of the range,
    # which the verdict names: real lines are not quite Gaussian)
    table_rows = [line for line in report.splitlines() if "& two gaussians" in line]
    first_order = next(line for line in table_rows if "m1.csv" in line)
    assert "(the model task 1 asks for)" in first_order, first_order


def test_the_separation_is_judged_against_the_lines_width(tmp_path: Path) -> None:
    report = report_for(tmp_path, ("opdracht_en5.md", HANDOUT), FIRST)
    ratio = re.search(r"the two lines are ([\d.]+) times their mean FWHM apart", report)
    assert ratio is not None and 1.5 < float(ratio.group(1)) < 2.2, ratio
    assert "resolved by the usual criterion" in report
    assert "not resolved by the usual criterion" not in report
