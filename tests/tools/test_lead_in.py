"""A recording's flat lead-in before the step (tools.lead_in): found where a scope's
pre-trigger samples sit at the level before a charging curve or a decay, never on a curve
that starts at its change, and fitted around only where the fit of every point fails."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from labscribe.tools.fit_result import Fit
from labscribe.tools.fits import fit_column
from labscribe.tools.lead_in import step_start

REAL = Path(__file__).resolve().parents[1] / "data" / "real" / "verdicts"


def scope_charging(pre: int = 20, seed: int = 7) -> tuple[np.ndarray, np.ndarray]:
    """A charging curve (5 V, τ = 1 ms) as a scope records it: `pre` samples before the
    trigger at t = 0, 50 µs apart, in the 40 mV steps of an 8-bit scale."""
    rng = np.random.default_rng(seed)
    t = np.arange(-pre, 121) * 5e-5
    u = np.where(t <= 0, 0.0, 5.0 * (1 - np.exp(-np.clip(t, 0, None) / 1e-3)))
    return t, np.round((u + 0.02 * rng.standard_normal(len(t))) / 0.04) * 0.04


def test_step_start_finds_a_scopes_pre_trigger_samples() -> None:
    t, u = scope_charging()
    assert step_start(t, u) == 20 and t[20] == 0.0
    # a discharge whose lead-in sits at the charged level
    t2 = np.arange(-15, 100) * 1e-3
    rng = np.random.default_rng(2)
    u2 = np.where(t2 <= 0, 9.0, 9.0 * np.exp(-np.clip(t2, 0, None) / 0.02))
    assert step_start(t2, u2 + 0.01 * rng.standard_normal(len(t2))) == 15


def test_step_start_leaves_curves_that_start_at_their_change_alone() -> None:
    t, u = scope_charging(pre=0)
    assert step_start(t, u) is None
    x = np.linspace(0, 10, 50)
    assert step_start(x, 2 * x + 1) is None
    # a diode's exponential foot is flat against its rise, but steepens: no step
    u = np.linspace(0.0, 0.8, 41)
    assert step_start(u, 4e-6 * (np.exp(u / (1.86 * 0.02585)) - 1)) is None
    real = pd.read_csv(REAL / "discharge_47k_2200uF.csv")  # a real RC discharge from t = 0
    assert step_start(real.iloc[:, 0].to_numpy(float), real.iloc[:, 1].to_numpy(float)) is None


def test_fit_column_fits_a_charging_curve_from_the_trigger_on() -> None:
    """With its pre-trigger samples no standard model describes the record; from the step
    on the exponential approach does, with τ = 1 ms, and the note says what was left out."""
    t, u = scope_charging()
    fit = fit_column(Fit(table="scope.csv", x="t", y="U", x_unit="s", y_unit="V"), t, u)
    assert fit.good and fit.model == "exponential approach"
    tau = fit.parameter("tau")
    assert tau.stderr is not None and abs(tau.value - 1e-3) < 3 * tau.stderr
    assert fit.points == len(t) and fit.fitted_points == len(t) - 20
    assert fit.notes[0].startswith("fitted from the step on: the first 20 points")
    assert "flat at 0 V before the step at x = 0 s" in fit.notes[0]
