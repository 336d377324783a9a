"""Multiple linear regression, for the tasks that ask for a response on several predictors:
statsmodels OLS (WLS with 1/σ² weights where the response has an uncertainty column), every
coefficient ± its standard error with its unit, R², adjusted R², the residuals' verdict the
other fits get (tools.fits.residuals), and the number of points; or a plain statement of why it
was not done (a predictor that is no column, too few points, collinear predictors).

Least squares on a design like Filip's (x to the tenth power, condition number 2e15) or
Longley's (six economic series of very different sizes) loses most of its digits when solved
as written. The fit therefore runs on centred and scaled columns (each predictor minus its
mean, over its standard deviation: condition numbers of 1e4 and 110), by QR, and the
coefficients and their covariance are mapped back to the terms as the task writes them,
exactly (a monomial in x is a polynomial in (x - m)/s). NIST's certified values come back to
12 digits or more (bench/analysis/certified.py).
"""

from __future__ import annotations

import math
from itertools import product
from math import comb

import numpy as np
import scipy.linalg
import scipy.stats
from pydantic import BaseModel, Field

from labscribe.guards.bounds import UNBOUNDED, ComputeBudget
from labscribe.tools.fits.fit_result import GOOD_R_SQUARED, Fit, Parameter, within_error_of_zero
from labscribe.tools.fits.model_choice import EXACT
from labscribe.tools.fits.regression_request import Ask, regression_ask
from labscribe.tools.fits.regression_roles import Refusal, Roles, Term, formula_roles, resolve
from labscribe.tools.fits.residuals import structure
from labscribe.tools.formats.tables import Table
from labscribe.tools.formulas.formula_eval import evaluate_tree

EXTRA_POINTS = 2  # points beyond the coefficients: residuals with a spread to estimate
# Columns of the centred and scaled design that are linear combinations of the others to
# this share of the largest pivot are collinear: no data determine their coefficients.
RANK_TOLERANCE = 1e-10
# A condition number above this (after centring and scaling) leaves coefficients strongly
# correlated: said beside them (Filip's powers of x reach 1e4; Longley's series 110).
NEARLY_COLLINEAR = 1e3


class Coefficient(Parameter):
    """A regression coefficient: a Parameter, with the term it multiplies."""

    term: str = ""
    p_value: float | None = None
    """The two-sided t-test's p-value that the coefficient is 0 (its term adds nothing)."""


class Regression(BaseModel):
    """A multiple linear regression a task asks for, done or plainly not."""

    task: str
    number: int
    """The task's place in the checklist, from 1."""
    table: str = ""
    response: str = ""
    """The response column's name."""
    response_key: str = ""
    response_unit: str = ""
    predictors: list[str] = Field(default_factory=list)
    predictor_keys: list[str] = Field(default_factory=list)
    formula: str = ""
    """The formula as the task writes it; "" when its words name the model."""
    weighted_by: str = ""
    """The response's uncertainty column when the fit is weighted by it (WLS)."""
    coefficients: list[Coefficient] = Field(default_factory=list)
    r_squared: float | None = None
    adjusted_r_squared: float | None = None
    reduced_chi_square: float | None = None
    """Weighted fits only: the residuals against the uncertainty column's σ."""
    residual_sd: float | None = None
    """Unweighted fits: the residuals' standard deviation, in the response's unit."""
    condition_number: float | None = None
    """Of the design after centring and scaling."""
    covariance: dict[str, dict[str, float]] | None = None
    """The coefficients' covariance, by name: what a quantity derived from two needs."""
    points: int = 0
    dof: int = 0
    """The residuals' degrees of freedom: points less coefficients."""
    largest_residual: tuple[int, float] | None = None
    """The data row (counted from 1) whose residual is largest in size, and that residual."""
    structure: str = ""
    good: bool = False
    done: bool = False
    why_not: str = ""
    """Why it was not done, in plain words; "" when done."""
    notes: list[str] = Field(default_factory=list)

    @property
    def model(self) -> str:
        """The model in words: `yield on temperature, pressure`."""
        return f"{self.response} on {', '.join(self.predictors)}"


def regressions(
    tasks: list[str], tables: list[Table], *, budget: ComputeBudget = UNBOUNDED
) -> list[Regression]:
    """The regressions `tasks` ask for on several predictors, in task order: on the first
    table whose columns the task names, or a Regression saying why not. Tasks reached once
    `budget` is spent get a statement that time ran out."""
    done: list[Regression] = []
    for number, task in enumerate(tasks, start=1):
        ask = regression_ask(task, number)
        if ask is None:
            continue
        try:
            result = _on_tables(ask, tables, budget)
        except Exception as exc:  # what a folder holds must never cost the analysis
            why = f"it could not be computed from these data ({type(exc).__name__}: {exc})"
            result = Regression(task=task, number=number, why_not=why[:300])
        if result is not None:
            done.append(result)
    return done


