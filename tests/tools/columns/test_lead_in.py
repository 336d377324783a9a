"""A recording's flat lead-in before the step (tools.columns.lead_in): found where a scope's
pre-trigger samples sit at the level before a charging curve or a decay, never on a curve
that starts at its change, and fitted around only where the fit of every point fails."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from labscribe.tools.columns.lead_in import step_start
from labscribe.tools.fits.column_fits import fit_column
from labscribe.tools.fits.fit_result import Fit

REAL = Path(__file__).resolve().parents[2] / "data" / "real" / "verdicts"


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


def cassy(name: str) -> tuple[np.ndarray, np.ndarray]:
    """A real CASSY swing (tests/data/real/cassy), its rows with a reading missing left out."""
    rows = pd.read_csv(REAL.parent / "cassy" / name, sep="\t", header=None).dropna()
    return rows[0].to_numpy(float), rows[1].to_numpy(float)


def test_step_start_finds_a_pendulum_held_before_its_release() -> None:
    # 17 sparse samples in 1.03 s at -0.14 rad, 3 % of the record: too few for a scope's
    # share of pre-trigger samples, but held for longer than the swing then takes (0.6 s) to
    # cross half its range
    t, angle = cassy("pohl_torsion_egenfrekvens.txt")
    assert step_start(t, angle) == 17 and t[17] == 1.03
    # a swing recorded from its release starts at its crest for a moment only
    t, angle = cassy("pohl_torsion_7_v.txt")
    assert step_start(t, angle) is None
    t = np.linspace(0, 20, 1000)
    assert step_start(t, 0.15 * np.exp(-t / 30) * np.cos(2 * np.pi * 0.5 * t)) is None


def test_a_held_swing_is_fitted_from_its_release_when_that_fit_follows_it() -> None:
    """The fit of every point follows neither the held second nor the swing (R² = 0.92);
    from the release on the damped oscillation follows it at R² = 0.999 and its frequency
    is the one the student's report gives, 3.15192 rad/s."""
    t, angle = cassy("pohl_torsion_egenfrekvens.txt")
    plain = Fit(table="egenfrekvens.txt", x="t", y="vinkel", x_unit="s", y_unit="rad")
    fit = fit_column(plain, t, angle)
    assert fit.model == "damped oscillation" and fit.follows and not fit.good
    assert fit.fitted_points == len(t) - 17
    assert abs(2 * np.pi * fit.parameter("frequency").value - 3.15192) < 0.001
    assert fit.notes[0].startswith("fitted from the step on: the first 17 points (x from 0 to")


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
