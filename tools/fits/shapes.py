"""The standard models a lab column is fitted with, each an lmfit model with its initial
guesses, the units of its parameters, and what it says about a peak.

lmfit's built-in models are used where they exist; the damped oscillation and the driven
resonance (the series RLC amplitude, and its phase) are lmfit Models of plain functions.
The guesses each fit starts from are made in tools.fits.shape_starts; a doublet's are made
here, beside the doublet's model, from its single line's.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache

import numpy as np
from lmfit import Model, Parameters
from lmfit.lineshapes import gaussian, lorentzian
from lmfit.models import (
    ConstantModel,
    ExponentialModel,
    GaussianModel,
    LinearModel,
    LorentzianModel,
    PolynomialModel,
    PowerLawModel,
)
from scipy.signal import find_peaks, peak_widths

from labscribe.tools.columns.units import inverse, product
from labscribe.tools.fits.shape_starts import (
    Starts,
    approach_starts,
    bounded,
    exponential_starts,
    growth_starts,
    guessed,
    oscillation_starts,
    peak_starts,
    phase_starts,
    power_law_starts,
    proportional_starts,
    resonance_starts,
    sine_starts,
)

# How each parameter's unit follows from the columns' units (y over x to a power); a
# power law's amplitude follows its fitted exponent (tools.fits.column_fits).
POWER_OF_FIT = "y/x^exponent"
UNIT_RULES: dict[str, Callable[[str, str], str]] = {
    "y": lambda y, x: y,
    "x": lambda y, x: x,
    "y/x": lambda y, x: product(y, x),
    "y/x^2": lambda y, x: product(y, x, 2),
    "y/x^3": lambda y, x: product(y, x, 3),
    "y·x": lambda y, x: product(y, x, -1),
    "1/x": lambda y, x: inverse(x),
    "rad": lambda y, x: "rad",
    "": lambda y, x: "",
}


def damped_oscillation(
    x: np.ndarray,
    amplitude: float,
    decay: float,
    frequency: float,
    phase: float,
    c: float,
    t0: float = 0.0,
) -> np.ndarray:
    """amplitude·exp(−(x − t0)/decay)·cos(2π·frequency·(x − t0) + phase) + c"""
    elapsed = x - t0
    return (
        amplitude * np.exp(-elapsed / decay) * np.cos(2 * np.pi * frequency * elapsed + phase) + c
    )


def sine(x: np.ndarray, amplitude: float, frequency: float, phase: float, c: float) -> np.ndarray:
    """amplitude·sin(2π·frequency·x + phase) + c"""
    return amplitude * np.sin(2 * np.pi * frequency * x + phase) + c


def resonance(x: np.ndarray, amplitude: float, f0: float, Q: float, c: float) -> np.ndarray:
    """amplitude/√(1 + Q²(x/f0 − f0/x)²) + c: the current (or V_R) of a driven series RLC."""
    return amplitude / np.sqrt(1 + (Q * (x / f0 - f0 / x)) ** 2) + c


def resonance_phase(x: np.ndarray, amplitude: float, f0: float, Q: float, c: float) -> np.ndarray:
    """amplitude·atan(Q(x/f0 − f0/x)) + c: the phase of a driven series RLC (amplitude −1
    rad, or −57.3 deg, for the current against the drive)."""
    return amplitude * np.arctan(Q * (x / f0 - f0 / x)) + c


@dataclass(frozen=True)
class Shape:
    """One model a column may follow."""

    name: str
    formula: str
    build: Callable[[], Model]
    starts: Starts
    """Initial parameter sets for data (x sorted); none when the model cannot apply."""
    units: dict[str, str]
    """Each parameter's unit rule (a key of UNIT_RULES)."""
    key: tuple[str, ...]
    """The parameters a caption or a digest names first."""
    peak: tuple[str, str, str] | None = None
    """(position parameter, width parameter, what the width is) for a peak model."""
    positive_x: bool = False
    frequency_x: bool = False
    """A response to a frequency (a resonance): a standard model only where x is one, or has
    no unit read; a resonance at f0 = 8.7 V of a solar cell's I(U) says nothing."""
    hints: dict[str, dict[str, float | str]] = field(default_factory=dict)
    reduces_to: tuple[tuple[str, float, str], ...] = ()
    """(parameter, value, simpler model): at that value this model is the simpler one (a
    power law of exponent 1 is a proportionality), so within the parameter's error of it
    the simpler model is as good."""
    angles: tuple[str, ...] = ()
    """Parameters that are phases, reported within (−π, π]."""
    offset: str | None = None
    """The parameter that adds a constant: zero within its error, the model without it is as
    good and simpler (a saturation curve through the origin)."""
    preferred_over: tuple[str, str] | None = None
    """(twin, parameter): a model that draws the same curves as `twin`, named for those
    where `parameter` is positive (an approach rises to its level; a decay falls to it)."""
    positive: tuple[str, ...] = ()
    """Parameters positive by what they are (a decay time, a width, a frequency): fitted
    within min = 0, so a fit never gives a negative one as an answer."""
    feature: str | None = None
    """For a model of a feature (a peak, a resonance, an oscillation) rather than a trend:
    the parameter that places it in x (its centre, f0) or counts it (a frequency). Such a
    model bends to fit almost anything, so it is reported only where the feature is clearly
    in the data (tools.fits.model_choice)."""

    @property
    def fit_starts(self) -> Starts:
        """The starts with the `positive` parameters bounded (what every fit runs from)."""
        return bounded(self.starts, self.positive)


