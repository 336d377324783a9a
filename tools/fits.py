"""Each dependent column of a table fitted against its independent variable: first with the
model the assignment asks for, then with the standard models (tools.shapes), the best
chosen by the Bayesian information criterion, the simpler among equals.

A fit claims no more than it supports: it states every parameter with its standard error
and unit, names the parameters the data do not determine and the models that fit about as
well, and says so when no model describes the data, by R² or by residuals that keep a
shape (tools.residuals). Time is bounded (a cap on function evaluations per fit, long series
subsampled, a deadline checked before every fit) and bad data (NaN, a constant column, two
points) gives a note, never an exception.
"""

from __future__ import annotations

import math
import time
import warnings
from collections.abc import Callable
from fractions import Fraction

import numpy as np
from lmfit import Model, Parameters
from lmfit.model import ModelResult

from labscribe.tools.columns import Column, inputs_of
from labscribe.tools.fit_result import (
    GOOD_R_SQUARED,
    Candidate,
    Fit,
    Parameter,
    Peak,
    format_value,
    unit_of,
)
from labscribe.tools.formulas import (
    Formula,
    FormulaError,
    canonical,
    dimensions,
    parse_formula,
    positions,
)
from labscribe.tools.requested import Request, requests_for
from labscribe.tools.residuals import structure
from labscribe.tools.shapes import BY_NAME, POWER_OF_FIT, SHAPES, UNIT_RULES, Shape, build
from labscribe.tools.starts import formula_model, formula_starts
from labscribe.tools.tables import Table, TableSummary

# A few thousand points pin a smooth curve's parameters; more cost time, not information
# about the shape (the uncertainties grow as √(N/MAX_FIT_POINTS), which errs on the safe side).
MAX_FIT_POINTS = 2000
# Function evaluations per start: leastsq converges in tens of iterations on a good guess,
# each costing parameters + 1 evaluations; a guess that needs more is a guess gone wrong.
MAX_NFEV = 2000
# A formula an assignment writes may be hard (NIST's "higher difficulty" sets): its best
# start gets more room; the others, ranked lower by the start search, rarely win, and get
# the standard models' room.
FORMULA_NFEV = 20_000
MAX_FITTED_COLUMNS = 6  # per table: a report discusses a few curves, not a whole dump
MIN_POINTS = 5
# Models within this much of the lowest BIC are "about as good"; among them the one with
# the fewest parameters is chosen (Kass & Raftery: a difference below 2 is barely worth
# mentioning).
BIC_TOLERANCE = 2.0
# A parameter within this many standard errors of the value that turns its model into a
# simpler one (a power law's exponent of 1, a quadratic's c2 of 0) makes the simpler one
# as good.
NESTED_SIGMAS = 2.0
OUT_OF_TIME = "the analysis time budget ran out before every model was tried"
# 1 − R² below this is floating-point rounding, not noise: the model is exact.
EXACT = 1e-12


