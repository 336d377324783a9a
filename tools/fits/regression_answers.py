"""What a later task asks of the regression an earlier task asked for, answered from it: its
R², adjusted R² and residual standard deviation; which predictors contribute significantly
at the level the task names; the response predicted where the task sets every predictor,
with the prediction interval of a new observation and the confidence interval of the mean;
and the observation with the largest residual.

A significance is each coefficient's two-sided t-test against 0 with the residuals' degrees
of freedom; a prediction at x₀ is ŷ = x₀·b with var(ŷ) = x₀ᵀ C x₀ from the coefficients'
covariance C, and a new observation adds the residual variance s² to it, each interval from
Student's t (as statsmodels' `get_prediction` gives them).
"""

from __future__ import annotations

import math
import re

import scipy.stats

from labscribe.tools.fits.fit_quantities import RESIDUAL_SD
from labscribe.tools.fits.regression import Regression
from labscribe.tools.fits.regression_text import listed, on_what

# A later task that asks how well the regression fits.
QUALITY_WORDS = re.compile(
    r"\bR\s*²|\bR\s*\^\s*2|\b(?:the|its|an?) R2\b(?! *[-+=/])|\bR2(?= (?:value|of the))|"
    r"residual standard deviation|standard deviation of the residuals"
    r"|residual sd|standardabweichung der residuen|残差标准差",
    re.IGNORECASE,
)
SIGNIFICANCE = re.compile(r"significan|signifikan|significati|significativ|显著", re.IGNORECASE)
# "(5 % level)", "at the 1% significance level", "α = 0.05", "Niveau von 5 %".
_LEVEL = re.compile(r"(\d+(?:[.,]\d+)?)\s*%|α\s*=\s*(0[.,]\d+)")
DEFAULT_LEVEL = 0.05
LARGEST_RESIDUAL = re.compile(
    r"(?:largest|biggest|greatest|maximum) (?:\w+ )?residual|größte[nrs]? residu|"
    r"plus grand résidu|residuo (?:più grande|maggiore|mayor)|mayor residuo|outlier|"
    r"ausreißer|valeur aberrante|anomal|最大残差|离群",
    re.IGNORECASE,
)
PREDICTION_INTERVAL = re.compile(
    r"prediction interval|prognoseintervall|vorhersageintervall|intervalle de prédiction|"
    r"intervallo di previsione|intervalo de predicci[oó]n|预测区间",
    re.IGNORECASE,
)
_NUMBER = r"([-−]?\d+(?:[.,]\d+)?(?:[eE][-+]?\d+)?)"
DEFAULT_CONFIDENCE = 95.0
PREDICTED = "predicted"
"""How a prediction's line begins: the task's prediction is then done."""
# A task that asks for the response at a point it sets ("predict the stack loss for").
PREDICT = re.compile(
    r"\b(?:predict(?!or)|estimat|extrapol|interpol|vorhersag|schätz|prédi|prevedi|previs|predec|"
    r"predig)\w*|预测|估计",
    re.IGNORECASE,
)


def regression_answers(task: str, number: int, regressions: list[Regression]) -> list[str]:
    """What the last regression done before task `number` gives towards it; [] when the task
    asks none of this of it."""
    done = [r for r in regressions if r.number < number and r.done]
    if not done:
        return []
    regression = done[-1]
    return [
        *_quality(task, regression),
        *_significance(task, regression),
        *_prediction(task, regression),
        *_largest_residual(task, regression),
    ]


def _quality(task: str, regression: Regression) -> list[str]:
    if not (QUALITY_WORDS.search(task) or RESIDUAL_SD.search(task)):
        return []
    if regression.r_squared is None:
        return []
    unit = f" {regression.response_unit}" if regression.response_unit else ""
    spread = (f", residual standard deviation {regression.residual_sd:.4g}{unit}"
              if regression.residual_sd is not None else "")  # fmt: skip
    adjusted = (f", adjusted R² = {regression.adjusted_r_squared:.4f}"
                if regression.adjusted_r_squared is not None else "")  # fmt: skip
    return [f"multiple linear regression of {on_what(regression)} ({regression.table}): "
            f"R² = {regression.r_squared:.4f}{adjusted}{spread}"]  # fmt: skip


def _level(task: str) -> float:
    """The significance level the task names, as a fraction; 5 % where it names none."""
    for found in _LEVEL.finditer(task):
        percent, fraction = found.groups()
        value = float((percent or fraction).replace(",", "."))
        value = value / 100 if percent else value
        if 0 < value <= 0.2:
            return value
    return DEFAULT_LEVEL


