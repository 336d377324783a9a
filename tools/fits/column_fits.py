"""Each dependent column of a table fitted against its independent variable: first with the
model the assignment asks for, then with the standard models (tools.fits.shapes), the best
chosen by the Bayesian information criterion, the simpler among equals.

A fit claims no more than it supports: it states every parameter with its standard error
and unit, names the parameters the data do not determine and the models that fit about as
well, and says so when no model describes the data: residuals larger than the noise, or
that keep a shape (tools.fits.verdict). Time is bounded (a cap on function evaluations per fit,
long series subsampled, a deadline checked before every fit) and bad data (NaN, a constant
column, two points) gives a note, never an exception.

This module is the loop over a table's columns and the standard models; the loop over the
folder's tables (tools.fits.table_fits), one fit's run (tools.fits.fit_runs), the choice among
models (tools.fits.model_choice), the requested model (tools.fits.requested_fits) and the
description of a result (tools.fits.fit_description) are apart.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
from lmfit.model import ModelResult

from labscribe.guards.bounds import UNBOUNDED, ComputeBudget
from labscribe.tools.assignment.requested import PEAK_SHAPES, Request
from labscribe.tools.columns.column import Column, inputs_of
from labscribe.tools.columns.lead_in import from_the_step
from labscribe.tools.columns.roles import Handout
from labscribe.tools.columns.si_units import si_of
from labscribe.tools.fits.effective_variance import effective_sigma
from labscribe.tools.fits.fit_description import describe_shape, r_squared_of
from labscribe.tools.fits.fit_result import LINES, OUT_OF_TIME, Candidate, Fit
from labscribe.tools.fits.fit_runs import best_start, prepare
from labscribe.tools.fits.model_choice import (
    choose,
    leaves_structure,
    on_a_slope,
    rival_note,
    without_offset,
)
from labscribe.tools.fits.peak_fits import fit_peaks
from labscribe.tools.fits.request_targets import request_columns, requests_for
from labscribe.tools.fits.requested_fits import fit_log_of_response
from labscribe.tools.fits.shapes import BY_NAME, SHAPES, build
from labscribe.tools.fits.verdict import scatter
from labscribe.tools.formats.tables import Table, TableSummary
from labscribe.tools.formulas.absolute_temperature import (
    as_the_formula_takes,
    as_written,
    from_kelvin,
    to_kelvin,
)
from labscribe.tools.formulas.formed_lineage import consumed, related
from labscribe.tools.formulas.formula_parse import Formula
from labscribe.tools.formulas.formula_request import fit_asked
from labscribe.tools.formulas.known_values import judged_by_constants
from labscribe.tools.formulas.log_lines import logged_response
from labscribe.tools.formulas.starts import formula_model

# The share of a response's scatter its predictor's uncertainty, carried through the slope,
# must reach to be taken as the noise when the response states none of its own.
PREDICTOR_SHARE = 0.5
MAX_FITTED_COLUMNS = 6  # per table: a report discusses a few curves, not a whole dump


def _copy_of(column: pd.Series, x: pd.Series) -> bool:
    """Whether a column repeats the variable row for row (a monochromator's wavelength
    written twice): fitting it against the variable says nothing of the data."""
    both = column.notna() & x.notna()
    return bool(both.sum() >= 2) and bool(np.allclose(column[both], x[both], rtol=1e-12, atol=0))


def _weights(
    xs: np.ndarray,
    ys: np.ndarray,
    sigma: np.ndarray | None,
    sigma_key: str | None,
    against: Column,
    sigmas: dict[str | None, str],
    frame: pd.DataFrame,
) -> tuple[np.ndarray | None, str | None]:
    """The response's σ for a fit against `against`, and its name: the predictor's own
    uncertainty column carried through the data's slope where it has one (effective
    variance), else the response's uncertainty column. A response with no uncertainty
    column is weighted by the predictor's alone only where that accounts for the scatter
    of neighbouring points (a filter's bandwidth against a voltmeter's digits: at least
    PREDICTOR_SHARE of it); where it is smaller, the response's own noise, stated nowhere,
    is most of it, and is estimated from the residuals as without an uncertainty column: a
    χ² against the predictor's alone would blame the model for that noise."""
    x_key = sigmas.get(against.key)
    if x_key is None:
        return sigma, sigma_key
    combined = effective_sigma(xs, ys, sigma, frame[x_key].to_numpy())
    if combined is None:
        return sigma, sigma_key
    if sigma_key is None:
        spread = scatter(xs, ys)
        if spread is not None and float(np.nanmedian(combined)) < spread * PREDICTOR_SHARE:
            return sigma, sigma_key
        return combined, f"{x_key} (through the slope)"
    return combined, f"{sigma_key} and {x_key} (through the slope)"