def fit_table(
    table: Table,
    *,
    deadline: float,
    requests: list[Request] = (),  # type: ignore[assignment]
    tables: list[TableSummary] = (),  # type: ignore[assignment]
) -> list[Fit]:
    """Fits of the table's dependent columns (at most MAX_FITTED_COLUMNS) against its x,
    each weighted by its uncertainty column when it has one: for each column, the models
    of `requests` that concern it (tools.requested; `tables` are all the folder's tables,
    which a request may name instead), then the best standard model unless it is one of
    those. Columns reached after `deadline` (a time.monotonic() value) get the note
    OUT_OF_TIME instead of a fit."""
    summary = table.summary
    if summary.x is None:
        return []
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
        sigma = frame[sigma_key].to_numpy() if sigma_key else None
        asked = requests_for(list(requests), summary, column, list(tables) or [summary])
        for request in asked:
            x_column = _requested_x(request, summary)
            fit = Fit(table=summary.id, x=x_column.key, y=column.key, x_unit=x_column.unit,
                      y_unit=column.unit, requested=request.task)  # fmt: skip
            if time.monotonic() > deadline:
                fits.append(fit.model_copy(update={"notes": [OUT_OF_TIME]}))
                continue
            fits.append(
                fit_request(fit, request, frame[x_column.key].to_numpy(),
                            frame[column.key].to_numpy(), sigma, sigma_name=sigma_key,
                            x_names=tuple(c.name for c in summary.columns))
            )  # fmt: skip
        x_column = summary.column(summary.x)
        fit = Fit(table=summary.id, x=x_column.key, y=column.key, x_unit=x_column.unit,
                  y_unit=column.unit)  # fmt: skip
        if time.monotonic() > deadline:
            fits.append(fit.model_copy(update={"notes": [OUT_OF_TIME]}))
            continue
        best = fit_column(fit, frame[x_column.key].to_numpy(), frame[column.key].to_numpy(),
                          sigma, sigma_name=sigma_key, deadline=deadline)  # fmt: skip
        done = {f.model for f in fits if f.y == column.key and f.x == best.x and f.requested}
        if best.model is None or best.model not in done:
            fits.append(best)
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
    """A copy of `fit` (which names the table and columns) completed with the best standard
    model of y(x); the models not tried by `deadline` (a time.monotonic() value) are named."""
    prepared = _prepare(fit, x, y, sigma)
    if isinstance(prepared, Fit):
        return prepared
    fit, x, y, sigma = prepared
    results: dict[str, ModelResult] = {}
    for shape in SHAPES:
        if time.monotonic() > deadline:
            fit.notes.append(OUT_OF_TIME)
            break
        if shape.positive_x and x.min() <= 0:
            continue
        result = _best_start(build(shape), shape.starts, x, y, sigma)
        if result is not None:
            results[shape.name] = result
    if not results:
        return fit.model_copy(update={"notes": [*fit.notes, "no model could be fitted"]})
    candidates = sorted(
        (Candidate(model=name, bic=float(r.bic), r_squared=_r_squared(y, r.best_fit))
         for name, r in results.items()),
        key=lambda c: c.bic,
    )  # fmt: skip
    chosen, rivals = _choose(candidates, results)
    shape = BY_NAME[chosen]
    result, left_out = _without_offset(shape, results[chosen], x, y, sigma)
    described = _of_shape(fit, shape, result, x, y, sigma, sigma_name, left_out)
    described.notes += _rival_note(rivals) if described.good else []
    return described.model_copy(update={"candidates": candidates})


def fit_request(
    fit: Fit,
    request: Request,
    x: np.ndarray,
    y: np.ndarray,
    sigma: np.ndarray | None = None,
    *,
    sigma_name: str | None = None,
    x_names: tuple[str, ...] = (),
) -> Fit:
    """A copy of `fit` completed with the model `request` asks for: its formula as written
    (parameters named as the assignment names them), else the standard model it names."""
    prepared = _prepare(fit, x, y, sigma)
    if isinstance(prepared, Fit):
        return prepared
    fit, x, y, sigma = prepared
    if request.formula is not None:
        try:
            formula = parse_formula(request.formula, x_names)
        except FormulaError as exc:
            if request.shape is None:
                return fit.model_copy(update={"notes": [*fit.notes, f"not fitted: {exc}"]})
        else:
            return fit_formula(fit, formula, x, y, sigma, sigma_name=sigma_name)
    shape = BY_NAME[request.shape or ""]
    if shape.positive_x and x.min() <= 0:
        note = f"the {shape.name} model needs x > 0, and {fit.x} reaches {x.min():g}"
        return fit.model_copy(update={"notes": [*fit.notes, note]})
    result = _best_start(build(shape), shape.starts, x, y, sigma)
    if result is None:
        return fit.model_copy(update={"notes": [*fit.notes, f"the {shape.name} fit failed"]})
    result, left_out = _without_offset(shape, result, x, y, sigma)
    return _of_shape(fit, shape, result, x, y, sigma, sigma_name, left_out)


