"""Malus's law as a Slovenian handout writes it, I = I₀cos²(θ − θ₀) + I_oz, fitted against a
polarizer's angle read in degrees (`kot[stopinja]`): the task asks for the fit in its own
words ("prilagodi"), cos² is the cosine squared, θ₀ is a subscripted θ, and the angle enters
the cosine in radians, so θ₀ comes out in degrees. The data are made here from the law with
the offset, the background and the noise the real file shows."""

from __future__ import annotations

import numpy as np
import pytest

from labscribe.tools.assignment.requested import requested_model
from labscribe.tools.columns.units import known_unit
from labscribe.tools.fits.fit_result import Fit
from labscribe.tools.fits.requested_fits import fit_formula
from labscribe.tools.formulas.formula_notation import plain_arithmetic
from labscribe.tools.formulas.formula_parse import parse_formula

TASK = ("Nariši I(θ) za en polarizator in prilagodi Malusov zakon I = I₀cos²(θ − θ₀) + I_oz. "
        "Določi I₀, zamik θ₀ in ozadje I_oz.")  # fmt: skip


def test_the_task_asks_for_the_law_as_written() -> None:
    request = requested_model(TASK)
    assert request is not None and request.formula == "I = I₀cos²(θ − θ₀) + I_oz"
    assert plain_arithmetic("cos²(θ − θ₀)").split() == ["cos(", "theta", "-", "theta_0", ")^2"]
    assert known_unit("stopinja") == "deg"


def test_an_angle_in_degrees_gives_its_offset_in_degrees() -> None:
    angle = np.arange(-90.0, 95.0, 5.0)
    rng = np.random.default_rng(3)
    current = (
        3.02e-4 * np.cos(np.radians(angle + 2.4)) ** 2 + 4e-6 + rng.normal(0, 1e-6, angle.size)
    )
    fit = Fit(table="1polarizator.txt", x="kot", y="I", x_unit="deg", y_unit="A", requested=TASK)
    done = fit_formula(fit, parse_formula(requested_model(TASK).formula), angle, current)
    assert done.parameter("theta_0").value == pytest.approx(-2.4, abs=0.3)
    assert done.parameter("I_0").value == pytest.approx(3.02e-4, rel=0.02)
    assert done.good