def _on_tables(ask: Ask, tables: list[Table], budget: ComputeBudget) -> Regression | None:
    refused: Regression | None = None
    for table in tables:
        roles = resolve(ask, table.summary)
        if roles is None:
            continue
        if isinstance(roles, Refusal):
            refused = refused or _not_done(ask, table, roles.reason)
            continue
        if budget.spent():
            return _not_done(ask, table, "the analysis time budget ran out before it")
        return regress(table, roles, ask)
    return refused


def regress(table: Table, roles: Roles, ask: Ask) -> Regression:
    """The regression of `roles` on `table`'s rows where the response, every predictor,
    every term (log(x) of x > 0) and the response's σ (if any) are finite, σ positive."""
    summary, frame = table.summary, table.frame
    by_key = {c.key: c for c in summary.columns}
    sigma_key = next((c.key for c in summary.columns if c.uncertainty_of == roles.response), "")
    keys = [roles.response, *roles.predictors, *([sigma_key] if sigma_key else [])]
    values = frame[keys].to_numpy(dtype=float)
    keep = np.isfinite(values).all(axis=1)
    if sigma_key:
        keep &= values[:, -1] > 0
    defined = _defined(roles.terms, {k: values[:, i + 1] for i, k in enumerate(roles.predictors)})
    undefined = int(np.count_nonzero(keep & ~defined))
    keep &= defined
    y = values[keep, 0]
    rows = np.flatnonzero(keep) + 1  # the data rows as a reader counts them
    x = {key: values[keep, i + 1] for i, key in enumerate(roles.predictors)}
    sigma = values[keep, -1] if sigma_key else None
    result = _not_done(ask, table, "").model_copy(update={
        "response": by_key[roles.response].name, "response_key": roles.response,
        "response_unit": by_key[roles.response].unit,
        "predictors": [by_key[k].name for k in roles.predictors], "formula": roles.formula,
        "predictor_keys": list(roles.predictors),
        "weighted_by": by_key[sigma_key].name if sigma_key else "", "points": len(y),
    })  # fmt: skip
    terms = roles.terms
    if len(y) < len(terms) + EXTRA_POINTS:
        return result.model_copy(update={"why_not": (
            f"only {len(y)} rows hold every value it needs, and {len(terms)} coefficients "
            f"need at least {len(terms) + EXTRA_POINTS}")})  # fmt: skip
    flat = [by_key[k].name for k in roles.predictors if np.ptp(x[k]) == 0]
    if flat:
        return result.model_copy(update={"why_not": f"{', '.join(flat)} does not vary"})
    if undefined:
        result.notes.append(f"{undefined} rows where a term cannot be computed (a logarithm or "
                            "a root of a value out of its range) are left out")  # fmt: skip
    design = Design.of(terms, x)
    rank, dependent = _rank(design.matrix)
    if rank < len(terms):
        named = ", ".join(terms[i].label for i in dependent)
        return result.model_copy(update={"why_not": (
            f"its predictors are collinear: {named} is a linear combination of the other "
            f"terms (rank {rank} of {len(terms)}), so no data can tell their coefficients "
            "apart")})  # fmt: skip
    return _fitted(result, design, y, sigma, roles, by_key, rows)