def fit_formula(
    fit: Fit,
    formula: Formula,
    x: np.ndarray,
    y: np.ndarray,
    sigma: np.ndarray | None = None,
    *,
    sigma_name: str | None = None,
) -> Fit:
    """`fit` completed with `formula` fitted as written, from the automatic starts
    (tools.starts); x and y are already finite and sorted."""
    model = formula_model(formula)

    def starts(model: Model, x: np.ndarray, y: np.ndarray) -> list[Parameters]:
        return formula_starts(formula, model, x, y)  # type: ignore[arg-type]

    result = _best_start(model, starts, x, y, sigma, max_nfev=FORMULA_NFEV, held=positions(formula))
    if result is None:
        note = f"{formula.text} could not be fitted from any start value"
        return fit.model_copy(update={"notes": [*fit.notes, note]})
    values = {name: _plain_value(p.value, p.stderr) for name, p in result.params.items()}
    units = {
        name: unit_of(dimension, fit.y_unit, fit.x_unit)
        for name, dimension in dimensions(formula, values).items()
    }
    described = _described(fit, result, x, y, sigma, sigma_name, units)
    renamed = canonical(formula, values)
    in_order = sorted(
        (_renamed(p, renamed[p.name]) for p in described.parameters),
        key=lambda p: formula.parameters.index(p.name),
    )
    covariance = _renamed_covariance(described.covariance, renamed)
    return described.model_copy(
        update={"model": formula.text, "formula": formula.text, "parameters": in_order,
                "covariance": covariance,
                "expression": formula.expression, "variable": formula.x}
    )  # fmt: skip


def _renamed(parameter: Parameter, target: str) -> Parameter:
    """`parameter` under the name `target` (tools.formulas.canonical), its sign flipped when
    `target` starts with "-"."""
    flip = target.startswith("-")
    value = -parameter.value if flip else parameter.value
    return parameter.model_copy(update={"name": target.lstrip("-"), "value": value})


def _renamed_covariance(
    covariance: dict[str, dict[str, float]] | None, renamed: dict[str, str]
) -> dict[str, dict[str, float]] | None:
    """The covariance under the parameters' canonical names, signs flipped with theirs."""
    if covariance is None:
        return None
    sign = {name: -1.0 if target.startswith("-") else 1.0 for name, target in renamed.items()}
    name = {old: target.lstrip("-") for old, target in renamed.items()}
    return {
        name[a]: {name[b]: sign[a] * sign[b] * value for b, value in row.items()}
        for a, row in covariance.items()
    }


def _plain_value(value: float, stderr: float | None) -> float:
    """The simplest fraction (denominator up to 12) within NESTED_SIGMAS standard errors of
    `value`, else `value`: an exponent of 0.4988 ± 0.003 is ½, for its parameters' units."""
    if stderr is None or not math.isfinite(stderr):
        return float(value)
    for denominator in range(1, 13):
        simple = Fraction(value).limit_denominator(denominator)
        if abs(float(simple) - value) <= NESTED_SIGMAS * stderr:
            return float(simple)
    return float(value)


def evaluate(fit: Fit, x: np.ndarray) -> np.ndarray:
    """The fitted curve at `x` (NaN where the model is undefined, as a power law at x ≤ 0)."""
    if fit.model is None:
        return np.full(len(x), np.nan)
    values = {p.name: p.value for p in fit.parameters if not p.derived}
    x = np.asarray(x, dtype=float)
    with np.errstate(all="ignore"):
        if fit.expression:
            model = formula_model(_formula_of(fit))
            curve = model.eval(model.make_params(**values), **{fit.variable: x})
        else:
            model = build(BY_NAME[fit.model])
            params = model.make_params(**values)
            for name, param in params.items():  # an offset left out is zero
                if name not in values and param.expr is None:
                    param.set(value=0.0)
            curve = model.eval(params, x=x)
    curve = np.asarray(curve, dtype=float)
    return np.full(len(x), float(curve)) if curve.shape == () else curve


