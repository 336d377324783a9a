"""The value a fitted straight line, quadratic or cubic gives at a point a task names
("Estimate the mean depression for a roller of 8 t, with a 95 % confidence interval";
"predict y at x = 2.5 with a prediction interval"; "la deflessione attesa per un carico
x = 1 500 000"): the curve's value there with its standard error, and the interval the task
asks for, from statsmodels' OLS of the polynomial (`get_prediction`): the confidence interval
of the mean by default, the prediction interval of one new measurement where the task says
so. The model the task names ("the quadratic calibration curve") is used first.

Only a curve fitted to all the points of its table is used (a fit to a window of the data
would need that window); a task whose point names no fitted curve's variable (by its unit or
its name) gets nothing here.
"""

from __future__ import annotations

import math
import re

import numpy as np

from labscribe.tools.analysis.data_facts import words_of
from labscribe.tools.assignment.requested import requested_model
from labscribe.tools.columns.units import canonical
from labscribe.tools.fits.extremes import Extreme
from labscribe.tools.fits.fit_result import Fit
from labscribe.tools.formats.tables import Table

CONFIDENCE = 0.95
ASKS_ESTIMATE = re.compile(
    r"\b(?:estimat|predict(?!or)|expect|extrapol|interpol|attes[ao]\b|previst|predich|prédi"
    r"|stimat)\w*|vorhersag|schätz|预测|估计",
    re.IGNORECASE,
)
PREDICTION_INTERVAL = re.compile(
    r"prediction interval|prognoseintervall|预测区间|(?:a|one) (?:single |new )(?:measurement|"
    r"observation|value)",
    re.IGNORECASE,
)
# a number, its thousands grouped by blanks as handouts print them ("1 500 000")
_NUM = r"[-+]?(?:\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?![\d.])|\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?"
_UNIT = r"[^\W\d_][^\s,;:()]*"
# "for a roller of 8 t", "at 8 t", "at x = 2.5", "for a weight of 8 tonnes"
_POINT = re.compile(
    rf"\b(?:for|at|bei|für|per|pour|para|à)\s+(?:an?\s+|the\s+|einer?\s+|une?\s+|una?\s+)?"
    rf"(?:(?P<words>(?:[^\W\d]+\s+){{0,3}}?)(?:of|with|von|mit|de|di)\s+"
    # "per un carico x = 1 500 000": the words name the symbol that follows
    rf"|(?P<naming>(?:[^\W\d]+\s+){{1,3}}?)(?=[A-Za-z]\w*\s*=))?"
    rf"(?:(?P<symbol>[A-Za-z]\w*)\s*=\s*)?(?P<value>{_NUM})\s*(?P<unit>{_UNIT})?",
    re.IGNORECASE,
)
# The standard models a value at a point is read off, as polynomials of their degree.
DEGREES = {"linear": 1, "quadratic": 2, "cubic": 3}
CURVES = {1: "straight line", 2: "quadratic", 3: "cubic"}
_SPELLED = {"tonne": "t", "tonnes": "t", "tons": "t", "ton": "t"}


def point_estimates(tasks: list[str], tables: list[Table], fits: list[Fit]) -> list[Extreme]:
    """For each task that asks for an estimate at a point, the good straight line (fitted
    to all its table's points) whose variable the point names, and its value there."""
    found: list[Extreme] = []
    for task in tasks:
        if ASKS_ESTIMATE.search(task) is None:
            continue
        points = list(_POINT.finditer(task))
        if len(points) != 1:  # several points ("x1 = 60 and x2 = 20") are a regression's
            continue
        estimate = _estimate(task, points[0], tables, fits)
        if estimate is not None:
            found.append(estimate)
    return found