def asked_fits(
    table: Table,
    dependent: list[Column],
    *,
    budget: ComputeBudget,
    requests: list[Request] = (),  # type: ignore[assignment]
    tables: list[TableSummary] = (),  # type: ignore[assignment]
    handout: Handout | None = None,
) -> list[Fit]:
    """For each of the `dependent` columns (dependent_columns) and the table's x, the
    models of `requests` whose response it is (tools.columns.roles;
    `tables` are all the folder's tables, which a request may name instead), each against
    the predictor it names or the table's x. The response the assignment names comes
    first; the predictors it names are not fitted as responses, and no column is fitted
    against itself."""
    summary = table.summary
    if summary.x is None:
        return []
    handout = handout or Handout.of([r.task for r in requests], requests=list(requests))
    sigmas = {c.uncertainty_of: c.key for c in summary.columns if c.uncertainty_of}
    x_column = summary.column(summary.x)
    candidates = summary.measured()  # row numbers are set aside when the table is read
    x_names = tuple(c.name for c in summary.columns)
    fits = []
    frame = table.frame
    # a formula may make the table's x its response (`m g = k (x - x_0)` beside "plot x
    # against m"): it is fitted as the formula says, against the predictor it names
    responses = [*dependent, x_column]
    asked = requests_for(list(requests), summary, responses, list(tables) or [summary], handout)
    for column in responses:
        sigma_key = sigmas.get(column.key)
        sigma = frame[sigma_key].to_numpy() if sigma_key else None
        for request in asked[column.key]:
            named = request_columns(request, candidates, handout)
            against = named.predictors[0] if len(named.predictors) == 1 else x_column
            if against.key == column.key or related(against, column, summary.columns):
                continue  # never a column against itself or one formed from it (1/g and g)
            fit = Fit.of(summary.id, against, column, requested=request.task)
            if budget.spent():
                fits.append(fit.model_copy(update={"notes": [OUT_OF_TIME]}))
                continue
            xs, ys = frame[against.key].to_numpy(), frame[column.key].to_numpy()
            weights, sigma_name = _weights(xs, ys, sigma, sigma_key, against, sigmas, frame)
            others = [c.name for c in summary.columns if c.key != column.key]
            sole = len(dependent) == 1 or column.key == summary.response
            if (
                request.formula is None
                and request.shape == "linear"
                and logged_response(request.task, column.name, others, sole=sole)
            ):  # "plot ln A against t and fit a line": the line of ln y, not of y
                fits.append(fit_log_of_response(fit, xs, ys, weights, sigma_name=sigma_name))
                continue
            if request.formula:  # in kelvin where it takes absolute temperature, its way round
                request = request.model_copy(
                    update={"formula": as_written(request.formula, request.task)}
                )
                fit, xs, ys, weights = as_the_formula_takes(
                    fit, request.formula, request.task, named.symbols, xs, ys, weights, x_names
                )
            # a parameter named as a physical constant and far from it, in its final unit,
            # gives no value (tools.formulas.known_values)
            whole = judged_by_constants(
                fit_asked(fit, request, named, xs, ys, weights, sigma_name=sigma_name,
                          x_names=x_names, handout=handout)
            )  # fmt: skip
            peaks = [] if whole.task_range or request.shape not in PEAK_SHAPES else (
                fit_peaks(fit, request, xs, ys, weights, sigma_name=sigma_name, x_names=x_names)
            )  # fmt: skip
            # a spectrum's peaks each in its window, where it has several or one curve over
            # all of it fails
            several = len(peaks) > 1 or not whole.good
            fits += peaks if several and any(p.good for p in peaks) else [whole]
    return fits


