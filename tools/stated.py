"""Whether a value listed under a task states what the task asks for: a checklist row may say
that only checking and stating is left only when it is.

Conventions of handouts:
- the largest reading answers only a task that asks for the largest measured value. It does
  not answer "every maximum", "each maximum", "all maxima", "jedes Maximum", "chaque
  maximum", "每个极大值" (unless all local maxima are listed), nor a maximum a formula of
  fitted parameters defines ("the peak transmittance T_max = A/w"), nor a model's limit
  ("the ultimate BOD L0", "Endwert", "asymptotic value");
- "use the model to predict ...", "from your model", "mit Ihrem Modell": the value of the
  model an earlier task asked for, never that of a straight line fitted for the estimate;
- a fitted parameter is stated with its unit: one printed without a unit, where a column of
  its fit has none and the other has one, is in units the report cannot name.
"""

from __future__ import annotations

import re

from labscribe.tools.fit_result import Fit
from labscribe.tools.requested import FIT_CUE, requested_model

EVERY_EXTREME = re.compile(
    r"\b(?:every|each|all(?: the| of the)?) (?:local |relative |successive )?"
    r"(?:maxim|minim|peak|extrem)\w*|"
    r"\bjede[sn]? (?:lokale[ns]? )?(?:maximum|minimum|extremum|peak)|"
    r"\balle (?:maxima|minima|peaks)|"
    r"\bchaque (?:maximum|minimum|pic)|\btous les (?:maxima|minima|pics)|"
    r"\bcada (?:máximo|mínimo|pico)|\btodos los (?:máximos|mínimos|picos)|"
    r"(?:每个|各个?|所有)(?:极大值?|极小值?|峰)",
    re.IGNORECASE,
)
# A maximum a formula defines ("T_max = A/w"), or one read from a fit or a model's limit;
# `q` is the quantity in the task's words.
MODEL_EXTREME = re.compile(
    r"\b(?P<q>\w*(?:max|min|peak)\w*)\s*=\s*\S|"
    r"\b(?P<f>(?:maximum|minimum|peak) \w+ (?:of|from) the fit(?:ted)? (?:curve|model|line))|"
    r"(?P<l>\b(?:ultimate|asymptotic|limiting|final) (?:value|\w+)(?: [A-Za-z]\w{0,3}\b)?|"
    r"\bend(?:wert)\b|\bgrenzwert|\bsättigungswert|\bvaleur limite|\bvalor límite|极限值|渐近值)",
    re.IGNORECASE,
)


MODEL_REFERENCE = re.compile(
    r"\b(?:use|using|from|with|by) (?:the|your|this|that) (?:fitted |same |above )?"
    r"(?:model|curve|fit|formula|equation)\b|\bmit (?:Ihrem|dem|diesem) (?:angepassten )?Modell|"
    r"\b(?:avec|à l'aide de|d'après) (?:votre|le|ce) modèle|\b(?:con|según) (?:su|el|este) modelo|"
    r"用(?:该|此|所得)?(?:模型|拟合)",
    re.IGNORECASE,
)
STRAIGHT_MODELS = frozenset({"linear", "proportional"})
# A formula a task writes: a name, "=", and its right side up to the next clause.
_WRITTEN = re.compile(
    r"\b[^\W\d]\w*(?:\(\w+\))?\s*=\s*(?P<right>[^,;:.]+?)"
    r"(?=\s+(?:to|for|and|with|by)\s|[,;:]|\.\s|\.?$)"
)
_CURVED = re.compile(r"exp|e\^|\^|\*\*|\bln|\blog|sqrt|√|[²³⁴⁵]")


def model_not_line(task: str, earlier: list[str]) -> str:
    """The model the task refers to as "the model" where it is no straight line (a point
    estimate's line is not it): the last model the `earlier` tasks ask for, as written; ""
    where the task refers to no model or that model is a straight line."""
    if not MODEL_REFERENCE.search(task):
        return ""
    for text in reversed(earlier):
        if not FIT_CUE.search(text):
            continue
        written = _WRITTEN.search(text)  # as written, where the notation reader stops short
        if written is not None and _CURVED.search(written["right"]):
            return written.group().strip()
        request = requested_model(text)
        if request is not None:
            curved = request.shape and request.shape not in STRAIGHT_MODELS
            return (request.formula or request.shape or "") if curved else ""
    return ""


def extreme_unanswered(task: str) -> str:
    """What the task asks that the largest (or smallest) reading does not give, in its words
    ("every maximum"); "" when the reading may answer it."""
    if found := EVERY_EXTREME.search(task):
        return found.group()
    if found := MODEL_EXTREME.search(task):
        return found["q"] or found["f"] or f"the {found['l']}"
    return ""


def unit_unknown(fit: Fit) -> list[str]:
    """The fit's parameters shown without a unit where their units are not stated: one of its
    columns has a unit and the other none (the analysis took the bare column in SI units), or
    a formula's parameters all go without one while its columns have units (a formula's
    amplitude has the response's unit: none at all means the units were not worked out)."""
    bare = [p.name for p in fit.shown_parameters() if not p.unit]
    if bool(fit.x_unit) != bool(fit.y_unit):
        return bare
    fitted = [p for p in fit.parameters if not p.derived]
    if fit.variable and fit.y_unit and fitted and all(not p.unit for p in fitted):
        return bare
    return []
