"""One model fitted to one column's points, within bounds: the points made finite, sorted
and subsampled (prepare), then lmfit run from each start value under a cap on function
evaluations, the lowest χ² kept (best_start).

Every fit runs through here, a standard model's (tools.fits.column_fits) and the assignment's
(tools.fits.requested_fits), so the bounds on time and the handling of bad data (NaN, a constant
column, two points: a note, never an exception) are the same for all.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable

import numpy as np
from lmfit import Model, Parameters
from lmfit.model import ModelResult

from labscribe.tools.columns.loops import loop_note
from labscribe.tools.fits.fit_result import Fit

# A few thousand points pin a smooth curve's parameters; more cost time, not information
# about the shape (the uncertainties grow as √(N/MAX_FIT_POINTS), which errs on the safe side).
MAX_FIT_POINTS = 2000
# Function evaluations per start: leastsq converges in tens of iterations on a good guess,
# each costing parameters + 1 evaluations; a guess that needs more is a guess gone wrong.
MAX_NFEV = 600
# A formula an assignment writes may be hard (NIST's "higher difficulty" sets): its best
# start gets more room; the others, ranked lower by the start search, rarely win, and get
# the standard models' room.
FORMULA_NFEV = 20_000
MIN_POINTS = 4
# A fit needs this many points beyond its free parameters: with fewer, its residuals leave
# no degrees of freedom to judge it by.
SPARE_POINTS = 2


def prepare(
    fit: Fit, x: np.ndarray, y: np.ndarray, sigma: np.ndarray | None
) -> Fit | tuple[Fit, np.ndarray, np.ndarray, np.ndarray | None]:
    """The finite points sorted by x, subsampled to MAX_FIT_POINTS, with `fit` counting
    them; or `fit` with the note why nothing can be fitted."""
    fit = fit.model_copy(deep=True)
    keep = np.isfinite(x) & np.isfinite(y)
    if sigma is not None:
        keep &= np.isfinite(sigma) & (sigma > 0)
    if note := _left_out(x, y, sigma, keep, fit):
        fit.notes.append(note)
    if (loop := loop_note(x[keep], y[keep], fit.x_label, fit.y_label)) is not None:
        return fit.model_copy(update={"notes": [loop], "points": int(keep.sum())})
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


def _left_out(
    x: np.ndarray, y: np.ndarray, sigma: np.ndarray | None, keep: np.ndarray, fit: Fit
) -> str:
    """How many rows that hold a value of x or y the fit leaves out, and why ("" when none
    does): never a row dropped without a word. A row empty in both is no reading (a shorter
    series beside a longer one)."""
    present = np.isfinite(x) | np.isfinite(y)
    left = int((present & ~keep).sum())
    if not left:
        return ""
    why = f"no number for {fit.x_label} or {fit.y_label}"
    why += " or no positive uncertainty" if sigma is not None else ""
    return f"{left} of {int(present.sum())} rows left out of the fit: {why} (empty, or text)"


def _unfittable(x: np.ndarray, y: np.ndarray) -> str | None:
    if len(x) < MIN_POINTS:
        return f"too few points ({len(x)}) to fit a model"
    if np.ptp(x) == 0:  # a background counted for 60 s ten times is no curve
        return (
            f"the independent variable is {x[0]:g} in every row: the rows are repeated "
            "measurements, not a curve, so no model is fitted"
        )
    if np.ptp(y) == 0:
        return f"constant at {y[0]:g}: nothing to fit"
    return None


Starts = Callable[[Model, np.ndarray, np.ndarray], list[Parameters]]


def best_start(
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
            if len(x) < len(free) + SPARE_POINTS:
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
