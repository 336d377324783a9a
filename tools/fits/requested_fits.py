"""The model an assignment asks for, fitted as asked: a formula it writes out, with its
parameters named as the assignment names them (in canonical form, tools.formulas.canonical_form) and
started from values found without a human's guess (tools.formulas.starts); or a standard model it
names (tools.fits.shapes).

Apart from the search over standard models (tools.fits.column_fits): a requested model is fitted
whether or not it is the best, and the explorer asks for one directly (tools.explorer.fitting).
"""

from __future__ import annotations

import re

import numpy as np
from lmfit import Model, Parameters

from labscribe.tools.assignment.requested import Request
from labscribe.tools.columns.lead_in import from_the_step
from labscribe.tools.fits.fit_description import describe, describe_shape, plain_value
from labscribe.tools.fits.fit_result import Fit, Parameter, format_value, unit_of
from labscribe.tools.fits.fit_runs import FORMULA_NFEV, best_start, prepare
from labscribe.tools.fits.model_choice import sloped, without_offset
from labscribe.tools.fits.range_fits import unfitted, unphysical_note
from labscribe.tools.fits.shapes import BY_NAME, Shape, build
from labscribe.tools.formulas.absolute_temperature import kelvin_as_unit, with_kelvin_units
from labscribe.tools.formulas.angle_units import DEGREES, in_degrees
from labscribe.tools.formulas.canonical_form import canonical
from labscribe.tools.formulas.dimensions import dimensions
from labscribe.tools.formulas.formula_parse import Formula, FormulaError, parse_formula
from labscribe.tools.formulas.log_lines import asks_log_line, dimensions_through_logs, log_line
from labscribe.tools.formulas.parameter_roles import positions
from labscribe.tools.formulas.physical_range import outside, positive_parameters
from labscribe.tools.formulas.starts import formula_model, formula_starts

# A task that asks for "an exponential" may mean one that grows (a diode's current); its
# decay time is positive, so growth is the other model, fitted beside it, unless the task
# says the quantity decays.
EITHER_WAY = {"exponential": "exponential growth"}
DECAYING = re.compile(r"decay|discharg|\bfall|衰减|衰變|abfall|zerfall|abkling|entlad", re.I)


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
    prepared = prepare(fit, x, y, sigma)
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
        note = (f"the {shape.name} model could not be fitted: it is defined only for "
                f"{fit.x_label} > 0, and {fit.x_label} reaches {x.min():g}")  # fmt: skip
        return fit.model_copy(update={"notes": [*fit.notes, note]})

    def shaped(x: np.ndarray, y: np.ndarray, sigma: np.ndarray | None) -> Fit:
        return _fit_shape(fit, shape, request, x, y, sigma, sigma_name)

    return from_the_step(shaped(x, y, sigma), shaped, x, y, sigma)


def _fit_shape(
    fit: Fit,
    shape: Shape,
    request: Request,
    x: np.ndarray,
    y: np.ndarray,
    sigma: np.ndarray | None,
    sigma_name: str | None,
) -> Fit:
    """`fit` completed with the standard model `shape` (either way, _ways) fitted to y(x)."""
    fitted = [(s, best_start(build(s), s.fit_starts, x, y, sigma)) for s in _ways(shape, request)]
    done = [(s, result) for s, result in fitted if result is not None]
    if not done:
        model = build(shape)
        free = [p for p in model.make_params().values() if p.expr is None]
        note = unfitted(f"the {shape.name} model", fit.x, model, len(free), x)
        return fit.model_copy(update={"notes": [*fit.notes, note]})
    shape, result = min(done, key=lambda pair: pair[1].bic)
    shape, result = sloped(shape, result, x, y, sigma)
    result, left_out = without_offset(shape, result, x, y, sigma)
    return describe_shape(fit, shape, result, x, y, sigma, sigma_name, left_out)