def exponential_approach(x: np.ndarray, a: float, tau: float, c: float) -> np.ndarray:
    """c + a·(1 − exp(−x/tau)): a charging capacitor, a warming body, a saturating signal."""
    return c + a * (1 - np.exp(-x / tau))


def exponential_growth(x: np.ndarray, amplitude: float, growth: float, c: float) -> np.ndarray:
    """amplitude·exp(x/growth) + c: a diode's current, a population, a runaway."""
    return amplitude * np.exp(x / growth) + c


def proportional(x: np.ndarray, slope: float) -> np.ndarray:
    """slope·x: a line through the origin."""
    return slope * x


def _sloped_model(peak: type[Model], line: Callable[..., np.ndarray]) -> Model:
    """`peak`'s line c + slope·(x − center): a background that tilts across the line, taken
    about its centre so that c is the background under the peak; `peak`'s derived
    parameters (fwhm, height) kept."""

    def on_a_slope(
        x: np.ndarray, amplitude: float, center: float, sigma: float, c: float, slope: float
    ) -> np.ndarray:
        return line(x, amplitude, center, sigma) + c + slope * (x - center)

    model = Model(on_a_slope)
    for name, hint in peak().param_hints.items():
        model.set_param_hint(name, **hint)
    return model


_PEAK_UNITS = {"amplitude": "y·x", "center": "x", "sigma": "x", "c": "y", "fwhm": "x",
               "height": "y"}  # fmt: skip

