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
    assert "probe_1 (resistivity.txt) & 5 & 196.243" in report  # its mean, 196.24308


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


def test_no_model_sweep_clock_is_not_fitted_and_a_defining_formula_names_no_predictors(
    tmp_path: Path,
) -> None:
    """A real Keithley 2636B sweep (cheminfo/iv-spectrum) with its time_s column, and the
    wording of real handouts: 'Calculate the power using the relation, P = V x I' (a Physics II
    lab manual) and Vernier's fill factor, the smaller rectangle over the larger."""
    folder = tmp_path / "iv"
    folder.mkdir()
    (folder / "sweep.csv").write_bytes(
        (REAL / "smu" / "keithley_2636B_IV_first30.csv").read_bytes()
    )
    (folder / "handout.md").write_text(
        "# I-V characteristic\n\n## Analysis\n"
        "1. Plot Id against Vd.\n"
        "2. Calculate the power using the relation, P = V x I.\n"
        "3. Calculate the fill factor FF = (I_MP·V_MP)/(I_SC·V_OC).\n"
    )
    report = _flat(no_model_report(folder, tmp_path))
    assert "time against Vd" not in report and "time [s] against" not in report
    assert "time (sweep.csv) keeps the record's time or count of cycles beside Vd" in report
    assert "as predictors" not in report


def test_no_model_cycle_count_beside_the_time_is_not_fitted(tmp_path: Path) -> None:
    folder = tmp_path / "pendulum"
    folder.mkdir()
    cycles = np.arange(0, 105, 5)
    t = np.round(1.742 * cycles, 1)
    amplitude = np.round(18.0 * np.exp(-0.0084 * t), 1)
    rows = [f"{n}, {a:.1f}, {b:.1f}" for n, a, b in zip(cycles, t, amplitude, strict=True)]
    (folder / "decay.csv").write_text("cycle number, t [s], amplitude [deg]\n" + "\n".join(rows))
    (folder / "lab.md").write_text(
        "# Damped pendulum\n\n## Analysis\n"
        "1. Plot the amplitude A against the time t and fit an exponential decay.\n"
    )
    report = _flat(no_model_report(folder, tmp_path))
    assert "cycle number against" not in report
    assert "cycle number (decay.csv) keeps the record's time or count of cycles beside t" in report
    assert "amplitude [deg] against t [s]" in report
    assert "decay = 119.2" in report  # 1/0.0084 s⁻¹ = 119.05 s, the rounding of the file's t


def test_no_model_a_column_of_words_gives_each_group_its_own_named_fits(tmp_path: Path) -> None:
    """R's datasets::Puromycin (treated / untreated cells) as R writes it
    (tests/data/real/groups), with the words of its help page; the two states are never
    pooled into one fit of 23 rows."""
    folder = tmp_path / "puromycin"
    folder.mkdir()
    (folder / "Puromycin.csv").write_bytes((REAL / "groups" / "Puromycin.csv").read_bytes())
    (folder / "assignment.md").write_text(
        "# Enzyme kinetics\n\nThe data give the reaction velocity versus substrate "
        "concentration in an enzymatic reaction involving untreated cells or cells treated "
        "with Puromycin.\n\n## Tasks\n1. Fit a model of rate against conc for each state.\n"
    )
    report = _flat(no_model_report(folder, tmp_path))
    assert "Puromycin.csv\\#1, state: treated" in report
    assert "Puromycin.csv\\#2, state: untreated" in report
    assert "23 rows" not in report
    assert "12 rows" in report and "11 rows" in report


def test_no_model_names_the_heating_and_cooling_columns_as_one_quantity(tmp_path: Path) -> None:
    """A dial gauge read while heating and while cooling (Anzeige_auf / Anzeige_ab, in scale
    divisions), as German practical sheets lay a Längenausdehnung table out."""
    folder = tmp_path / "expansion"
    folder.mkdir()
    temperature = np.arange(20.0, 100, 10)
    up = np.round(1.12 * (temperature - 20))
    down = np.round(1.14 * (temperature - 20) + 2)
    rows = [f"{t:.1f}\t{a:.0f}\t{b:.0f}" for t, a, b in zip(temperature, up, down, strict=True)]
    header = "Temperatur\tAnzeige_auf\tAnzeige_ab\n°C\tSkt\tSkt\n"
    (folder / "messung.txt").write_text(header + "\n".join(rows) + "\n")
    (folder / "anleitung.md").write_text(
        "# Versuch W3: Längenausdehnung\n\n## Aufgaben\n"
        "a) Tragen Sie die Anzeige gegen die Temperatur auf.\n"
    )
    report = _flat(no_model_report(folder, tmp_path))
    assert "Anzeige_auf and Anzeige_ab are one quantity measured in two directions" in report