def _of_shape(
    fit: Fit,
    shape: Shape,
    result: ModelResult,
    x: np.ndarray,
    y: np.ndarray,
    sigma: np.ndarray | None,
    sigma_name: str | None,
    left_out: tuple[str, float, float] | None = None,
) -> Fit:
    """`fit` described with the standard model `shape`'s result (and the offset it left out,
    as it was fitted before: name, value, standard error)."""
    units = {
        name: UNIT_RULES[kind](fit.y_unit, fit.x_unit) for name, kind in shape.units.items()
        if kind != POWER_OF_FIT
    }  # fmt: skip
    if POWER_OF_FIT in shape.units.values():  # amplitude·x^exponent: y per x to the exponent
        exponent = result.params["exponent"]
        power = Fraction(_plain_value(exponent.value, exponent.stderr)).limit_denominator(1000)
        units["amplitude"] = unit_of((Fraction(1), -power), fit.y_unit, fit.x_unit)
    described = _described(fit, result, x, y, sigma, sigma_name, units)
    parameters = [_one_turn(p) if p.name in shape.angles else p for p in described.parameters]
    dropped = []
    notes = list(described.notes)
    if left_out is not None:
        name, value, error = left_out
        dropped = [_parameter(name, value, error, units.get(name, ""), False)]
        notes.append(
            f"{name} = {format_value(dropped[0])} is 0 within its standard error, so the "
            "model is fitted without it"
        )
    return described.model_copy(
        update={"model": shape.name, "formula": shape.formula, "parameters": parameters,
                "peak": _peak(shape, parameters, x), "left_out": dropped, "notes": notes}
    )  # fmt: skip


def _formula_of(fit: Fit) -> Formula:
    parameters = tuple(p.name for p in fit.parameters if not p.derived)
    return Formula(text=fit.formula, y=None, x=fit.variable, expression=fit.expression,
                   parameters=parameters, linear=frozenset())  # fmt: skip


def _requested_x(request: Request, summary: TableSummary) -> Column:
    """The column a request's formula names as its variable, else the table's x."""
    if request.formula is not None:
        try:
            formula = parse_formula(request.formula, tuple(c.name for c in summary.columns))
        except FormulaError:
            pass
        else:
            for column in summary.columns:
                if column.name.lower() == formula.x.lower() and column.uncertainty_of is None:
                    return column
    return summary.column(summary.x or "")


def _prepare(
    fit: Fit, x: np.ndarray, y: np.ndarray, sigma: np.ndarray | None
) -> Fit | tuple[Fit, np.ndarray, np.ndarray, np.ndarray | None]:
    """The finite points sorted by x, subsampled to MAX_FIT_POINTS, with `fit` counting
    them; or `fit` with the note why nothing can be fitted."""
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
    return fit, x, y, sigma


def _unfittable(x: np.ndarray, y: np.ndarray) -> str | None:
    if len(x) < MIN_POINTS:
        return f"too few points ({len(x)}) to fit a model"
    if np.ptp(x) == 0:
        return "the independent variable does not vary"
    if np.ptp(y) == 0:
        return f"constant at {y[0]:g}: nothing to fit"
    return None


Starts = Callable[[Model, np.ndarray, np.ndarray], list[Parameters]]


