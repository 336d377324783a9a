"""`labscribe run --no-model` on tables whose columns are not all variables: a repeat's number,
a row's number written `n°`, a block of rows labelled by a whole number. The values are real:
NIST StRD's SiRstv (certified one-way ANOVA, as scipy ships it) and Cavendish's 29 densities
of the Earth (tests/data/real/repeats/Cavendish.csv, SOURCES.md)."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import numpy as np
import scipy
from test_no_model import no_model_report

REAL = Path(__file__).parents[1] / "data" / "real"
SIRSTV = Path(scipy.__file__).parent / "stats" / "tests" / "data" / "nist_anova" / "SiRstv.dat"


def _flat(report: str) -> str:
    return re.sub(r"\\_\\allowbreak\{\}|\\_", "_", report)


def _sirstv() -> np.ndarray:
    """SiRstv's 25 resistivities, one row per instrument (5 × 5)."""
    rows = [line.split() for line in SIRSTV.read_text().splitlines()[60:]]
    return np.array([float(r[1]) for r in rows if len(r) == 2]).reshape(5, 5)


def test_no_model_grid_of_repeats_is_summarised_per_probe_not_fitted_against_rep(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "probes"
    folder.mkdir()
    values = _sirstv()
    lines = ["# unit: ohm.cm", "rep\t" + "\t".join(f"probe_{i}" for i in range(1, 6))]
    lines += [f"{r + 1}\t" + "\t".join(f"{v:.4f}" for v in values[:, r]) for r in range(5)]
    (folder / "resistivity.txt").write_text("\n".join(lines) + "\n")
    (folder / "sheet.md").write_text(
        "# Four-point probe repeatability\n\n## Tasks\n"
        "1. For each probe give the mean and standard deviation of its repeats.\n"
        "2. Carry out a one-way analysis of variance with the probe as the factor.\n"
    )
    report = _flat(no_model_report(folder, tmp_path))
    assert "against rep" not in report
    assert "rep was taken as the variable" not in report
    assert "F = 1.18" in report  # NIST's certified F = 1.18046237440255
    assert "probe_1 196.243" in report  # the first instrument's mean, 196.24308


def test_no_model_numbered_determinations_in_two_wire_blocks_are_two_series(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "cavendish"
    folder.mkdir()
    with (REAL / "repeats" / "Cavendish.csv").open() as handle:
        density = [row["density"] for row in csv.DictReader(handle)]
    # Cavendish changed the torsion wire after his sixth experiment (1798, p. 485)
    rows = [f"{i}\t{1 if i <= 6 else 2}\t{d.replace('.', ',')}" for i, d in
            enumerate(density, 1)]  # fmt: skip
    (folder / "cavendish.tsv").write_text("n°\tfil\tdensité\n" + "\n".join(rows) + "\n")
    (folder / "enonce.md").write_text(
        "# TP : densité de la Terre\n\n## Travail demandé\n"
        "1. Calculer la moyenne et l'écart-type des 29 déterminations.\n"
        "2. Refaire le calcul avec les mesures du second fil seulement (colonne « fil »).\n"
    )
    report = _flat(no_model_report(folder, tmp_path))
    assert "against n°" not in report and "against fil" not in report
    assert "n° was taken as the variable" not in report
    assert "densité, fil 2" in report
    assert "5.483 ± 0.040" in report  # the 23 determinations with the second wire
    assert "5.448 ± 0.041" in report  # all 29: Cavendish's 5.448, s/√29 = 0.041
