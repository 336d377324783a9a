"""`labscribe run --no-model` on a PASCO Capstone export of three cooling runs side by side:
a first header row names each run over its columns (`Run #1` five times), the second the
quantities (`Time (s)`, `Temperature (°C)`, `ΔT (deg C)`). Each run is its own table,
fitted alone; the handout's ln ΔT is formed from the ΔT column (a difference of
temperatures, not converted to kelvin), and a task that asks for τ "for each run" gets
the three. The file is real (tests/data/real/SOURCES.md); the truth was worked out with
numpy's polyfit on ln ΔT against t of each run: τ = 1042, 1451 and 1251 s."""

from __future__ import annotations

import re
from pathlib import Path

from test_no_model_checklist import REAL, checklist, report_for

HANDOUT = """\
# TP 4 — Refroidissement d'un liquide

## Objectif
Vérifier la loi de Newton pour le refroidissement de l'eau et mesurer sa constante de
temps τ lors de trois essais.

## Théorie
ΔT = T − T_amb décroît comme ΔT(t) = ΔT0 · exp(−t/τ), soit ln ΔT = ln ΔT0 − t/τ.

## Travail demandé
1. Pour chaque essai, tracer ln ΔT en fonction de t et ajuster une droite ; en déduire
   k = 1/τ et τ avec leurs incertitudes.
2. Les trois valeurs de τ sont-elles compatibles ?
"""


def test_runs_side_by_side_under_a_two_row_header_are_fitted_each_alone(
    tmp_path: Path,
) -> None:
    data = REAL / "pasco" / "capstone_cooling_3runs.csv"
    report = report_for(tmp_path, ("TP4_refroidissement.md", HANDOUT), (data, data.name))
    # no run's column is fitted against another run's clock
    assert not re.search(r"Run \\#2 \w+ \[[^]]*\] against Run \\#1", report)
    assert "names no column" not in report  # ΔT is read as the handout's ΔT
    first = next(line for line in checklist(report).splitlines() if line.startswith("1 &"))
    taus = [float(t) for t in re.findall(r"tau\} = (\d+\.\d+) ±", first)]
    assert [round(t) for t in taus] == [1042, 1451, 1251], first
    assert "e-6 1/s" in first and "Hz" not in first  # a decay's rate, not a frequency
    assert "likewise" in first  # the law is told once, not for every run
    # a difference of temperatures is the same in kelvin: no 273.15 added to ΔT
    slopes = re.findall(r"ln \\ensuremath\{\\Delta\}T against Time.*?slope = \((-\d+\.\d+)", report)
    assert slopes and all(-1000 < float(s) < -600 for s in slopes), slopes


def test_trials_one_column_each_beside_the_mass_are_one_table(tmp_path: Path) -> None:
    """Three timings of 20 swings beside each mass, one column a trial (Politechnika
    Gdańska's spring M7, tests/data/real/springs, under a header in our words): the file
    is one table, not three runs of one column each that no table holds, and the period is
    their mean over 20."""
    real = (REAL / "springs" / "pg_m7_pierwsza_dynamiczna.csv").read_text()
    (tmp_path / "springs.csv").write_text(
        "mass (g),Trial 1 (s),Trial 2 (s),Trial 3 (s)\n" + real.replace(" ", ",") + "\n"
    )
    handout = (
        "# Spring constant, dynamic method\n\n"
        "For each mass, measure the time for 20 oscillations three times.\n"
    )
    report = report_for(
        tmp_path, ("handout.md", handout), (tmp_path / "springs.csv", "springs.csv")
    )
    assert "not analysed" not in report
    assert "T [s] as the mean of Trial 1, Trial 2, Trial 3 (the time of 20 swings" in report
    assert "\\textbf{Trial 3 [s]}" in report and "201.095 & 17.4 & 17.41 & 17.28" in report