def _best_start(
    model: Model,
    starts: Starts,
    x: np.ndarray,
    y: np.ndarray,
    sigma: np.ndarray | None,
    *,
    max_nfev: int = MAX_NFEV,
    held: frozenset[str] = frozenset(),
) -> ModelResult | None:
    """The model fitted from each of its starts, the lowest χ² kept; None if none fits. The
    first start may take `max_nfev` evaluations, the others MAX_NFEV. Parameters `held`
    (positions) stay where the start put them while the rest settle, then go free: two
    overlapping peaks fitted all at once slide into one."""
    weights = None if sigma is None else 1.0 / sigma
    best: ModelResult | None = None
    variable = model.independent_vars[0]
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            tried = starts(model, x, y)
        except (ValueError, ArithmeticError, np.linalg.LinAlgError):
            return None
        for rank, params in enumerate(tried):
            free = [p for p in params.values() if p.vary and not p.expr]
            if len(x) < len(free) + 3:  # no degrees of freedom left to judge the fit
                return None
            budget = max_nfev if rank == 0 else min(max_nfev, MAX_NFEV)
            try:
                if held & set(params):
                    settled = params.copy()
                    for name in held & set(params):
                        settled[name].set(vary=False)
                    first = model.fit(y, settled, weights=weights, max_nfev=budget, **{variable: x})
                    params = first.params.copy()
                    for name in held & set(params):
                        params[name].set(vary=True)
                result = model.fit(y, params, weights=weights, max_nfev=budget, **{variable: x})
            except (ValueError, TypeError, ArithmeticError, NameError, np.linalg.LinAlgError):
                continue  # the model went to NaN or overflowed from this start
            if math.isfinite(result.chisqr) and (best is None or result.chisqr < best.chisqr):
                best = result
    return best


def _choose(candidates: list[Candidate], results: dict[str, ModelResult]) -> tuple[str, list[str]]:
    """The model to report, and those that fit about as well: the lowest BIC, or among
    models within BIC_TOLERANCE of it (or reproducing the data to rounding) the one with
    the fewest parameters; then, while a parameter of the chosen model sits within
    NESTED_SIGMAS of the value that makes it a simpler model, that simpler model."""
    lowest = candidates[0].bic
    close = [c for c in candidates if c.bic - lowest < BIC_TOLERANCE]
    # data a model reproduces to rounding (a computed column) leave the BIC to noise
    exact = [c for c in candidates if c.r_squared > 1 - EXACT]
    chosen = min(exact or close, key=lambda c: (results[c.model].nvarys, c.bic)).model
    chosen = _named_twin(chosen, {c.model for c in close}, results)
    seen = {chosen}
    while True:
        simpler = _simpler(BY_NAME[chosen], results[chosen], results)
        if simpler is None or simpler in seen:
            break
        seen.add(simpler)
        chosen = simpler
    return chosen, [c.model for c in close if c.model != chosen]


def _without_offset(
    shape: Shape, result: ModelResult, x: np.ndarray, y: np.ndarray, sigma: np.ndarray | None
) -> tuple[ModelResult, tuple[str, float, float] | None]:
    """`result` fitted again with the shape's offset fixed at 0 when the offset lies within
    NESTED_SIGMAS standard errors of it (the model without it is as good and simpler), and
    the offset as it was fitted: (name, value, standard error)."""
    offset = result.params.get(shape.offset or "")
    if offset is None or offset.stderr is None or not math.isfinite(offset.stderr):
        return result, None
    if abs(offset.value) > NESTED_SIGMAS * offset.stderr:
        return result, None
    params = result.params.copy()
    params[offset.name].set(value=0.0, vary=False)
    weights = None if sigma is None else 1.0 / sigma
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            simpler = result.model.fit(y, params, x=x, weights=weights, max_nfev=MAX_NFEV)
        except (ValueError, TypeError, ArithmeticError, np.linalg.LinAlgError):
            return result, None
    if not math.isfinite(simpler.chisqr):
        return result, None
    return simpler, (offset.name, float(offset.value), float(offset.stderr))


def _named_twin(chosen: str, close: set[str], results: dict[str, ModelResult]) -> str:
    """Of two models that draw the same curves, the one named for this curve's direction."""
    for shape in SHAPES:
        if shape.preferred_over is None:
            continue
        twin, parameter = shape.preferred_over
        if chosen in (shape.name, twin) and {shape.name, twin} <= close:
            return shape.name if results[shape.name].params[parameter].value > 0 else twin
    return chosen


def _simpler(shape: Shape, result: ModelResult, results: dict[str, ModelResult]) -> str | None:
    for name, value, simpler in shape.reduces_to:
        parameter = result.params.get(name)
        if parameter is None or simpler not in results or parameter.stderr is None:
            continue
        if abs(parameter.value - value) <= NESTED_SIGMAS * parameter.stderr:
            return simpler
    return None


