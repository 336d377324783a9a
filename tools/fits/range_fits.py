"""Fits kept within their parameters' physical range, and the words a student reads when the
model asked for cannot be fitted or fits only outside it.

A parameter outside its range (tools.formulas.physical_range, a standard model's `positive`) is
never given as an answer: the fit is done again with its sign fixed (lmfit bounds, starts among
positive values); when that fit describes the data it is the answer, and when it does not
the report says what the data do, what the formula can do, and which value the formula
would need, instead of giving the number. Why a model could not be fitted at all is said in
the same plain words: too few points for its parameters, an x the model cannot take, no
start value that converged.
"""

from __future__ import annotations

import numpy as np
from lmfit import Model

from labscribe.tools.assignment.stated import unit_unknown
from labscribe.tools.fits.fit_description import TREND_P, trend_p_value
from labscribe.tools.fits.fit_result import Fit, Parameter, axes_of, format_value
from labscribe.tools.fits.fit_runs import SPARE_POINTS
from labscribe.tools.formulas.physical_range import Sign

# Of the three thirds of the data, the last's slope below this share of the first's (same
# sign): the curve levels off, "rises towards a limit"; above its inverse, "ever faster".
LEVELLING = 0.3
STEADY = 0.8  # between STEADY and 1/STEADY, the slope hardly changes: "steadily"
MOTION = {"decay": "can only decay", "grow": "can only grow ever faster",
          "peak": "can only rise to a peak"}  # fmt: skip
UNPHYSICAL = "{name} would have to be {sign}, {value}, which has no physical meaning for {kind}"


def trend(x: np.ndarray, y: np.ndarray) -> str:
    """What the data do, in words: "rise towards a limit", "fall steadily", "rise and fall
    again" (from straight lines through each third of the points, x sorted)."""
    thirds = [part for part in np.array_split(np.arange(len(x)), 3) if len(part) >= 2]
    if len(thirds) < 3:
        return "rise" if y[-1] > y[0] else "fall"
    slopes = [float(np.polyfit(x[part], y[part], 1)[0]) for part in thirds]
    means = [float(np.mean(y[part])) for part in thirds]
    if means[1] > max(means[0], means[2]):
        return "rise and fall again"
    if means[1] < min(means[0], means[2]):
        return "fall and rise again"
    verb = "rise" if means[2] > means[0] else "fall"
    first, last = slopes[0], slopes[2]
    if first == 0 or (first > 0) != (last > 0):
        return verb
    ratio = last / first
    if ratio < LEVELLING:
        return f"{verb} towards a limit"
    if ratio < STEADY:
        return f"{verb} ever more slowly"
    if ratio > 1 / STEADY:
        return f"{verb} ever faster"
    return f"{verb} steadily"


def unphysical_note(
    fit: Fit, formula: str, signs: dict[str, Sign], names: list[str], x: np.ndarray,
    y: np.ndarray,
) -> str:  # fmt: skip
    """Why `fit` of `formula` gives no answer: what the data do, what the formula can do
    with its parameters in range, and the values `names` would need."""
    needs = "; ".join(
        UNPHYSICAL.format(name=name, sign="negative" if p.value < 0 else "zero",
                          value=_rough(p), kind=signs[name].kind.split(" (")[0])
        for name in names if (p := _named(fit, name)) is not None
    )  # fmt: skip
    motions = {signs[name].motion for name in names} - {""}
    can = f", while {formula} {MOTION[motions.pop()]}" if len(motions) == 1 else ""
    return f"these data {trend(x, y)}{can} ({needs}), so the fit gives no value to report"


def alternative(failed: Fit, fits: list[Fit]) -> Fit:
    """`failed` (the assignment's model, where it does not describe the data or gives no
    value) with a note naming a model fitted to the same column that describes the data,
    and its key values."""
    found = rival(failed, fits)
    if found is None:
        return failed
    return failed.model_copy(update={"notes": [*failed.notes, rival_text(found)]})


