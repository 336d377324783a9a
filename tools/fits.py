"""Each dependent column of a table fitted against its independent variable with the
standard models (tools.shapes), the best chosen by the Bayesian information criterion.

A fit claims no more than it supports: when no model describes a column well (R² below
GOOD_R_SQUARED) it says so, and it names the models that fit about as well as the chosen
one and the parameters the data do not determine. Time is bounded (a cap on function
evaluations per fit, long series subsampled, a deadline checked before every fit) and bad
data (NaN, a constant column, two points) gives a note, never an exception.
"""

from __future__ import annotations

import math
import time
import warnings

import numpy as np
from lmfit.model import ModelResult
from pydantic import BaseModel, Field

from labscribe.tools.columns import inputs_of
from labscribe.tools.shapes import BY_NAME, SHAPES, UNIT_RULES, Shape, build
from labscribe.tools.tables import Table

# A few thousand points pin a smooth curve's parameters; more cost time, not information
# about the shape (the uncertainties grow as √(N/MAX_FIT_POINTS), which errs on the safe side).
MAX_FIT_POINTS = 2000
# Function evaluations per start: leastsq converges in tens of iterations on a good guess,
# each costing parameters + 1 evaluations; a guess that needs more is a guess gone wrong.
MAX_NFEV = 2000
MAX_FITTED_COLUMNS = 6  # per table: a report discusses a few curves, not a whole dump
MIN_POINTS = 5
# Models within this much of the lowest BIC are "about as good"; among them the one with
# the fewest parameters is chosen (Kass & Raftery: a difference below 2 is barely worth
# mentioning).
BIC_TOLERANCE = 2.0
GOOD_R_SQUARED = 0.9  # below it, no model is said to describe the column
OUT_OF_TIME = "the analysis time budget ran out before every model was tried"
# 1 − R² below this is floating-point rounding, not noise: the model is exact.
EXACT = 1e-12
RELATIVE_ROUNDING = 1e-9  # an error this small against its value is rounding, not noise


class Parameter(BaseModel):
    name: str
    value: float
    stderr: float | None
    """The standard error lmfit estimates; None when it could not."""
    unit: str = ""
    derived: bool = False
    """Computed from the others (a FWHM from sigma, a bandwidth f0/Q)."""

    @property
    def relative(self) -> float | None:
        """The relative standard error, when there is one."""
        if self.stderr is None or self.value == 0:
            return None
        return abs(self.stderr / self.value)


class Peak(BaseModel):
    position: Parameter
    width: Parameter
    width_kind: str
    """What the width measures: "FWHM", or a resonance's half-power bandwidth f0/Q."""
    dip: bool = False
    """The curve falls to it rather than rising (a negative amplitude)."""


class Candidate(BaseModel):
    model: str
    bic: float
    r_squared: float


class Fit(BaseModel):
    table: str
    x: str
    y: str
    x_unit: str = ""
    y_unit: str = ""
    model: str | None = None
    """The chosen model; None when no model could be fitted."""
    formula: str = ""
    parameters: list[Parameter] = Field(default_factory=list)
    r_squared: float | None = None
    reduced_chi_square: float | None = None
    sigma: str = ""
    """Where the σ of the reduced χ² comes from."""
    points: int = 0
    fitted_points: int = 0
    peak: Peak | None = None
    good: bool = False
    """R² of at least GOOD_R_SQUARED: the model describes the column."""
    notes: list[str] = Field(default_factory=list)
    candidates: list[Candidate] = Field(default_factory=list)

    def parameter(self, name: str) -> Parameter:
        return next(p for p in self.parameters if p.name == name)

    def key_parameters(self) -> list[Parameter]:
        """The parameters a caption names: the model's key ones, in order."""
        if self.model is None:
            return []
        names = {p.name for p in self.parameters}
        return [self.parameter(name) for name in BY_NAME[self.model].key if name in names]


def fit_table(table: Table, *, deadline: float) -> list[Fit]:
    """Fits of the table's dependent columns (at most MAX_FITTED_COLUMNS) against its x,
    each weighted by its uncertainty column when it has one. Columns reached after
    `deadline` (a time.monotonic() value) get the note OUT_OF_TIME instead of a fit."""
    summary = table.summary
    if summary.x is None:
        return []
    x_column = summary.column(summary.x)
    sigmas = {c.uncertainty_of: c.key for c in summary.columns if c.uncertainty_of}
    dependent = [
        c for c in summary.columns if c.key != summary.x and c.uncertainty_of is None and c.count
    ]
    # The measured responses first, then their ratios to an input, then the inputs: a
    # report's figures and the fit budget go to what the experiment measures.
    inputs = inputs_of(summary.columns)
    dependent.sort(key=lambda c: 2 if c.key in inputs else int(c.ratio_of is not None))
    fits = []
    frame = table.frame
    for column in dependent[:MAX_FITTED_COLUMNS]:
        sigma_key = sigmas.get(column.key)
        fit = Fit(
            table=summary.id, x=x_column.key, y=column.key, x_unit=x_column.unit,
            y_unit=column.unit,
        )  # fmt: skip
        if time.monotonic() > deadline:
            fits.append(fit.model_copy(update={"notes": [OUT_OF_TIME]}))
            continue
        sigma = frame[sigma_key].to_numpy() if sigma_key else None
        fits.append(
            fit_column(fit, frame[x_column.key].to_numpy(), frame[column.key].to_numpy(),
                       sigma, sigma_name=sigma_key, deadline=deadline)
        )  # fmt: skip
    return fits