def standard_fits(
    table: Table, dependent: list[Column], asked: list[Fit], *, budget: ComputeBudget
) -> list[Fit]:
    """The best standard model of each of the `dependent` columns against the table's x,
    but where the model `asked` for it describes the data (a standard one beside it is
    noise)."""
    summary = table.summary
    if summary.x is None:
        return []
    sigmas = {c.uncertainty_of: c.key for c in summary.columns if c.uncertainty_of}
    x_column = summary.column(summary.x)
    fits = []
    frame = table.frame
    for column in dependent:
        if any(f.requested and f.good and (f.x, f.y) == (x_column.key, column.key) for f in asked):
            continue
        sigma_key = sigmas.get(column.key)
        sigma = frame[sigma_key].to_numpy() if sigma_key else None
        fit = Fit.of(summary.id, x_column, column)
        if budget.spent():
            fits.append(fit.model_copy(update={"notes": [OUT_OF_TIME]}))
            continue
        xs, ys = frame[x_column.key].to_numpy(), frame[column.key].to_numpy()
        weights, sigma_name = _weights(xs, ys, sigma, sigma_key, x_column, sigmas, frame)
        best = fit_column(fit, xs, ys, weights, sigma_name=sigma_name, budget=budget)
        done = {f.model for f in asked if f.y == column.key and f.x == best.x and f.requested}
        if best.model is None or best.model not in done:
            fits.append(best)
    return fits


def dependent_columns(table: Table) -> list[Column]:
    """The columns fitted against the table's x (MAX_FITTED_COLUMNS at most): the response
    the assignment names, then the measured responses, then their ratios to an input, then
    the inputs: a report's figures and the fit budget go to what is asked. Not the
    predictors it names, the uncertainty columns, columns formed from x or copies of it."""
    summary = table.summary
    if summary.x is None:
        return []
    used = consumed(summary.columns) - {summary.response}  # in a quantity formed from them
    x_column = summary.column(summary.x)
    dependent = [
        c for c in summary.columns
        if c.key != summary.x and c.uncertainty_of is None and c.count and not c.averaged
        and c.key not in summary.predictors and c.key not in used
        and not related(c, x_column, summary.columns)
        and not _copy_of(table.frame[c.key], table.frame[x_column.key])
    ]  # fmt: skip
    inputs = inputs_of(summary.columns)
    dependent.sort(
        key=lambda c: (c.key != summary.response,
                       2 if c.key in inputs else int(c.ratio_of is not None))
    )  # fmt: skip
    return dependent[:MAX_FITTED_COLUMNS]


def fit_column(
    fit: Fit,
    x: np.ndarray,
    y: np.ndarray,
    sigma: np.ndarray | None = None,
    *,
    sigma_name: str | None = None,
    budget: ComputeBudget = UNBOUNDED,
) -> Fit:
    """A copy of `fit` (which names the table and columns) completed with the best standard
    model of y(x); the models not tried before `budget` is spent are named.
    Where none describes the data and they start with a flat lead-in (a scope's pre-trigger
    samples), the best model from the step on, when it does (tools.columns.lead_in)."""
    prepared = prepare(fit, x, y, sigma)
    if isinstance(prepared, Fit):
        return prepared
    fit, x, y, sigma = prepared
    best = _best_standard(fit, x, y, sigma, sigma_name, budget)
    if best.good or budget.spent():
        return best

    def refit(x: np.ndarray, y: np.ndarray, sigma: np.ndarray | None) -> Fit:
        return _best_standard(fit, x, y, sigma, sigma_name, budget)

    return from_the_step(best, refit, x, y, sigma)


def _frequency(fit: Fit) -> bool:
    """Whether the fit's variable is a frequency: in Hz (or rad/s), or, where no unit of it
    was read, named as one (`f`, `ω`, `Frequenz`, `частота`)."""
    si = si_of(fit.x_unit)
    if si is not None:
        return si.dimension == _HERTZ.dimension
    return _FREQUENCY_NAME.match((fit.x_name or fit.x).strip()) is not None


_HERTZ = si_of("Hz")
_FREQUENCY_NAME = re.compile(
    r"(?:f|ν|ω|nu|omega)(?:_\w{1,3}|\d{0,2})$"
    r"|freq|frequen|fréquen|frequên|częstotliw|frekven|частот|频率",
    re.IGNORECASE,
)