def rival(failed: Fit, fits: list[Fit]) -> Fit | None:
    """A fit of `fits` to the same column as `failed` that describes the data."""
    return next(
        (f for f in fits if f.good and f.model and f.y == failed.y and f.x == failed.x
         and f.table == failed.table and f is not failed),
        None,
    )  # fmt: skip


def rival_text(fit: Fit) -> str:
    """`the exponential approach c + a·(1 − exp(−x/tau)) describes them, with tau = ...`."""
    values = " and ".join(f"{p.name} = {format_value(p)}" for p in fit.key_parameters()[:2])
    formula = f" {fit.formula}" if fit.formula and fit.formula != fit.model else ""
    step = f" from the step on ({fit.lead_in} left out)" if fit.lead_in else ""
    return f"the {fit.model}{formula} describes them{step}, with {values}"


def no_answer(asked: list[Fit]) -> str | None:
    """What is left of a task whose model fits only with a parameter outside its range, in
    a checklist's words; None when no fit of `asked` is flagged so."""
    flagged = next((f for f in asked if f.unphysical), None)
    if flagged is None:
        return None
    names = ", ".join(flagged.unphysical)
    return (
        f"all of it: the model this task asks for fits these data only with a value of "
        f"{names} that has no physical meaning (see the fits)"
    )


ROUGHLY = (
    "; it does not describe these data to within their noise (see the fits): these are its "
    "best values, to be read with that caveat"
)


# A model the task asks for that explains this share of the data's variance follows their
# shape: where it does not describe them to within their noise, its values still answer the
# task, with that caveat (a discharge read off a scope, R² = 0.968; a thermistor's line over
# 20-30 °C, 0.991). A law of one file fitted to another's (a resistor's line to a diode's
# curve, R² = 0.61; Shockley's law to a resistor's line, 0.941) is no answer at all.
ROUGH_R_SQUARED = 0.95


def roughly(fit: Fit) -> bool:
    """Whether the model a task asks for answers it with a caveat though it does not
    describe the data: the handout prescribes it, so its values are the task's answer, where
    it follows the data's shape (ROUGH_R_SQUARED), none of its values lies outside its
    physical range and the data determine each."""
    fitted = [p for p in fit.parameters if not p.derived]
    return (
        not fit.good
        and fit.model is not None
        and not fit.unphysical
        and (fit.r_squared or 0.0) >= ROUGH_R_SQUARED
        and bool(fitted)
        and all(p.determined for p in fitted)
    )


def answers_task(fit: Fit) -> bool:
    """Whether a fit of the model a task asks for gives values for it (roughly or not): one
    the data cannot tell from no trend at all (a line through a flat background) gives none."""
    return (fit.good and not trendless(fit)) or roughly(fit)


def trendless(fit: Fit) -> bool:
    """Whether the fit does no better than the data's mean (the F-test of its trend)."""
    free = sum(1 for p in fit.parameters if not p.derived)
    if fit.r_squared is None or not free:
        return False
    return trend_p_value(fit.r_squared, fit.fitted_points or fit.points, free) > TREND_P


def left_out_of(asked: list[Fit]) -> str:
    """What a checklist adds where the model a task asks for describes some columns and
    gives no value, or only a rough one, for others: which, so that the task is not counted
    done for them."""
    failed = list(dict.fromkeys(_which(f, asked) for f in asked if not answers_task(f)))
    rough = list(dict.fromkeys(_which(f, asked) for f in asked if roughly(f)))
    added = ""
    if failed and len(failed) < len(asked):
        added = f"; for {', '.join(failed)}, the model this task asks for gives no value"
    if rough:
        added += (f"; for {', '.join(rough)}, the model this task asks for describes the data "
                  "only roughly")  # fmt: skip
    return f"{added} (see the fits)" if added else ""


def _which(fit: Fit, asked: list[Fit]) -> str:
    """The fit's column, with its table where the task's model is fitted in several, and its
    window where it is fitted to one peak of several."""
    where = f" ({fit.table})" if len({f.table for f in asked}) > 1 else ""
    if fit.task_range is not None:
        low, high = fit.task_range
        where += f" from {fit.x_label} = {low:g} to {high:g}"
    return fit.y_label + where


