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
- a model's limit the task names by its symbol ("the ultimate BOD L0") is stated where the
  model the task asks for is fitted and lists L0: then the largest reading is no answer, and
  the row must not call L0 missing beside its value;
- a value worked out "from the nominal coil data", "from the stated values", "aus den
  Nennwerten", "à partir des valeurs nominales", "a partir de los datos nominales", "由标称值"
  (not "compare your R with the nominal value", which a fitted R serves) starts from the
  parameter files' values: a fitted value of the same symbol (the fitted R of the coil) is
  no way to it, and only a fitted value the task calls so ("your fitted Bmax") bears on it;
- a fitted parameter is stated with its unit: one printed without a unit, where a column of
  its fit has none and the other has one, is in units the report cannot name.
"""

from __future__ import annotations

import re

import sympy

from labscribe.tools.assignment.requested import FIT_CUE, requested_model
from labscribe.tools.assignment.role_phrases import is_symbol
from labscribe.tools.fits.fit_result import Fit
from labscribe.tools.formulas.axis_expressions import expression_of

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


# The words after a quantity's first words, up to the next clause: "oxygen demand L" of
# "the ultimate carbonaceous oxygen demand L and the rate constant k".
_AFTER = re.compile(r"^(?P<w>(?:\s+(?!and\b|und\b|et\b|with\b|mit\b|from\b)[^\s,;:.()]+){0,4})")


def extreme_stated(unanswered: str, values: list[str], task: str = "") -> bool:
    """Whether a value listed is the quantity `unanswered` names by its symbol ("the ultimate
    BOD L0" where `L0 = 19.1 ± 2.5 mg/L` is listed); the symbol may follow the words the
    phrase caught ("the ultimate carbonaceous oxygen demand L")."""
    if EVERY_EXTREME.search(unanswered):
        return False  # every maximum is a list: one value named like it is not all of them
    words = unanswered.split()
    start = task.find(unanswered.removeprefix("the ")) if task else -1
    if start >= 0:
        rest = task[start + len(unanswered.removeprefix("the ")) :]
        words += _AFTER.match(rest)["w"].split()  # type: ignore[index]
    symbols = [word for word in words if is_symbol(word)]
    return any(
        re.search(rf"(?<![\w]){re.escape(symbol)}\s*=", value)
        for symbol in symbols
        for value in values
    )


# "from the nominal ...": a value worked out from them; "compare with the nominal value" is
# a comparison with a stated value, which a fitted value serves.
NOMINAL = re.compile(
    r"\b(?:from|using|based on) (?:the )?(?:nominal|stated|specified|manufacturer'?s?|rated|"
    r"data[- ]sheet)\b|\b(?:aus|mit) den (?:Nenn|Hersteller)\w*|"
    r"\bà partir des valeurs nominales|\ba partir de los (?:datos|valores) nominales|"
    r"\bdai (?:dati|valori) nominali|\ba partir dos (?:dados|valores) nominais|"
    # the value a setup's geometry predicts: "il valore atteso di k a partire dai parametri
    # geometrici", "from the geometry", "aus den geometrischen Größen"
    r"\bfrom (?:the )?(?:geometry|geometric\w*|dimensions)\b|\bexpected value of\b|"
    r"\ba partire da\w* (?:parametri|dati|valori) (?:geometrici|nominali)|\bvalore atteso|"
    r"\bà partir des (?:paramètres|grandeurs) géométriques|\bvaleur attendue|"
    r"\baus den geometrischen|\berwartete[nrs]? Wert|\bvalor esperado|"
    r"(?:由|根据|用)(?:标称|额定)",
    re.IGNORECASE,
)
_FITTED_NAME = re.compile(
    r"\b(?:your\s+)?(?:fitted|measured|angepasste[nmr]?|gemessene[nmr]?|ajusté|mesuré|"
    r"ajustado|medido)\s+(?:value (?:of )?)?(?P<s>[^\W\d]\w{0,6})",
    re.IGNORECASE,
)


def from_nominal(task: str) -> bool:
    """Whether the task works a value out from the nominal (stated, data-sheet) values; a
    German "vergleichen Sie mit den Nennwerten" compares with them."""
    return any(
        not (found[0].lower().startswith("mit") and _COMPARE.search(task[: found.start()]))
        for found in NOMINAL.finditer(task)
    )


_COMPARE = re.compile(r"vergleich\w*(?:(?![.;]).)*$", re.IGNORECASE)


def fitted_named(task: str) -> frozenset[str]:
    """The symbols the task calls fitted or measured values ("your fitted Bmax")."""
    return frozenset(m["s"] for m in _FITTED_NAME.finditer(task) if _symbolic(m["s"]))


def _symbolic(token: str) -> bool:
    """A symbol, or a name written like one (`Bmax`, `f_res`), not a word (`value`)."""
    return is_symbol(token) or re.search(r"[A-Z\d_]", token) is not None


def unit_unknown(fit: Fit) -> list[str]:
    """The fit's parameters shown without a unit where their units are not stated: one of its
    columns has a unit and the other none (the analysis took the bare column in SI units), or
    a formula's parameters all go without one while its columns have units (a formula's
    amplitude has the response's unit: none at all means the units were not worked out)."""
    bare = [p.name for p in fit.shown_parameters() if not p.unit]
    if fit.straightened or _logarithm(fit.y):
        # the line of ln y: slope in 1/x's unit, intercept a pure number
        return [] if fit.x_unit else bare
    if bool(fit.x_unit) != bool(fit.y_unit):
        return bare
    fitted = [p for p in fit.parameters if not p.derived]
    if fit.variable and fit.y_unit and fitted and all(not p.unit for p in fitted):
        return bare
    return []


def _logarithm(name: str) -> bool:
    """Whether the column `name` is a logarithm (`ln A`, `log(p)`), a pure number whatever
    the unit of what it is the logarithm of."""
    if _LOGARITHM_NAME.match(name):  # `ln V_C1||C2` names a run no formula parses
        return True
    expression = expression_of(name)
    return expression is not None and expression.func is sympy.log


_LOGARITHM_NAME = re.compile(r"^(?:ln|log|lg|log10)(?:\s+|\s*\()\S")