def _ways(shape: Shape, request: Request) -> list[Shape]:
    """The standard models a request for `shape` may mean: an "exponential" either way,
    decaying or growing, unless the task says it decays (EITHER_WAY)."""
    other = EITHER_WAY.get(shape.name)
    if other is None or DECAYING.search(request.task):
        return [shape]
    return [shape, BY_NAME[other]]


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
    (tools.formulas.starts); x and y are already finite and sorted. A parameter that lands outside
    its physical range (tools.formulas.physical_range) is fitted again within it; if that fit does
    not describe the data either, the fit is flagged with a note that says why instead of
    giving the value. Where the fit does not describe data that start with a flat lead-in
    (a scope's pre-trigger samples), the fit from the step on, when it does
    (tools.columns.lead_in)."""

    if fit.kelvin_from:  # `1/298.15 K` is a number of kelvin once T is in kelvin
        written = formula
        done = fit_formula(fit.model_copy(update={"kelvin_from": {}}), kelvin_as_unit(formula),
                           x, y, sigma, sigma_name=sigma_name)  # fmt: skip
        done = done.model_copy(update={"kelvin_from": fit.kelvin_from})
        return with_kelvin_units(done, written) if done.model else done
    if fit.x_unit in DEGREES:
        formula = in_degrees(formula)  # cos²(θ − θ₀) of a polarizer's angle in degrees
    line = log_line(formula) if asks_log_line(fit.requested, formula) else None
    if line is not None and bool(np.all(y > 0)):
        return _fit_log_line(fit, formula, line, x, y, sigma, sigma_name)

    def fitted(x: np.ndarray, y: np.ndarray, sigma: np.ndarray | None) -> Fit:
        return _fit_formula(fit, formula, x, y, sigma, sigma_name)

    return from_the_step(fitted(x, y, sigma), fitted, x, y, sigma)


def fit_log_of_response(
    fit: Fit,
    x: np.ndarray,
    y: np.ndarray,
    sigma: np.ndarray | None = None,
    *,
    sigma_name: str | None = None,
) -> Fit:
    """`fit` completed with the straight line of ln y against x that a task asks for in its
    own symbol (tools.formulas.log_lines.logged_response): ln y = b0 + b1·x, the curve drawn over y
    as exp(b0 + b1·x); values of y at or below zero leave it unfitted, with a note."""
    prepared = prepare(fit, x, y, sigma)
    if isinstance(prepared, Fit):
        return prepared
    fit, x, y, sigma = prepared
    if not bool(np.all(y > 0)):
        note = (
            f"the straight line of ln {fit.y_label} the task asks for was not fitted: "
            f"{fit.y_label} reaches {y.min():g}, and only a positive value has a logarithm"
        )
        return fit.model_copy(update={"notes": [*fit.notes, note]})
    text = f"ln {fit.y_label} = b0 + b1·{fit.x_label}"
    curve = Formula(text=text, y="y", x="x", expression="exp(b0 + b1*x)",
                    parameters=("b0", "b1"), linear=frozenset())  # fmt: skip
    line = Formula(text=text, y="y", x="x", expression="b0 + b1*x", parameters=("b0", "b1"),
                   linear=frozenset({"b0", "b1"}))  # fmt: skip
    return _fit_log_line(fit, curve, line, x, y, sigma, sigma_name)


def _fit_log_line(
    fit: Fit,
    formula: Formula,
    line: Formula,
    x: np.ndarray,
    y: np.ndarray,
    sigma: np.ndarray | None,
    sigma_name: str | None,
) -> Fit:
    """`formula` fitted as the straight line of its logarithm (tools.formulas.log_lines): ln y
    against x, σ of ln y as σ/y; the parameters in the units the formula gives them."""
    logged = None if sigma is None else sigma / y
    done = _fit_formula(fit.model_copy(update={"y_unit": ""}), line, x, np.log(y), logged,
                        sigma_name)  # fmt: skip
    values = {p.name: p.value for p in done.parameters}
    units = {name: unit_of(dimension, fit.y_unit, fit.x_unit)
             for name, dimension in dimensions(formula, values).items()}  # fmt: skip
    parameters = [p.model_copy(update={"unit": units.get(p.name, p.unit)})
                  for p in done.parameters]  # fmt: skip
    weights = f"weighted by σ/{fit.y_label}" if sigma is not None else "unweighted"
    note = (
        f"fitted as the task asks: the straight line ln {fit.y_label} = {line.expression} "
        f"against {fit.x_label} ({weights}); R² and the reduced χ² are those of ln {fit.y_label}"
    )
    # the curve drawn over the data, and the model the checklist reads, stay the formula's
    return done.model_copy(update={"parameters": parameters, "y_unit": fit.y_unit,
                                   "expression": formula.expression, "sigma_estimate": None,
                                   "straightened": f"ln {fit.y_label}",
                                   "notes": [*done.notes, note]})  # fmt: skip


def _fit_formula(
    fit: Fit,
    formula: Formula,
    x: np.ndarray,
    y: np.ndarray,
    sigma: np.ndarray | None,
    sigma_name: str | None,
) -> Fit:
    free = _fitted(fit, formula, x, y, sigma, sigma_name, frozenset())
    if isinstance(free, str):
        return fit.model_copy(update={"notes": [*fit.notes, free]})
    signs = positive_parameters(formula, fit.requested)
    wrong = outside(signs, {p.name: p.value for p in free.parameters})
    if not wrong:
        return free
    kept = _fitted(fit, formula, x, y, sigma, sigma_name, frozenset(signs))
    if isinstance(kept, Fit) and kept.good and not outside(signs, _values(kept)):
        values = ", ".join(f"{name} = {format_value(free.parameter(name))}" for name in wrong)
        note = (f"fitted with {', '.join(wrong)} kept positive: the best fit without that "
                f"bound has {values}, which has no physical meaning")  # fmt: skip
        return kept.model_copy(update={"notes": [*kept.notes, note]})
    note = unphysical_note(free, formula.text, signs, wrong, x, y)
    return free.model_copy(
        update={"good": False, "unphysical": wrong, "notes": [*fit.notes, note], "verdict": note}
    )


def _fitted(
    fit: Fit,
    formula: Formula,
    x: np.ndarray,
    y: np.ndarray,
    sigma: np.ndarray | None,
    sigma_name: str | None,
    positive: frozenset[str],
) -> Fit | str:
    """`fit` completed with `formula`'s best fit, the parameters `positive` kept positive;
    or why it could not be fitted, in words (tools.fits.range_fits.unfitted)."""
    model = formula_model(formula)

    def starts(model: Model, x: np.ndarray, y: np.ndarray) -> list[Parameters]:
        return formula_starts(formula, model, x, y, positive)  # type: ignore[arg-type]

    result = best_start(model, starts, x, y, sigma, max_nfev=FORMULA_NFEV, held=positions(formula))
    if result is None:
        return unfitted(formula.text, formula.x, model, len(formula.parameters), x)
    values = {name: plain_value(p.value, p.stderr) for name, p in result.params.items()}
    units = {
        name: unit_of(dimension, fit.y_unit, fit.x_unit)
        for name, dimension in dimensions_through_logs(formula, values).items()
    }
    described = describe(fit, result, x, y, sigma, sigma_name, units)
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


def _values(fit: Fit) -> dict[str, float]:
    return {p.name: p.value for p in fit.parameters}


def _renamed(parameter: Parameter, target: str) -> Parameter:
    """`parameter` under the name `target` (tools.formulas.canonical_form), its sign flipped when
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
