"""Whether a task asks for a regression on several predictors, read from its words alone:
"Fit the yield as a linear function of both the temperature and the pressure", "regress y
on a, b and c", "how the yield depends on A and B", "in terms of x1 and x2", "multiple
lineare Regression ... in Abhängigkeit von A und B", "以温度和压力为自变量 ... 多元线性回归", or a
formula it writes out (`y = b0 + b1*x1 + b2*x2`).

This module reads text only: which columns the words and symbols name is decided against a
table by tools.fits.regression_roles.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from labscribe.tools.assignment.requested import requested_model
from labscribe.tools.formulas.formula_notation import formula_in

MULTIPLE = re.compile(
    r"multiple\s+(?:linear\s+)?regression|multiple\s+lineare?n?\s+regression|"
    r"multivariate?\s+(?:linear\s+)?regression|multilinear\w*\s+regression|"
    r"mehrfach\w*\s+(?:lineare?n?\s+)?regression|多元(?:线性)?回归",
    re.IGNORECASE,
)
FIT_CUE = re.compile(r"\bfit|regress|least[- ]squares|\bmodel|拟合|回归|anpass|fitten|ausgleich",
                     re.IGNORECASE)  # fmt: skip
# A character of the same clause: a full stop inside a name (R's `stack.loss`) is none's end.
_IN_CLAUSE = r"(?:[^.;:()]|\.(?=\w))"
# The words after which a task lists its predictors: some ask for the dependence itself
# ("regress y on", "depends on", "in terms of"); the others ("as a function of", "against")
# name a regression only where the task also asks for a fit or says "linear" (a plot
# against two variables is a plot).
_STRONG = (
    r"depend(?:s|ing|ence|ency|ent)?\s+(?:\w+\s+){0,3}?(?:up)?on|in\s+terms\s+of",
    rf"regress(?:es|ed|ing|ion)?\b{_IN_CLAUSE}{{0,80}}?\bon|predict\w*\b{_IN_CLAUSE}{{0,60}}?\bfrom",
    r"(?:explanatory|independent|predictor|regressor)\s+variables?(?:\s+are)?",
    r"in\s+abhängigkeit\s+von|abhängigkeit\s+(?:\w+\s+){0,3}?von",
)
_WEAK = (
    r"as\s+(?:an?\s+)?(?:linear\s+|multilinear\s+)?functions?\s+of",
    r"(?:als\s+)?(?:lineare\s+)?funktion\s+von|against|versus|vs\.?",
)
STRONG_CUE = re.compile(r"\b(?:" + "|".join(_STRONG) + r")\s+", re.IGNORECASE)
WEAK_CUE = re.compile(r"\b(?:" + "|".join(_WEAK) + r")\s+", re.IGNORECASE)
LINEAR = re.compile(r"\blinear|\blineare?[nrs]?\b|线性", re.IGNORECASE)
# "with x1, x2 and x4 as explanatory variables": the list before the words that name it.
AS_PREDICTORS = re.compile(
    rf"\b(?:with|using|taking|mit)\s+(?P<list>{_IN_CLAUSE}+?)\s+(?:as|als)\s+(?:the\s+|die\s+)?"
    r"(?:explanatory|independent|predictor|regressor|unabhängigen?)\s*(?:variables?|variablen)?"
    rf"|\b(?:with|using)\s+(?P<short>{_IN_CLAUSE}+?)\s+as\s+(?:the\s+)?(?:predictors|regressors)",
    re.IGNORECASE,
)
# Chinese handouts name the roles: 以温度和压力为自变量, 产率为因变量; 产率与温度、压力的关系.
ZH_PREDICTORS = re.compile(r"以?([^，。,;；：:]+?)为自变量")
ZH_RESPONSE = re.compile(r"(?:以|对)?([^，。,;；：:、]+?)为因变量")
ZH_RELATION = re.compile(r"([^，。,;；：:]+?)[与和]([^，。,;；：:]+?)的(?:线性)?关系")
ZH_ON = re.compile(r"([^，。,;；：:]+?)对([^，。,;；：:]+?)的(?:多元)?(?:线性)?回归")
# Where a list of predictors ends: a clause's punctuation, or a word that starts a clause.
_LIST_END = re.compile(
    r"\.(?!\w)|[;:!?()\[\]\n]|,\s*(?:and\s+|und\s+)?(?:then|which|where|so|dann|wobei)\b|"
    r"\s(?:using|with|by|for|from|to|in\s+order|mit|durch|unter)\s",
    re.IGNORECASE,
)
_SPLIT = re.compile(r",\s*(?:and|und|&)?\s*|\s+(?:and|und|&|as\s+well\s+as|sowie)\s+|[、，和与及]")
_LEADING = re.compile(
    r"^(?:(?:both|the|a|an|all|each|of|beide[ns]?|sowohl|der|die|das|den|dem|des|von)\s+)+",
    re.IGNORECASE,
)
# A part of a list that starts with one of these is a new clause, not a predictor.
VERBS = frozenset({
    "fit", "plot", "determine", "calculate", "compute", "find", "give", "state", "compare",
    "discuss", "explain", "estimate", "show", "draw", "report", "use", "obtain", "check",
    "verify", "test", "evaluate", "derive", "write", "bestimmen", "berechnen", "zeichnen",
    "diskutieren", "vergleichen", "ermitteln", "bestimme", "berechne",
})  # fmt: skip
# Words that stand for every column but the response ("on all other variables").
ALL_OTHERS = re.compile(
    r"\b(?:predictors|regressors|variables|columns|others|remaining|explanatory|covariates|"
    r"übrigen|anderen|variablen|größen|spalten)\b|所有|其余|其他",
    re.IGNORECASE,
)
NO_INTERCEPT = re.compile(
    r"through\s+the\s+origin|without\s+(?:an?\s+)?(?:intercept|constant)|no\s+intercept|"
    r"zero\s+intercept|ohne\s+(?:achsenabschnitt|konstante)|durch\s+den\s+ursprung|过原点|无截距",
    re.IGNORECASE,
)
LINEAR_SHAPES = frozenset({"linear", "proportional"})  # a plane's one-predictor cuts
MAX_NAME_WORDS = 5  # a longer part of a list that names no column is prose, not a name


@dataclass(frozen=True)
class Ask:
    """What one task asks of a regression, in its own words."""

    task: str
    number: int
    """The task's place in the checklist, from 1."""
    formula: str | None = None
    """A formula the task writes out, as written; tools.fits.regression_roles decides whether it
    is linear in its parameters with several columns as variables."""
    response: str = ""
    """The text before the list of predictors, where the response is named."""
    predictors: tuple[str, ...] = ()
    """The phrases that name the predictors, in order."""
    all_others: bool = False
    """The task regresses on every column but the response ("on all other variables")."""
    multiple: bool = False
    """The task says "multiple regression" (or its German or Chinese name)."""
    intercept: bool = True