SHAPES: tuple[Shape, ...] = (
    Shape("proportional", "slope·x", lambda: Model(proportional), proportional_starts,
          {"slope": "y/x"}, key=("slope",)),
    Shape("linear", "slope·x + intercept", LinearModel, guessed,
          {"slope": "y/x", "intercept": "y"}, key=("slope", "intercept"),
          reduces_to=(("intercept", 0.0, "proportional"),)),
    Shape("quadratic", "c0 + c1·x + c2·x²", lambda: PolynomialModel(2),
          guessed, {"c0": "y", "c1": "y/x", "c2": "y/x^2"}, key=("c2", "c1", "c0"),
          reduces_to=(("c2", 0.0, "linear"),)),
    Shape("cubic", "c0 + c1·x + c2·x² + c3·x³", lambda: PolynomialModel(3),
          guessed, {"c0": "y", "c1": "y/x", "c2": "y/x^2", "c3": "y/x^3"},
          key=("c3", "c2", "c1", "c0"), reduces_to=(("c3", 0.0, "quadratic"),)),
    Shape("exponential", "amplitude·exp(−x/decay) + c",
          lambda: ExponentialModel() + ConstantModel(), exponential_starts,
          {"amplitude": "y", "decay": "x", "c": "y"}, key=("decay", "amplitude"), offset="c",
          positive=("decay",)),
    Shape("exponential approach", "c + a·(1 − exp(−x/tau))", lambda: Model(exponential_approach),
          approach_starts, {"a": "y", "tau": "x", "c": "y"}, key=("tau", "a", "c"),
          offset="c", preferred_over=("exponential", "a"), positive=("tau",)),
    Shape("exponential growth", "amplitude·exp(x/growth) + c", lambda: Model(exponential_growth),
          growth_starts, {"amplitude": "y", "growth": "x", "c": "y"},
          key=("growth", "amplitude"), offset="c", positive=("growth",)),
    Shape("power law", "amplitude·x^exponent", PowerLawModel, power_law_starts,
          {"amplitude": "y/x^exponent", "exponent": ""}, key=("exponent", "amplitude"),
          positive_x=True,
          reduces_to=(("exponent", 1.0, "proportional"),)),
    Shape("gaussian", "Gaussian peak of area amplitude at center, width sigma, + c",
          lambda: GaussianModel() + ConstantModel(), peak_starts(GaussianModel),
          _PEAK_UNITS, key=("center", "fwhm"), peak=("center", "fwhm", "FWHM"), offset="c",
          positive=("sigma",), feature="center"),
    Shape("lorentzian", "Lorentzian peak of area amplitude at center, half-width sigma, + c",
          lambda: LorentzianModel() + ConstantModel(), peak_starts(LorentzianModel),
          _PEAK_UNITS, key=("center", "fwhm"), peak=("center", "fwhm", "FWHM"), offset="c",
          positive=("sigma",), feature="center"),
    Shape("sine", "amplitude·sin(2π·frequency·x + phase) + c", lambda: Model(sine),
          sine_starts, {"amplitude": "y", "frequency": "1/x", "phase": "rad", "c": "y"},
          key=("frequency", "amplitude"), angles=("phase",), offset="c",
          positive=("frequency",), feature="frequency"),
    Shape("damped oscillation",
          "amplitude·exp(−(x − t0)/decay)·cos(2π·frequency·(x − t0) + phase) + c, t0 the first x",
          lambda: Model(damped_oscillation), oscillation_starts,
          {"amplitude": "y", "decay": "x", "frequency": "1/x", "phase": "rad", "c": "y",
           "t0": "x"},
          key=("frequency", "decay"), angles=("phase",), offset="c",
          positive=("decay", "frequency"), feature="frequency"),
    Shape("resonance", "amplitude/√(1 + Q²(x/f0 − f0/x)²) + c", lambda: Model(resonance),
          resonance_starts, {"amplitude": "y", "f0": "x", "Q": "", "c": "y", "bandwidth": "x"},
          key=("f0", "Q"), peak=("f0", "bandwidth", "half-power bandwidth f0/Q"),
          positive_x=True, frequency_x=True, hints={"bandwidth": {"expr": "f0/Q"}}, offset="c",
          positive=("f0", "Q"), feature="f0"),
    Shape("resonance phase", "amplitude·atan(Q(x/f0 − f0/x)) + c",
          lambda: Model(resonance_phase), phase_starts,
          {"amplitude": "y", "f0": "x", "Q": "", "c": "y"}, key=("f0", "Q"), positive_x=True,
          frequency_x=True, offset="c", positive=("f0", "Q"), feature="f0"),
)  # fmt: skip
# Each peak on a sloped background, by the name of the peak on a level one: tried only when
# that leaves structure (tools.fits.model_choice.sloped), as each costs a fit.
_PEAK_MODELS: dict[str, tuple[type[Model], Callable[..., np.ndarray]]] = {
    "gaussian": (GaussianModel, gaussian),
    "lorentzian": (LorentzianModel, lorentzian),
}
SLOPED: dict[str, Shape] = {
    shape.name: Shape(
        f"{shape.name} on a slope", f"{shape.formula} + slope·(x − center)",
        lambda peak=_PEAK_MODELS[shape.name]: _sloped_model(*peak),
        peak_starts(_PEAK_MODELS[shape.name][0], sloped=True), {**_PEAK_UNITS, "slope": "y/x"},
        key=("center", "fwhm", "slope"), peak=shape.peak, offset="c",
        reduces_to=(("slope", 0.0, shape.name),), positive=("sigma",), feature="center",
    )
    for shape in SHAPES if shape.name in _PEAK_MODELS
}  # fmt: skip


@cache
def _fwhm_hint(name: str, sigma: str) -> str:
    """lmfit's own expression of its `name` line's FWHM (`2.3548200*sigma`), in `sigma`."""
    return _PEAK_MODELS[name][0]().param_hints["fwhm"]["expr"].replace("sigma", sigma)