def fit_column(
    fit: Fit,
    x: np.ndarray,
    y: np.ndarray,
    sigma: np.ndarray | None = None,
    *,
    sigma_name: str | None = None,
    deadline: float = math.inf,
) -> Fit:
    """A copy of `fit` (which names the table and columns) completed with the best model
    of y(x); the models not tried by `deadline` (a time.monotonic() value) are named."""
    fit = fit.model_copy(deep=True)
    keep = np.isfinite(x) & np.isfinite(y)
    if sigma is not None:
        keep &= np.isfinite(sigma) & (sigma > 0)
    order = np.argsort(x[keep], kind="stable")
    x, y = x[keep][order], y[keep][order]
    sigma = sigma[keep][order] if sigma is not None else None
    fit.points = len(x)
    if reason := _unfittable(x, y):
        return fit.model_copy(update={"notes": [reason]})
    if len(x) > MAX_FIT_POINTS:
        pick = np.linspace(0, len(x) - 1, MAX_FIT_POINTS).round().astype(int)
        x, y = x[pick], y[pick]
        sigma = sigma[pick] if sigma is not None else None
        fit.notes.append(f"fitted on {MAX_FIT_POINTS} evenly spaced of {fit.points} points")
    fit.fitted_points = len(x)
    results: dict[str, ModelResult] = {}
    for shape in SHAPES:
        if time.monotonic() > deadline:
            fit.notes.append(OUT_OF_TIME)
            break
        if shape.positive_x and x.min() <= 0:
            continue
        result = _best_start(shape, x, y, sigma)
        if result is not None:
            results[shape.name] = result
    if not results:
        return fit.model_copy(update={"notes": [*fit.notes, "no model could be fitted"]})
    return _describe(fit, results, x, y, sigma, sigma_name)


def evaluate(fit: Fit, x: np.ndarray) -> np.ndarray:
    """The fitted curve at `x` (NaN where the model is undefined, as a power law at x ≤ 0)."""
    if fit.model is None:
        return np.full(len(x), np.nan)
    shape = BY_NAME[fit.model]
    model = build(shape)
    params = model.make_params(**{p.name: p.value for p in fit.parameters if not p.derived})
    with np.errstate(all="ignore"):
        return np.asarray(model.eval(params, x=np.asarray(x, dtype=float)), dtype=float)


def format_value(parameter: Parameter) -> str:
    """`5033 ± 3 Hz`: the error to two significant digits, the value to the same place; a
    value without an error, or with one below rounding (an exact fit), to 6 digits."""
    value, error, unit = parameter.value, parameter.stderr, parameter.unit
    suffix = f" {unit}" if unit else ""
    if error is None or not math.isfinite(error) or error <= RELATIVE_ROUNDING * abs(value):
        return f"{value:.6g}{suffix}"
    scale = math.floor(math.log10(max(abs(value), error)))
    exponent = 3 * math.floor(scale / 3) if not -3 <= scale < 5 else 0
    value, error = value / 10**exponent, error / 10**exponent
    places = max(0, 1 - math.floor(math.log10(error)))
    shown = f"{value:.{places}f}"
    if float(shown) == 0:
        shown = shown.removeprefix("-")  # "-0.00" says nothing "0.00" does not
    body = f"{shown} ± {error:.{places}f}"
    return f"({body})e{exponent}{suffix}" if exponent else f"{body}{suffix}"


def _unfittable(x: np.ndarray, y: np.ndarray) -> str | None:
    if len(x) < MIN_POINTS:
        return f"too few points ({len(x)}) to fit a model"
    if np.ptp(x) == 0:
        return "the independent variable does not vary"
    if np.ptp(y) == 0:
        return f"constant at {y[0]:g}: nothing to fit"
    return None