def regression_ask(task: str, number: int = 1) -> Ask | None:
    """What `task` asks of a regression on several predictors, when its words or its formula
    may ask for one; None when they cannot."""
    intercept = NO_INTERCEPT.search(task) is None
    multiple = MULTIPLE.search(task) is not None
    formula = formula_in(task)
    base = Ask(task=task, number=number, formula=formula, multiple=multiple, intercept=intercept)
    if not multiple and _other_model(task):
        return base if formula is not None else None  # its own formula may still be linear
    chinese = _chinese(base)
    if chinese is not None:
        return chinese
    listed = AS_PREDICTORS.search(task)
    if listed is not None:
        names, _ = predictor_phrases(listed["list"] or listed["short"])
        if len(names) >= 2:
            return _with(base, response=task[: listed.start()], predictors=names)
    cue = STRONG_CUE.search(task)
    if cue is None and (multiple or FIT_CUE.search(task) or LINEAR.search(task)):
        cue = WEAK_CUE.search(task)
    if cue is not None:
        names, others = predictor_phrases(task[cue.end() :])
        if len(names) >= 2 or others or multiple:
            return _with(base, response=task[: cue.end()], predictors=names, all_others=others)
    if formula is not None or multiple:
        return base
    return None


def predictor_phrases(text: str) -> tuple[tuple[str, ...], bool]:
    """The phrases of the list of predictors `text` starts with, and whether it says "all
    the other variables" instead: the list ends where a clause does, or at a part that
    starts with a verb or runs longer than a name."""
    end = _LIST_END.search(text)
    listed = text[: end.start()] if end else text
    names: list[str] = []
    for part in _SPLIT.split(listed):
        phrase = _LEADING.sub("", part.strip()).strip()
        if not phrase:
            continue
        first = phrase.split()[0].lower()
        if first in VERBS or len(phrase.split()) > MAX_NAME_WORDS or _cued(phrase):
            break
        names.append(phrase)
    others = len(names) <= 1 and any(ALL_OTHERS.search(name) for name in names)
    return (() if others else tuple(names)), others


def _other_model(task: str) -> bool:
    """Whether the task asks for a model of its own that is no plane: a formula it writes
    out, or a curve it names ("the dependence of T on L and m: fit a power law")."""
    request = requested_model(task)
    return request is not None and (
        request.formula is not None or request.shape not in LINEAR_SHAPES
    )


def _cued(phrase: str) -> bool:
    """Whether a part of a list starts another relation ("the phase as a function of f")."""
    return bool(STRONG_CUE.search(phrase + " ") or WEAK_CUE.search(phrase + " "))


def _chinese(base: Ask) -> Ask | None:
    """The roles a Chinese task names: 以A和B为自变量 (predictors), C为因变量 (response), or
    C对A、B的回归 and C与A、B的关系 (the response first)."""
    task = base.task
    predictors = ZH_PREDICTORS.search(task)
    if predictors is not None:
        response = ZH_RESPONSE.search(task)
        names = tuple(p.strip() for p in _SPLIT.split(predictors[1]) if p.strip())
        return _with(base, response=response[1] if response else "", predictors=names)
    for pattern in (ZH_ON, ZH_RELATION):
        relation = pattern.search(task)
        if relation is not None and (base.multiple or FIT_CUE.search(task)):
            names = tuple(p.strip() for p in _SPLIT.split(relation[2]) if p.strip())
            if len(names) >= 2:
                return _with(base, response=relation[1], predictors=names)
    return None


def _with(base: Ask, **fields: object) -> Ask:
    return Ask(**{**base.__dict__, **fields})  # type: ignore[arg-type]