def _estimate(
    task: str, point: re.Match[str], tables: list[Table], fits: list[Fit]
) -> Extreme | None:
    unit = (point["unit"] or "").rstrip(".")
    unit = _SPELLED.get(unit.lower(), unit)
    unit = unit if canonical(unit) or unit in _SPELLED.values() else ""  # "… 500 con la sua"
    words = (point["words"], point["naming"], point["symbol"])
    named = words_of(" ".join(filter(None, words))) | {point["symbol"] or ""}
    lines = [
        fit for fit in fits
        if fit.good and fit.model in DEGREES and fit.fitted_points == fit.points
        and (_same_unit(unit, fit.x_unit) or _unit_in_name(unit, fit.x)
             or (not unit and named & words_of(fit.x)))
    ]  # fmt: skip
    asked = words_of(task)
    # "using the quadratic calibration curve": the model the task names first
    request = requested_model(task)
    named_model = request.shape if request is not None else None
    lines.sort(key=lambda fit: (fit.model != named_model, not words_of(fit.y) & asked,
                                not fit.requested))  # fmt: skip
    for fit in lines:
        table = next((t for t in tables if t.summary.id == fit.table), None)
        if table is None:
            continue
        estimate = _at(fit, table, float(re.sub(r"\s", "", point["value"])), unit, task)
        if estimate is not None:
            return estimate
    return None


def _unit_in_name(stated: str, name: str) -> bool:
    """Whether a column's name carries the unit in brackets (`weight (t)`)."""
    return bool(stated) and re.search(rf"[(\[]\s*{re.escape(stated)}\s*[)\]]", name) is not None


def _same_unit(stated: str, column: str) -> bool:
    return bool(stated) and (canonical(stated) or stated) == (canonical(column) or column)


def _at(fit: Fit, table: Table, at: float, unit: str, task: str) -> Extreme | None:
    columns = {c.name: c for c in table.summary.columns}
    if fit.x not in columns or fit.y not in columns:
        return None
    frame = table.frame[[columns[fit.x].key, columns[fit.y].key]].dropna()
    x, y = frame.iloc[:, 0].to_numpy(dtype=float), frame.iloc[:, 1].to_numpy(dtype=float)
    if np.ptp(x) == 0:
        return None
    degree = DEGREES[fit.model or ""]
    if len(x) < degree + 2:
        return None
    # statsmodels costs a second to import: only a task that asks for a point pays it
    from statsmodels.regression.linear_model import OLS

    try:
        model = OLS(y, np.vander(x, degree + 1, increasing=True)).fit()
        point = np.vander(np.array([at]), degree + 1, increasing=True)
        row = model.get_prediction(point).summary_frame(alpha=1 - CONFIDENCE)
    except (ValueError, np.linalg.LinAlgError):
        return None
    mean, error = float(row["mean"].iloc[0]), float(row["mean_se"].iloc[0])
    single = PREDICTION_INTERVAL.search(task) is not None
    low, high = (
        (row["obs_ci_lower"], row["obs_ci_upper"])
        if single
        else (row["mean_ci_lower"], row["mean_ci_upper"])
    )
    y_unit = f" {fit.y_unit}" if fit.y_unit else ""
    stated = f"{at:g} {unit or fit.x_unit}".strip()
    what = "prediction interval for one new measurement" if single else (
        "confidence interval for the mean")  # fmt: skip
    # as many digits as tell the interval's ends apart (a calibration's 1.09165 ± 0.00005)
    digits = max(4, math.ceil(math.log10(abs(mean) / error)) + 2) if error > 0 and mean else 4
    given = (
        f"estimated {fit.y_label} at {fit.x_label} = {stated}: {mean:.{digits}g}{y_unit} "
        f"(standard error of the curve there {error:.2g}{y_unit}); {CONFIDENCE * 100:.0f} % {what} "
        f"{float(low.iloc[0]):.{digits}g} to {float(high.iloc[0]):.{digits}g}{y_unit} "
        f"(Student's t, {int(model.df_resid)} degrees of freedom; the {CURVES[degree]} fitted "
        f"to {fit.y_label} against {fit.x_label}, {fit.table})"
    )
    return Extreme(task=task, kind="estimate", given=given, value=mean, unit=fit.y_unit,
                   name=fit.y, table=fit.table)  # fmt: skip