class Design:
    """The regression's design on centred and scaled columns, and the map back to the terms
    as written: the coefficients c of the scaled terms are A^T b, b those of the terms."""

    def __init__(self, matrix: np.ndarray, back: np.ndarray) -> None:
        self.matrix = matrix
        self.back = back

    @classmethod
    def of(cls, terms: tuple[Term, ...], x: dict[str, np.ndarray]) -> Design:
        """Predictors are centred (when every term is a monomial and each lower monomial is
        also a term, so centring adds no term) and scaled to unit spread; a term that is no
        monomial is evaluated as written and scaled to unit RMS."""
        present = {t.powers for t in terms}
        closed = all(t.powers is not None and _lower(t.powers) <= present for t in terms)
        centre = {k: float(np.mean(v)) if closed else 0.0 for k, v in x.items()}
        scale = {k: float(np.std(v) if closed else np.sqrt(np.mean(v**2))) for k, v in x.items()}
        z = {k: (v - centre[k]) / scale[k] for k, v in x.items()}
        n, size = len(next(iter(x.values()))), len(terms)
        matrix, back = np.empty((n, size)), np.zeros((size, size))
        index = {t.powers: i for i, t in enumerate(terms) if t.powers is not None}
        for j, term in enumerate(terms):
            if term.powers is None:
                column = np.asarray(evaluate_tree(term.expression, x), dtype=float) * np.ones(n)
                rms = float(np.sqrt(np.mean(column**2))) or 1.0
                matrix[:, j], back[j, j] = column / rms, rms
                continue
            matrix[:, j] = np.prod([z[k] ** p for k, p in term.powers], axis=0) * np.ones(n)
            # x^p = (m + s z)^p = Σ_q C(p, q) m^(p-q) s^q z^q, for each column of the monomial
            for lower in product(*(range(p + 1) for _, p in term.powers)):
                weight = term.factor
                for (k, p), q in zip(term.powers, lower, strict=True):
                    weight *= comb(p, q) * centre[k] ** (p - q) * scale[k] ** q
                if weight == 0:  # a lower power of an uncentred column: no term
                    continue
                target = tuple((k, q) for (k, _), q in zip(term.powers, lower, strict=True) if q)
                back[j, index[target]] += weight
        return cls(matrix, back)

    def coefficients(self, scaled: np.ndarray, covariance: np.ndarray) -> tuple[np.ndarray, ...]:
        """The terms' coefficients and their covariance from the scaled design's."""
        inverse = np.linalg.solve(self.back.T, np.eye(len(scaled)))
        values = np.linalg.solve(self.back.T, scaled)
        return values, inverse @ covariance @ inverse.T


def _defined(terms: tuple[Term, ...], x: dict[str, np.ndarray]) -> np.ndarray:
    """Where every term that is no monomial is finite (`log(x)` needs x > 0)."""
    keep = np.ones(len(next(iter(x.values()))), dtype=bool)
    with np.errstate(all="ignore"):
        for term in terms:
            if term.powers is None:
                keep &= np.isfinite(np.asarray(evaluate_tree(term.expression, x), dtype=float))
    return keep


def _lower(powers: tuple[tuple[str, int], ...]) -> set[tuple[tuple[str, int], ...]]:
    """Every monomial that divides `powers` (the constant included)."""
    return {
        tuple((k, q) for (k, _), q in zip(powers, lower, strict=True) if q)
        for lower in product(*(range(p + 1) for _, p in powers))
    }


def _rank(matrix: np.ndarray) -> tuple[int, list[int]]:
    """The design's numerical rank, and the columns QR with pivoting finds dependent."""
    _, r, pivots = scipy.linalg.qr(matrix, mode="economic", pivoting=True)
    diagonal = np.abs(np.diag(r))
    rank = int(np.sum(diagonal > RANK_TOLERANCE * diagonal[0])) if diagonal.size else 0
    return rank, sorted(int(i) for i in pivots[rank:])


def _fitted(
    result: Regression,
    design: Design,
    y: np.ndarray,
    sigma: np.ndarray | None,
    roles: Roles,
    by_key: dict,
    rows: np.ndarray,
) -> Regression:
    # statsmodels costs half a second to import: only a task that asks for a regression pays
    from statsmodels.regression.linear_model import OLS, WLS

    model = WLS(y, design.matrix, weights=sigma**-2) if sigma is not None else OLS(y, design.matrix)
    fitted = model.fit(method="qr")
    values, covariance = design.coefficients(fitted.params, fitted.cov_params())
    errors = np.sqrt(np.clip(np.diag(covariance), 0, None))
    y_unit = by_key[roles.response].unit
    r_squared = float(fitted.rsquared)
    exact = r_squared > 1 - EXACT
    # an exact fit's errors are rounding: a t-test of them would claim certainty it has not
    dof = 0 if exact else round(float(fitted.df_resid))
    coefficients = [
        Coefficient(name=t.name, term=t.label, value=float(v), stderr=float(e),
                    unit=_unit(t, y_unit, by_key), p_value=_p_value(v, e, dof))
        for t, v, e in zip(roles.terms, values, errors, strict=True)
    ]  # fmt: skip
    residuals = np.asarray(fitted.wresid if sigma is not None else fitted.resid, dtype=float)
    worst = int(np.argmax(np.abs(residuals)))
    order = np.argsort(np.asarray(fitted.fittedvalues), kind="stable")
    shape = "" if exact else structure(residuals[order]) or ""
    condition = float(np.linalg.cond(design.matrix))
    notes = list(result.notes)
    if exact:
        notes.append("the data lie on the model exactly: the residuals are rounding, so the "
                     "standard errors are 0")  # fmt: skip
    if not roles.intercept:
        notes.append("without an intercept, R² is taken about zero, as NIST's reference does")
    if condition > NEARLY_COLLINEAR:
        notes.append(
            f"its terms are nearly collinear (condition number {condition:.2g} after centring "
            "and scaling): the coefficients are strongly correlated, their errors large"
        )
    if r_squared < GOOD_R_SQUARED:
        notes.append(f"the regression describes {result.response} poorly: R² = {r_squared:.2f}, "
                     "so its coefficients say little")  # fmt: skip
    elif shape:
        notes.append(f"the regression does not describe these data: {shape}, in the order of "
                     "the fitted values")  # fmt: skip
    loose = [c.name for c in coefficients if not c.determined]
    if loose:
        notes.append(within_error_of_zero(loose))
    scale = float(fitted.scale)
    names = [t.name for t in roles.terms]
    matrix = {a: {b: float(covariance[i, j]) for j, b in enumerate(names)}
              for i, a in enumerate(names)}  # fmt: skip
    return result.model_copy(update={
        "covariance": matrix, "dof": dof,
        "largest_residual": (int(rows[worst]), float(np.asarray(fitted.resid)[worst])),
        "coefficients": coefficients, "r_squared": r_squared,
        "adjusted_r_squared": float(fitted.rsquared_adj), "condition_number": condition,
        "reduced_chi_square": scale if sigma is not None else None,
        "residual_sd": math.sqrt(scale) if sigma is None else None, "structure": shape,
        "good": r_squared >= GOOD_R_SQUARED and not shape, "done": True, "notes": notes,
    })  # fmt: skip


