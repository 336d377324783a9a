"""`labscribe run --no-model`: a checklist row and a note on the fits claim only what holds.
A fitted limit listed in a row is not called missing beside its value; a value worked out
from the nominal data is not offered as a fitted one; a quantity a task defines by its
formula is not "stated" by the parameter it starts from; the standard models' verdict names
them and is no verdict on the law the assignment names. The data are real files
(tests/data/real/SOURCES.md) where one fits; the handouts are in our own words, after the
wording of real handouts and textbooks named beside each."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from test_no_model import no_model_report

REAL = Path(__file__).parents[1] / "data" / "real"


def _rows(report: str) -> dict[str, str]:
    """The checklist's rows by their number, LaTeX escapes undone."""
    part = report.split("\\section{The assignment's tasks}", 1)[1].split("\\section{", 1)[0]
    part = re.sub(r"\\allowbreak\{\}", "", part).replace("\\_", "_")
    part = re.sub(r"\\ensuremath\{\\zeta\}", "ζ", part)
    return {m[1]: m[0] for m in re.finditer(r"^(\w+) & .*\\\\$", part, re.MULTILINE)}


def _folder(tmp_path: Path, handout: str, files: dict[str, str | Path]) -> Path:
    folder = tmp_path / "lab"
    folder.mkdir()
    (folder / "assignment.md").write_text(handout)
    for name, content in files.items():
        if isinstance(content, Path):
            shutil.copy(content, folder / name)
        else:
            (folder / name).write_text(content)
    return folder


def test_a_fitted_limit_in_the_row_is_not_called_missing(tmp_path: Path) -> None:
    """R's BOD data (Marske 1967) with "the ultimate carbonaceous oxygen demand", as
    environmental-engineering texts (Metcalf & Eddy) call L: the row lists the fitted L and
    neither calls it missing nor offers the largest reading (19.8) for it."""
    handout = (
        "# Biochemical oxygen demand of a river sample\n\n## Tasks\n\n"
        "1. Fit the model demand = L·(1 − exp(−k·Time)) to the data by nonlinear least "
        "squares and report the ultimate carbonaceous oxygen demand L and the rate constant k "
        "with their standard errors.\n"
    )
    folder = _folder(tmp_path, handout, {"BOD.csv": REAL / "honesty" / "BOD.csv"})
    row = _rows(no_model_report(folder, tmp_path))["1"]
    assert "L = 19.1 ± 2.5" in row
    assert "not done" not in row and "largest demand" not in row
    assert row.endswith("& checking and stating the values given \\\\")


def test_values_worked_out_from_nominal_data_or_a_formula_are_not_offered_as_given(
    example: Path, tmp_path: Path
) -> None:
    """The shipped RLC folder (its params.ini holds the nominal R, L and C). A task that works
    Q out "from the nominal component values" is not offered the fitted Q; one that defines
    the damping ratio ζ = 1/(2Q), as RLC handouts and textbooks write it, gets ζ worked out
    by that formula, and Δω = 2π·Δf is not "stated" by the bandwidth in Hz."""
    (example / "assignment.pdf").unlink()
    (example / "assignment.md").write_text(
        "# Series RLC resonance\n\n## Tasks\n\n"
        "1. Fit the resonance curve of V_R against frequency and report f0 and Q.\n"
        "2. Calculate the quality factor from the nominal component values in params.ini. "
        "Does your fitted f0 agree with it?\n"
        "3. Calculate the damping ratio of the circuit, ζ = 1/(2Q).\n"
        "4. Calculate the width in angular frequency, Δω = 2π·Δf.\n"
    )
    rows = _rows(no_model_report(example, tmp_path))
    assert "Q = " not in rows["2"].split(" & ")[2]
    assert "not done: the value from the nominal data is not in this report" in rows["2"]
    # ζ is worked out by the task's own formula from the fitted Q, so it is stated
    assert "(from ζ = 1/(2Q), as the task writes it, with the fit of V_R against" in rows["3"]
    # Δω is no bandwidth in Hz, and the formula names no fitted parameter
    assert "bandwidth = " not in rows["4"] and "checking and stating" not in rows["4"]


def test_the_standard_models_verdict_is_no_verdict_on_the_law(tmp_path: Path) -> None:
    """A real Malus scan (a Glan–Thompson polariser, tests/data/real/verdicts) with "Vérifier
    la loi de Malus", as the repository's own TP heads it: no fit of the law is shown, so the
    note names the standard models it is about, and the caption points at that note."""
    handout = (
        "# TP Optique : polarisation\n\n## Travail demandé\n\n"
        "1. Tracer le courant en fonction de l'angle de l'analyseur.\n"
        "2. Vérifier la loi de Malus I = I0·cos²(θ).\n"
    )
    files = {"malus.csv": REAL / "verdicts" / "malus_glan_thompson.csv"}
    report = no_model_report(_folder(tmp_path, handout, files), tmp_path)
    assert "no model tried describes" not in report
    # a sine of period 178° follows the cos² scan (R² = 0.9995), beyond its noise: shown as
    # the closest standard model, with its caveat, never as a verdict on the law
    assert "of the standard models tried, the sine in the fits" in report
    assert "describe these data" not in report.split("\\section{The assignment's tasks}")[1]
    assert "(see the notes on the fits)" in report


def test_a_regression_the_task_asks_for_is_not_denied_in_its_row(tmp_path: Path) -> None:
    """The published multiple-regression exercise (spu.edu, test_no_model_regression) with a
    model through the origin in two regressors, as Hall handouts write U = a·I + c·I·B: the
    row lists the regression and never says the report has only a line of one column."""
    from test_no_model_regression import EXERCISE

    handout = (
        "# Multiple regression\n\n## Tasks\n\n"
        "1. Fit the model Y1 = b1·X1 + b2·X2 (two regressors, no constant) to the data and "
        "give b1 and b2 with their standard errors.\n"
    )
    row = _rows(no_model_report(_folder(tmp_path, handout, {"data.csv": EXERCISE}), tmp_path))
    assert "multiple linear regression of Y1 on X1 and X2" in row["1"]
    assert "this report has only" not in row["1"] and "not done" not in row["1"]