SHAPE_ONLY = frozenset({"quadratic", "cubic"})


def instead(asked: list[Fit], fits: list[Fit]) -> list[str]:
    """For a task whose model gives no answer: the key values of a model that describes the
    same data, labelled as not the one asked for; never a polynomial's coefficients, which
    follow the data's shape and answer no question a task asks."""
    found = {id(f): f for f in (rival(fit, fits) for fit in asked)
             if f is not None and f.model not in SHAPE_ONLY}  # fmt: skip
    return [
        f"{'; '.join(f'{p.name} = {format_value(p)}' for p in fit.key_parameters()[:2])} "
        f"(the {fit.model}, which describes the data; not the model this task asks for)"
        for fit in found.values()
    ]


def unfitted(name: str, variable: str, model: Model, parameters: int, x: np.ndarray) -> str:
    """Why the model `name` (of `parameters` free parameters, in `variable` = x) could not
    be fitted, in words a student understands."""
    needed = parameters + SPARE_POINTS
    if len(x) < needed:
        return (
            f"{name} could not be fitted: the data have {len(x)} points, too few for its "
            f"{parameters} parameters (a fit that can be judged takes at least {needed})"
        )
    if x.min() <= 0 and _needs_positive(model, x):
        return (
            f"{name} could not be fitted: it is defined only for {variable} > 0 (it takes a "
            f"power or a logarithm of {variable}), and {variable} reaches {x.min():g}"
        )
    return (
        f"{name} could not be fitted: from none of the start values tried did the fit "
        "converge, so the formula does not suit these data as written (check which column "
        "it is fitted to, and its units)"
    )


def _needs_positive(model: Model, x: np.ndarray) -> bool:
    """Whether the model is finite for every x > 0 and not for some x ≤ 0 (tried with each
    parameter at a generic value)."""
    params = model.make_params(**{name: 0.7 for name in model.param_names})
    variable = model.independent_vars[0]
    with np.errstate(all="ignore"):
        try:
            inside = np.asarray(model.eval(params, **{variable: np.abs(x) + 1e-3}), dtype=float)
            at = np.asarray(model.eval(params, **{variable: x}), dtype=float)
        except (ValueError, TypeError, ArithmeticError, NameError):
            return False
    inside, at = np.broadcast_to(inside, x.shape), np.broadcast_to(at, x.shape)
    return bool(np.isfinite(inside).all() and not np.isfinite(at[x <= 0]).all())


def _named(fit: Fit, name: str) -> Parameter | None:
    return next((p for p in fit.parameters if p.name == name), None)


def _rough(parameter: Parameter) -> str:
    """The value to two significant digits with its unit: what it would have to be, not a
    result to quote."""
    unit = f" {parameter.unit}" if parameter.unit else ""
    return f"{float(f'{parameter.value:.2g}'):g}{unit}".replace("-", "−")


def one_per_data(asked: list[Fit], whose: str, fits: list[Fit]) -> tuple[list[str], list[Fit]]:
    """The fits of one column's windows (each peak of a spectrum in its own) as one entry
    per column, the values of all its peaks together, so that one file's many peaks do not
    crowd out the others'; and the rest of `asked`, each to be listed on its own."""
    windows: dict[tuple[str, str, str], list[Fit]] = {}
    for fit in asked:
        if fit.task_range is not None and answers_task(fit) and not unit_unknown(fit):
            windows.setdefault((fit.table, fit.y, fit.x), []).append(fit)
    grouped = {key: group for key, group in windows.items() if len(group) > 1}
    entries = []
    for group in grouped.values():
        names = [p.name for p in group[0].shown_parameters()][:2]
        values = "; ".join(
            f"{name} = " + ", ".join(format_value(f.parameter(name)) for f in group
                                     if name in {p.name for p in f.parameters})
            for name in names
        )  # fmt: skip
        entries.append(f"{values} ({whose}, fitted to {axes_of(group[0], fits)} in "
                       f"{len(group)} windows, one about each peak)")  # fmt: skip
    rest = [f for f in asked if (f.table, f.y, f.x) not in grouped or f.task_range is None]
    return entries, rest