def polish(fits: list[Fit], tables: list[Table]) -> list[Fit]:
    """`fits`, each fit of a formula a task writes that is linear in its parameters with
    one variable (a polynomial) given the regression's coefficients, errors and covariance:
    the same model, solved without the digits lmfit's iterations lose on an ill-conditioned
    design (Filip's tenth-degree polynomial: 2.6 agreeing digits, here 11.5). A fit whose
    parameters the regression does not name alike, or finds more than 2σ away, is kept."""
    by_id = {table.summary.id: table for table in tables}
    return [_polished(fit, by_id[fit.table]) if fit.table in by_id else fit for fit in fits]


def _polished(fit: Fit, table: Table) -> Fit:
    try:
        return _solved(fit, table)
    except Exception:  # the fit lmfit found stands: polishing is never worth a failure
        return fit


def _solved(fit: Fit, table: Table) -> Fit:
    if not fit.formula or fit.model is None or fit.left_out:
        return fit
    if any(p.derived or p.stderr is None for p in fit.parameters):
        return fit
    roles = formula_roles(fit.formula, table.summary)
    if not isinstance(roles, Roles) or (roles.response, roles.predictors) != (fit.y, (fit.x,)):
        return fit
    if sorted(t.name for t in roles.terms) != sorted(p.name for p in fit.parameters):
        return fit
    regression = regress(table, roles, Ask(task=fit.requested, number=0))
    found = {c.name: c for c in regression.coefficients}
    if not regression.done or any(
        abs(found[p.name].value - p.value) > 2 * (p.stderr or 0.0) for p in fit.parameters
    ):
        return fit
    parameters = [
        p.model_copy(update={"value": found[p.name].value, "stderr": found[p.name].stderr})
        for p in fit.parameters
    ]
    return fit.model_copy(update={"parameters": parameters, "covariance": regression.covariance})


def _unit(term: Term, y_unit: str, by_key: dict) -> str:
    """The response's unit over the predictors' to their powers (`g/C`, `g/(C·bar)`,
    `s/m^2`); "" where a unit is unknown or the term is no monomial."""
    if term.powers is None or not y_unit:
        return ""
    bottom = []
    for key, power in term.powers:
        unit = by_key[key].unit
        if not unit:
            return ""
        bottom.append(unit if power == 1 else f"{unit}^{power}")
    if not bottom:
        return y_unit
    return f"{y_unit}/{bottom[0]}" if len(bottom) == 1 else f"{y_unit}/({'·'.join(bottom)})"


def _not_done(ask: Ask, table: Table, why: str) -> Regression:
    return Regression(task=ask.task, number=ask.number, table=table.summary.id, why_not=why)


def _p_value(value: float, stderr: float, dof: int) -> float | None:
    """The two-sided t-test's p-value of `value` against 0; None without residual freedom
    or a standard error (an exact fit)."""
    if dof <= 0 or not stderr > 0 or not math.isfinite(value / stderr):
        return None
    return float(2 * scipy.stats.t.sf(abs(value / stderr), dof))
