"""`labscribe run --no-model`: a checklist row offers a fit as the task's answer only when it is
the fit the task asks for (tools.assignment.task_fit). A nonlinear exponential is not "a straight
line of ln A against t"; a line through the origin is not "eine Ausgleichsgerade mit
Achsenabschnitt"; neither is given a verdict on the assignment's model."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from test_no_model import no_model_report
from test_no_model_assignment import checklist

REAL = Path(__file__).parents[1] / "data" / "real"

ASKED = "(the model this task asks for"


def test_a_straight_line_of_ln_a_is_not_done_by_a_nonlinear_exponential(tmp_path: Path) -> None:
    folder = tmp_path / "damping"
    folder.mkdir()
    (folder / "handout.md").write_text(
        "# Damped pendulum\n\n## Tasks\n1. Plot ln A against t and fit a straight line to find "
        "the damping constant γ of the model A(t) = A0·e^(−γt).\n2. Compare γ with the value "
        "the notes give.\n"
    )
    rng = np.random.default_rng(7)
    t = np.arange(0.0, 200.0, 10.0)
    amplitude = 18.0 * np.exp(-0.0084 * t) + rng.normal(0, 0.05, t.size)
    pd.DataFrame({"t [s]": t, "amplitude A [deg]": amplitude.round(2)}).to_csv(
        folder / "decay.csv", index=False
    )
    rows = checklist(no_model_report(folder, tmp_path))
    first = rows.split("\n1 & ", 1)[1].split("\\\\", 1)[0]
    assert "not done: the task asks for a straight-line fit of ln A against t" in first
    assert ASKED not in first


def test_a_line_with_intercept_is_not_the_line_through_the_origin(tmp_path: Path) -> None:
    folder = tmp_path / "ohm"
    folder.mkdir()
    (folder / "Anleitung.md").write_text(
        "# Ohmsches Gesetz\n\n## Aufgaben\n1. Tragen Sie die Stromstärke I über der Spannung U "
        "auf und bestimmen Sie R aus der Steigung einer Ursprungsgeraden I = U/R.\n"
        "2. Bestimmen Sie zusätzlich eine Ausgleichsgerade mit Achsenabschnitt und geben Sie R "
        "samt Standardabweichung an.\n"
    )
    rng = np.random.default_rng(3)
    u = np.arange(1.0, 11.0)
    i = u / 0.2162 + 0.3 + rng.normal(0, 0.04, u.size)
    pd.DataFrame({"U [V]": u, "I [mA]": i.round(3)}).to_csv(folder / "messung.csv", index=False)
    rows = checklist(no_model_report(folder, tmp_path))
    second = rows.split("\n2 & ", 1)[1].split("\\\\", 1)[0]
    assert "checking and stating the values given" not in second
    # R is 1/slope of the line with intercept it asks for, never the origin line's
    given = second.split("&")[1]
    slope, _ = np.polyfit(u, i.round(3), 1)
    origin = float(np.sum(u * i.round(3)) / np.sum(u * u))
    assert f"R = {1 / slope:.5f}" in given and f"R = {1 / origin:.5f}" not in given, given
    assert "intercept = " in second  # the line with intercept it asks for


def test_the_largest_reading_is_not_every_maximum(tmp_path: Path) -> None:
    # a Franck-Hertz-like curve: cos² maxima every 2.45 V on a rising current
    folder = tmp_path / "franck_hertz"
    folder.mkdir()
    (folder / "instructions.txt").write_text(
        "Franck-Hertz experiment with mercury\n\nTasks\n(a) Locate every maximum of the "
        "collector current and list the voltage of each maximum.\n(b) Compare the spacing "
        "with 4.9 V.\n"
    )
    u = np.arange(4.0, 30.0, 0.1)
    current = (2.0 * u + 30.0 * np.cos(2 * np.pi * (u - 6.0) / 4.9) ** 2).round(2)
    pd.DataFrame({"U2 [V]": u.round(1), "IA [nA]": current}).to_csv(folder / "fh.csv", index=False)
    rows = checklist(no_model_report(folder, tmp_path))
    first = rows.split("\na & ", 1)[1].split("\\\\", 1)[0]
    # every maximum is listed (tools.fits.all_maxima), never the largest reading alone
    assert "The largest IA" not in first
    assert "are at U2 = 6, 8.5, 10.9, 13.4, 15.8, 18.3, 20.7, 23.2, 25.6, 28.1 V" in first


def test_use_the_model_is_not_a_straight_line_fitted_for_the_estimate(tmp_path: Path) -> None:
    # R's cars data (Ezekiel 1930; tests/data/real/estimates/cars.csv): the classic model of
    # stopping distance is a·v + b·v², not a straight line
    folder = tmp_path / "stopping"
    folder.mkdir()
    (folder / "handout.md").write_text(
        "# Stopping distances\n\n## Tasks\n1. Fit the model dist = a·speed + b·speed² to the "
        "stopping distances by least squares and give a and b.\n2. Use the model to predict "
        "the stopping distance at 21 mph.\n"
    )
    data = pd.read_csv(REAL / "estimates" / "cars.csv")
    data.rename(columns={"speed": "speed [mph]", "dist": "dist [ft]"}).drop(
        columns="rownames"
    ).to_csv(folder / "cars.csv", index=False)
    rows = checklist(no_model_report(folder, tmp_path))
    second = rows.split("\n2 & ", 1)[1].split("\\\\", 1)[0]
    assert "the straight line fitted to" not in second
    assert "not done" in second