def _significance(task: str, regression: Regression) -> list[str]:
    if not SIGNIFICANCE.search(task):
        return []
    tested = [c for c in regression.coefficients if c.term != "1" and c.p_value is not None]
    if not tested:
        return []
    level = _level(task)
    weak = [f"{c.name} (p = {c.p_value:.2g})" for c in tested if c.p_value >= level]
    strong = [f"{c.name} (p = {c.p_value:.2g})" for c in tested if c.p_value < level]
    parts = []
    if weak:
        verb = "does" if len(weak) == 1 else "do"
        parts.append(f"{listed(weak)} {verb} not contribute significantly")
    if strong:
        parts.append(f"{listed(strong)} {'does' if len(strong) == 1 else 'do'}")
    return [f"at the {level * 100:g} % level (each coefficient's two-sided t-test against 0, "
            f"{regression.dof} degrees of freedom, regression of task {regression.number}): "
            f"{'; '.join(parts)}"]  # fmt: skip


def _setting(task: str, name: str) -> float | None:
    """The value the task sets `name` to: "Air.Flow = 60", "Water.Temp of 20 degC"."""
    found = re.search(rf"(?<![\w.]){re.escape(name)}\s*(?:=|:|of|bei|von|de)\s*{_NUMBER}", task)
    if found is None:
        return None
    return float(found.group(1).replace("−", "-").replace(",", "."))


def _confidence(task: str) -> float:
    found = re.search(r"(\d+(?:[.,]\d+)?)\s*%", task)
    value = float(found.group(1).replace(",", ".")) if found else DEFAULT_CONFIDENCE
    return value if 50 <= value < 100 else DEFAULT_CONFIDENCE


def _prediction(task: str, regression: Regression) -> list[str]:
    if not PREDICT.search(task) or regression.covariance is None or regression.dof <= 0:
        return []
    settings = {name: _setting(task, name) for name in regression.predictors}
    terms = {c.term for c in regression.coefficients}
    # only a model of the predictors themselves (and a constant) is evaluated at a point
    if None in settings.values() or not terms <= {"1", *regression.predictors}:
        return []
    point = {c.name: 1.0 if c.term == "1" else settings[c.term] for c in regression.coefficients}
    value = sum(c.value * point[c.name] for c in regression.coefficients)
    variance = sum(point[a] * point[b] * regression.covariance[a][b]
                   for a in point for b in point)  # fmt: skip
    level = _confidence(task)
    t = float(scipy.stats.t.ppf(0.5 + level / 200, regression.dof))
    mean_half = t * math.sqrt(max(variance, 0.0))
    at = ", ".join(f"{name} = {settings[name]:g}" for name in regression.predictors)
    unit = f" {regression.response_unit}" if regression.response_unit else ""
    text = (f"{PREDICTED} {regression.response} at {at} (regression of task {regression.number}): "
            f"{value:.4g}{unit}")  # fmt: skip
    confidence = (
        f"{level:g} % confidence interval of the mean {value - mean_half:.4g} to "
        f"{value + mean_half:.4g}"
    )
    if regression.residual_sd is None:  # weighted: a new observation's σ is not one number
        return [f"{text}; {confidence} (t with {regression.dof} degrees of freedom)"]
    new_half = t * math.sqrt(max(variance, 0.0) + regression.residual_sd**2)
    prediction = (f"{level:g} % prediction interval of a new observation "
                  f"{value - new_half:.4g} to {value + new_half:.4g}")  # fmt: skip
    first, second = ((prediction, confidence) if PREDICTION_INTERVAL.search(task)
                     or "confiden" not in task.lower() else (confidence, prediction))  # fmt: skip
    return [f"{text}; {first}; {second} (t with {regression.dof} degrees of freedom)"]


def _largest_residual(task: str, regression: Regression) -> list[str]:
    if not LARGEST_RESIDUAL.search(task) or regression.largest_residual is None:
        return []
    row, residual = regression.largest_residual
    unit = f" {regression.response_unit}" if regression.response_unit else ""
    sd = regression.residual_sd
    size = ""
    if sd:  # a weighted regression's residuals are in σ, not one spread
        size = f", {abs(residual) / sd:.2g} times the residual standard deviation {sd:.4g}"
    return [f"the largest residual of the regression of task {regression.number} is that of "
            f"data row {row}: {residual:.4g}{unit}{size}"]  # fmt: skip