def _best_start(
    shape: Shape, x: np.ndarray, y: np.ndarray, sigma: np.ndarray | None
) -> ModelResult | None:
    """The shape fitted from each of its starts, the lowest BIC kept; None if none fits."""
    weights = None if sigma is None else 1.0 / sigma
    best: ModelResult | None = None
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        model = build(shape)
        try:
            starts = shape.starts(model, x, y)
        except (ValueError, ArithmeticError, np.linalg.LinAlgError):
            return None
        for params in starts:
            free = [p for p in params.values() if p.vary and not p.expr]
            if len(x) < len(free) + 3:  # no degrees of freedom left to judge the fit
                return None
            try:
                result = model.fit(y, params, x=x, weights=weights, max_nfev=MAX_NFEV)
            except (ValueError, TypeError, ArithmeticError, np.linalg.LinAlgError):
                continue  # the model went to NaN or overflowed from this start
            if math.isfinite(result.bic) and (best is None or result.bic < best.bic):
                best = result
    return best


def _r_squared(y: np.ndarray, curve: np.ndarray) -> float:
    total = float(np.sum((y - y.mean()) ** 2))
    return 1.0 - float(np.sum((y - curve) ** 2)) / total if total > 0 else 0.0


def _scatter(y: np.ndarray) -> float:
    """σ of the noise from point-to-point differences (robust: the median absolute
    deviation of successive differences, over √2): a smooth curve sampled densely changes
    little from one point to the next, so the differences are mostly noise."""
    steps = np.diff(y)
    return float(1.4826 * np.median(np.abs(steps - np.median(steps))) / math.sqrt(2))


def _describe(
    fit: Fit,
    results: dict[str, ModelResult],
    x: np.ndarray,
    y: np.ndarray,
    sigma: np.ndarray | None,
    sigma_name: str | None,
) -> Fit:
    candidates = sorted(
        (Candidate(model=name, bic=float(r.bic), r_squared=_r_squared(y, r.best_fit))
         for name, r in results.items()),
        key=lambda c: c.bic,
    )  # fmt: skip
    lowest = candidates[0].bic
    close = [c for c in candidates if c.bic - lowest < BIC_TOLERANCE]
    # data a model reproduces to rounding (a computed column) leave the BIC to noise
    exact = [c for c in candidates if c.r_squared > 1 - EXACT]
    chosen = min(exact or close, key=lambda c: (results[c.model].nvarys, c.bic))
    result = results[chosen.model]
    shape = BY_NAME[chosen.model]
    rule = {name: UNIT_RULES[kind](fit.y_unit, fit.x_unit) for name, kind in shape.units.items()}
    parameters = [
        _parameter(shape, name, p.value, p.stderr, rule.get(name, ""), p.expr is not None)
        for name, p in result.params.items()
    ]
    residual = y - result.best_fit
    noise = sigma if sigma is not None else _scatter(y)
    dof = len(y) - result.nvarys
    chi2 = float(np.sum((residual / noise) ** 2)) / dof if np.all(noise > 0) else None
    notes = list(fit.notes)
    good = chosen.r_squared >= GOOD_R_SQUARED
    if not good:
        notes.append(
            f"no model describes {fit.y} well: the best, {chosen.model}, leaves R² = "
            f"{chosen.r_squared:.2f}, so its parameters say little"
        )
    rivals = [c.model for c in close if c.model != chosen.model]
    if good and rivals:
        notes.append(f"{', '.join(rivals)} fit{'s' if len(rivals) == 1 else ''} about as well")
    loose = [p.name for p in parameters if not p.derived and _undetermined(p)]
    if good and loose:
        notes.append(f"not determined by the data: {', '.join(loose)}")
    described = "the uncertainty column " + sigma_name if sigma_name else (
        "the point-to-point scatter of the data (no uncertainty column)"
    )  # fmt: skip
    return fit.model_copy(
        update={
            "model": chosen.model,
            "formula": shape.formula,
            "parameters": parameters,
            "r_squared": chosen.r_squared,
            "reduced_chi_square": chi2,
            "sigma": described,
            "peak": _peak(shape, parameters, x),
            "good": good,
            "notes": notes,
            "candidates": candidates,
        }
    )


def _parameter(
    shape: Shape, name: str, value: float, stderr: float | None, unit: str, derived: bool
) -> Parameter:
    if shape.name == "damped oscillation" and name == "phase":
        value = (value + math.pi) % (2 * math.pi) - math.pi  # one phase, not one per turn
    error = float(stderr) if stderr is not None and math.isfinite(stderr) else None
    return Parameter(name=name, value=float(value), stderr=error, unit=unit, derived=derived)


def _undetermined(parameter: Parameter) -> bool:
    return parameter.stderr is None or parameter.stderr > abs(parameter.value)


def _peak(shape: Shape, parameters: list[Parameter], x: np.ndarray) -> Peak | None:
    """The peak a peak model found, if it lies within the data: a peak model that only
    bends through the points (its centre outside them) shows no peak."""
    if shape.peak is None:
        return None
    position, width, kind = shape.peak
    named = {p.name: p for p in parameters}
    if not x[0] <= named[position].value <= x[-1]:
        return None
    dip = named["amplitude"].value < 0
    return Peak(position=named[position], width=named[width], width_kind=kind, dip=dip)