def _best_standard(
    fit: Fit,
    x: np.ndarray,
    y: np.ndarray,
    sigma: np.ndarray | None,
    sigma_name: str | None,
    budget: ComputeBudget,
) -> Fit:
    """`fit` completed with the best standard model of the prepared points y(x)."""
    fit = fit.model_copy(deep=True, update={"fitted_points": len(x)})
    results: dict[str, ModelResult] = {}
    for shape in SHAPES:
        if budget.spent():
            fit.notes += [] if OUT_OF_TIME in fit.notes else [OUT_OF_TIME]
            break
        if (shape.positive_x and x.min() <= 0) or (shape.frequency_x and not _frequency(fit)):
            continue
        result = best_start(build(shape), shape.fit_starts, x, y, sigma)
        if result is not None:
            results[shape.name] = result
    if not results:
        return fit.model_copy(update={"notes": [*fit.notes, "no model could be fitted"]})
    chosen, rivals = choose(_candidates(results, y), results, x)
    if leaves_structure(results[chosen], y) and not budget.spent():
        # a peak on a tilted background leaves structure that a sloped baseline may take up
        tilted = [on_a_slope(name, x, y, sigma) for name in list(results)]
        results |= {shape.name: result for shape, result in filter(None, tilted)}
        chosen, rivals = choose(_candidates(results, y), results, x)
    shape = BY_NAME[chosen]
    result, left_out = without_offset(shape, results[chosen], x, y, sigma)
    described = describe_shape(fit, shape, result, x, y, sigma, sigma_name, left_out)
    described.notes += rival_note(rivals) if described.good else []
    if not (described.good or described.follows):
        described = _following_line(described, fit, results, (x, y, sigma), sigma_name)
    return described.model_copy(update={"candidates": _candidates(results, y)})


def _following_line(
    described: Fit,
    fit: Fit,
    results: dict[str, ModelResult],
    points: tuple[np.ndarray, np.ndarray, np.ndarray | None],
    sigma_name: str | None,
) -> Fit:
    """Where no standard model describes the data and the closest does not follow them,
    the straight line that does (fit_result.LINE_FOLLOWS_R_SQUARED): a Hall voltage's line
    through a magnet's steps, which a cubic only traces; else `described`."""
    x, y, sigma = points
    lines = {name: results[name] for name in LINES if name in results}
    if not lines or described.model in lines:
        return described
    line, _ = choose(_candidates(lines, y), lines, x)
    shape = BY_NAME[line]
    result, left_out = without_offset(shape, lines[line], x, y, sigma)
    drawn = describe_shape(fit, shape, result, x, y, sigma, sigma_name, left_out)
    return drawn if drawn.follows else described


def _candidates(results: dict[str, ModelResult], y: np.ndarray) -> list[Candidate]:
    """The fitted models, lowest BIC first."""
    return sorted(
        (Candidate(model=name, bic=float(r.bic), r_squared=r_squared_of(y, r.best_fit))
         for name, r in results.items()),
        key=lambda c: c.bic,
    )  # fmt: skip


def evaluate(fit: Fit, x: np.ndarray) -> np.ndarray:
    """The fitted curve at `x` (NaN where the model is undefined, as a power law at x ≤ 0)."""
    if fit.model is None:
        return np.full(len(x), np.nan)
    values = {p.name: p.value for p in fit.parameters if not p.derived}
    x = np.asarray(x, dtype=float)
    if fit.x in fit.kelvin_from:  # fitted in kelvin, drawn on the column's own scale
        x = to_kelvin(x, fit.kelvin_from[fit.x])
    with np.errstate(all="ignore"):
        if fit.expression:
            model = formula_model(_formula_of(fit))
            curve = model.eval(model.make_params(**values), **{fit.variable: x})
        else:
            model = build(BY_NAME[fit.model])
            # a fixed argument given beside the fitted ones (a damped swing's t0) is drawn
            # with; a value derived by the model's own hint (a FWHM) is not set
            given = {p.name: p.value for p in fit.parameters}
            params = model.make_params()
            for name, param in params.items():  # an offset left out is zero
                if param.expr is None:
                    param.set(value=given.get(name, 0.0))
            curve = model.eval(params, x=x)
    curve = np.asarray(curve, dtype=float)
    if fit.y in fit.kelvin_from:
        curve = from_kelvin(curve, fit.kelvin_from[fit.y])
    return np.full(len(x), float(curve)) if curve.shape == () else curve


def _formula_of(fit: Fit) -> Formula:
    parameters = tuple(p.name for p in fit.parameters if not p.derived)
    return Formula(text=fit.formula, y=None, x=fit.variable, expression=fit.expression,
                   parameters=parameters, linear=frozenset())  # fmt: skip