def _rival_note(rivals: list[str]) -> list[str]:
    if not rivals:
        return []
    return [f"{', '.join(rivals)} fit{'s' if len(rivals) == 1 else ''} about as well"]


def _r_squared(y: np.ndarray, curve: np.ndarray) -> float:
    total = float(np.sum((y - y.mean()) ** 2))
    return 1.0 - float(np.sum((y - curve) ** 2)) / total if total > 0 else 0.0


def _scatter(y: np.ndarray) -> float:
    """σ of the noise from point-to-point differences (robust: the median absolute
    deviation of successive differences, over √2): a smooth curve sampled densely changes
    little from one point to the next, so the differences are mostly noise."""
    steps = np.diff(y)
    return float(1.4826 * np.median(np.abs(steps - np.median(steps))) / math.sqrt(2))


def _described(
    fit: Fit,
    result: ModelResult,
    x: np.ndarray,
    y: np.ndarray,
    sigma: np.ndarray | None,
    sigma_name: str | None,
    units: dict[str, str],
) -> Fit:
    """`fit` with what `result` found: every parameter with its unit, R², the reduced χ²,
    the residuals' verdict, and notes on what the data do not support."""
    parameters = [
        _parameter(name, p.value, p.stderr, units.get(name, ""), p.expr is not None)
        for name, p in result.params.items()
        if p.vary or p.expr is not None  # an offset fixed at 0 is no fitted parameter
    ]
    curve = np.asarray(result.best_fit, dtype=float)
    residual = y - curve
    r_squared = _r_squared(y, curve)
    noise = sigma if sigma is not None else _scatter(y)
    dof = len(y) - result.nvarys
    chi2 = float(np.sum((residual / noise) ** 2)) / dof if np.all(noise > 0) and dof else None
    shape = structure(residual) if r_squared <= 1 - EXACT else None
    notes = list(fit.notes)
    good = r_squared >= GOOD_R_SQUARED and shape is None
    name = "the assignment's model" if fit.requested else "no model tried"
    if r_squared < GOOD_R_SQUARED:
        notes.append(
            f"{name} describes {fit.y} poorly: R² = {r_squared:.2f}, so its parameters say little"
            if fit.requested else
            f"no model describes {fit.y} well: the best leaves R² = {r_squared:.2f}, so its "
            "parameters say little"
        )  # fmt: skip
    elif shape is not None:
        verb = "does not describe these data" if fit.requested else "describes these data"
        notes.append(f"{name} {verb}: {shape}")
    loose = [p.name for p in parameters if not p.derived and not p.determined]
    if good and loose:
        notes.append(f"not determined by the data: {', '.join(loose)}")
    described = "the uncertainty column " + sigma_name if sigma_name else (
        "the point-to-point scatter of the data (no uncertainty column)"
    )  # fmt: skip
    free = [name for name, p in result.params.items() if p.vary and p.expr is None]
    covariance = None
    if result.covar is not None and np.shape(result.covar) == (len(free), len(free)):
        matrix = np.asarray(result.covar, dtype=float)
        covariance = {a: {b: float(matrix[i, j]) for j, b in enumerate(free)}
                      for i, a in enumerate(free)}  # fmt: skip
    return fit.model_copy(
        update={"parameters": parameters, "r_squared": r_squared, "reduced_chi_square": chi2,
                "sigma": described, "structure": shape or "", "good": good, "notes": notes,
                "covariance": covariance}
    )  # fmt: skip


def _parameter(
    name: str, value: float, stderr: float | None, unit: str, derived: bool
) -> Parameter:
    error = float(stderr) if stderr is not None and math.isfinite(stderr) else None
    return Parameter(name=name, value=float(value), stderr=error, unit=unit, derived=derived)


def _one_turn(parameter: Parameter) -> Parameter:
    """A phase within (−π, π]: one phase, not one per turn."""
    value = (parameter.value + math.pi) % (2 * math.pi) - math.pi
    return parameter.model_copy(update={"value": value})


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