@cache
def _fwhm_per_sigma(name: str) -> float:
    """lmfit's FWHM of its `name` line of unit sigma."""
    return float(_PEAK_MODELS[name][0]().make_params(amplitude=1, center=0, sigma=1)["fwhm"].value)


def _doublet_model(name: str) -> Model:
    """Two `name` lines on a level c, the second `separation` (≥ 0) after the first: a
    doublet, its separation a fitted parameter with its own error."""
    line = _PEAK_MODELS[name][1]

    def doublet(
        x: np.ndarray,
        amplitude1: float,
        center1: float,
        sigma1: float,
        amplitude2: float,
        separation: float,
        sigma2: float,
        c: float,
    ) -> np.ndarray:
        return (line(x, amplitude1, center1, sigma1)
                + line(x, amplitude2, center1 + separation, sigma2) + c)  # fmt: skip

    model = Model(doublet)
    model.set_param_hint("separation", min=0)
    model.set_param_hint("center2", expr="center1 + separation")
    for n in ("1", "2"):
        model.set_param_hint(f"fwhm{n}", expr=_fwhm_hint(name, f"sigma{n}"))
    return model


def _doublet_starts(name: str) -> Starts:
    """Two lines from the two most prominent peaks above the single line's level, and from
    the single line split in two (a doublet whose lines merge into one peak)."""
    single_type, line = _PEAK_MODELS[name]
    single_starts = peak_starts(single_type)

    def starts(model: Model, x: np.ndarray, y: np.ndarray) -> list[Parameters]:
        single = single_starts(single_type() + ConstantModel(), x, y)[0]
        area, center, sigma, level = (
            single[p].value for p in ("amplitude", "center", "sigma", "c")
        )
        sign = 1.0 if area >= 0 else -1.0
        half = {"amplitude1": area / 2, "amplitude2": area / 2, "sigma1": sigma / 2,
                "sigma2": sigma / 2}  # fmt: skip
        found = [model.make_params(**half, center1=center - sigma / 2, separation=sigma, c=level)]
        rest = sign * (y - level)
        tops, facts = find_peaks(rest, prominence=0.1 * float(np.ptp(rest)))
        if len(tops) >= 2:
            first, second = sorted(tops[np.argsort(facts["prominences"])[-2:]])
            step = float(np.ptp(x)) / max(len(x) - 1, 1)
            widths = peak_widths(rest, [first, second], rel_height=0.5)[0] * step
            s1, s2 = (max(w, step) / _fwhm_per_sigma(name) for w in widths)
            # a line's area is its height over its height per unit area at that width
            areas = [sign * rest[i] / float(line(np.zeros(1), 1.0, 0.0, s)[0])
                     for i, s in ((first, s1), (second, s2))]  # fmt: skip
            found.append(model.make_params(amplitude1=areas[0], center1=x[first], sigma1=s1,
                                           amplitude2=areas[1], separation=x[second] - x[first],
                                           sigma2=s2, c=level))  # fmt: skip
        return found

    return starts


_DOUBLET_UNITS = {"amplitude1": "y·x", "center1": "x", "sigma1": "x", "amplitude2": "y·x",
                  "separation": "x", "sigma2": "x", "c": "y", "center2": "x", "fwhm1": "x",
                  "fwhm2": "x"}  # fmt: skip
# Asked for by name only ("two Gaussian peaks"): never among the models tried on every
# column, where a second line would always buy a better fit.
DOUBLETS: dict[str, Shape] = {
    f"two {name}s": Shape(
        f"two {name}s",
        f"two {name.capitalize()} lines of areas amplitude1, amplitude2 at center1 and "
        "center2 = center1 + separation, widths sigma1, sigma2, + c",
        lambda name=name: _doublet_model(name), _doublet_starts(name), _DOUBLET_UNITS,
        key=("center1", "center2", "separation", "fwhm1", "fwhm2"), offset="c",
        positive=("sigma1", "sigma2"),
    )
    for name in _PEAK_MODELS
}  # fmt: skip
BY_NAME = {shape.name: shape for shape in (*SHAPES, *SLOPED.values(), *DOUBLETS.values())}


def build(shape: Shape) -> Model:
    """The shape's lmfit model, with its derived parameters (a resonance's bandwidth)."""
    model = shape.build()
    for name, hint in shape.hints.items():
        model.set_param_hint(name, **hint)
    return model
